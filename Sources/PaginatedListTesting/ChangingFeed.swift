import PaginatedList
import Signals

/// A server model of a feed that changes while it is paged: for testing page sources.
///
/// The feed starts with `count` items (IDs `0 ..< count`, in order). It answers offset/limit, page/size,
/// cursor and ID-snapshot requests synchronously; after answering each request it applies the next step
/// of its `Script` — inserting fresh items (IDs from `count` up), deleting items, re-ranking items — so
/// every request sees the feed as the previous ones left it. A `.random` script is resolved against
/// the feed with a seeded generator: the same seed gives the same session.
///
/// `audit(_:reachedEnd:)` judges what a source loaded: the items it delivered twice, and its *holes*.
///
/// Thread-safe: all state is guarded by one mutex, held only while a request or query runs (never while
/// user code runs).
///
/// ```swift
/// let feed = ChangingFeed(count: 100, script: .random(seed: 7, inserts: 0 ... 2, deletes: 0 ... 2))
/// let source = OffsetSource<ChangingFeed.Item, Never>(limit: 10) { offset, limit in
///     feed.request { $0.offset(offset, limit: limit) }
/// }
/// ```
public final class ChangingFeed: Sendable {
    /// An item of the feed: an identity, nothing else.
    public struct Item: Identifiable, Hashable, Sendable, CustomStringConvertible {
        /// The item's identity: `0 ..< count` for the initial items, then counting up for inserted ones.
        public let id: Int

        /// An item with `id`.
        public init(id: Int) { self.id = id }

        /// `#id`.
        public var description: String { "#\(id)" }
    }

    /// One change of the feed, at positions of the feed as it is when the change is applied (clamped).
    public enum Change: Hashable, Sendable {
        /// Inserts `count` fresh items at position `at`.
        case insert(count: Int, at: Int)
        /// Deletes `count` items from position `at`.
        case delete(count: Int, at: Int)
        /// Re-ranks the item at `from` to position `to`.
        case move(from: Int, to: Int)
    }

    /// When and how the feed changes: one step after each request.
    public struct Script: Sendable {
        enum Kind: Sendable {
            case steps([[Change]])
            case random(seed: UInt64, inserts: ClosedRange<Int>, deletes: ClosedRange<Int>, moves: ClosedRange<Int>)
        }

        let kind: Kind

        /// A feed that never changes.
        public static let none = Script(kind: .steps([]))

        /// `steps[n]` is applied after the `n`-th request (from 0); after the last step the feed stays put.
        public static func steps(_ steps: [[Change]]) -> Script {
            Script(kind: .steps(steps))
        }

        /// After every request: a number of single-item insertions, deletions and moves (each drawn from
        /// its range), each at a random position of the whole feed, all drawn from a generator seeded
        /// with `seed`.
        public static func random(
            seed: UInt64, inserts: ClosedRange<Int> = 0 ... 0, deletes: ClosedRange<Int> = 0 ... 0,
            moves: ClosedRange<Int> = 0 ... 0
        ) -> Script {
            Script(kind: .random(seed: seed, inserts: inserts, deletes: deletes, moves: moves))
        }
    }

    /// What a source loaded, judged against the feed's history.
    public struct Audit: Equatable, Sendable {
        /// IDs delivered more than once, in order of their second delivery.
        public let duplicates: [Int]
        /// Holes: IDs of items that were in the feed from the first request to now, ranked (now) before
        /// the end of what was loaded, and never delivered. "The end" is the end of the feed when the
        /// source reached it, else the last loaded item still in the feed.
        public let holes: [Int]
        /// IDs delivered that were never in the feed (should be empty).
        public let unknown: [Int]
    }

    private struct State {
        /// Every item ever in the feed, in rank order; deleted ones stay as tombstones (for cursors).
        var entries: [(item: Item, alive: Bool)]
        var nextID: Int
        var requests = 0
        var applied: [Change] = []
        var deletedInitial = Set<Int>()
        let initialCount: Int
        let script: Script
        var random: SplitMix64

