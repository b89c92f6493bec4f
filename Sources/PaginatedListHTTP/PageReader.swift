import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList
import Signals

/// One page as read from a response: its items, the body values the style and envelope looked at, and
/// the response itself (headers, URL).
struct ReadPage<Item> {
    let items: [Item]
    let values: [JSONPath: JSONValue]
    let lastItemField: JSONValue?
    let response: HTTPResponse
}

extension ReadPage: Sendable where Item: Sendable {}

/// Where the page after a read page is.
enum NextPage: Equatable {
    /// There is none: the read page is the last.
    case end
    /// The cursor to send back in the style's query parameter.
    case cursor(String)
    /// The URL of the next page.
    case url(URL)
}

/// What the HTTP page sources share: GET a page, read it by the style and the error envelope, say where
/// the next page is, and record the first page's version.
struct PageReader<Item: Decodable & Sendable>: Sendable {
    let client: HTTPClient
    let url: URL
    let pagination: HTTPPagination
    let items: JSONPath?
    let envelope: HTTPErrorEnvelope
    let version: HTTPFirstPageVersion

    private var plan: BodyPlan {
        BodyPlan(items: items, lookups: pagination.lookups + envelope.lookups, lastItemField: pagination.lastItemField)
    }

    /// A producer that GETs `pageURL` and sends the page read from it; the first page's version is
    /// recorded when `isFirst` and the page reads.
    func read(_ pageURL: URL, isFirst: Bool) -> Producer<ReadPage<Item>, HTTPError> {
        let request = URLRequest(url: pageURL)
        let reader = self
        return client.response(for: request).attemptMap { response throws(HTTPError) in
            let page = try reader.page(from: response)
            if isFirst {
                reader.version.record(HTTPFeedVersion(request: request, validators: response.validators, receivedAt: Date()))
            }
            return page
        }
    }

    /// The page in `response`, or the error its body reports or that keeps it from being read.
    func page(from response: HTTPResponse) throws(HTTPError) -> ReadPage<Item> {
        let body = try client.decode(PageBody<Item>.self, from: response, userInfo: [BodyPlan.userInfoKey: plan])
        if let failure = envelope.failure(in: body.values, response: response) { throw failure }
        switch body.items {
        case let .success(items):
            return ReadPage(items: items, values: body.values, lastItemField: body.lastItemField, response: response)
        case let .failure(.missing(path?)):
            throw HTTPError(kind: .decoding, response: response, reason: "missing key \(path) (the items)", keyPath: path.description)
        case .failure(.missing(nil)):
            throw HTTPError(kind: .decoding, response: response,
                            reason: "no items: expected a top-level array, or an array at items, data or results",
                            keyPath: "items")
        case let .failure(.undecodable(error)):
            throw HTTPError(kind: .decoding, response: response, reason: JSONCodingError(decoding: [Item].self, error).description,
                            keyPath: items?.description)
        }
    }

    /// Where the page after `page` is, by the style (page numbers and offsets count for themselves: `.end`).
    func next(after page: ReadPage<Item>) throws(HTTPError) -> NextPage {
        let response = page.response
        func missing(_ path: JSONPath, _ what: String) -> HTTPError {
            HTTPError(kind: .decoding, response: response, reason: "missing key \(path) (\(what))", keyPath: path.description)
        }
        func wrong(_ path: JSONPath, _ expected: String, _ value: JSONValue) -> HTTPError {
            HTTPError(kind: .decoding, response: response, reason: "expected \(expected) at \(path), found \(value.kindName)",
                      keyPath: path.description)
        }
        func flag(_ path: JSONPath) throws(HTTPError) -> Bool {
            guard let value = page.values[path] else { throw missing(path, "whether more pages follow") }
            guard case let .bool(flag) = value else { throw wrong(path, "true or false", value) }
            return flag
        }
        switch pagination.style {
        case .pageNumber, .offset:
            return .end
        case let .cursor(path, _, hasMore):
            if let hasMore, try !flag(hasMore) { return .end }
            guard let value = page.values[path] else { throw missing(path, "the next page's cursor") }
            if value == .null || value == .string("") {
                guard let hasMore else { return .end }
                throw HTTPError(kind: .decoding, response: response,
                                reason: "\(hasMore) is true but the cursor at \(path) is \(value == .null ? "null" : "empty")",
                                keyPath: path.description)
            }
            guard let cursor = value.text else { throw wrong(path, "a string or a number", value) }
            return .cursor(cursor)
        case let .startingAfter(idField, _, hasMore):
            guard try flag(hasMore) else { return .end }
            guard let id = page.lastItemField?.text, !id.isEmpty else {
                throw HTTPError(kind: .decoding, response: response,
                                reason: page.items.isEmpty ? "\(hasMore) is true but the page has no items"
                                    : "\(hasMore) is true but the last item has no \(idField)",
                                keyPath: idField)
            }
            return .cursor(id)
        case let .nextURL(path, absentMeansEnd):
            guard let value = page.values[path] else {
                if absentMeansEnd { return .end }
                throw missing(path, "the next page's URL")
            }
            if value == .null || value == .string("") { return .end }
            guard case let .string(text) = value else { throw wrong(path, "a URL", value) }
            guard let next = URL(string: text, relativeTo: response.url ?? url)?.absoluteURL else {
                throw HTTPError(kind: .decoding, response: response, reason: "the value at \(path) is not a URL: \(text)",
                                keyPath: path.description)
            }
            return .url(next)
        case let .linkHeader(relation):
            guard let header = response.header("Link"),
                  let next = WebLink.target(of: relation, in: header, relativeTo: response.url ?? url) else { return .end }
            return .url(next)
        }
    }

