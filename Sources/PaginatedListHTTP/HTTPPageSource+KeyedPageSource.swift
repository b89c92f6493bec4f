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
    /// A window of the offset style: its offset (the window holds the style's `limit` items from there).
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
        let reader = self.reader
        let validators: @Sendable () -> PageValidators? = {
            guard key == nil, let latest = reader.version.latest?.validators, !latest.isEmpty else { return nil }
            return PageValidators(etag: latest.etag, lastModified: latest.lastModified)
        }
        switch (paging.style, key) {
        case let (.pageNumber(pageSize, _, _, firstPage, _, _), .page(_)?),
             let (.pageNumber(pageSize, _, _, firstPage, _, _), nil):
            let number: Int? = if case let .page(number)? = key { number } else { nil }
            let source = PageNumberSource(firstPageIndex: firstPage, startPage: reader.startPage, pageSize: pageSize,
                                          fetch: reader.pageNumberFetch)
            return source.page(at: number).map { page in
                KeyedPage(items: page.items, previous: page.previous.map(HTTPPageKey.page),
                          next: page.next.map(HTTPPageKey.page), totalCount: page.totalCount, validators: validators())
            }
        case let (.offset(limit, _, _), .offset(_)?), let (.offset(limit, _, _), nil):
            let offset: Int = if case let .offset(offset)? = key { offset } else { reader.startOffset }
            return offsetWindow(at: offset, limit: limit, isFirst: key == nil)
        case (.cursor, .url?), (.cursor, nil), (.startingAfter, .url?), (.startingAfter, nil), (.nextURL, .url?),
             (.nextURL, nil), (.linkHeader, .url?), (.linkHeader, nil):
            let url: URL? = if case let .url(url)? = key { url } else { nil }
            return CursorSource(fetch: reader.urlFetch).page(at: url).map { page in
                KeyedPage(items: page.items, previous: page.previous.map(HTTPPageKey.url), next: page.next.map(HTTPPageKey.url),
                          totalCount: nil, validators: validators())
            }
        case let (style, key?):
            return Producer(error: HTTPError(
                kind: .decoding, url: reader.url,
                reason: "the page key \(key) was stored by a source of another paging style than \(style): refresh the list"))
        }
    }

    /// The window of `limit` items at `offset` (cut short at the top of the feed), with the windows above
    /// and below it; a window shorter than asked is the last.
    private func offsetWindow(at offset: Int, limit: Int, isFirst: Bool) -> Producer<KeyedPage<Item, HTTPPageKey>, HTTPError> {
        let start = max(0, offset)
        let size = limit + min(0, offset)
        return reader.read(reader.numberedURL(start, size: size), isFirst: isFirst).map { page in
            let validators = isFirst && !page.response.validators.isEmpty
                ? PageValidators(etag: page.response.validators.etag, lastModified: page.response.validators.lastModified) : nil
            return KeyedPage(items: page.items, previous: start > 0 ? .offset(start - limit) : nil,
                             next: page.items.count < size || page.items.isEmpty ? nil : .offset(start + page.items.count),
                             totalCount: nil, validators: validators)
        }
    }
}
