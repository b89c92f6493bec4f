import PaginatedList
import Signals

/// Mirrors a view model's list from its `changes` alone, as a view that applies batch updates does, to
/// check that the changes replay exactly (applied in order to the old items, they give the new ones).
///
/// ```swift
/// let replayer = ChangeReplayer(viewModel)
/// viewModel.loadNextPage()
/// #expect(replayer.mirror == Array(viewModel.items.value))
/// #expect(replayer.mismatches.isEmpty)
/// ```
///
/// Each change is applied reading inserted and updated rows from the `items` snapshot of its transition
/// (what a view reads them from). A change that does not fit the mirror (an offset out of range) is not
/// applied and is recorded in `mismatches`. Thread-safe; start it before the transitions to check.
public final class ChangeReplayer<Item: Equatable & Sendable>: Sendable {
    private struct State {
        var mirror: [Item] = []
        var pending: ItemList<Item>?
        var mismatches: [String] = []
        var transitions = 0
    }

    private let state = Locked(State())

    /// Mirrors `viewModel` from now on, starting from the items it holds.
    public convenience init<Failure: Error>(_ viewModel: PaginatedListViewModel<Item, Failure>) {
        self.init(items: viewModel.items, changes: viewModel.changes)
    }

    /// Mirrors `list` from now on, across its query switches, starting from the items it shows.
    public convenience init<Query, Failure: Error>(_ list: QueryPaginatedList<Query, Item, Failure>) {
        self.init(items: list.items, changes: list.changes)
    }

    /// Mirrors a list that publishes `items` and the `changes` between its snapshots (each change sent
    /// right after the `items` snapshot it leads to), from now on, starting from `items.value`.
    public init(items: Property<ItemList<Item>>, changes: Signal<ItemListChange, Never>) {
        state.withLock { $0.mirror = Array(items.value) }
        items.signal.observeValues { [self] items in
            state.withLock { state in
                state.pending = items
                state.transitions += 1
            }
        }
        changes.observeValues { [self] change in
            state.withLock { state in
                guard let items = state.pending else {
                    state.mismatches.append("\(change) arrived without an items snapshot")
                    return
                }
                guard state.mirror.canApply(change, from: items) else {
                    state.mismatches.append("\(change) does not fit a mirror of \(state.mirror.count) items "
                        + "and a snapshot of \(items.count)")
                    return
                }
                state.mirror.apply(change, from: items)
            }
        }
    }

    /// The mirrored list.
    public var mirror: [Item] { state.withLock { $0.mirror } }
    /// The changes that did not fit the mirror, described.
    public var mismatches: [String] { state.withLock { $0.mismatches } }
    /// How many transitions changed the items (each sends `items` once).
    public var transitions: Int { state.withLock { $0.transitions } }
}

extension Array {
    /// Applies one change of a view model's `changes`, given the snapshot it leads to (`items`), as a
    /// view that mirrors the list would: after every change of a transition, the result equals `items`.
    public mutating func apply(_ change: ItemListChange, from items: ItemList<Element>) {
        switch change {
        case let .appended(range), let .inserted(range):
            insert(contentsOf: range.map { items[$0] }, at: range.lowerBound)
        case let .removed(offsets):
            for offset in offsets.reversed() { remove(at: offset) }
        case let .updated(offsets):
            for offset in offsets { self[offset] = items[offset] }
        case let .moved(from, to):
            let item = remove(at: from)
            insert(item, at: to)
        case .reset:
            self = Array(items)
        }
    }

    /// Whether `apply(change, from: items)` reads and writes only offsets that exist (a change that does
    /// not fits another list than the mirror, or reads rows the snapshot does not have).
    public func canApply(_ change: ItemListChange, from items: ItemList<Element>) -> Bool {
        switch change {
        case let .appended(range), let .inserted(range):
            range.lowerBound <= count && range.upperBound <= items.count
        case let .removed(offsets):
            offsets.allSatisfy { $0 >= 0 && $0 < count }
        case let .updated(offsets):
            offsets.allSatisfy { $0 >= 0 && $0 < count && $0 < items.count }
        case let .moved(from, to):
            from >= 0 && from < count && to >= 0 && to < count
        case .reset:
            true
        }
    }
}