        var live: [Item] { entries.lazy.filter(\.alive).map(\.item) }
    }

    private let state: Locked<State>

    /// A feed of `count` items (IDs `0 ..< count`) that changes after each request as `script` says.
    public init(count: Int, script: Script = .none) {
        let seed: UInt64
        if case let .random(value, _, _, _) = script.kind { seed = value } else { seed = 0 }
        state = Locked(State(entries: (0 ..< count).map { (Item(id: $0), true) }, nextID: count, initialCount: count,
                            script: script, random: SplitMix64(seed: seed)))
    }

    // MARK: - Requests (each followed by the script's next step)

    /// Request: up to `limit` items from position `offset`.
    public func offset(_ offset: Int, limit: Int) -> [Item] {
        answer { live in Array(live.dropFirst(max(0, offset)).prefix(max(0, limit))) }
    }

    /// Request: page `page` of `size` items, pages counted from `firstPageIndex`; with the totals if
    /// `includeTotals`.
    public func page(_ page: Int, size: Int, firstPageIndex: Int = 1, includeTotals: Bool = false)
        -> PageNumberResponse<Item> {
        answer { live in
            let items = Array(live.dropFirst(max(0, (page - firstPageIndex) * size)).prefix(size))
            guard includeTotals else { return PageNumberResponse(items: items) }
            return PageNumberResponse(items: items, totalPages: (live.count + size - 1) / size, totalItems: live.count)
        }
    }

    /// Request: up to `limit` items ranked after the item `cursor` names (from the top for `nil`); the
    /// next cursor is the last item's ID, or `nil` at the end. A cursor whose item was deleted still marks
    /// its place.
    public func cursor(after cursor: Int?, limit: Int) -> CursorResponse<Item, Int> {
        answerEntries { entries in
            let start = cursor.flatMap { id in entries.firstIndex { $0.item.id == id }.map { $0 + 1 } } ?? 0
            let following = entries[start...].lazy.filter(\.alive).map(\.item)
            let items = Array(following.prefix(limit))
            let more = following.count > items.count
            return CursorResponse(items: items, nextCursor: more ? items.last?.id : nil)
        }
    }

    /// Request: the IDs of the whole feed, in rank order.
    public func ids() -> [Int] {
        answer { live in live.map(\.id) }
    }

    /// Request: the items with `ids` that are still in the feed, in the order of `ids`.
    public func items(ids: [Int]) -> [Item] {
        answer { live in
            let alive = Set(live.map(\.id))
            return ids.filter(alive.contains).map(Item.init(id:))
        }
    }

    /// A producer that makes the request `body` describes when it is started (each start is a request),
    /// sends its answer and completes.
    public func request<Value: Sendable, Failure: Error>(
        _ body: @escaping @Sendable (ChangingFeed) -> Value
    ) -> Producer<Value, Failure> {
        Producer { [self] observer, _ in
            observer.send(value: body(self))
            observer.sendCompleted()
        }
    }

    // MARK: - Inspection (not requests: the feed does not change)

    /// The feed as it is now, in rank order.
    public var currentItems: [Item] { state.withLock { Array($0.live) } }

    /// The number of requests answered.
    public var requestCount: Int { state.withLock { $0.requests } }

    /// Every change applied so far, resolved to positions, in order.
    public var appliedChanges: [Change] { state.withLock { $0.applied } }

    /// IDs of the items that were in the feed from the start and still are.
    public var presentThroughout: Set<Int> {
        state.withLock { state in Set(0 ..< state.initialCount).subtracting(state.deletedInitial) }
    }