    /// The page number response of `page`: its items and the totals the style reads.
    func pageNumberResponse(_ page: ReadPage<Item>) throws(HTTPError) -> PageNumberResponse<Item> {
        guard case let .pageNumber(_, _, _, _, totalItemsPath, totalPagesPath) = pagination.style else {
            return PageNumberResponse(items: page.items)
        }
        func integer(_ path: JSONPath) throws(HTTPError) -> Int {
            guard let value = page.values[path] else {
                throw HTTPError(kind: .decoding, response: page.response, reason: "missing key \(path) (the total)",
                                keyPath: path.description)
            }
            guard let integer = value.integer else {
                throw HTTPError(kind: .decoding, response: page.response,
                                reason: "expected an integer at \(path), found \(value.kindName)", keyPath: path.description)
            }
            return integer
        }
        if totalItemsPath != nil || totalPagesPath != nil {
            let totalItems = try totalItemsPath.map { path throws(HTTPError) in try integer(path) }
            let totalPages = try totalPagesPath.map { path throws(HTTPError) in try integer(path) }
            return PageNumberResponse(items: page.items, totalPages: totalPages, totalItems: totalItems)
        }
        let found = HTTPPagination.automaticTotals.map { page.values[JSONPath($0)]?.integer }
        return PageNumberResponse(items: page.items, totalPages: found[4] ?? found[5],
                                  totalItems: found[0] ?? found[1] ?? found[2] ?? found[3])
    }

    // MARK: - The fetches of the sources

    /// The URL of page `page` (page-number style) or of the window at `offset` (offset style).
    func numberedURL(_ number: Int, size: Int) -> URL {
        switch pagination.style {
        case let .pageNumber(_, parameter, sizeParameter?, _, _, _):
            HTTPQuery.url(url, setting: [(name: parameter, value: String(number)), (name: sizeParameter, value: String(size))])
        case let .pageNumber(_, parameter, nil, _, _, _):
            HTTPQuery.url(url, setting: [parameter: String(number)])
        case let .offset(_, parameter, limitParameter):
            HTTPQuery.url(url, setting: [(name: parameter, value: String(number)), (name: limitParameter, value: String(size))])
        default:
            url
        }
    }

    /// The first page's URL.
    var firstURL: URL {
        switch pagination.style {
        case let .pageNumber(pageSize, _, _, firstPage, _, _): numberedURL(firstPage, size: pageSize)
        case let .offset(limit, _, _): numberedURL(0, size: limit)
        default: url
        }
    }

    /// `PageNumberSource`'s fetch, for the page-number style.
    func pageNumberFetch(firstPage: Int) -> PageNumberSource<Item, HTTPError>.Fetch {
        { [self] number, size in
            read(numberedURL(number, size: size), isFirst: number == firstPage).attemptMap { page throws(HTTPError) in
                try pageNumberResponse(page)
            }
        }
    }

    /// `PageNumberSource`'s fetch, for the offset style without corrections: page `n` (from 0) is the
    /// window at `n × size`.
    var steppedOffsetFetch: PageNumberSource<Item, HTTPError>.Fetch {
        { [self] number, size in
            read(numberedURL(number * size, size: size), isFirst: number == 0).map { PageNumberResponse(items: $0.items) }
        }
    }

