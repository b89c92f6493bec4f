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
    /// and below it.
    ///
    /// A window shorter than asked ends the list only when the body says nothing follows (its total, its
    /// next link, `has_more`); when it says nothing, the window below is asked for and an empty one ends
    /// the list (a server that caps `limit` never ends it silently). A window past the end answered with a
    /// status of the style's `pastEndStatuses` is an empty one (for the first page at a `start` past the
    /// end, when offset 0 answers). A short window steps up by what it held, so that the window above ends
    /// where it begins even under a cap (overlapping items are kept once by the list).
    private func offsetWindow(at offset: Int, limit: Int, isFirst: Bool) -> Producer<KeyedPage<Item, HTTPPageKey>, HTTPError> {
        let start = max(0, offset)
        let size = limit + min(0, offset)
        let url = reader.numberedURL(start, size: size)
        let top = isFirst ? reader.numberedURL(0, size: size) : nil
        let window = start > 0 ? reader.read(url, isFirst: isFirst, pastEndBelow: top) : reader.read(url, isFirst: isFirst).map { $0 }
        return window.map { page in
            let items = page?.items ?? []
            let response = page.map { PageReader<Item>.offsetResponse($0, asked: size) }
            let end = start + items.count
            let goesOn = items.count >= size || (!items.isEmpty
                && (response?.hasMore ?? response?.totalItems.map { end < $0 } ?? true))
            let step = items.isEmpty || items.count >= size ? limit : items.count
            let validators = isFirst && page.map { !$0.response.validators.isEmpty } == true
                ? page.map { PageValidators(etag: $0.response.validators.etag, lastModified: $0.response.validators.lastModified) }
                : nil
            return KeyedPage(items: items, previous: start > 0 && !(isFirst && page == nil) ? .offset(start - step) : nil,
                             next: goesOn ? .offset(end) : nil, totalCount: response?.totalItems, validators: validators)
        }
    }
}
