import Signals

// The view model's side of a store-backed list (`PaginatedListStore`): package-level, users never see it.
//
// A store keeps the pages of a list outside the view model. The view model's machine stays the same; three
// hooks let the store (a `PageKeeper`) take part:
//
// - **Where a load starts.** Before the storage starts a producer it tells the keeper what the load is
//   (`starting(_:)`): the store's producers write a page from the remote source into the store when they
//   extend the list (append, prepend), and do not when a refresh loads them (the refresh's outcome is
//   written as a whole, below).
// - **What the pages are.** Every page a keeper's producer delivers carries a `PageOrigin` (`Page.origin`),
//   which the machine keeps with the page: the keeper reads the pages held back as `KeptWindow`s.
// - **Publish after commit.** A refresh's landing and an edit change the list in ways no producer wrote: the
//   storage runs the command on a copy of the machine, hands the keeper the window before and after
//   (`persist(_:)`), and publishes only when the keeper wrote it; otherwise the list stays as it was and the
//   keeper's failure is the refresh's failure (an edit's is reported on `diagnostics`). A keeper that shows
//   some items with other values than those written (the store's optimistic edits) returns them: the
//   transition shows them (`PagingStateMachine.amend(_:showing:)`), one transition still.

/// What a store keeps of a page a view model holds (`Page.origin`): a reference the store recognises.
@usableFromInline
package protocol PageOrigin: AnyObject, Sendable {}

/// What a load that is about to start is for.
@usableFromInline
package enum PageLoadPurpose: Sendable, Equatable {
    /// The next page, below the items held (also the first load).
    case append
    /// The page before the first item held.
    case prepend
    /// A page of a refresh (or of `fillGap()`).
    case refresh
}

/// Why the window a keeper is asked to write changed.
@usableFromInline
package enum KeptChangeCause: Sendable, Equatable {
    /// A refresh (or `fillGap()`) landed.
    case refresh
    /// An edit: `update`, `remove(id:)`, `insert(_:at:)`.
    case edit
}

/// The pages a view model holds, top to bottom, and their items.
@usableFromInline
package struct KeptWindow<Item> {
    /// Each page held: its origin (`nil` for a page no keeper delivered) and how many items it holds.
    package var pages: [(origin: (any PageOrigin)?, count: Int)]
    /// The items held, in order (the pages' items, concatenated).
    package var items: ItemList<Item>
    /// The index of the first held item below a gap, if one is open.
    package var gap: Int?

    @usableFromInline
    init(pages: [(origin: (any PageOrigin)?, count: Int)], items: ItemList<Item>, gap: Int?) {
        self.pages = pages
        self.items = items
        self.gap = gap
    }
}

/// A change of the pages held that the keeper must write before the view model shows it.
@usableFromInline
package struct KeptChange<Item> {
    /// Why the window changed.
    package let cause: KeptChangeCause
    /// The window before the change.
    package let before: KeptWindow<Item>
    /// The window after it.
    package let after: KeptWindow<Item>
    /// What changed, in order: applied to `before.items` they give `after.items` (contract 14).
    package let changes: [ItemListChange]

    @usableFromInline
    init(cause: KeptChangeCause, before: KeptWindow<Item>, after: KeptWindow<Item>, changes: [ItemListChange]) {
        self.cause = cause
        self.before = before
        self.after = after
        self.changes = changes
    }
}

/// A store that keeps a view model's pages (see the comment at the top of this file).
///
/// Every method is called by the view model's drainer (one thread at a time, in command order), never under
/// a lock of the view model.
@usableFromInline
package protocol PageKeeper<Item, Failure>: AnyObject, Sendable {
    associatedtype Item
    associatedtype Failure: Error

    /// A load for `purpose` is about to start its producer; `nil` once the start returned.
    func starting(_ purpose: PageLoadPurpose?)
    /// The producer of the first page of a load (`PaginatedListDependency.firstPage()`).
    func firstPage() -> Producer<Page<Item, Failure>, Failure>
    /// Writes `change`: the failure to report instead of showing it, or, when it is written, the items the
    /// store shows with other values than the change wrote (an item with an optimistic edit pending shows the
    /// edit on top of the value written), which the list shows instead, in the same transition.
    func persist(_ change: KeptChange<Item>) -> Result<[Item], Failure>
    /// What to report on `diagnostics` when an edit could not be written.
    func editNotKept(_ failure: Failure) -> PaginatedListDiagnostic
}

/// The keeper's dependency: its first page.
struct KeeperDependency<Keeper: PageKeeper>: PaginatedListDependency {
    let keeper: Keeper

    func firstPage() -> Producer<Page<Keeper.Item, Keeper.Failure>, Keeper.Failure> {
        keeper.firstPage()
    }
}
