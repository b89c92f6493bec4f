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
/// Thread-safe: `state` is guarded by its mutex.
final class SeenIDs<ID: Hashable & Sendable>: Sendable {
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

    private init(_ initial: sending State) {
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
