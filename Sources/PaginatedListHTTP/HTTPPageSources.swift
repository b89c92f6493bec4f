import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList
import Signals

// The HTTP page sources are the PaginatedList sources with fetch closures that make GET requests:
// the paging logic (end of list, de-duplication, drift and hole corrections) is theirs. Each request
// is a fresh `HTTPClient` producer, so a retry makes the request again and a reset cancels it.

extension PageNumberSource where Failure == HTTPError, Item: Decodable {
    /// A source that GETs `url` with `pageParameter` and `sizeParameter` query items set
    /// (`/items?page=3&limit=20`) and decodes each body as a `FeedEnvelope`. The list ends at a short or
    /// empty page, or when the envelope's total (`total`, `total_pages`, …) says so.
    ///
    /// Other query items of `url` are kept. Keeps every item the server sends.
    public init(
        client: HTTPClient = HTTPClient(), url: URL, pageSize: Int, firstPageIndex: Int = 1,
        pageParameter: String = "page", sizeParameter: String = "limit", endOfList: EndOfList = .shortPage
    ) {
        self.init(firstPageIndex: firstPageIndex, pageSize: pageSize, endOfList: endOfList,
                  fetch: HTTPFetch.pageNumber(client, url, pageParameter, sizeParameter))
    }
}

extension PageNumberSource where Failure == HTTPError, Item: Decodable & Identifiable, Item.ID: Sendable {
    /// A source that GETs `url` with `pageParameter` and `sizeParameter` query items set and decodes each
    /// body as a `FeedEnvelope`, dropping items an earlier page delivered (by `id`).
    public init(
        client: HTTPClient = HTTPClient(), url: URL, pageSize: Int, firstPageIndex: Int = 1,
        pageParameter: String = "page", sizeParameter: String = "limit", endOfList: EndOfList = .shortPage
    ) {
        self.init(firstPageIndex: firstPageIndex, pageSize: pageSize, endOfList: endOfList,
                  fetch: HTTPFetch.pageNumber(client, url, pageParameter, sizeParameter))
    }
}

extension CursorSource where Failure == HTTPError, Cursor == String, Item: Decodable {
    /// A source whose cursor travels in the body: it GETs `url` (the first page), then `url` with the
    /// `cursorParameter` query item set to the envelope's `next_cursor`; a missing or `null` cursor ends
    /// the list. Keeps every item the server sends.
    public init(client: HTTPClient = HTTPClient(), url: URL, cursorParameter: String = "cursor") {
        self.init(fetch: HTTPFetch.cursor(client, url, cursorParameter))
    }
}

extension CursorSource where Failure == HTTPError, Cursor == String, Item: Decodable & Identifiable, Item.ID: Sendable {
    /// A source whose cursor travels in the body (`next_cursor`, sent back as the `cursorParameter`
    /// query item), dropping items an earlier page delivered (by `id`).
    public init(client: HTTPClient = HTTPClient(), url: URL, cursorParameter: String = "cursor") {
        self.init(fetch: HTTPFetch.cursor(client, url, cursorParameter))
    }
}

/// Where a response says the URL of the next page is.
public enum NextPageLink: Sendable, Equatable {
    /// In the `Link` header, as the target of the link with this relation (`next`, as GitHub sends it).
    case linkHeader(relation: String)
    /// In the body's `next` field (an absolute or relative URL whose query items hold the cursor, as
    /// Django REST framework sends it).
    case bodyField

    /// `Link: <…>; rel="next"`.
    public static let next = NextPageLink.linkHeader(relation: "next")
}

extension CursorSource where Failure == HTTPError, Cursor == URL, Item: Decodable {
    /// A source that follows next-page URLs: it GETs `url`, then the URL each response names (`Link`
    /// header by default, or the body's `next` field), resolved against the URL of the response it came
    /// in; a response that names none is the last page. Keeps every item the server sends.
    public init(client: HTTPClient = HTTPClient(), url: URL, next: NextPageLink = .next) {
        self.init(fetch: HTTPFetch.link(client, url, next))
    }
}

