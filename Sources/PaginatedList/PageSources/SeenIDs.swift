import Signals

/// The IDs a page chain has delivered, shared along the chain so that each page checks and records its
/// items in time proportional to the page, however long the chain.
///
/// **Generations.** Page *k* of a chain stands at generation *k*: it sees only the entries recorded by
/// earlier pages (`generation < k`), and records its own at generation *k*. So a page's view of the ledger
/// never depends on what later pages did, and every start of a page's producer behaves the same.
///
/// **Forks.** A page records in place when it is the tip (nothing was recorded at its generation or
/// later). When the chain already grew past it — its producer was started again after it had delivered
/// (a retry, a second subscriber) — it forks: it copies the entries of the pages before it into a new
/// ledger and records there, so the two runs never see each other's items. Forks cost O(entries) and
/// happen only on such restarts; a fresh chain (the view model's `reset()`) starts a fresh ledger.
///
/// Thread-safe: `state` is guarded by its mutex. IDs need not be `Sendable`: an ID is made from an item of
/// the page being admitted, handed over to the ledger, and only read or written with the mutex held.
final class SeenIDs<ID: Hashable & SendableMetatype>: Sendable {
    private struct Entry {
        /// The page that recorded the ID.
        let generation: Int
        /// The ID's position among everything recorded (its order in the loaded list).
        let ordinal: Int
    }

    private struct State {
        var entries: [ID: Entry] = [:]
        /// The generation the next in-place record must have.
        var tip = 0
        /// `countBefore[g]`: the number of entries recorded by generations before `g` (`0 ... tip`).
        var countBefore: [Int] = [0]
    }

    private let state: Locked<State>

    /// An empty ledger, for the first page of a fresh chain.
    init() {
        state = Locked(State())
    }

    /// A ledger holding `initial`: a fork's entries, copied under the forked ledger's lock and read from
    /// now on only under this one's.
    private init(_ initial: State) {
        state = Locked(initial)
    }

    /// The number of IDs recorded by the pages before `generation`.
    func count(before generation: Int) -> Int {
        state.withLock { $0.countBefore[generation] }
    }

    /// For each of `ids`, its ordinal if a page before `generation` recorded it, else `nil`. O(ids).
    func ordinals(of ids: [ID], before generation: Int) -> [Int?] {
        state.withLock { state in
            ids.map { id in
                guard let entry = state.entries[id], entry.generation < generation else { return nil }
                return entry.ordinal
            }
        }
    }

    /// Whether a page at `generation` or later recorded `id`. O(1).
    func contains(_ id: ID, from generation: Int) -> Bool {
        state.withLock { ($0.entries[id]?.generation ?? -1) >= generation }
    }

    /// For each of `ids`, where it stands as seen from the other side of the chain's start page, if a page
    /// after the start page (`generation` 1 and later) recorded it, else `nil`: the start page's items hold
    /// ordinals `0 ..< c` on both sides, in opposite orders, so an item with ordinal `o` here has ordinal
    /// `c - 1 - o` there (below 0). O(ids).
    func mirroredOrdinals(of ids: [ID]) -> [Int?] {
        state.withLock { state in
            guard state.countBefore.count > 1 else { return ids.map { _ in nil } }
            let startCount = state.countBefore[1]
            return ids.map { id in
                guard let entry = state.entries[id], entry.generation >= 1 else { return nil }
                return startCount - 1 - entry.ordinal
            }
        }
    }

    /// Records `ids` (none of which a page before `generation` recorded, and no two equal) as the page at
    /// `generation`, and returns the ledger and generation the next page stands at. O(ids), or a fork.
    func record(_ ids: [ID], at generation: Int) -> (ledger: SeenIDs, generation: Int) {
        let fork = state.withLock { state -> State? in
            guard state.tip == generation else {
                var copy = State()
                copy.entries = state.entries.filter { $0.value.generation < generation }
                copy.countBefore = Array(state.countBefore[...generation])
                copy.tip = generation
                return copy
            }
            Self.append(ids, to: &state)
            return nil
        }
        guard var fork else { return (self, generation + 1) }
        Self.append(ids, to: &fork)
        return (SeenIDs(fork), generation + 1)
    }

    private static func append(_ ids: [ID], to state: inout State) {
        var count = state.countBefore[state.tip]
        for id in ids {
            state.entries[id] = Entry(generation: state.tip, ordinal: count)
            count += 1
        }
        state.tip += 1
        state.countBefore.append(count)
    }
}

/// The two sides of a page chain that grows both ways from the page it starts at: the ledger each side
/// recorded in last, so that a page also checks what the other side delivered, and one lock for the
/// admissions of both sides, so that an item that turns up on both sides at once is delivered by one.
/// `Deduplication` records through it, and so does `OffsetSource`'s reading, which also reads the other
/// side's ledger to anchor its windows (`ledger(opposite:)`; Docs/Internals.md, "Writing a page source").
///
/// A side is registered by its first admission: until a page above the start page is admitted, the pages
/// below check nothing more than before. Thread-safe: `state` is guarded by its mutex; the ledgers' own
/// locks are taken inside it, never the other way round.
final class ChainSides<ID: Hashable & SendableMetatype>: Sendable {
    /// Where a page lies: below the start page (the start page included) or above it.
    enum Side: Sendable {
        case below, above
    }

    private struct State {
        var below: SeenIDs<ID>?
        var above: SeenIDs<ID>?
    }

    private let state = Locked(State())

    /// An empty pair of sides, for the start page of a fresh chain.
    init() {}

    /// The ledger the side opposite `side` recorded in last, if that side recorded anything.
    func ledger(opposite side: Side) -> SeenIDs<ID>? {
        state.withLock { side == .below ? $0.above : $0.below }
    }

    /// Admits a page on `side`: keeps, in order and each ID once, the items `isNew` accepts (given the
    /// item's index and whether a page on the other side delivered its ID: the start page, at the bottom
    /// of both ledgers, is on neither side), records the kept IDs in `ledger` as the page at `generation`,
    /// and registers the ledger that returns as `side`'s. All of it with the chain's lock held, so that an
    /// item turning up on both sides at once is kept by one. `isNew` must not call user code. O(page).
    func admit<Item>(
        _ items: [Item], ids: [ID], on side: Side, recordingIn ledger: SeenIDs<ID>, at generation: Int,
        where isNew: (_ index: Int, _ deliveredOpposite: Bool) -> Bool
    ) -> (kept: [Item], ledger: SeenIDs<ID>, generation: Int) {
        state.withLock { state in
            let opposite = side == .below ? state.above : state.below
            var kept: [Item] = []
            var keptIDs: [ID] = []
            var inPage = Set<ID>(minimumCapacity: ids.count)
            kept.reserveCapacity(items.count)
            keptIDs.reserveCapacity(items.count)
            for index in items.indices
            where isNew(index, opposite?.contains(ids[index], from: 1) == true) && inPage.insert(ids[index]).inserted {
                kept.append(items[index])
                keptIDs.append(ids[index])
            }
            let (next, nextGeneration) = ledger.record(keptIDs, at: generation)
            switch side {
            case .below: state.below = next
            case .above: state.above = next
            }
            return (kept, next, nextGeneration)
        }
    }
}
