import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList
import Signals

/// Where a page of an `HTTPPageSource` is: what a store keeps to go on from it after a relaunch.
public enum HTTPPageKey: Codable, Hashable, Sendable {
    /// A page of the page-number style: its number, as the server counts.
    case page(Int)
    /// A window of the offset style: its offset (the window holds the style's `limit` items from there; an
    /// offset beyond 2^40 is taken as 2^40, one below `1 - limit` as `1 - limit`: the window ending at the first item).
    case offset(Int)
    /// A page of a style that follows the server (`.cursor`, `.startingAfter`, `.nextURL`, `.linkHeader`):
    /// its URL, the cursor or link included.
    case url(URL)
}

/// An HTTP feed in every style says where each page is (`HTTPPageKey`), so a store can keep it.
extension HTTPPageSource: KeyedPageSource {
    /// The page at `key` (`nil`: the first page, where the style's `start` opens the list), with the keys
    /// of the pages around it as the style finds them (page numbers and offsets count; the other styles
    /// follow the body's cursor, the next URL or the `Link` header), the total when the page-number style
    /// reads one, and the first page's validators (`ETag`, `Last-Modified`).
    ///
    /// Keeps every item: a keyed page is loaded from its key alone. The offset style's pages are plain
    /// windows here: `OffsetSource`'s corrections for a feed that changes while it is paged need the pages
    /// loaded in memory and cannot go on from a key, so a stored offset feed revalidates from the top
    /// (`Revalidation.always`). A key of another style than the source's (a feed stored by an app that paged
    /// it another way) fails with a `.decoding` error.
    public func page(at key: HTTPPageKey?) -> Producer<KeyedPage<Item, HTTPPageKey>, HTTPError> {
        if let page = reader.style.keyedPage(at: key, reader) { return page }
        return Producer(error: HTTPError(
            kind: .decoding, url: reader.url,
            reason: "the page key \(key.map { "\($0)" } ?? "nil") was stored by a source of another paging style than "
                + "\(reader.style.name): refresh the list"))
    }
}
