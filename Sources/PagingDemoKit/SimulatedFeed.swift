import Foundation
import PaginatedList
import PaginatedListHTTP
import PaginatedListStore
import PaginatedListTesting
import Signals

/// One row of the feed: simulated, or decoded from an HTTP endpoint (`{"id": 7, "title": "…"}`; a
/// missing title is made up from the id).
package struct Row: Equatable, Sendable, Identifiable, Codable {
    /// The row's identity. In the simulated feed: its position in the feed as it was first made, from 1
    /// (rows inserted later by `--churn` count on from the end). In an HTTP feed: the item's id.
    package let id: Int
    /// A made-up title, the same for the same `id` on every run; the item's title in an HTTP feed.
    package let title: String
    /// The row's like counter (`u` bumps it): the feed's count in the simulated feed, `likes` in an HTTP
    /// feed's item (0 when absent).
    package var likes: Int

    package init(id: Int, likes: Int = 0) {
        self.init(id: id, title: Self.madeUpTitle(id), likes: likes)
    }

    package init(id: Int, title: String, likes: Int = 0) {
        self.id = id
        self.title = title
        self.likes = likes
    }

    private enum CodingKeys: String, CodingKey { case id, title, likes }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(Int.self, forKey: .id)
        self.init(id: id, title: try container.decodeIfPresent(String.self, forKey: .title) ?? Self.madeUpTitle(id),
                  likes: (try? container.decodeIfPresent(Int.self, forKey: .likes)) ?? 0)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(likes, forKey: .likes)
    }

    private static func madeUpTitle(_ id: Int) -> String {
        let adjectives = ["amber", "brisk", "calm", "dusky", "eager", "frosty", "gentle", "hollow", "ivory", "jolly"]
        let nouns = ["falcon", "harbor", "meadow", "lantern", "orchid", "canyon", "pebble", "willow", "comet", "thistle"]
        return "\(adjectives[id % adjectives.count]) \(nouns[(id / adjectives.count) % nouns.count])"
    }

    /// The row of the changing feed's `item` (IDs from 0 there, from 1 here; its likes are the item's
    /// revision, which a like edits).
    package init(_ item: ChangingFeed.Item) {
        self.init(id: item.id + 1, likes: item.revision)
    }

    /// The changing feed's item of this row.
    package var feedItem: ChangingFeed.Item { ChangingFeed.Item(id: id - 1) }

    /// The day the simulated feed says the row was posted: rows 1-10 on day 1, 11-20 on day 2, and so on
    /// (the field the demo's headers group rows by); 0 for a row numbered 0 or below (an HTTP row with a
    /// string id).
    package var day: Int { id > 0 ? (id - 1) / 10 + 1 : 0 }
}

