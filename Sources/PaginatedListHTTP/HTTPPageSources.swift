import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList
import Signals

// `PaginatedList`'s sources made over HTTP directly, as the first versions of this module offered them.
// They read bodies the way `HTTPPageSource` does (one `PageReader`): query items built by `HTTPQuery`,
// a missing key is a loud `HTTPError`, `{"error": …}` at a 200 is an `.errorEnvelope` error.
// `HTTPPageSource` describes every style, Stripe's and Slack's included, and records the first page's
// version; these stay for code that names the source types.

extension PageNumberSource where Failure == HTTPError, Item: Decodable {
    /// A source that GETs `url` with `pageParameter` and `sizeParameter` query items set
    /// (`/items?page=3&limit=20`), the items a top-level array or under `items`, `data` or `results`. The
    /// list ends at a short or empty page, or when the body's total (`total`, `total_pages`, …) says so.
    /// It opens at page `startPage` (`nil`: `firstPageIndex`); the pages before come with
    /// `loadPreviousPage()`.
    ///
    /// Other query items of `url` are kept. Keeps every item the server sends.
    public init(
        client: HTTPClient = HTTPClient(), url: URL, pageSize: Int, firstPageIndex: Int = 1, startPage: Int? = nil,
        pageParameter: String = "page", sizeParameter: String = "limit", endOfList: EndOfList = .shortPage
    ) {
        let reader = PageReader<Item>.legacy(client, url, .pageNumber(
            pageSize: pageSize, parameter: pageParameter, sizeParameter: sizeParameter, firstPage: firstPageIndex,
            startPage: startPage))
        self.init(firstPageIndex: firstPageIndex, startPage: startPage, pageSize: pageSize, endOfList: endOfList,
                  fetch: reader.pageNumberFetch)
    }
}

extension PageNumberSource where Failure == HTTPError, Item: Decodable & Identifiable, Item.ID: Sendable {
    /// A source that GETs `url` with `pageParameter` and `sizeParameter` query items set, opening at page
    /// `startPage` (`nil`: `firstPageIndex`), dropping items an earlier page delivered (by `id`).
    public init(
        client: HTTPClient = HTTPClient(), url: URL, pageSize: Int, firstPageIndex: Int = 1, startPage: Int? = nil,
        pageParameter: String = "page", sizeParameter: String = "limit", endOfList: EndOfList = .shortPage
    ) {
        let reader = PageReader<Item>.legacy(client, url, .pageNumber(
            pageSize: pageSize, parameter: pageParameter, sizeParameter: sizeParameter, firstPage: firstPageIndex,
            startPage: startPage))
        self.init(firstPageIndex: firstPageIndex, startPage: startPage, pageSize: pageSize, endOfList: endOfList,
                  fetch: reader.pageNumberFetch)
    }
}

extension CursorSource where Failure == HTTPError, Cursor == String, Item: Decodable {
    /// A source whose cursor travels in the body: it GETs `url` (the first page; with `start`, `url` with
    /// the `cursorParameter` query item set to it), then `url` with that query item set to the body's
    /// `next_cursor`. The key is required in every body; `null` or `""` ends the list. With
    /// `previousCursor`, the body names the page before at that path (required; `null` or `""`: nothing
    /// before), sent back the same way for `loadPreviousPage()`. A cursor that repeats the one its page
    /// was fetched with fails the page with an `HTTPError`. Keeps every item the server sends.
    public init(
        client: HTTPClient = HTTPClient(), url: URL, cursorParameter: String = "cursor", start: String? = nil,
        previousCursor: JSONPath? = nil
    ) {
        let reader = PageReader<Item>.legacy(client, url, .cursor(parameter: cursorParameter, previous: previousCursor))
        self.init(start: start.flatMap { $0.isEmpty ? nil : $0 }, fetch: reader.cursorFetch)
    }
}

