// The body reader behind `HTTPPageSource`, for every paging style: any bytes as a body, with any status
// and headers. The input is a response (`FuzzMessage`): the first line names the API shape (`github`,
// `stripe`, `slack`, `notion`, `jsonapi`, `django`, `pages`, `totals`, `offset`, `cursor`) and options
// (`status:201`, `item:any|record|int`, `envelope:error|ok|none`, `items:<path>|auto|root`, `sent:<the
// cursor this page was requested with>`, `anytype` to accept any Content-Type), then the headers and
// the body.
//
// Properties (a JSON oracle, `JSONTree`, reads the body independently):
// - reading gives a page or an `HTTPError` of kind `.contentType`, `.decoding` or `.errorEnvelope` with
//   a reason, the response's status and body, and a one-line description; a body that is not JSON
//   never reads; an envelope error only when the body sets the error (or clears the ok flag);
// - a page holds exactly the items of the array the body has where the items are;
// - the next and previous pages are found or fail with an `HTTPError` of kind `.decoding` naming the
//   key path; "no next page" (the end of the list) only when the body or the `Link` header says so:
//   a `false` flag, a `null` or `""` cursor or URL, a key left out where the style allows it, no link of
//   the relation; a cursor is the body's, sent back exactly; a cursor that repeats the page's fails;
// - the totals of page numbers are the body's integers, and a named total is required.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FuzzSupport
import PaginatedList
@testable import PaginatedListHTTP

/// An item with an `ID` and a date, decoded with `JSONCoding`'s conventions.
struct Record: Decodable, Identifiable, Sendable {
    let id: ID<Record>
    let title: String?
    let createdAt: Date?
}

/// An API's shape: how it pages, where its items are, how it reports errors in a 200.
struct Shape {
    let paging: HTTPPagination
    let items: JSONPath?
    let envelope: HTTPErrorEnvelope
}

private let shapes: [(name: String, shape: Shape)] = [
    ("github", Shape(paging: .linkHeader(), items: nil, envelope: .errorKey())),
    ("stripe", Shape(paging: .startingAfter(), items: nil, envelope: .errorKey())),
    ("slack", Shape(paging: .cursor(at: "response_metadata.next_cursor"), items: "channels", envelope: .okFlag())),
    ("notion", Shape(paging: .cursor(at: "next_cursor", parameter: "start_cursor", hasMore: "has_more"), items: "results",
                     envelope: .errorKey())),
    ("jsonapi", Shape(paging: .nextURL(at: "links.next", absentMeansEnd: true, previous: "links.prev"), items: "data",
                      envelope: .errorKey("errors"))),
    ("django", Shape(paging: .nextURL(previous: "previous"), items: "results", envelope: .errorKey())),
    ("pages", Shape(paging: .pageNumber(pageSize: 2), items: nil, envelope: .errorKey())),
    ("totals", Shape(paging: .pageNumber(pageSize: 2, totalItems: "meta.total_count", totalPages: "meta.total_pages"),
                     items: nil, envelope: .errorKey())),
    ("offset", Shape(paging: .offset(limit: 2), items: nil, envelope: .errorKey())),
    ("cursor", Shape(paging: .cursor(previous: "prev_cursor"), items: nil, envelope: .errorKey())),
]

