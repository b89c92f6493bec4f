@testable import PaginatedList

/// What the randomized tests read of a view model's machine that no public property shows: the pages
/// its ledger holds. Read by reflection from the storage (the machine is private to it); only valid while
/// no command runs, which is always the case between steps of a test on an `ImmediateScheduler`.
struct MachinePeek: Equatable {
    /// How many pages the ledger holds.
    let pageCount: Int
    /// How many items the ledger's pages count (must equal `items.count`).
    let ledgerItemCount: Int
    /// The item count of each page held, top to bottom.
    let pageSizes: [Int]
    /// How many requests of dropped pages the machine keeps (above and below the window).
    let rememberedRequests: Int

    init?<Item, Failure>(_ viewModel: PaginatedListViewModel<Item, Failure>) {
        // Reflecting a child costs a type lookup: find the machine's position once, then read only it.
        let children = Mirror(reflecting: viewModel.core).children
        let offset = Self.machineOffset.withLock { offset in
            if offset == nil { offset = children.firstIndex { $0.label == "machine" }.map { children.distance(from: children.startIndex, to: $0) } }
            return offset
        }
        guard let offset else { return nil }
        let child = children[children.index(children.startIndex, offsetBy: offset)]
        guard child.label == "machine", let machine = child.value as? PagingStateMachine<Item, Failure> else { return nil }
        pageCount = machine.ledger.pageCount
        ledgerItemCount = machine.ledger.itemCount
        pageSizes = machine.ledger.pages.map(\.count)
        rememberedRequests = machine.droppedAbove.count + machine.droppedBelow.count
    }

    /// The position of the storage's `machine` among its stored properties.
    private static let machineOffset = Locked<Int?>(nil)
}
