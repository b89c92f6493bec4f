import Foundation

/// `.cursor(at:parameter:hasMore:previous:previousParameter:start:)`: a cursor in the body, sent back as a
/// query item (Slack, Notion).
struct CursorStyle: FollowingStyle {
    /// Where the body holds the next page's cursor.
    let path: JSONPath
    /// The query item the cursor is sent back in.
    let parameter: String
    /// Where the body says whether more pages follow (`nil`: a `null` or `""` cursor ends the list).
    let hasMore: JSONPath?
    /// Where the body names the page before (`nil`: the list does not page back).
    let previous: JSONPath?
    /// The query item a previous cursor is sent back in (`nil`: `parameter`).
    let previousParameter: String?
    /// The cursor of the page the list opens at (`nil`: the first page).
    let start: String?

    var name: String { ".cursor" }

    var lookups: [JSONPath] {
        [path] + [hasMore, previous].compactMap(\.self)
    }

    func firstURL(from url: URL) -> URL {
        guard let start else { return url }
        return HTTPQuery.url(url, setting: [(name: parameter, value: start)])
    }

    /// `hasMore` (when given) `false` ends the list, and `true` requires a cursor; without it, the cursor
    /// is required, and a `null` or `""` one ends the list.
    func next<Item>(after page: ReadPage<Item>, at pageURL: URL, source url: URL) throws(HTTPError) -> URL? {
        if let hasMore, try !page.flag(hasMore) { return nil }
        guard let value = page.values[path] else { throw page.missing(path, "the next page's cursor") }
        guard let cursor = try page.cursor(value, at: path) else {
            guard let hasMore else { return nil }
            throw HTTPError(kind: .decoding, response: page.response,
                            reason: "\(hasMore) is true but the cursor at \(path) is \(value == .null ? "null" : "empty")",
                            keyPath: path.description)
        }
        try page.refuseRepeat(cursor, sent: HTTPQuery.value(of: parameter, in: pageURL), at: path)
        return HTTPQuery.url(url, setting: [(name: parameter, value: cursor)])
    }

    /// The cursor at `previous` (required when given; `null` or `""`: nothing before).
    func previous<Item>(of page: ReadPage<Item>, at pageURL: URL, source url: URL) throws(HTTPError) -> URL? {
        guard let previous else { return nil }
        guard let value = page.values[previous] else { throw page.missing(previous, "the previous page's cursor") }
        guard let cursor = try page.cursor(value, at: previous) else { return nil }
        let parameter = previousParameter ?? parameter
        try page.refuseRepeat(cursor, sent: HTTPQuery.value(of: parameter, in: pageURL), at: previous)
        return HTTPQuery.url(url, setting: [(name: parameter, value: cursor)])
    }
}
