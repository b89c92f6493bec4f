import Foundation
import PaginatedList
import Signals

/// One way an HTTP API pages, as `HTTPPagination` holds it: what the style reads from a body, the request
/// of the page the list opens at, which of `PaginatedList`'s sources walks the pages, and how a store's
/// page key is loaded.
///
/// A new style is a value conforming to this protocol (one file under `Styles/`) and a factory method on
/// `HTTPPagination`. A style that follows the server's own next page (a cursor, a URL, a `Link` header)
/// conforms to `FollowingStyle` instead, and says only where the pages after and before a page are.
protocol PaginationStyle: Sendable {
    /// The style as the user wrote it (`.pageNumber`, `.linkHeader`, …), for messages.
    var name: String { get }
    /// The body values the style reads: the body plan looks them up while the items decode.
    var lookups: [JSONPath] { get }
    /// The field of the last item the style reads (`startingAfter`'s id), if any.
    var lastItemField: String? { get }
    /// The statuses that answer a page past the end of the feed: an empty page, not a failure (see
    /// `HTTPPagination`, "Past the end").
    var pastEndStatuses: Set<Int> { get }

    /// The URL of the page the list opens at, from the source's `url`.
    func firstURL(from url: URL) -> URL

    /// The first page of a fresh chain of `reader`'s pages, items already delivered dropped by
    /// `deduplication`.
    func firstPage<Item>(
        _ reader: PageReader<Item>, deduplication: DuplicatePolicy<Item>
    ) -> Producer<Page<Item, HTTPError>, HTTPError>

    /// `firstPage(_:deduplication:)` over `Identifiable` items (the offset style corrects for a changing
    /// feed by id).
    func identifiableFirstPage<Item: Identifiable>(
        _ reader: PageReader<Item>, deduplication: DuplicatePolicy<Item>
    ) -> Producer<Page<Item, HTTPError>, HTTPError> where Item.ID: Sendable

    /// The page at `key` (`nil`: the page the list opens at) with the keys of the pages around it, or `nil`
    /// when `key` is of another style (see `HTTPPageSource.page(at:)`).
    func keyedPage<Item>(at key: HTTPPageKey?, _ reader: PageReader<Item>) -> Producer<KeyedPage<Item, HTTPPageKey>, HTTPError>?
}

extension PaginationStyle {
    var lastItemField: String? { nil }
    var pastEndStatuses: Set<Int> { [] }

    func identifiableFirstPage<Item: Identifiable>(
        _ reader: PageReader<Item>, deduplication: DuplicatePolicy<Item>
    ) -> Producer<Page<Item, HTTPError>, HTTPError> where Item.ID: Sendable {
        firstPage(reader, deduplication: deduplication)
    }
}

/// A style that follows the server: each page says where the next (and perhaps the previous) page is, as
/// a cursor, a URL or a `Link` header. `CursorSource` walks the pages, the page's URL as the cursor.
protocol FollowingStyle: PaginationStyle {
    /// The URL of the page after `page` (read from `pageURL`; `url` is the source's), or `nil` when `page`
    /// is the last.
    func next<Item>(after page: ReadPage<Item>, at pageURL: URL, source url: URL) throws(HTTPError) -> URL?

    /// The URL of the page before `page` (read from `pageURL`; `url` is the source's), or `nil` when there
    /// is none.
    func previous<Item>(of page: ReadPage<Item>, at pageURL: URL, source url: URL) throws(HTTPError) -> URL?
}

extension FollowingStyle {
    var pastEndStatuses: Set<Int> { [] }

    /// `CursorSource`'s fetch with the page's URL as the cursor: the first page at `firstURL(from:)`, then
    /// the URLs of the pages after and before each page, by the style.
    func fetch<Item>(_ reader: PageReader<Item>) -> CursorSource<Item, URL, HTTPError>.Fetch {
        { [self] cursor in
            let pageURL = cursor ?? firstURL(from: reader.url)
            return reader.read(pageURL, isFirst: cursor == nil).attemptMap { page throws(HTTPError) in
                CursorResponse(items: page.items, previousCursor: try previous(of: page, at: pageURL, source: reader.url),
                               nextCursor: try next(after: page, at: pageURL, source: reader.url),
                               totalCount: try page.shownTotal(defaults: []))
            }
        }
    }

    func firstPage<Item>(
        _ reader: PageReader<Item>, deduplication: DuplicatePolicy<Item>
    ) -> Producer<Page<Item, HTTPError>, HTTPError> {
        CursorSource(deduplication: deduplication, fetch: fetch(reader)).firstPage()
    }

    func keyedPage<Item>(at key: HTTPPageKey?, _ reader: PageReader<Item>) -> Producer<KeyedPage<Item, HTTPPageKey>, HTTPError>? {
        let url: URL?
        switch key {
        case nil: url = nil
        case let .url(keyURL)?: url = keyURL
        case .page?, .offset?: return nil
        }
        return CursorSource(fetch: fetch(reader)).page(at: url).map { page in
            KeyedPage(items: page.items, previous: page.previous.map(HTTPPageKey.url), next: page.next.map(HTTPPageKey.url),
                      totalCount: page.totalCount, validators: url == nil ? reader.firstPageValidators() : nil)
        }
    }
}
