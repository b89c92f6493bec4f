import Signals

/// A page source that can say where each page is: `page(at:)` loads the page at a key, and each page names
/// its neighbours' keys.
///
/// A store saves the keys with the rows it writes, so that a list that was paged 40 pages deep goes on
/// from the 40th page's `next` key after a relaunch instead of starting over. The keys must survive
/// encoding and decoding (`Codable`): a decoded key loads the same page as the key it was encoded from.
///
/// A keyed source can drive an in-memory view model as well:
/// `PaginatedListViewModel(source:start:scheduler:retry:maxPages:)`.
///
/// **Contract.** `page(at:)` returns a cold producer that fetches when started and sends one
/// `KeyedPage` then completes, or fails; starting it again (a retry) fetches again. It may deliver on any
/// thread. `page(at: nil)` is the source's first page (where a list opens). A page's `previous` and `next`
/// are `nil` at the ends of the feed. The source keeps no state between calls: every page is loaded
/// from its key alone (no de-duplication across pages: a view model and a store keep each id once).
public protocol KeyedPageSource<Item, Key, Failure>: Sendable {
    /// The element type of the pages.
    associatedtype Item
    /// Where a page is: a page number, an offset, a cursor, a URL. Encoded with the rows by a store.
    associatedtype Key: Codable & Hashable & Sendable
    /// The error a page load can fail with.
    associatedtype Failure: Error

    /// A producer of the page at `key` (`nil`: the source's first page).
    func page(at key: Key?) -> Producer<KeyedPage<Item, Key>, Failure>
}
