import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One page as read from a response: its items, the body values the style and envelope looked at, and
/// the response itself (headers, URL).
struct ReadPage<Item> {
    let items: [Item]
    let values: [JSONPath: JSONValue]
    let lastItemField: JSONValue?
    let response: HTTPResponse
    /// Where the source said the feed's total is (`HTTPPageSource`'s `totalCount`), if it said.
    var totalPath: JSONPath? = nil
}

extension ReadPage: Sendable where Item: Sendable {}

/// What the styles read from a page, and the errors that say what they could not read: a key the style
/// needs that is missing or holds a value of the wrong kind fails the page with `.decoding` at that key.
extension ReadPage {
    /// The error for a missing key at `path`, holding `what`.
    func missing(_ path: JSONPath, _ what: String) -> HTTPError {
        HTTPError(kind: .decoding, response: response, reason: "missing key \(path) (\(what))", keyPath: path.description)
    }

    /// The error for `value` at `path`, where `expected` was.
    func wrong(_ path: JSONPath, _ expected: String, _ value: JSONValue) -> HTTPError {
        HTTPError(kind: .decoding, response: response, reason: "expected \(expected) at \(path), found \(value.kindName)",
                  keyPath: path.description)
    }

    /// The boolean at `path` (required): whether more pages follow.
    func flag(_ path: JSONPath) throws(HTTPError) -> Bool {
        guard let value = values[path] else { throw missing(path, "whether more pages follow") }
        guard case let .bool(flag) = value else { throw wrong(path, "true or false", value) }
        return flag
    }

    /// The count at `path` (required: an integer, 0 or more): a total.
    func total(_ path: JSONPath) throws(HTTPError) -> Int {
        guard let value = values[path] else { throw missing(path, "the total") }
        guard let integer = value.integer, integer >= 0 else { throw wrong(path, "a count (an integer, 0 or more)", value) }
        return integer
    }

    /// The feed's total to show (`Page.totalCount`): the integer at the key the source names, when it names
    /// one (missing or `null`: the page does not say; any other kind of value fails the page with
    /// `.decoding` at that key), else the first integer at `defaults`.
    func shownTotal(defaults: [JSONPath]) throws(HTTPError) -> Int? {
        guard let totalPath else { return FeedExtent.first(defaults, in: self) }
        guard let value = values[totalPath], value != .null else { return nil }
        guard let integer = value.integer, integer >= 0 else { throw wrong(totalPath, "a count of items", value) }
        return integer
    }

    /// The cursor `value` read at `path` names (a string or a number), or `nil` for `null` or `""`.
    func cursor(_ value: JSONValue, at path: JSONPath) throws(HTTPError) -> String? {
        if value == .null || value == .string("") { return nil }
        guard let cursor = value.text else { throw wrong(path, "a string or a number", value) }
        return cursor
    }

    /// The URL the body's `value` at `path` names (absolute, or relative to the response's URL, else to
    /// `base`); `nil` for `null` or `""`.
    func linkedURL(_ value: JSONValue, at path: JSONPath, relativeTo base: URL) throws(HTTPError) -> URL? {
        if value == .null || value == .string("") { return nil }
        guard case let .string(text) = value else { throw wrong(path, "a URL", value) }
        guard let target = URL(string: text, relativeTo: response.url ?? base)?.absoluteURL else {
            throw HTTPError(kind: .decoding, response: response, reason: "the value at \(path) is not a URL: \(text)",
                            keyPath: path.description)
        }
        return target
    }

    /// The target of the first readable link of `relations` in the `Link` header (relative to the
    /// response's URL, else to `base`); `nil` when no link names them. A header that names them only in
    /// links that cannot be read (a `>` cut off, a target that is not a URL) fails with `.decoding` at
    /// `Link`: taking it for the last page would end the list silently.
    func linked(_ relations: [String], relativeTo base: URL) throws(HTTPError) -> URL? {
        guard let header = response.header("Link") else { return nil }
        switch WebLink.lookup(relations, in: header, relativeTo: response.url ?? base) {
        case let .found(target): return target
        case .absent: return nil
        case let .unreadable(part):
            throw HTTPError(kind: .decoding, response: response,
                            reason: #"the Link header's rel="\#(relations[0])" link cannot be read (\#(part.problem)): \#(part.text)"#,
                            keyPath: "Link")
        }
    }

    /// Fails with an `HTTPError` when `cursor`, read at `path`, is the cursor `sent` for this page:
    /// following it would load the same page for ever.
    func refuseRepeat(_ cursor: String, sent: String?, at path: JSONPath?) throws(HTTPError) {
        guard cursor == sent else { return }
        let place = path.map { " at \($0)" } ?? ""
        throw HTTPError(kind: .decoding, response: response,
                        reason: "the cursor\(place) repeats the cursor of this page (\(cursor)): following it would load it for ever",
                        keyPath: path?.description)
    }
}

/// What a body says about the rest of the feed, for the styles that count for themselves (page numbers,
/// offsets): the keys looked at when the style names none, in order.
enum FeedExtent {
    /// The keys looked at for the number of items.
    static let itemTotals: [JSONPath] = ["total", "total_count", "total_items", "count", "meta.total", "meta.count",
                                         "meta.total_count"]
    /// The keys looked at for the number of pages.
    static let pageTotals: [JSONPath] = ["total_pages", "page_count", "meta.total_pages", "meta.page_count"]
    /// The keys looked at for whether more follow: a boolean, or the next page's URL (`null`: none).
    static let more: [JSONPath] = ["has_more", "next", "links.next", "next_page_url"]

    /// The first count (an integer, 0 or more) the body of `page` holds at one of `paths`: a negative
    /// number is no total.
    static func first<Item>(_ paths: [JSONPath], in page: ReadPage<Item>) -> Int? {
        paths.lazy.compactMap { page.values[$0]?.integer }.first { $0 >= 0 }
    }

    /// Whether the body of `page` says pages follow: a boolean `has_more`, or the first of the next-page
    /// keys (`next`, `links.next`, `next_page_url`): `true` for a URL (or any value but `null` and `""`),
    /// `false` for `null` or `""`; `nil` when the body has none.
    static func more<Item>(in page: ReadPage<Item>) -> Bool? {
        for path in more {
            guard let value = page.values[path] else { continue }
            if case let .bool(flag) = value { return flag }
            return !(value == .null || value == .string(""))
        }
        return nil
    }
}