private let baseURL = URL(string: "https://api.example.com/v1/items?per_page=2")!

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    Fuzz.run(data, size) { bytes in
        let message = FuzzMessage(bytes)
        let options = message.options
        let name = message.firstLine.split(separator: " ").first.map(String.init) ?? ""
        let chosen = shapes.first { $0.name == name }?.shape
            ?? shapes[Int(name.utf8.reduce(0) { ($0 &+ UInt32($1)) }) % shapes.count].shape
        var shape = chosen
        if let items = options["items"] {
            shape = Shape(paging: shape.paging, items: items == "auto" ? nil : items == "root" ? .root : JSONPath(items),
                          envelope: shape.envelope)
        }
        switch options["envelope"] {
        case "none": shape = Shape(paging: shape.paging, items: shape.items, envelope: .none)
        case "ok": shape = Shape(paging: shape.paging, items: shape.items, envelope: .okFlag())
        case "error": shape = Shape(paging: shape.paging, items: shape.items, envelope: .errorKey())
        default: break
        }
        let status = options["status"].flatMap { Int($0) }.map { min(max($0, 100), 599) } ?? 200
        var pageURL = baseURL
        if let sent = options["sent"] { pageURL = HTTPQuery.url(baseURL, setting: [(name: cursorParameter(shape.paging), value: sent)]) }
        let client = HTTPClient(requiresJSONContentType: options["anytype"] == nil, rateLimits: HTTPRateLimits())
        guard let head = HTTPURLResponse(url: pageURL, statusCode: status, httpVersion: "HTTP/1.1", headerFields: message.headerFields) else {
            Fuzz.violated("HTTPURLResponse refused \(message.headers)")
        }
        let response = HTTPResponse(data: Data(message.body), response: head)
        let context = BodyContext(message: message, shape: shape, response: response, pageURL: pageURL, sentCursor: options["sent"])
        switch options["item"] {
        case "record": context.check(PageReader<Record>(client: client, url: baseURL, pagination: shape.paging, items: shape.items,
                                                        envelope: shape.envelope, version: HTTPFirstPageVersion()))
        case "int": context.check(PageReader<Int>(client: client, url: baseURL, pagination: shape.paging, items: shape.items,
                                                  envelope: shape.envelope, version: HTTPFirstPageVersion()))
        default: context.check(PageReader<JSONValue>(client: client, url: baseURL, pagination: shape.paging, items: shape.items,
                                                     envelope: shape.envelope, version: HTTPFirstPageVersion()))
        }
    }
}

/// The query parameter the style sends a cursor in.
private func cursorParameter(_ paging: HTTPPagination) -> String {
    switch paging.style {
    case let style as CursorStyle: style.parameter
    case let style as StartingAfterStyle: style.parameter
    default: "cursor"
    }
}

struct BodyContext {
    let message: FuzzMessage
    let shape: Shape
    let response: HTTPResponse
    let pageURL: URL
    let sentCursor: String?
    let tree: JSONTree?

    init(message: FuzzMessage, shape: Shape, response: HTTPResponse, pageURL: URL, sentCursor: String?) {
        self.message = message
        self.shape = shape
        self.response = response
        self.pageURL = pageURL
        self.sentCursor = sentCursor
        tree = JSONTree.parse(message.body)
    }

    var describe: String {
        "\(message.firstLine) \(message.headers) body \(Fuzz.quoted(String(decoding: message.body.prefix(300), as: UTF8.self)))"
    }

    func lookup(_ path: JSONPath) -> JSONTree.Found {
        tree?.lookup(path.components) ?? .ambiguous
    }

    func check<Item>(_ reader: PageReader<Item>) {
        let page: ReadPage<Item>
        do {
            page = try reader.page(from: response)
        } catch {
            checkReadError(error)
            return
        }
        Fuzz.check(tree != nil, "a body that is not JSON read as a page: \(describe)")
        checkItems(page)
        checkEnvelopePassed()
        checkNext(reader, page)
        checkPrevious(reader, page)
        if let style = shape.paging.style as? PageNumberStyle {
            checkTotals(style, page, named: [style.totalItems, style.totalPages].compactMap(\.self))
        }
    }

    /// An error of reading names what was wrong and carries the response.
    func checkReadError(_ error: HTTPError) {
        Fuzz.check([.contentType, .decoding, .errorEnvelope].contains(error.kind), "reading failed as \(error.kind): \(describe)")
        checkCarriesResponse(error)
        switch error.kind {
        case .contentType:
            Fuzz.check(!response.isJSON, "a JSON Content-Type refused: \(describe)")
        case .errorEnvelope:
            let errorSet = shape.envelope.lookups.first.map { path -> Bool in
                switch lookup(path) {
                case let .value(value):
                    if case .okFlag = shape.envelope.check { return value == .bool(false) }
                    return value != .null && value != .bool(false)
                case .absent: return false
                case .ambiguous: return true
                }
            } ?? false
            Fuzz.check(errorSet, "an envelope error for a body that reports none: \(error); \(describe)")
        default:
            break
        }
    }

