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

    private static func missing(_ path: JSONPath, _ what: String, in response: HTTPResponse) -> HTTPError {
        HTTPError(kind: .decoding, response: response, reason: "missing key \(path) (\(what))", keyPath: path.description)
    }

    private static func wrong(_ path: JSONPath, _ expected: String, _ value: JSONValue, in response: HTTPResponse) -> HTTPError {
        HTTPError(kind: .decoding, response: response, reason: "expected \(expected) at \(path), found \(value.kindName)",
                  keyPath: path.description)
    }

    /// The URL the body's value at `path` names (absolute, or relative to the response's URL); `nil` for
    /// `null` or `""`.
    private func linkedURL(_ value: JSONValue, at path: JSONPath, in response: HTTPResponse) throws(HTTPError) -> URL? {
        if value == .null || value == .string("") { return nil }
        guard case let .string(text) = value else { throw Self.wrong(path, "a URL", value, in: response) }
        guard let target = URL(string: text, relativeTo: response.url ?? url)?.absoluteURL else {
            throw HTTPError(kind: .decoding, response: response, reason: "the value at \(path) is not a URL: \(text)",
                            keyPath: path.description)
        }
        return target
    }

    /// The target of the first readable link of `relations` in `response`'s `Link` header; `.end` when
    /// no link names them. A header that names them only in links that cannot be read (a `>` cut off, a
    /// target that is not a URL) fails with `.decoding` at `Link`: taking it for the last page would end
    /// the list silently.
    private func linked(_ relations: [String], in response: HTTPResponse) throws(HTTPError) -> NextPage {
        guard let header = response.header("Link") else { return .end }
        switch WebLink.lookup(relations, in: header, relativeTo: response.url ?? url) {
        case let .found(target): return .url(target)
        case .absent: return .end
        case let .unreadable(part):
            throw HTTPError(kind: .decoding, response: response,
                            reason: #"the Link header's rel="\#(relations[0])" link cannot be read (\#(part.problem)): \#(part.text)"#,
                            keyPath: "Link")
        }
    }

    /// Where the page after `page` is, by the style (page numbers and offsets count for themselves: `.end`).
    func next(after page: ReadPage<Item>) throws(HTTPError) -> NextPage {
        let response = page.response
        func missing(_ path: JSONPath, _ what: String) -> HTTPError { Self.missing(path, what, in: response) }
        func wrong(_ path: JSONPath, _ expected: String, _ value: JSONValue) -> HTTPError {
            Self.wrong(path, expected, value, in: response)
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
            return try linkedURL(value, at: path, in: response).map(NextPage.url) ?? .end
        case let .linkHeader(relation):
            return try linked([relation], in: response)
        }
    }

    /// Where the page before `page` is, by the style: a `Link` header's `prev` (or `previous`) link, or
    /// the body's value at the `previous` path of the cursor and next-URL styles; `.end` for the other
    /// styles (page numbers and offsets count for themselves) and when there is none.
    func previous(of page: ReadPage<Item>) throws(HTTPError) -> NextPage {
        let response = page.response
        switch pagination.style {
        case .linkHeader:
            return try linked(["prev", "previous"], in: response)
        case .cursor:
            guard let path = pagination.previous else { return .end }
            guard let value = page.values[path] else { throw Self.missing(path, "the previous page's cursor", in: response) }
            if value == .null || value == .string("") { return .end }
            guard let cursor = value.text else { throw Self.wrong(path, "a string or a number", value, in: response) }
            return .cursor(cursor)
        case let .nextURL(_, absentMeansEnd):
            guard let path = pagination.previous else { return .end }
            guard let value = page.values[path] else {
                if absentMeansEnd { return .end }
                throw Self.missing(path, "the previous page's URL", in: response)
            }
            return try linkedURL(value, at: path, in: response).map(NextPage.url) ?? .end
        case .pageNumber, .offset, .startingAfter:
            return .end
        }
    }

    /// Fails with an `HTTPError` when `cursor`, read at `path` of `page`, is the cursor `sent` for that
    /// page: following it would load the same page for ever.
    private func refuseRepeat(_ cursor: String, sent: String?, at path: JSONPath?, _ page: ReadPage<Item>) throws(HTTPError) {
        guard cursor == sent else { return }
        let place = path.map { " at \($0)" } ?? ""
        throw HTTPError(kind: .decoding, response: page.response,
                        reason: "the cursor\(place) repeats the cursor of this page (\(cursor)): following it would load it for ever",
                        keyPath: path?.description)
    }

    /// The page number response of `page`: its items, the totals the style reads, and whether the body
    /// says more follow.
    func pageNumberResponse(_ page: ReadPage<Item>) throws(HTTPError) -> PageNumberResponse<Item> {
        guard case let .pageNumber(_, _, _, _, totalItemsPath, totalPagesPath) = pagination.style else {
            return PageNumberResponse(items: page.items)
        }
        let more = Self.more(in: page)
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
            return PageNumberResponse(items: page.items, totalPages: totalPages, totalItems: totalItems, hasMore: more)
        }
        return PageNumberResponse(items: page.items, totalPages: Self.first(HTTPPagination.automaticPageTotals, in: page),
                                  totalItems: Self.first(HTTPPagination.automaticItemTotals, in: page), hasMore: more)
    }

    /// The first integer the body holds at one of `paths`.
    private static func first(_ paths: [JSONPath], in page: ReadPage<Item>) -> Int? {
        paths.lazy.compactMap { page.values[$0]?.integer }.first
    }

    /// Whether the body says pages follow: a boolean `has_more`, or the first of the next-page keys
    /// (`next`, `links.next`, `next_page_url`): `true` for a URL (or any value but `null` and `""`), `false`
    /// for `null` or `""`; `nil` when the body has none.
    private static func more(in page: ReadPage<Item>) -> Bool? {
        for path in HTTPPagination.automaticMore {
            guard let value = page.values[path] else { continue }
            if case let .bool(flag) = value { return flag }
            return !(value == .null || value == .string(""))
        }
        return nil
    }

    /// The offset response of `page`, a window of `asked` items from `offset`. What the body says about
    /// the rest of the feed (its total, whether more follow) is passed on for a short window, where it
    /// tells a capped window from the end; a full window goes on regardless (so a total that means
    /// something else, the page's own count say, can never end the list early).
    static func offsetResponse(_ page: ReadPage<Item>, asked: Int) -> OffsetResponse<Item> {
        guard page.items.count < asked else { return OffsetResponse(items: page.items) }
        return OffsetResponse(items: page.items, totalItems: first(HTTPPagination.automaticItemTotals, in: page),
                              hasMore: more(in: page))
    }

    // MARK: - Past the end

    /// Whether `error` answers a page number or offset past the end (a status of the style's
    /// `pastEndStatuses`).
    private func isPastEnd(_ error: HTTPError) -> Bool {
        error.kind == .status && error.statusCode.map(pagination.pastEndStatuses.contains) == true
    }

    /// A producer that GETs `pageURL` and sends the page read from it, or `nil` when the server answers
    /// that it lies past the end (see `HTTPPagination`, "Past the end"). `top`: the URL of the first page,
    /// for a start page below it: its answer says whether the start page is past the end (`nil`) or the
    /// URL is wrong (its failure). `nil` for the first page itself: such a status stays an error.
    func read(_ pageURL: URL, isFirst: Bool, pastEndBelow top: URL?) -> Producer<ReadPage<Item>?, HTTPError> {
        let page = read(pageURL, isFirst: isFirst)
        guard top != nil || !isFirst else { return page.map { $0 } }
        let reader = self
        return Producer { observer, lifetime in
            page.startFirst(in: lifetime) { event in
                switch event {
                case let .value(page):
                    observer.send(value: page)
                    observer.sendCompleted()
                case let .failed(error) where reader.isPastEnd(error):
                    guard let top else {
                        observer.send(value: nil)
                        observer.sendCompleted()
                        return
                    }
                    reader.read(top, isFirst: false).startFirst(in: lifetime) { event in
                        switch event {
                        case .value:
                            observer.send(value: nil)
                            observer.sendCompleted()
                        case let .failed(error): observer.send(error: error)
                        case .completed: observer.sendCompleted()
                        case .interrupted: observer.sendInterrupted()
                        }
                    }
                case let .failed(error): observer.send(error: error)
                case .completed: observer.sendCompleted()
                case .interrupted: observer.sendInterrupted()
                }
            }
        }
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

    /// The page number the list opens at (page-number style).
    var startPage: Int {
        switch (pagination.style, pagination.start) {
        case let (_, .page(number)?): number
        case let (.pageNumber(_, _, _, firstPage, _, _), _): firstPage
        default: 0
        }
    }

    /// The offset the list opens at (offset style).
    var startOffset: Int {
        if case let .offset(offset)? = pagination.start { return offset }
        return 0
    }

    /// The first page's URL: the page the list opens at.
    var firstURL: URL {
        switch pagination.style {
        case let .pageNumber(pageSize, _, _, _, _, _): numberedURL(startPage, size: pageSize)
        case let .offset(limit, _, _): numberedURL(startOffset, size: limit)
        case .cursor, .startingAfter:
            if case let .cursor(start)? = pagination.start {
                HTTPQuery.url(url, setting: [(name: cursorParameter, value: start)])
            } else {
                url
            }
        default: url
        }
    }

    /// `PageNumberSource`'s fetch, for the page-number style. A page past the end (see `read(_:isFirst:
    /// pastEndBelow:)`) is an empty one.
    var pageNumberFetch: PageNumberSource<Item, HTTPError>.Fetch {
        { [self] number, size in
            guard case let .pageNumber(_, _, _, firstPage, _, _) = pagination.style, number > firstPage else {
                return read(numberedURL(number, size: size), isFirst: number == startPage)
                    .attemptMap { page throws(HTTPError) in try pageNumberResponse(page) }
            }
            let top = number == startPage ? numberedURL(firstPage, size: size) : nil
            return read(numberedURL(number, size: size), isFirst: number == startPage, pastEndBelow: top)
                .attemptMap { page throws(HTTPError) in try page.map(pageNumberResponse) ?? PageNumberResponse(items: []) }
        }
    }

    /// `PageNumberSource`'s fetch, for the offset style without corrections: page `n` (0 is the start
    /// page) is the window at `startOffset + n × size`, the top one cut short at offset 0. A server that
    /// serves fewer than asked is asked for the rest from where its answer ended, until the page is full
    /// or an answer shows the end (see `steppedWindow`).
    var steppedOffsetFetch: PageNumberSource<Item, HTTPError>.Fetch {
        { [self] number, size in
            let offset = startOffset + number * size
            return steppedWindow(from: max(0, offset), size: size + min(0, offset), isFirst: number == 0, held: [],
                                 served: 0)
        }
    }

    /// The window of `size` items from `offset`, `held` of them already read (the first `served` by one
    /// answer: a cap, perhaps): asks for the rest. An answer shorter than asked is the end when the body's
    /// total or next link says so, when it holds no item or fewer than an answer before, or when the rest
    /// asked was no more than a full answer held; else the server capped it, and the window goes on. The
    /// page's `hasMore` says whether the feed went on after it (`false` at the end).
    private func steppedWindow(
        from offset: Int, size: Int, isFirst: Bool, held: [Item], served: Int
    ) -> Producer<PageNumberResponse<Item>, HTTPError> {
        let start = offset + held.count
        let asked = size - held.count
        let first = isFirst && held.isEmpty
        let url = numberedURL(start, size: asked)
        let page = start > 0 ? read(url, isFirst: first, pastEndBelow: first ? numberedURL(0, size: size) : nil)
            : read(url, isFirst: first).map { $0 }
        let reader = self
        return page.flatMap(.concat) { page -> Producer<PageNumberResponse<Item>, HTTPError> in
                let items = page?.items ?? []
                let window = held + items
                guard items.count < asked else { return Producer(value: PageNumberResponse(items: window)) }
                let response = page.map { Self.offsetResponse($0, asked: asked) }
                let end = start + items.count
                switch response?.hasMore ?? response?.totalItems.map({ end < $0 }) {
                case true?:
                    break
                case false?:
                    return Producer(value: PageNumberResponse(items: window, hasMore: false))
                case nil:
                    // Nothing came, fewer than an answer of this window held, or no more than it held was
                    // asked: the end. Else the next request settles it.
                    if items.isEmpty || items.count < served || (served > 0 && asked <= served) {
                        return Producer(value: PageNumberResponse(items: window, hasMore: false))
                    }
                }
                return reader.steppedWindow(from: offset, size: size, isFirst: isFirst, held: window,
                                            served: max(served, items.count))
            }
    }

    /// The page number of the offset style's top page without corrections (`steppedOffsetFetch`).
    func steppedOffsetFirstPage(limit: Int) -> Int {
        -((startOffset + limit - 1) / limit)
    }

    /// `CursorSource`'s fetch with the page's URL as the cursor, for every cursor-like style: the first
    /// page at `firstURL`, then the URLs of the pages after and before each page, by the style.
    var urlFetch: CursorSource<Item, URL, HTTPError>.Fetch {
        { [self] cursor in
            let pageURL = cursor ?? firstURL
            return read(pageURL, isFirst: cursor == nil).attemptMap { page throws(HTTPError) in
                CursorResponse(items: page.items, previousCursor: try previousURL(of: page, at: pageURL),
                               nextCursor: try nextURL(after: page, at: pageURL))
            }
        }
    }

    /// The URL of the page after `page` (read from `pageURL`) by the style, or `nil` if `page` is the last.
    func nextURL(after page: ReadPage<Item>, at pageURL: URL) throws(HTTPError) -> URL? {
        switch try next(after: page) {
        case .end: return nil
        case let .url(next): return next
        case let .cursor(value):
            if case let .cursor(path, _, _) = pagination.style {
                try refuseRepeat(value, sent: HTTPQuery.value(of: cursorParameter, in: pageURL), at: path, page)
            }
            return HTTPQuery.url(url, setting: [(name: cursorParameter, value: value)])
        }
    }

    /// The URL of the page before `page` (read from `pageURL`) by the style, or `nil` if there is none.
    func previousURL(of page: ReadPage<Item>, at pageURL: URL) throws(HTTPError) -> URL? {
        switch try previous(of: page) {
        case .end: return nil
        case let .url(previous): return previous
        case let .cursor(value):
            let parameter = pagination.previousParameter ?? cursorParameter
            try refuseRepeat(value, sent: HTTPQuery.value(of: parameter, in: pageURL), at: pagination.previous, page)
            return HTTPQuery.url(url, setting: [(name: parameter, value: value)])
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
    /// `OffsetSource`'s fetch, for the offset style with corrections: the start page's request (the
    /// window at the start offset, of the style's limit) records the first page's version. A short window
    /// carries what the body says about the rest of the feed; a window past the end (a status of
    /// `pastEndStatuses` at an offset above 0) is an empty one.
    var offsetFetch: OffsetSource<Item, HTTPError>.FetchResponse {
        { [self] offset, limit in
            let isFirst = if case let .offset(pageLimit, _, _) = pagination.style { offset == startOffset && limit == pageLimit }
                else { false }
            let top = isFirst && offset > 0 ? numberedURL(0, size: limit) : nil
            let page = offset > 0 ? read(numberedURL(offset, size: limit), isFirst: isFirst, pastEndBelow: top)
                : read(numberedURL(offset, size: limit), isFirst: isFirst).map { $0 }
            return page.map { page in page.map { Self.offsetResponse($0, asked: limit) } ?? OffsetResponse(items: []) }
        }
    }
}
