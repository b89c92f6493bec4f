import Foundation
import Signals

/// How a failed page is retried automatically: how many times, and how long to wait before each retry
/// (exponential backoff, capped, with jitter).
///
/// The delay before retry *n* (1 for the first retry after a failure) is
/// `min(initialDelay × multiplier^(n−1), maxDelay)`, then spread by up to `jitter` of itself either way
/// by a random draw, and never more than `maxDelay`: with a draw `u` in `0...1`, the delay is
/// `min(base × (1 + jitter × (2u − 1)), maxDelay)`. A value; `Sendable`.
public struct RetryPolicy: Equatable, Sendable {
    /// How many automatic retries a page gets after failing, counting consecutive failures of that page
    /// (a manual `loadNextPage()` that fails counts too); 0 disables automatic retry.
    public var maxRetries: Int
    /// The delay before the first retry, before jitter.
    public var initialDelay: Duration
    /// The factor by which each retry's delay grows (values below 1 count as 1).
    public var multiplier: Double
    /// The longest delay, jitter included.
    public var maxDelay: Duration
    /// The fraction of the delay by which a random draw spreads it either way, in `0...1` (values outside
    /// are clamped); 0 gives exact delays.
    public var jitter: Double

    /// A policy of `maxRetries` retries, the first after `initialDelay`, each later one `multiplier` times
    /// longer, at most `maxDelay`, spread by `jitter`.
    public init(
        maxRetries: Int = 3,
        initialDelay: Duration = .seconds(1),
        multiplier: Double = 2,
        maxDelay: Duration = .seconds(30),
        jitter: Double = 0.2
    ) {
        self.maxRetries = maxRetries
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maxDelay = maxDelay
        self.jitter = jitter
    }

    /// The delay before retry number `retry` (1-based) before jitter: `initialDelay × multiplier^(retry−1)`,
    /// at most `maxDelay`.
    public func baseDelay(beforeRetry retry: Int) -> Duration {
        .seconds(baseSeconds(beforeRetry: retry))
    }

    /// The delay before retry number `retry` (1-based), spread by `draw`, a random value in `0...1`
    /// (0 takes `jitter` off, 0.5 adds nothing, 1 adds `jitter`); never more than `maxDelay`.
    public func delay(beforeRetry retry: Int, draw: Double) -> Duration {
        let spread = min(max(jitter, 0), 1) * (2 * min(max(draw, 0), 1) - 1)
        let seconds = baseSeconds(beforeRetry: retry) * (1 + spread)
        return .seconds(min(max(seconds, 0), maxSeconds))
    }

    /// The delay before retry number `retry` (1-based), spread by a draw from `generator`.
    public func delay<G: RandomNumberGenerator>(beforeRetry retry: Int, using generator: inout G) -> Duration {
        delay(beforeRetry: retry, draw: Double.random(in: 0 ... 1, using: &generator))
    }

    private var maxSeconds: Double { max(maxDelay.timeInterval, 0) }

    private func baseSeconds(beforeRetry retry: Int) -> Double {
        let growth = pow(max(multiplier, 1), Double(max(retry, 1) - 1))
        let seconds = max(initialDelay.timeInterval, 0) * growth
        return seconds.isNaN ? maxSeconds : min(seconds, maxSeconds)
    }
}