    func checkCarriesResponse(_ error: HTTPError) {
        Fuzz.check(!error.reason.isEmpty, "an error says what was wrong: \(describe)")
        Fuzz.check(error.statusCode == response.statusCode, "an error carries the status: \(describe)")
        Fuzz.check(error.body == response.data.prefix(HTTPError.bodyLimit), "an error carries the body: \(describe)")
        let description = error.description
        Fuzz.check(Fuzz.isOneLine(description), "an error describes itself in one line: \(Fuzz.quoted(description))")
    }

    /// A lookup error: `.decoding`, naming the key path it could not read.
    func checkLookupError(_ error: HTTPError, _ what: String) {
        Fuzz.check(error.kind == .decoding, "\(what) failed as \(error.kind): \(describe)")
        Fuzz.check(error.keyPath.map { !$0.isEmpty } == true, "\(what) failed without naming the key path: \(error); \(describe)")
        checkCarriesResponse(error)
    }

    /// The page holds exactly the items of the body's array.
    func checkItems<Item>(_ page: ReadPage<Item>) {
        let found: JSONTree.Found
        if let path = shape.items {
            found = lookup(path)
        } else if case .object = tree {
            found = ["items", "data", "results"].lazy.map { self.lookup(JSONPath($0)) }.first { $0 != .absent } ?? .absent
        } else {
            found = tree.map(JSONTree.Found.value) ?? .ambiguous
        }
        switch found {
        case let .value(.array(elements)):
            Fuzz.check(page.items.count == elements.count, "\(page.items.count) items read of \(elements.count): \(describe)")
        case .value, .absent:
            Fuzz.violated("a page read where the body has no array of items (\(found)): \(describe)")
        case .ambiguous:
            break
        }
    }

    /// A page read past the envelope: the body reports no error.
    func checkEnvelopePassed() {
        switch shape.envelope.check {
        case .none:
            break
        case let .errorKey(path):
            if case let .value(value) = lookup(path) {
                Fuzz.check(value == .null || value == .bool(false), "a page read from a body whose \(path) is set: \(describe)")
            }
        case let .okFlag(path, _):
            if case let .value(value) = lookup(path) {
                Fuzz.check(value == .bool(true), "a page read from a body whose \(path) is not true: \(describe)")
            } else if lookup(path) == .absent {
                Fuzz.violated("a page read from a body without its ok flag \(path): \(describe)")
            }
        }
    }

    /// Whether the body ends the list at `path`: `null`, `""`, or left out when that is allowed.
    func ends(at path: JSONPath, absentMeansEnd: Bool) -> Bool {
        switch lookup(path) {
        case let .value(value): value.isNullOrEmpty
        case .absent: absentMeansEnd
        case .ambiguous: true
        }
    }

    /// Whether the flag at `path` is false.
    func isFalse(_ path: JSONPath) -> Bool {
        switch lookup(path) {
        case let .value(value): value == .bool(false)
        case .absent: false
        case .ambiguous: true
        }
    }

    /// Whether the `Link` header names none of `relations` in any part.
    func linkNamesNone(_ relations: [String]) -> Bool {
        guard let header = response.header("Link") else { return true }
        return !WebLink.read(header, relativeTo: response.url).contains { part in part.relations.contains { relations.contains($0) } }
    }

