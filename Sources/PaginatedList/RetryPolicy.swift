import Foundation
import Signals

/// How a failed page is retried automatically: how many times, and how long to wait before each retry
/// (exponential backoff, capped, with jitter).
///
/// The delay before retry *n* (1 for the first retry after a failure) is
/// `min(initialDelay × multiplier^(n−1), maxDelay)`, then spread by up to `jitter` of itself either way
/// by a random draw, and never more than `maxDelay`: with a draw `u` in `0...1`, the delay is
/// `min(base × (1 + jitter × (2u − 1)), maxDelay)`.
///
/// The policy listens to the error: `decision(after:failures:draw:)` waits at least what a
/// `RetryAdvising` error asks for (a server's `Retry-After`, even beyond `maxDelay`), and does not retry an
/// error that says it cannot succeed unless `retriesEverything`. A value; `Sendable`.
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
    /// Whether failures that advise `.doNotRetry` (a `404`, a body that does not decode) are retried too
    /// (`false` by default). A wait the error asks for is respected either way.
    public var retriesEverything: Bool

    /// A policy of `maxRetries` retries, the first after `initialDelay`, each later one `multiplier` times
    /// longer, at most `maxDelay`, spread by `jitter`; failures that cannot succeed are retried only
    /// if `retriesEverything`.
    public init(
        maxRetries: Int = 3,
        initialDelay: Duration = .seconds(1),
        multiplier: Double = 2,
        maxDelay: Duration = .seconds(30),
        jitter: Double = 0.2,
        retriesEverything: Bool = false
    ) {
        self.retriesEverything = retriesEverything
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
    /// (0 takes `jitter` off, 0.5 adds nothing, 1 adds `jitter`); never more than `maxDelay`. A NaN
    /// `draw` or `jitter` spreads nothing.
    public func delay(beforeRetry retry: Int, draw: Double) -> Duration {
        let spread = min(max(jitter, 0), 1) * (2 * min(max(draw, 0), 1) - 1)
        let seconds = baseSeconds(beforeRetry: retry) * (1 + (spread.isNaN ? 0 : spread))
        // `Duration.seconds(_:)` traps on NaN and beyond some 1.7e20 s: `seconds` is neither (at most
        // `maxDelay`, itself a `Duration`).
        return .seconds(min(max(seconds, 0), maxSeconds))
    }

    /// The delay before retry number `retry` (1-based), spread by a draw from `generator`.
    public func delay<G: RandomNumberGenerator>(beforeRetry retry: Int, using generator: inout G) -> Duration {
        delay(beforeRetry: retry, draw: Double.random(in: 0 ... 1, using: &generator))
    }

    /// What to do after a page failed with `error` for the `failures`-th time in a row (1 after its first
    /// failure), with `draw` (a random value in `0...1`) spreading the backoff.
    ///
    /// - `.stop(.cannotSucceed)` if `error` advises `.doNotRetry` and the policy does not
    ///   `retriesEverything`;
    /// - `.stop(.retriesExhausted(failures:))` if `failures > maxRetries`;
    /// - else `.retry(after:)` the backoff `delay(beforeRetry: failures, draw: draw)`, or the error's
    ///   `.retryAfter` delay when that is longer.
    ///
    /// A pure function of its arguments: the same inputs give the same decision.
    public func decision(after error: any Error, failures: Int, draw: Double) -> RetryDecision {
        let advice = (error as? any RetryAdvising)?.retryAdvice ?? .retry
        if advice == .doNotRetry, !retriesEverything { return .stop(.cannotSucceed) }
        guard failures <= maxRetries else { return .stop(.retriesExhausted(failures: failures)) }
        let backoff = delay(beforeRetry: failures, draw: draw)
        if case let .retryAfter(wait) = advice, wait > backoff { return .retry(after: wait) }
        return .retry(after: backoff)
    }

    private var maxSeconds: Double { max(maxDelay.timeInterval, 0) }

    private func baseSeconds(beforeRetry retry: Int) -> Double {
        let growth = pow(max(multiplier, 1), Double(max(retry, 1) - 1))
        let seconds = max(initialDelay.timeInterval, 0) * growth
        return seconds.isNaN ? maxSeconds : min(seconds, maxSeconds)
    }
}
