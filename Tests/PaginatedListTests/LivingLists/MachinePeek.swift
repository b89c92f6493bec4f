@testable import PaginatedList

/// What the randomized tests read of a view model's machine that no public property shows: the pages
/// its ledger holds. Read from the storage's machine (internal, reached through `@testable import`); the
/// machine belongs to the holder of the drain token, so this is only valid while no command runs, which is
/// always the case between steps of a test on an `ImmediateScheduler`.
struct MachinePeek: Equatable {
    /// How many pages the ledger holds.
    let pageCount: Int
    /// How many items the ledger's pages count (must equal `items.count`).
    let ledgerItemCount: Int
    /// The item count of each page held, top to bottom.
    let pageSizes: [Int]
    /// How many requests of dropped pages the machine keeps (above and below the window).
    let rememberedRequests: Int

    init<Item, Failure>(_ viewModel: PaginatedListViewModel<Item, Failure>) {
        let machine = viewModel.core.machine
        pageCount = machine.ledger.pageCount
        ledgerItemCount = machine.ledger.itemCount
        pageSizes = machine.ledger.pages.map(\.count)
        rememberedRequests = machine.droppedAbove.count + machine.droppedBelow.count
    }
}