extension CursorSource where Failure == HTTPError, Cursor == String, Item: Decodable & Identifiable, Item.ID: Sendable {
    /// A source whose cursor travels in the body (`next_cursor`, sent back as the `cursorParameter`
    /// query item), opening at the page of `start` (`nil`: the first page), following the previous
    /// cursor at `previousCursor` if given, dropping items an earlier page delivered (by `id`).
    public init(
        client: HTTPClient = HTTPClient(), url: URL, cursorParameter: String = "cursor", start: String? = nil,
        previousCursor: JSONPath? = nil
    ) {
        let reader = PageReader<Item>.legacy(client, url, .cursor(parameter: cursorParameter, previous: previousCursor))
        self.init(start: start.flatMap { $0.isEmpty ? nil : $0 }, fetch: reader.cursorFetch)
    }
}

/// Where a response says the URL of the next page is.
public enum NextPageLink: Sendable, Equatable {
    /// In the `Link` header, as the target of the link with this relation (`next`, as GitHub sends it).
    case linkHeader(relation: String)
    /// In the body's `next` field (an absolute or relative URL whose query items hold the cursor, as
    /// Django REST framework sends it); the key is required, `null` ends the list.
    case bodyField

    /// `Link: <…>; rel="next"`.
    public static let next = NextPageLink.linkHeader(relation: "next")

    /// The pagination style this names.
    var pagination: HTTPPagination {
        switch self {
        case let .linkHeader(relation): .linkHeader(relation: relation)
        case .bodyField: .nextURL()
        }
    }
}

extension CursorSource where Failure == HTTPError, Cursor == URL, Item: Decodable {
    /// A source that follows next-page URLs: it GETs `url`, then the URL each response names (`Link`
    /// header by default, or the body's `next` field), resolved against the URL of the response it came
    /// in; a response that names none is the last page. The list opens at `url`; with the `Link` header,
    /// a `rel="prev"` link names the page before (`loadPreviousPage()`). Keeps every item the server sends.
    public init(client: HTTPClient = HTTPClient(), url: URL, next: NextPageLink = .next) {
        self.init(fetch: PageReader<Item>.legacy(client, url, next.pagination).urlFetch)
    }
}

extension CursorSource where Failure == HTTPError, Cursor == URL, Item: Decodable & Identifiable, Item.ID: Sendable {
    /// A source that follows next-page URLs (`Link` header by default, or the body's `next` field), and
    /// `rel="prev"` links back with the `Link` header, dropping items an earlier page delivered (by `id`).
    public init(client: HTTPClient = HTTPClient(), url: URL, next: NextPageLink = .next) {
        self.init(fetch: PageReader<Item>.legacy(client, url, next.pagination).urlFetch)
    }
}

extension OffsetSource where Failure == HTTPError, Item: Decodable {
    /// A source that GETs `url` with `offsetParameter` and `limitParameter` query items set
    /// (`/items?offset=37&limit=23`), the items a top-level array or under `items`, `data` or `results`,
    /// and corrects for a feed that changes while it is paged (see `OffsetSource`: a three-item overlap,
    /// windows that grow after insertions, a search after deletions, every skip reported). It opens at
    /// offset `start` (0 by default); the items above come with `loadPreviousPage()`.
    public init(
        client: HTTPClient = HTTPClient(), url: URL, limit: Int, start: Int = 0, offsetParameter: String = "offset",
        limitParameter: String = "limit", maxSearchDistance: Int = 64, maxRequestsPerPage: Int = 8
    ) {
        let reader = PageReader<Item>.legacy(client, url, .offset(limit: limit, parameter: offsetParameter,
                                                                  limitParameter: limitParameter, start: start))
        self.init(limit: limit, start: start, maxSearchDistance: maxSearchDistance, maxRequestsPerPage: maxRequestsPerPage,
                  fetchResponse: reader.offsetFetch)
    }
}

extension PageReader {
    /// The reader of a source made with one of the inits above: automatic items, the `error` envelope.
    static func legacy(_ client: HTTPClient, _ url: URL, _ pagination: HTTPPagination) -> PageReader {
        PageReader(client: client, url: url, pagination: pagination, items: nil, envelope: .errorKey(),
                   version: HTTPFirstPageVersion())
    }
}