    /// The page after: for a style that follows the server (page numbers and offsets count their own),
    /// the URL it names carries the body's cursor exactly, and there is none exactly when the body says so.
    func checkNext<Item>(_ reader: PageReader<Item>, _ page: ReadPage<Item>) {
        guard let style = shape.paging.style as? any FollowingStyle else { return }
        let next: URL?
        do {
            next = try style.next(after: page, at: pageURL, source: reader.url)
        } catch {
            checkLookupError(error, "the next page")
            return
        }
        switch style {
        case let style as CursorStyle:
            if let next {
                if case let .value(value) = lookup(style.path), let text = value.text {
                    let sent = HTTPQuery.value(of: style.parameter, in: next)
                    Fuzz.check(sent == text, "the next URL \(next) does not carry the body's cursor \(Fuzz.quoted(text)): \(describe)")
                }
            } else if let hasMore = style.hasMore {
                Fuzz.check(isFalse(hasMore), "the list ended though \(hasMore) is not false: \(describe)")
            } else {
                Fuzz.check(ends(at: style.path, absentMeansEnd: false), "the list ended though \(style.path) has a cursor: \(describe)")
            }
        case let style as StartingAfterStyle:
            if let next {
                let items = shape.items ?? JSONPath("data")
                if case let .value(.array(elements)) = lookup(items), let last = elements.last,
                   case let .value(value) = last.lookup([style.idField]), let text = value.text {
                    let sent = HTTPQuery.value(of: style.parameter, in: next)
                    Fuzz.check(sent == text, "starting after \(String(describing: sent)), not the last item's \(style.idField) \(Fuzz.quoted(text)): \(describe)")
                }
            } else {
                Fuzz.check(isFalse(style.hasMore), "the list ended though \(style.hasMore) is not false: \(describe)")
            }
        case let style as NextURLStyle:
            if next == nil {
                Fuzz.check(ends(at: style.path, absentMeansEnd: style.absentMeansEnd), "the list ended though \(style.path) names a page: \(describe)")
            }
        case let style as LinkHeaderStyle:
            if next == nil {
                Fuzz.check(linkNamesNone([style.relation]), "the list ended though the Link header names rel=\(style.relation): \(describe)")
            }
        default:
            Fuzz.violated("a style this target does not know: \(style.name)")
        }
    }

    /// The page before: none exactly when the body (or the `Link` header) names none.
    func checkPrevious<Item>(_ reader: PageReader<Item>, _ page: ReadPage<Item>) {
        guard let style = shape.paging.style as? any FollowingStyle else { return }
        let previous: URL?
        do {
            previous = try style.previous(of: page, at: pageURL, source: reader.url)
        } catch {
            checkLookupError(error, "the previous page")
            return
        }
        guard previous == nil else { return }
        switch style {
        case is LinkHeaderStyle:
            Fuzz.check(linkNamesNone(["prev", "previous"]), "nothing before though the Link header names rel=prev: \(describe)")
        case let style as NextURLStyle:
            if let path = style.previous {
                Fuzz.check(ends(at: path, absentMeansEnd: style.absentMeansEnd), "nothing before though \(path) names a page: \(describe)")
            }
        case let style as CursorStyle:
            if let path = style.previous {
                Fuzz.check(ends(at: path, absentMeansEnd: false), "nothing before though \(path) has a cursor: \(describe)")
            }
        default:
            break
        }
    }

    /// The totals are the body's integers; a named total is required.
    func checkTotals<Item>(_ style: PageNumberStyle, _ page: ReadPage<Item>, named: [JSONPath]) {
        let response: PageNumberResponse<Item>
        do {
            response = try style.response(page)
        } catch {
            Fuzz.check(!named.isEmpty, "automatic totals failed a page: \(error); \(describe)")
            checkLookupError(error, "the totals")
            return
        }
        Fuzz.check(response.items.count == page.items.count, "the totals' page keeps the items: \(describe)")
        for path in named {
            switch lookup(path) {
            case .absent: Fuzz.violated("a page read without its named total \(path): \(describe)")
            case .value(.integer), .value(.number), .ambiguous: break
            case let .value(value): Fuzz.violated("a page read with \(value) as its total \(path): \(describe)")
            }
        }
    }
}