    /// The duplicates and holes of `loaded` (what a source delivered, in order); `reachedEnd`: whether the
    /// source said the list was exhausted.
    public func audit(_ loaded: [Item], reachedEnd: Bool) -> Audit {
        let (live, throughout, everIDs) = state.withLock { state in
            (Array(state.live), Set(0 ..< state.initialCount).subtracting(state.deletedInitial),
             Set(state.entries.map(\.item.id)))
        }
        var seen = Set<Int>()
        var duplicates: [Int] = []
        for item in loaded where !seen.insert(item.id).inserted { duplicates.append(item.id) }
        let rankedBeforeEnd: ArraySlice<Item>
        if reachedEnd {
            rankedBeforeEnd = live[...]
        } else if let lastIndex = live.lastIndex(where: { seen.contains($0.id) }) {
            rankedBeforeEnd = live[..<lastIndex]
        } else {
            rankedBeforeEnd = []
        }
        let holes = rankedBeforeEnd.map(\.id).filter { throughout.contains($0) && !seen.contains($0) }
        let unknown = loaded.map(\.id).filter { !everIDs.contains($0) }
        return Audit(duplicates: duplicates, holes: holes, unknown: unknown)
    }

    // MARK: - Changing

    private func answer<Value>(_ body: ([Item]) -> Value) -> Value {
        answerEntries { entries in body(entries.filter(\.alive).map(\.item)) }
    }

    private func answerEntries<Value>(_ body: ([(item: Item, alive: Bool)]) -> Value) -> Value {
        state.withLock { state in
            let value = body(state.entries)
            Self.step(&state)
            state.requests += 1
            return value
        }
    }

    private static func step(_ state: inout State) {
        let changes: [Change]
        switch state.script.kind {
        case let .steps(steps):
            changes = state.requests < steps.count ? steps[state.requests] : []
        case let .random(_, inserts, deletes, moves):
            var drawn: [Change] = []
            var count = state.entries.count { $0.alive }
            for _ in 0 ..< state.random.next(in: inserts) {
                drawn.append(.insert(count: 1, at: state.random.next(in: 0 ... count)))
                count += 1
            }
            for _ in 0 ..< state.random.next(in: deletes) where count > 0 {
                drawn.append(.delete(count: 1, at: state.random.next(in: 0 ... count - 1)))
                count -= 1
            }
            for _ in 0 ..< state.random.next(in: moves) where count > 1 {
                drawn.append(.move(from: state.random.next(in: 0 ... count - 1), to: state.random.next(in: 0 ... count - 1)))
            }
            changes = drawn
        }
        for change in changes { apply(change, to: &state) }
    }

    private static func apply(_ change: Change, to state: inout State) {
        /// The entry index of the live item at `position`, or `entries.count` past the end.
        func entryIndex(ofLive position: Int) -> Int {
            var remaining = position
            for (index, entry) in state.entries.enumerated() where entry.alive {
                if remaining == 0 { return index }
                remaining -= 1
            }
            return state.entries.count
        }
        let liveCount = state.entries.count { $0.alive }
        switch change {
        case let .insert(count, at):
            let position = min(max(0, at), liveCount)
            let fresh = (0 ..< max(0, count)).map { (item: Item(id: state.nextID + $0), alive: true) }
            state.nextID += fresh.count
            state.entries.insert(contentsOf: fresh, at: entryIndex(ofLive: position))
            state.applied.append(.insert(count: fresh.count, at: position))
        case let .delete(count, at):
            let position = min(max(0, at), liveCount)
            let count = min(max(0, count), liveCount - position)
            for _ in 0 ..< count {
                let index = entryIndex(ofLive: position)
                state.entries[index].alive = false
                let id = state.entries[index].item.id
                if id < state.initialCount { state.deletedInitial.insert(id) }
            }
            state.applied.append(.delete(count: count, at: position))
        case let .move(from, to):
            guard liveCount > 0 else { return }
            let from = min(max(0, from), liveCount - 1)
            let to = min(max(0, to), liveCount - 1)
            let entry = state.entries.remove(at: entryIndex(ofLive: from))
            state.entries.insert(entry, at: entryIndex(ofLive: to))
            state.applied.append(.move(from: from, to: to))
        }
    }
}


extension SplitMix64 {
    /// A number in `range` (slightly biased for huge ranges; fine for a test model).
    mutating func next(in range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next() % width)
    }
}