/// Why a page load failed: in the simulated feed, or in a request to the HTTP endpoint.
package enum FeedError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The load failed at random (the feed's failure rate).
    case simulated(page: Int)
    /// The load failed because `SimulatedFeed.failNextLoad()` asked it to.
    case forced(page: Int)
    /// A request to the HTTP endpoint (`--url`) failed.
    case http(HTTPError)
    /// The store (`--store`) failed to read or write.
    case store(StoreError)
    /// The simulated server refused a like (`--fail-mutations`).
    case likeRefused(id: Int)

    package var description: String {
        switch self {
        case let .simulated(page): "simulated network error loading page \(page)"
        case let .forced(page): "forced failure loading page \(page)"
        case let .http(error): error.description
        case let .store(error): error.description
        case let .likeRefused(id): "the server refused the like of #\(String(format: "%04d", id))"
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
    /// The offset of the first page of the feed's own chain (a multiple of `pageSize`): 0, or the page
    /// that holds the row `--start` names.
    package let startOffset: Int
    /// The rows, as a server would hold them: they change after every request when `churn` > 0.
    package let rows: ChangingFeed

    private struct State {
        var generator: SplitMix64
        var forcedFailures = 0
        var loadsStarted = 0
    }

    private let state: Locked<State>
    private let queue = DispatchQueue(label: "paging-demo.feed", qos: .userInitiated)

    /// A feed of `itemCount` rows served in pages of `pageSize`; its own chain starts at the page that
    /// holds the row at offset `start` (0: the first page).
    package init(
        itemCount: Int, pageSize: Int, latency: Duration, failureRate: Double, seed: UInt64, churn: Int = 0, start: Int = 0
    ) {
        precondition(itemCount >= 0 && pageSize > 0 && churn >= 0 && start >= 0,
                     "SimulatedFeed needs itemCount >= 0, pageSize > 0, churn >= 0 and start >= 0")
        self.itemCount = itemCount
        self.pageSize = pageSize
        self.latency = latency
        self.failureRate = min(max(failureRate, 0), 1)
        self.churn = churn
        startOffset = min(start, max(itemCount - 1, 0)) / pageSize * pageSize
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

    /// The first page of the feed's own chain (at `startOffset`): pages at offsets `0, pageSize,
    /// 2·pageSize, …`, the next offset counted from the rows loaded (the naive way, which a changing feed
    /// defeats: see `--churn`), the previous one a page size before.
    package func firstPage() -> Producer<Page<Row, FeedError>, FeedError> {
        page(at: startOffset)
    }

    /// What crosses threads: the rows and where the pages around them start. `Page` itself holds
    /// producers, which are not `Sendable`, so it is built on the receiving side of the hop by `map`.
    private struct Delivery: Sendable {
        let rows: [Row]
        let previousOffset: Int?
        let nextOffset: Int?
        /// How many rows the feed had when it answered.
        let total: Int?
    }

    /// The producer of the page that starts at `offset` (a multiple of `pageSize`).
    private func page(at offset: Int) -> Producer<Page<Row, FeedError>, FeedError> {
        let number = offset / pageSize + 1
        return request(page: number) { [pageSize] feed in
            let response = feed.page(number, size: pageSize, includeTotals: true)
            let end = offset + response.items.count
            return Delivery(rows: response.items.map(Row.init), previousOffset: offset > 0 ? offset - pageSize : nil,
                            nextOffset: end < (response.totalItems ?? 0) ? end : nil, total: response.totalItems)
        }
        .map { [self] delivery in
            Page(items: delivery.rows, previous: delivery.previousOffset.map { page(at: $0) },
                 next: delivery.nextOffset.map { page(at: $0) }, totalCount: delivery.total)
        }
    }

    /// The first page of the rows whose title contains `query` (ignoring case), in the feed's order: pages
    /// of `pageSize` at offsets `0, pageSize, …` among the matches, each saying how many rows match. The
    /// empty query is the whole feed: `firstPage()`. A search reads the feed without changing it (no churn),
    /// with the latency and failures of any request.
    package func firstPage(matching query: String) -> Producer<Page<Row, FeedError>, FeedError> {
        query.isEmpty ? firstPage() : page(matching: query.lowercased(), at: 0)
    }

    /// The producer of the page of matches of `query` (lowercased) that starts at `offset`.
    private func page(matching query: String, at offset: Int) -> Producer<Page<Row, FeedError>, FeedError> {
        request(page: offset / pageSize + 1) { [pageSize] feed in
            let matches = feed.currentItems.map(Row.init).filter { $0.title.lowercased().contains(query) }
            let end = min(offset + pageSize, matches.count)
            return Delivery(rows: Array(matches[min(offset, end) ..< end]), previousOffset: nil,
                            nextOffset: end < matches.count ? end : nil, total: matches.count)
        }
        .map { [self] delivery in
            Page(items: delivery.rows, next: delivery.nextOffset.map { page(matching: query, at: $0) },
                 totalCount: delivery.total)
        }
    }

    // MARK: - What the feed's users do (between requests)

    /// A like of the row `id` (its count goes up by one in the feed); `false` if the feed no longer has it.
    @discardableResult
    package func like(id: Int) -> Bool {
        guard let position = position(of: id) else { return false }
        rows.apply([.edit(at: position)])
        return true
    }

    /// Deletes the row `id` from the feed; `false` if the feed no longer has it.
    @discardableResult
    package func delete(id: Int) -> Bool {
        guard let position = position(of: id) else { return false }
        rows.apply([.delete(count: 1, at: position)])
        return true
    }

    /// A new row at the top of the feed (the user posted something): the row.
    package func post() -> Row {
        rows.apply([.insert(count: 1, at: 0)])
        return Row(rows.currentItems[0])
    }

    /// New rows at the top of the feed, as many as `count` draws (seeded, from the feed's generator):
    /// what arrived since the last refresh. Returns how many.
    @discardableResult
    package func gainRows(_ count: ClosedRange<Int>) -> Int {
        let drawn = state.withLock { Int.random(in: count, using: &$0.generator) }
        if drawn > 0 { rows.apply([.insert(count: drawn, at: 0)]) }
        return drawn
    }

    /// How many rows the feed has now between the rows `above` and `below` (exclusive; from the top when
    /// `above` is `nil`); `nil` when it no longer has one of them.
    package func rowsBetween(_ above: Int?, and below: Int) -> Int? {
        let items = rows.currentItems
        guard let end = items.firstIndex(where: { $0.id == below - 1 }) else { return nil }
        guard let above else { return end }
        guard let start = items.firstIndex(where: { $0.id == above - 1 }), start < end else { return nil }
        return end - start - 1
    }

    /// The position of the row `id` in the feed now.
    private func position(of id: Int) -> Int? {
        rows.currentItems.firstIndex { $0.id == id - 1 }
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

