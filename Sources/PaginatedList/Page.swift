import Signals

/// One page of a paginated list: its items, and the producer of the page after it.
///
/// The page chain is recursive: each page carries the `Producer` that loads the next one, or `nil`
/// when it is the last. The view model never needs to know how the server pages.
public struct Page<Item, Failure: Error> {
    /// The items of this page, in display order.
    public let items: [Item]
    /// The producer of the next page, or `nil` if this page is the last.
    public let next: Producer<Page<Item, Failure>, Failure>?
    /// What the page's source noticed and corrected while loading it (for instance items it dropped as
    /// already loaded); the view model reports each on its `diagnostics` signal when the page lands.
    public let diagnostics: [PaginatedListDiagnostic]

    /// A page of `items` followed by what `next` produces (`nil`: this is the last page).
    public init(items: [Item], next: Producer<Page<Item, Failure>, Failure>?) {
        self.init(items: items, next: next, diagnostics: [])
    }

    /// A page of `items` followed by what `next` produces, with what its source corrected while loading it.
    public init(items: [Item], next: Producer<Page<Item, Failure>, Failure>?, diagnostics: [PaginatedListDiagnostic]) {
        self.items = items
        self.next = next
        self.diagnostics = diagnostics
    }
}
