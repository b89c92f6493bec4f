import Signals

/// One page of a paginated list: its items, and the producers of the pages around it.
///
/// The page chain is recursive: each page carries the `Producer` that loads the page after it, or `nil`
/// when it is the last, and may carry the `Producer` of the page before it, for lists that open in the
/// middle (a chat at its first unread message, a deep link) and grow both ways. The view model never needs
/// to know how the server pages.
public struct Page<Item, Failure: Error> {
    /// The items of this page, in display order.
    public let items: [Item]
    /// The producer of the page before this one, or `nil` if nothing comes before it.
    ///
    /// `loadPreviousPage()` runs it and puts the page it produces above the items held.
    public let previous: Producer<Page<Item, Failure>, Failure>?
    /// The producer of the next page, or `nil` if this page is the last.
    public let next: Producer<Page<Item, Failure>, Failure>?
    /// What the page's source noticed and corrected while loading it (for instance items it dropped as
    /// already loaded); the view model reports each on its `diagnostics` signal when the page lands.
    public let diagnostics: [PaginatedListDiagnostic]
    /// How many items the whole feed holds, as the server said with this page (a page-number response's
    /// total, a JSON:API `meta` count, a source's own count); `nil` when it did not say. The view model
    /// shows the latest said on `totalCount`.
    public let totalCount: Int?
    /// Where the page is kept outside the view model, for a view model whose pages a store keeps (the
    /// store's record of the page); `nil` for every other page. The view model keeps it with the page and
    /// hands it back to the store when the pages it holds change.
    @usableFromInline package let origin: (any PageOrigin)?

    /// A page of `items` between what `previous` and `next` produce (`nil`: nothing on that side; by
    /// default nothing comes before it), with what its source corrected while loading it (`diagnostics`,
    /// none by default) and how many items the whole feed holds if the server said (`totalCount`; `nil`
    /// by default: not said; a negative count, such as a server's -1 for "unknown", is kept as `nil`).
    public init(
        items: [Item],
        previous: Producer<Page<Item, Failure>, Failure>? = nil,
        next: Producer<Page<Item, Failure>, Failure>?,
        diagnostics: [PaginatedListDiagnostic] = [],
        totalCount: Int? = nil
    ) {
        self.init(items: items, previous: previous, next: next, diagnostics: diagnostics, origin: nil,
                  totalCount: totalCount)
    }

    /// A page kept outside the view model (see `origin`).
    package init(
        items: [Item],
        previous: Producer<Page<Item, Failure>, Failure>?,
        next: Producer<Page<Item, Failure>, Failure>?,
        diagnostics: [PaginatedListDiagnostic],
        origin: (any PageOrigin)?,
        totalCount: Int? = nil
    ) {
        self.items = items
        self.previous = previous
        self.next = next
        self.diagnostics = diagnostics
        self.origin = origin
        // A negative count (a server's -1 for "unknown") says nothing.
        self.totalCount = totalCount.flatMap { $0 >= 0 ? $0 : nil }
    }
}
