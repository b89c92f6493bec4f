import PaginatedList
import Signals

/// A server model of a feed that changes while it is paged: for testing page sources.
///
/// The feed starts with `count` items (IDs `0 ..< count`, in order). It answers offset/limit, page/size,
/// cursor and ID-snapshot requests synchronously; after answering each request it applies the next step
/// of its `Script` — inserting fresh items (IDs from `count` up), deleting items, re-ranking items,
/// editing their payload (`revision`) — so every request sees the feed as the previous ones left it. A
/// `.random` script is resolved against the feed with a seeded generator: the same seed gives the same
/// session. `Churn` describes the random mixes: single changes anywhere, new items at the top (a
/// firehose), bursts of deletions or insertions.
///
/// Cursors behave like keys: a cursor marks the place of the item it names *when it was issued*, and keeps
/// that place when the item is deleted or re-ranked.
///
/// With `maxPageSize`, it serves at most that many items per request, fewer than asked and without an
/// error, as servers that cap the page size do (Django REST framework's `max_limit` and `max_page_size`,
/// GitHub's `per_page` ≤ 100): a window, a cursor page or a batch of items by ID holds at most that many,
/// and pages are numbered by the size served (page 2 of size 20 under a cap of 10 holds items 10-19). The
/// ID snapshot is one answer, whole.
///
/// `audit(_:reachedEnd:)` judges what a source loaded: the items it delivered twice, its *holes*, the
/// *stable* items (never deleted, never re-ranked themselves) it lost, and those it showed out of order.
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
    /// An item of the feed: an identity and a payload revision (`Codable`, to keep it in a store).
    public struct Item: Identifiable, Hashable, Codable, Sendable, CustomStringConvertible {
        /// The item's identity: `0 ..< count` for the initial items, then counting up for inserted ones.
        public let id: Int
        /// How many times the item's payload was edited (`Change.edit`).
        public let revision: Int

        /// An item with `id`, never edited.
        public init(id: Int) { self.init(id: id, revision: 0) }

        /// An item with `id` edited `revision` times.
        public init(id: Int, revision: Int) {
            self.id = id
            self.revision = revision
        }

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
        /// Edits the payload of the item at `at` (its `revision` goes up by one; its place stays).
        case edit(at: Int)
    }

    /// A random mix of changes applied after every request, each count drawn from its range.
    public struct Churn: Hashable, Sendable {
        /// Single items inserted, each at a random position.
        public var inserts: ClosedRange<Int>
        /// Single items deleted, each at a random position.
        public var deletes: ClosedRange<Int>
        /// Items re-ranked, each from a random position to another.
        public var moves: ClosedRange<Int>
        /// Items whose payload is edited, each at a random position.
        public var edits: ClosedRange<Int>
        /// Items inserted at the top, as one block (a firehose: pass a range at or above the page size).
        public var topInserts: ClosedRange<Int>
        /// The chance, after each request, of a burst (`0 ... 1`).
        public var burstChance: Double
        /// A burst deletes a run of this many consecutive items at a random position…
        public var burstDeletes: ClosedRange<Int>
        /// …and inserts a run of this many items at a random position.
        public var burstInserts: ClosedRange<Int>

        /// 0-3 insertions, 0-3 deletions and 0-2 edits, each anywhere.
        public static let scattered = Churn(inserts: 0 ... 3, deletes: 0 ... 3, edits: 0 ... 2)
        /// 0-2 insertions, 0-2 deletions, 0-3 re-ranks and an edit, each anywhere.
        public static let reRanking = Churn(inserts: 0 ... 2, deletes: 0 ... 2, moves: 0 ... 3, edits: 0 ... 1)
        /// An insertion, a deletion and a re-rank now and then, and one request in ten a run of 5-25
        /// deletions and a run of 5-25 insertions, each somewhere.
        public static let bursty = Churn(inserts: 0 ... 1, deletes: 0 ... 1, moves: 0 ... 1, burstChance: 0.1,
                                         burstDeletes: 5 ... 25, burstInserts: 5 ... 25)
        /// At most one insertion, one deletion and one edit: for pages of one or two items.
        public static let gentle = Churn(inserts: 0 ... 1, deletes: 0 ... 1, edits: 0 ... 1)
        /// Up to five changes, one of them a re-rank: for pages of one or two items, a feed re-ranked
        /// faster than it is read.
        public static let hectic = Churn(inserts: 0 ... 2, deletes: 0 ... 2, moves: 0 ... 1)
        /// Three requests in ten, a run of 70-150 deletions (and up to 80 insertions) somewhere.
        public static let deletionStorms = Churn(inserts: 0 ... 2, deletes: 0 ... 2, moves: 0 ... 1, burstChance: 0.3,
                                                 burstDeletes: 70 ... 150, burstInserts: 0 ... 80)

        /// A feed that shrinks while it is paged: one to three deletions and at most one insertion and one
        /// edit, each anywhere, and one request in ten a run of 5-25 deletions somewhere.
        public static let shrinking = Churn(inserts: 0 ... 1, deletes: 1 ... 3, edits: 0 ... 1, burstChance: 0.1,
                                            burstDeletes: 5 ... 25)

        /// One to two pages of `pageSize` new items at the top, and now and then a deletion and a re-rank.
        public static func firehose(pageSize: Int) -> Churn {
            Churn(deletes: 0 ... 1, moves: 0 ... 1, topInserts: pageSize ... 2 * pageSize)
        }

        /// A mix; every part defaults to none.
        public init(
            inserts: ClosedRange<Int> = 0 ... 0, deletes: ClosedRange<Int> = 0 ... 0, moves: ClosedRange<Int> = 0 ... 0,
            edits: ClosedRange<Int> = 0 ... 0, topInserts: ClosedRange<Int> = 0 ... 0, burstChance: Double = 0,
            burstDeletes: ClosedRange<Int> = 0 ... 0, burstInserts: ClosedRange<Int> = 0 ... 0
        ) {
            self.inserts = inserts
            self.deletes = deletes
            self.moves = moves
            self.edits = edits
            self.topInserts = topInserts
            self.burstChance = burstChance
            self.burstDeletes = burstDeletes
            self.burstInserts = burstInserts
        }
    }

    /// When and how the feed changes: one step after each request.
    public struct Script: Sendable {
        enum Kind: Sendable {
            case steps([[Change]])
            case random(seed: UInt64, churn: Churn)
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
            Script(kind: .random(seed: seed, churn: Churn(inserts: inserts, deletes: deletes, moves: moves)))
        }

        /// After every request: the changes `churn` draws, from a generator seeded with `seed`.
        public static func random(seed: UInt64, churn: Churn) -> Script {
            Script(kind: .random(seed: seed, churn: churn))
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
        /// Stable items (in the feed from the start, never deleted, never re-ranked themselves) ranked
        /// before the end of what was loaded and never delivered, in feed order. "The end" is the end of
        /// the feed when the source reached it, else the last stable item delivered.
        public let lost: [Int]
        /// Stable items delivered after a stable item the feed ranks below them, in delivery order.
        public let misordered: [Int]
    }

    /// A live item and its rank key: keys increase down the feed, so a cursor that remembers a key keeps
    /// its place whatever happens to the item it named.
    private struct Slot {
        var item: Item
        var key: Int64
    }

    private struct State {
        /// The live items, in rank order.
        var live: [Slot]
        var nextID: Int
        var requests = 0
        var served = 0
        var applied: [Change] = []
        var deletedInitial = Set<Int>()
        var moved = Set<Int>()
        /// For each item a cursor named, the key of its place when the cursor was issued.
        var cursors: [Int: Int64] = [:]
        let initialCount: Int
        let script: Script
        /// The most items one answer holds (`nil`: as many as asked).
        let maxPageSize: Int?
        var random: SplitMix64

        /// `asked`, or the cap when it is smaller.
        func served(_ asked: Int) -> Int { maxPageSize.map { min($0, asked) } ?? asked }

        var items: [Item] { live.map(\.item) }

        /// IDs of the items in the feed from the start, never deleted and never re-ranked.
        var stable: Set<Int> {
            Set(0 ..< initialCount).subtracting(deletedInitial).subtracting(moved)
        }
    }

    /// The distance between the keys of neighbouring items after a renumbering.
    private static var keySpacing: Int64 { 1 << 20 }

    private let state: Locked<State>

    /// A feed of `count` items (IDs `0 ..< count`) that changes after each request as `script` says, and
    /// serves at most `maxPageSize` items per request (`nil`: as many as asked; at least 1).
    public init(count: Int, script: Script = .none, maxPageSize: Int? = nil) {
        let seed: UInt64
        if case let .random(value, _) = script.kind { seed = value } else { seed = 0 }
        state = Locked(State(live: (0 ..< count).map { Slot(item: Item(id: $0), key: Int64($0) * Self.keySpacing) },
                             nextID: count, initialCount: count, script: script, maxPageSize: maxPageSize.map { max(1, $0) },
                             random: SplitMix64(seed: seed)))
    }

    /// The most items one answer holds (`nil`: as many as asked).
    public var maxPageSize: Int? { state.withLock { $0.maxPageSize } }

    // MARK: - Requests (each followed by the script's next step)

    /// Request: up to `limit` items from position `offset` (at most `maxPageSize`).
    public func offset(_ offset: Int, limit: Int) -> [Item] {
        state.withLock { state in
            let items = Self.slice(state.live, from: offset, count: state.served(limit))
            Self.finish(&state, served: items.count)
            return items
        }
    }

    /// Request: up to `limit` items from position `offset` (at most `maxPageSize`), with the feed's size
    /// as its total (Django REST framework's `count`).
    public func offsetWithTotal(_ offset: Int, limit: Int) -> OffsetResponse<Item> {
        state.withLock { state in
            let items = Self.slice(state.live, from: offset, count: state.served(limit))
            let count = state.live.count
            Self.finish(&state, served: items.count)
            return OffsetResponse(items: items, totalItems: count)
        }
    }

    /// Request: page `page` of `size` items (of `maxPageSize` when that is smaller: pages are numbered by
    /// the size served), pages counted from `firstPageIndex`; with the totals if `includeTotals`.
    public func page(_ page: Int, size: Int, firstPageIndex: Int = 1, includeTotals: Bool = false)
        -> PageNumberResponse<Item> {
        state.withLock { state in
            let size = state.served(size)
            // A page number or size whose offset is past `Int`'s range asks for nothing (no trap); a size below
            // one gives no page count.
            let (index, indexOverflow) = page.subtractingReportingOverflow(firstPageIndex)
            let (offset, offsetOverflow) = index.multipliedReportingOverflow(by: max(size, 0))
            let items = indexOverflow || offsetOverflow ? [] : Self.slice(state.live, from: offset, count: size)
            let count = state.live.count
            Self.finish(&state, served: items.count)
            guard includeTotals else { return PageNumberResponse(items: items) }
            let pages = size > 0 ? count / size + (count % size == 0 ? 0 : 1) : nil
            return PageNumberResponse(items: items, totalPages: pages, totalItems: count)
        }
    }

    /// Request: up to `limit` items ranked after the item `cursor` names (from the top for `nil`); the
    /// next cursor is the last item's ID, or `nil` at the end. A cursor marks the place its item had when
    /// the cursor was issued, also after the item was deleted or re-ranked (like a sort key).
    public func cursor(after cursor: Int?, limit: Int) -> CursorResponse<Item, Int> {
        state.withLock { state in
            var start = 0
            if let cursor, let key = state.cursors[cursor] ?? state.live.first(where: { $0.item.id == cursor })?.key {
                start = Self.firstIndex(in: state.live, after: key)
            }
            let end = start + min(max(0, state.served(limit)), state.live.count - start)
            let items = state.live[start ..< end].map(\.item)
            let more = end < state.live.count
            if more, end > start { state.cursors[state.live[end - 1].item.id] = state.live[end - 1].key }
            Self.finish(&state, served: items.count)
            return CursorResponse(items: items, nextCursor: more ? items.last?.id : nil)
        }
    }

    /// Request: the IDs of the whole feed, in rank order.
    public func ids() -> [Int] {
        answer { live in live.map(\.item.id) }
    }

    /// Request: the items with `ids` that are still in the feed, in the order of `ids` (the first
    /// `maxPageSize` of them).
    public func items(ids: [Int]) -> [Item] {
        state.withLock { state in
            var alive = [Int: Item](minimumCapacity: state.live.count)
            for slot in state.live { alive[slot.item.id] = slot.item }
            let items = Array(ids.lazy.compactMap { alive[$0] }.prefix(state.served(ids.count)))
            Self.finish(&state, served: items.count)
            return items
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
    public var currentItems: [Item] { state.withLock { $0.items } }

    /// The number of requests answered.
    public var requestCount: Int { state.withLock { $0.requests } }

    /// The number of items all answers held together (IDs of an ID request included): what the source
    /// cost in transfer.
    public var itemsServed: Int { state.withLock { $0.served } }

    /// Every change applied so far, resolved to positions, in order.
    public var appliedChanges: [Change] { state.withLock { $0.applied } }

    /// IDs of the items that were in the feed from the start and still are.
    public var presentThroughout: Set<Int> {
        state.withLock { state in Set(0 ..< state.initialCount).subtracting(state.deletedInitial) }
    }

    /// IDs of the *stable* items: in the feed from the start, never deleted and never re-ranked (edits
    /// allowed). Changes elsewhere never change their order among themselves.
    public var stableIDs: Set<Int> { state.withLock { $0.stable } }

    /// The duplicates and holes of `loaded` (what a source delivered, in order); `reachedEnd`: whether the
    /// source said the list was exhausted.
    public func audit(_ loaded: [Item], reachedEnd: Bool) -> Audit {
        let (live, throughout, nextID, stable) = state.withLock { state in
            (state.items, Set(0 ..< state.initialCount).subtracting(state.deletedInitial), state.nextID, state.stable)
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
        let unknown = loaded.map(\.id).filter { !(0 ..< nextID).contains($0) }

        var rank = [Int: Int](minimumCapacity: stable.count)
        for (index, item) in live.enumerated() where stable.contains(item.id) { rank[item.id] = index }
        var misordered: [Int] = []
        var furthest = -1
        var lastStable = -1
        for item in loaded {
            guard let position = rank[item.id] else { continue }
            if position < furthest { misordered.append(item.id) } else { furthest = position }
            lastStable = max(lastStable, position)
        }
        let lost = live.enumerated().filter { index, item in
            rank[item.id] != nil && !seen.contains(item.id) && (reachedEnd || index < lastStable)
        }.map(\.element.id)
        return Audit(duplicates: duplicates, holes: holes, unknown: unknown, lost: lost, misordered: misordered)
    }

    // MARK: - Changing

    /// Applies `changes` now, in order, outside any request: what the feed's users do between requests (a
    /// post of their own at the top, a like, a deletion). Recorded in `appliedChanges` like the script's.
    public func apply(_ changes: [Change]) {
        state.withLock { state in
            for change in changes { Self.apply(change, to: &state) }
        }
    }

    /// Answers a request with what `body` makes of the live items, then changes the feed.
    private func answer<Value: Collection>(_ body: ([Slot]) -> Value) -> Value {
        state.withLock { state in
            let value = body(state.live)
            Self.finish(&state, served: value.count)
            return value
        }
    }

    private static func slice(_ live: [Slot], from offset: Int, count: Int) -> [Item] {
        let start = min(max(0, offset), live.count)
        return live[start ..< start + min(max(0, count), live.count - start)].map(\.item)
    }

    /// The index of the first item whose key is above `key` (binary search).
    private static func firstIndex(in live: [Slot], after key: Int64) -> Int {
        var (low, high) = (0, live.count)
        while low < high {
            let middle = (low + high) / 2
            if live[middle].key <= key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Counts a request that served `served` items, and applies the script's next step.
    private static func finish(_ state: inout State, served: Int) {
        step(&state)
        state.requests += 1
        state.served += served
    }

    private static func step(_ state: inout State) {
        let changes: [Change]
        switch state.script.kind {
        case let .steps(steps):
            changes = state.requests < steps.count ? steps[state.requests] : []
        case let .random(_, churn):
            changes = draw(churn, count: state.live.count, random: &state.random)
        }
        for change in changes { apply(change, to: &state) }
    }

    /// The changes of one random step over a feed of `count` live items. The single insertions,
    /// deletions and moves are drawn first, in that order (the draws of `random(seed:inserts:deletes:moves:)`);
    /// the other parts draw only when they can change something.
    private static func draw(_ churn: Churn, count initial: Int, random: inout SplitMix64) -> [Change] {
        var drawn: [Change] = []
        var count = initial
        for _ in 0 ..< random.next(in: churn.inserts) {
            drawn.append(.insert(count: 1, at: random.next(in: 0 ... count)))
            count += 1
        }
        for _ in 0 ..< random.next(in: churn.deletes) where count > 0 {
            drawn.append(.delete(count: 1, at: random.next(in: 0 ... count - 1)))
            count -= 1
        }
        for _ in 0 ..< random.next(in: churn.moves) where count > 1 {
            drawn.append(.move(from: random.next(in: 0 ... count - 1), to: random.next(in: 0 ... count - 1)))
        }
        if churn.edits.upperBound > 0 {
            for _ in 0 ..< random.next(in: churn.edits) where count > 0 {
                drawn.append(.edit(at: random.next(in: 0 ... count - 1)))
            }
        }
        if churn.topInserts.upperBound > 0 {
            let top = random.next(in: churn.topInserts)
            drawn.append(.insert(count: top, at: 0))
            count += top
        }
        if churn.burstChance > 0, random.nextUnitInterval() < churn.burstChance {
            if churn.burstDeletes.upperBound > 0, count > 0 {
                let run = min(random.next(in: churn.burstDeletes), count)
                drawn.append(.delete(count: run, at: random.next(in: 0 ... count - run)))
                count -= run
            }
            if churn.burstInserts.upperBound > 0 {
                let run = random.next(in: churn.burstInserts)
                drawn.append(.insert(count: run, at: random.next(in: 0 ... count)))
                count += run
            }
        }
        return drawn
    }

    private static func apply(_ change: Change, to state: inout State) {
        let liveCount = state.live.count
        switch change {
        case let .insert(count, at):
            let position = min(max(0, at), liveCount)
            let count = max(0, count)
            let keys = freeKeys(count, at: position, in: &state)
            let fresh = (0 ..< count).map { Slot(item: Item(id: state.nextID + $0), key: keys[$0]) }
            state.nextID += count
            state.live.insert(contentsOf: fresh, at: position)
            state.applied.append(.insert(count: count, at: position))
        case let .delete(count, at):
            let position = min(max(0, at), liveCount)
            let count = min(max(0, count), liveCount - position)
            for slot in state.live[position ..< position + count] where slot.item.id < state.initialCount {
                state.deletedInitial.insert(slot.item.id)
            }
            state.live.removeSubrange(position ..< position + count)
            state.applied.append(.delete(count: count, at: position))
        case let .move(from, to):
            guard liveCount > 0 else { return }
            let from = min(max(0, from), liveCount - 1)
            let to = min(max(0, to), liveCount - 1)
            defer { state.applied.append(.move(from: from, to: to)) }
            guard from != to else { return }
            // The item takes a new key at its new place, `to` among the other items; a cursor issued at its
            // old place keeps that place.
            let item = state.live.remove(at: from).item
            let key = freeKeys(1, at: to, in: &state)[0]
            state.live.insert(Slot(item: item, key: key), at: to)
            state.moved.insert(item.id)
        case let .edit(at):
            guard liveCount > 0 else { return }
            let position = min(max(0, at), liveCount - 1)
            let item = state.live[position].item
            state.live[position].item = Item(id: item.id, revision: item.revision + 1)
            state.applied.append(.edit(at: position))
        }
    }

    /// `count` increasing keys between the item before `position` and the item at it, renumbering every
    /// key (and the cursors with them) when there is no room.
    private static func freeKeys(_ count: Int, at position: Int, in state: inout State) -> [Int64] {
        func bounds() -> (Int64, Int64) {
            let gap = keySpacing * Int64(count + 1)
            let low = position > 0 ? state.live[position - 1].key : (state.live.first?.key ?? 0) - gap
            let high = position < state.live.count ? state.live[position].key : (state.live.last?.key ?? 0) + gap
            return (low, high)
        }
        var (low, high) = bounds()
        if high - low <= Int64(count) {
            renumber(&state)
            (low, high) = bounds()
        }
        let step = (high - low) / Int64(count + 1)
        return (0 ..< count).map { low + step * Int64($0 + 1) }
    }

    /// Spaces the keys evenly again; a cursor keeps its place (just after the item it followed).
    private static func renumber(_ state: inout State) {
        var cursors: [Int: Int64] = [:]
        for (id, key) in state.cursors {
            let index = firstIndex(in: state.live, after: key)
            cursors[id] = Int64(index) * keySpacing - 1
        }
        for index in state.live.indices { state.live[index].key = Int64(index) * keySpacing }
        state.cursors = cursors
    }
}


extension SplitMix64 {
    /// A number in `range` (slightly biased for huge ranges; fine for a test model).
    mutating func next(in range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next() % width)
    }
}
