import Foundation
import PaginatedList
import PaginatedListHTTP
import PaginatedListTesting
import Signals

/// One row of the feed: simulated, or decoded from an HTTP endpoint (`{"id": 7, "title": "…"}`; a
/// missing title is made up from the id).
package struct Row: Equatable, Sendable, Identifiable, Decodable {
    /// The row's identity. In the simulated feed: its position in the feed as it was first made, from 1
    /// (rows inserted later by `--churn` count on from the end). In an HTTP feed: the item's id.
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

    /// The row of the changing feed's `item` (IDs from 0 there, from 1 here).
    package init(_ item: ChangingFeed.Item) {
        self.init(id: item.id + 1)
    }

    /// The changing feed's item of this row.
    package var feedItem: ChangingFeed.Item { ChangingFeed.Item(id: id - 1) }
}

/// Why a page load failed: in the simulated feed, or in a request to the HTTP endpoint.
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

/// An in-process feed of `itemCount` rows with latency and random failures, served as pages of `pageSize`
/// (its own page chain, `firstPage()`) or request by request to the package's page sources
/// (`request(page:_:)`, see `DemoSource`).
///
/// The rows live in a `ChangingFeed`: with a `churn`, every request the feed answers is followed by
/// `churn` insertions and `churn` deletions at random positions (seeded), so the list changes while it is
/// paged. Without one the feed never changes.
///
/// Each request decides its outcome when its producer is started (so a retry of a failed page draws
/// again), from a seeded generator shared by the feed: the same seed and the same sequence of requests give
/// the same failures and the same changes. A request that does not fail is answered at once (the feed
/// changes right after it); with a latency, the answer is sent from a background queue after the delay.
/// When the run's lifetime ends first (the view model was reset or released), the pending delivery is
/// cancelled and the run's observer released at once (the wake-up still happens, and does nothing). With
/// no latency, the answer is sent synchronously inside `start`.
package final class SimulatedFeed: PaginatedListDependency, Sendable {
    package typealias Item = Row
    package typealias Failure = FeedError

    package let itemCount: Int
    package let pageSize: Int
    package let latency: Duration
    package let failureRate: Double
    /// The insertions (and as many deletions) after each request.
    package let churn: Int
    /// The rows, as a server would hold them: they change after every request when `churn` > 0.
    package let rows: ChangingFeed

    private struct State {
        var generator: SplitMix64
        var forcedFailures = 0
        var loadsStarted = 0
    }

    private let state: Locked<State>
    private let queue = DispatchQueue(label: "paging-demo.feed", qos: .userInitiated)

    package init(itemCount: Int, pageSize: Int, latency: Duration, failureRate: Double, seed: UInt64, churn: Int = 0) {
        precondition(itemCount >= 0 && pageSize > 0 && churn >= 0,
                     "SimulatedFeed needs itemCount >= 0, pageSize > 0 and churn >= 0")
        self.itemCount = itemCount
        self.pageSize = pageSize
        self.latency = latency
        self.failureRate = min(max(failureRate, 0), 1)
        self.churn = churn
        let script: ChangingFeed.Script = churn > 0
            ? .random(seed: seed, inserts: churn ... churn, deletes: churn ... churn) : .none
        rows = ChangingFeed(count: itemCount, script: script)
        state = Locked(State(generator: SplitMix64(seed: seed)))
    }

    /// Makes the next request that starts fail (with `FeedError.forced`), whatever the failure rate.
    package func failNextLoad() {
        state.withLock { $0.forcedFailures += 1 }
    }

    /// How many requests have started since the feed was made (retries included): for the feed's own
    /// chain, the page loads.
    package var loadsStarted: Int {
        state.withLock { $0.loadsStarted }
    }

    /// The first page of the feed's own chain: pages at offsets `0, pageSize, 2·pageSize, …`, the next
    /// offset counted from the rows loaded (the naive way, which a changing feed defeats: see `--churn`).
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
        let number = offset / pageSize + 1
        return request(page: number) { [pageSize] feed in
            let response = feed.page(number, size: pageSize, includeTotals: true)
            let end = offset + response.items.count
            return Delivery(rows: response.items.map(Row.init), nextOffset: end < (response.totalItems ?? 0) ? end : nil)
        }
        .map { [self] delivery in
            Page(items: delivery.rows, next: delivery.nextOffset.map { page(at: $0) })
        }
    }

    /// A request to the feed, for page `page` (used in failure messages): when started, it fails (forced or
    /// at random) or asks the feed `body`, then sends the answer, after the latency if there is one.
    package func request<Value: Sendable>(
        page: Int, _ body: @escaping @Sendable (ChangingFeed) -> Value
    ) -> Producer<Value, FeedError> {
        Producer { [self] observer, lifetime in
            let outcome: Result<Value, FeedError> = drawFailure(page: page).map { .failure($0) } ?? .success(body(rows))
            guard latency > .zero else {
                Self.send(outcome, to: observer)
                return
            }
            // The observer lives in `pending` until the answer is sent or the run ends, whichever comes
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

    /// Counts a request of page `page` and draws whether it fails (a forced failure first).
    package func drawFailure(page: Int) -> FeedError? {
        state.withLock { state -> FeedError? in
            state.loadsStarted += 1
            if state.forcedFailures > 0 {
                state.forcedFailures -= 1
                return .forced(page: page)
            }
            // Always draw, so that a run's failures do not depend on the rate being zero or not.
            let draw = state.generator.nextUnitInterval()
            return draw < failureRate ? .simulated(page: page) : nil
        }
    }

    private static func send<Value>(_ outcome: Result<Value, FeedError>, to observer: Signal<Value, FeedError>.Observer) {
        switch outcome {
        case let .success(value):
            observer.send(value: value)
            observer.sendCompleted()
        case let .failure(error):
            observer.send(error: error)
        }
    }

    /// The observer of a delayed run, taken once: by the delivery or by the end of the run.
    private final class PendingObserver<Value>: Sendable {
        private let observer: Locked<Signal<Value, FeedError>.Observer?>

        init(_ observer: Signal<Value, FeedError>.Observer) {
            self.observer = Locked(observer)
        }

        func take() -> Signal<Value, FeedError>.Observer? {
            observer.withLock { $0.take() }
        }
    }
}

