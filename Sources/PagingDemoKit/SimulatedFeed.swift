import Foundation
import PaginatedList
import PaginatedListHTTP
import Signals

/// One row of the feed: simulated, or decoded from an HTTP endpoint (`{"id": 7, "title": "…"}`; a
/// missing title is made up from the id).
package struct Row: Equatable, Sendable, Identifiable, Decodable {
    /// The row's position in the simulated feed, from 1; the item's id in an HTTP feed.
    package let id: Int
    /// A made-up title, the same for the same `id` on every run; the item's title in an HTTP feed.
    package let title: String

    package init(id: Int) {
        self.init(id: id, title: Self.madeUpTitle(id))
    }

    package init(id: Int, title: String) {
        self.id = id
        self.title = title
    }

    private enum CodingKeys: String, CodingKey { case id, title }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(Int.self, forKey: .id)
        self.init(id: id, title: try container.decodeIfPresent(String.self, forKey: .title) ?? Self.madeUpTitle(id))
    }

    private static func madeUpTitle(_ id: Int) -> String {
        let adjectives = ["amber", "brisk", "calm", "dusky", "eager", "frosty", "gentle", "hollow", "ivory", "jolly"]
        let nouns = ["falcon", "harbor", "meadow", "lantern", "orchid", "canyon", "pebble", "willow", "comet", "thistle"]
        return "\(adjectives[id % adjectives.count]) \(nouns[(id / adjectives.count) % nouns.count])"
    }
}

/// Why a simulated page load failed.
package enum FeedError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The load failed at random (the feed's failure rate).
    case simulated(page: Int)
    /// The load failed because `SimulatedFeed.failNextLoad()` asked it to.
    case forced(page: Int)
    /// A request to the HTTP endpoint (`--url`) failed.
    case http(HTTPError)

    package var description: String {
        switch self {
        case let .simulated(page): "simulated network error loading page \(page)"
        case let .forced(page): "forced failure loading page \(page)"
        case let .http(error): error.description
        }
    }
}

/// An in-process paged feed of `itemCount` rows, `pageSize` a page, with latency and random failures.
///
/// Each page producer decides its outcome when it is started (so a retry of a failed page draws again),
/// from a seeded generator shared by the feed: the same seed and the same sequence of loads give the same
/// failures. With a latency, the page is sent from a background queue after the delay; when the run's
/// lifetime ends first (the view model was reset or released), the pending delivery is cancelled and the
/// run's observer released at once (the wake-up still happens, and does nothing). With no latency, the page is sent synchronously inside `start`.
package final class SimulatedFeed: PaginatedListDependency, Sendable {
    package typealias Item = Row
    package typealias Failure = FeedError

    package let itemCount: Int
    package let pageSize: Int
    package let latency: Duration
    package let failureRate: Double

    private struct State {
        var generator: SplitMix64
        var forcedFailures = 0
        var loadsStarted = 0
    }

    private let state: Locked<State>
    private let queue = DispatchQueue(label: "paging-demo.feed", qos: .userInitiated)

    package init(itemCount: Int, pageSize: Int, latency: Duration, failureRate: Double, seed: UInt64) {
        precondition(itemCount >= 0 && pageSize > 0, "SimulatedFeed needs itemCount >= 0 and pageSize > 0")
        self.itemCount = itemCount
        self.pageSize = pageSize
        self.latency = latency
        self.failureRate = min(max(failureRate, 0), 1)
        state = Locked(State(generator: SplitMix64(seed: seed)))
    }

    /// Makes the next page load that starts fail (with `FeedError.forced`), whatever the failure rate.
    package func failNextLoad() {
        state.withLock { $0.forcedFailures += 1 }
    }

    /// How many page loads have started since the feed was made (retries included).
    package var loadsStarted: Int {
        state.withLock { $0.loadsStarted }
    }

    package func firstPage() -> Producer<Page<Row, FeedError>, FeedError> {
        page(at: 0)
    }

    /// What crosses threads: the rows and where the next page starts. `Page` itself holds a producer,
    /// which is not `Sendable`, so it is built on the receiving side of the hop by `map`.
    private struct Delivery: Sendable {
        let rows: [Row]
        let nextOffset: Int?
    }

    /// The producer of the page that starts at `offset`.
    private func page(at offset: Int) -> Producer<Page<Row, FeedError>, FeedError> {
        raw(at: offset).map { [self] delivery in
            Page(items: delivery.rows, next: delivery.nextOffset.map { page(at: $0) })
        }
    }

    private func raw(at offset: Int) -> Producer<Delivery, FeedError> {
        Producer { [self] observer, lifetime in
            let outcome = decide(at: offset)
            guard latency > .zero else {
                Self.send(outcome, to: observer)
                return
            }
            // The observer lives in `pending` until the page is sent or the run ends, whichever comes
            // first: ending the run (reset, release) takes and drops it at once, which cancels the
            // delivery (the delayed wake-up finds nothing to send) and frees the run without waiting.
            // (`DispatchWorkItem` is not `Sendable` on every platform, so the box is the cancellation.)
            let pending = PendingObserver(observer)
            lifetime.observeEnded { _ = pending.take() }
            queue.asyncAfter(deadline: .now() + latency.timeInterval) {
                if let observer = pending.take() { Self.send(outcome, to: observer) }
            }
        }
    }

    /// Draws the outcome of a load of the page at `offset`.
    private func decide(at offset: Int) -> Result<Delivery, FeedError> {
        let pageNumber = offset / pageSize + 1
        let fails = state.withLock { state -> FeedError? in
            state.loadsStarted += 1
            if state.forcedFailures > 0 {
                state.forcedFailures -= 1
                return .forced(page: pageNumber)
            }
            // Always draw, so that a run's failures do not depend on the rate being zero or not.
            let draw = state.generator.nextUnitInterval()
            return draw < failureRate ? .simulated(page: pageNumber) : nil
        }
        if let fails { return .failure(fails) }
        let end = min(offset + pageSize, itemCount)
        let rows = offset < end ? (offset ..< end).map { Row(id: $0 + 1) } : []
        return .success(Delivery(rows: rows, nextOffset: end < itemCount ? end : nil))
    }

    private static func send(_ outcome: Result<Delivery, FeedError>, to observer: Signal<Delivery, FeedError>.Observer) {
        switch outcome {
        case let .success(delivery):
            observer.send(value: delivery)
            observer.sendCompleted()
        case let .failure(error):
            observer.send(error: error)
        }
    }

    /// The observer of a delayed run, taken once: by the delivery or by the end of the run.
    private final class PendingObserver: Sendable {
        private let observer: Locked<Signal<Delivery, FeedError>.Observer?>

        init(_ observer: Signal<Delivery, FeedError>.Observer) {
            self.observer = Locked(observer)
        }

        func take() -> Signal<Delivery, FeedError>.Observer? {
            observer.withLock { $0.take() }
        }
    }
}

/// A small, fast, seedable generator (SplitMix64): the same seed gives the same sequence on every platform.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform draw in `0 ..< 1`.
    package mutating func nextUnitInterval() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