    /// `CursorSource`'s fetch with the next page's URL as the cursor, for every cursor-like style.
    var urlFetch: CursorSource<Item, URL, HTTPError>.Fetch {
        { [self] cursor in
            read(cursor ?? url, isFirst: cursor == nil).attemptMap { page throws(HTTPError) in
                CursorResponse(items: page.items, nextCursor: try nextURL(after: page))
            }
        }
    }

    /// The URL of the page after `page` by the style, or `nil` if `page` is the last.
    func nextURL(after page: ReadPage<Item>) throws(HTTPError) -> URL? {
        switch try next(after: page) {
        case .end: nil
        case let .url(next): next
        case let .cursor(value): HTTPQuery.url(url, setting: [(name: cursorParameter, value: value)])
        }
    }

    // MARK: - The page before (Link: rel="prev")

    /// The target of `page`'s `Link` header link with relation `prev` (or its synonym `previous`), for
    /// the link-header style; `nil` for the other styles or when there is none.
    func previousURL(of page: ReadPage<Item>) -> URL? {
        guard case .linkHeader = pagination.style, let header = page.response.header("Link") else { return nil }
        return WebLink.parse(header, relativeTo: page.response.url ?? url)
            .first { $0.has(relation: "prev") || $0.has(relation: "previous") }?.target
    }

    /// The link-header style's first page: the page of `url`, paged on by the `CursorSource` that `chain`
    /// makes over a fetch (so its de-duplication applies), with the page its `prev` link names as its
    /// `previous`. The first page is read once: the chain's first fetch hands over the response read.
    func firstPageLinkingBack(
        chain: @escaping @Sendable (@escaping CursorSource<Item, URL, HTTPError>.Fetch) -> Producer<Page<Item, HTTPError>, HTTPError>
    ) -> Producer<Page<Item, HTTPError>, HTTPError> {
        let reader = self
        return read(url, isFirst: true).flatMap(.latest) { first in
            let response = Result { () throws(HTTPError) in
                CursorResponse(items: first.items, nextCursor: try reader.nextURL(after: first))
            }
            let urlFetch = reader.urlFetch
            let previous = reader.previousURL(of: first)
            return chain { cursor in cursor.map(urlFetch) ?? Producer(result: response) }.map { page in
                Page(items: page.items, previous: previous.map(reader.linkedPage), next: page.next,
                     diagnostics: page.diagnostics)
            }
        }
    }

    /// The page of `pageURL` read by the link-header style, with the pages its `prev` and `next` links
    /// name as its `previous` and `next` (made the same way): the pages above a list that opened in the
    /// middle. Items are not de-duplicated here; the view model holds an id once.
    func linkedPage(_ pageURL: URL) -> Producer<Page<Item, HTTPError>, HTTPError> {
        let reader = self
        return read(pageURL, isFirst: false).attemptMap { page throws(HTTPError) in
            Linked(items: page.items, previous: reader.previousURL(of: page), next: try reader.nextURL(after: page))
        }.map { linked in
            Page(items: linked.items, previous: linked.previous.map(reader.linkedPage), next: linked.next.map(reader.linkedPage))
        }
    }

    /// A page read by the link-header style: its items and the URLs of the pages around it.
    private struct Linked: Sendable {
        let items: [Item]
        let previous: URL?
        let next: URL?
    }

    /// `CursorSource`'s fetch with the body's cursor as the cursor (the cursor style).
    var cursorFetch: CursorSource<Item, String, HTTPError>.Fetch {
        { [self] cursor in
            let pageURL = cursor.map { HTTPQuery.url(url, setting: [(name: cursorParameter, value: $0)]) } ?? url
            return read(pageURL, isFirst: cursor == nil).attemptMap { page throws(HTTPError) in
                let next: String? = switch try next(after: page) {
                case let .cursor(value): value
                case .end, .url: nil
                }
                return CursorResponse(items: page.items, nextCursor: next)
            }
        }
    }

    /// The query parameter a cursor-like style sends its cursor in.
    private var cursorParameter: String {
        switch pagination.style {
        case let .cursor(_, parameter, _), let .startingAfter(_, parameter, _): parameter
        default: "cursor"
        }
    }
}

extension PageReader where Item: Identifiable, Item.ID: Sendable {
    /// `OffsetSource`'s fetch, for the offset style with corrections.
    var offsetFetch: OffsetSource<Item, HTTPError>.Fetch {
        { [self] offset, limit in
            read(numberedURL(offset, size: limit), isFirst: offset == 0).map(\.items)
        }
    }
}