extension CursorSource where Failure == HTTPError, Cursor == URL, Item: Decodable & Identifiable, Item.ID: Sendable {
    /// A source that follows next-page URLs (`Link` header by default, or the body's `next` field),
    /// dropping items an earlier page delivered (by `id`).
    public init(client: HTTPClient = HTTPClient(), url: URL, next: NextPageLink = .next) {
        self.init(fetch: HTTPFetch.link(client, url, next))
    }
}

extension OffsetSource where Failure == HTTPError, Item: Decodable {
    /// A source that GETs `url` with `offsetParameter` and `limitParameter` query items set
    /// (`/items?offset=40&limit=21`), decodes each body as a `FeedEnvelope`, and corrects for a feed that
    /// changes while it is paged (see `OffsetSource`: overlap by one, drift after insertions, hole
    /// search after deletions).
    public init(
        client: HTTPClient = HTTPClient(), url: URL, limit: Int, offsetParameter: String = "offset",
        limitParameter: String = "limit", maxSearchDistance: Int = 64, maxRequestsPerPage: Int = 8
    ) {
        self.init(limit: limit, maxSearchDistance: maxSearchDistance, maxRequestsPerPage: maxRequestsPerPage) {
            offset, limit in
            let pageURL = url.settingQueryItems([offsetParameter: String(offset), limitParameter: String(limit)])
            return client.get(FeedEnvelope<Item>.self, for: URLRequest(url: pageURL)) { _, envelope in envelope.items }
        }
    }
}

/// The fetch closures of the HTTP sources.
enum HTTPFetch {
    static func pageNumber<Item: Decodable & Sendable>(
        _ client: HTTPClient, _ url: URL, _ pageParameter: String, _ sizeParameter: String
    ) -> PageNumberSource<Item, HTTPError>.Fetch {
        { page, size in
            let pageURL = url.settingQueryItems([pageParameter: String(page), sizeParameter: String(size)])
            return client.get(FeedEnvelope<Item>.self, for: URLRequest(url: pageURL)) { _, envelope in
                PageNumberResponse(items: envelope.items, totalPages: envelope.totalPages, totalItems: envelope.totalItems)
            }
        }
    }

    static func cursor<Item: Decodable & Sendable>(
        _ client: HTTPClient, _ url: URL, _ cursorParameter: String
    ) -> CursorSource<Item, String, HTTPError>.Fetch {
        { cursor in
            let pageURL = cursor.map { url.settingQueryItems([cursorParameter: $0]) } ?? url
            return client.get(FeedEnvelope<Item>.self, for: URLRequest(url: pageURL)) { _, envelope in
                CursorResponse(items: envelope.items, nextCursor: envelope.nextCursor.flatMap { $0.isEmpty ? nil : $0 })
            }
        }
    }

    static func link<Item: Decodable & Sendable>(
        _ client: HTTPClient, _ url: URL, _ next: NextPageLink
    ) -> CursorSource<Item, URL, HTTPError>.Fetch {
        { cursor in
            let pageURL = cursor ?? url
            return client.get(FeedEnvelope<Item>.self, for: URLRequest(url: pageURL)) { response, envelope in
                let base = response.url ?? pageURL
                let nextURL: URL? = switch next {
                case let .linkHeader(relation):
                    response.header("Link").flatMap { WebLink.target(of: relation, in: $0, relativeTo: base) }
                case .bodyField:
                    envelope.next.flatMap { URL(string: $0, relativeTo: base)?.absoluteURL }
                }
                return CursorResponse(items: envelope.items, nextCursor: nextURL)
            }
        }
    }
}

extension URL {
    /// The URL with each query item of `items` set (replacing items of the same name), others kept.
    func settingQueryItems(_ items: [String: String]) -> URL {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: true) else { return self }
        var query = (components.queryItems ?? []).filter { items[$0.name] == nil }
        for name in items.keys.sorted() {
            query.append(URLQueryItem(name: name, value: items[name]))
        }
        components.queryItems = query
        return components.url ?? self
    }
}
