import Foundation

/// `.nextURL(at:absentMeansEnd:previous:)`: the next page's URL in the body (Django REST framework,
/// JSON:API).
struct NextURLStyle: FollowingStyle {
    /// Where the body holds the next page's URL.
    let path: JSONPath
    /// Whether a missing key is the end (JSON:API leaves `next` out on the last page), else an error.
    let absentMeansEnd: Bool
    /// Where the body names the page before (`nil`: the list does not page back).
    let previous: JSONPath?

    var name: String { ".nextURL" }

    var lookups: [JSONPath] {
        [path] + [previous].compactMap(\.self)
    }

    func firstURL(from url: URL) -> URL { url }

    func next<Item>(after page: ReadPage<Item>, at pageURL: URL, source url: URL) throws(HTTPError) -> URL? {
        try linkedURL(at: path, "the next page's URL", in: page, relativeTo: url)
    }

    func previous<Item>(of page: ReadPage<Item>, at pageURL: URL, source url: URL) throws(HTTPError) -> URL? {
        guard let previous else { return nil }
        return try linkedURL(at: previous, "the previous page's URL", in: page, relativeTo: url)
    }

    /// The URL at `path` of `page`'s body (`null`, `""`, or a missing key when `absentMeansEnd`: none).
    private func linkedURL<Item>(
        at path: JSONPath, _ what: String, in page: ReadPage<Item>, relativeTo url: URL
    ) throws(HTTPError) -> URL? {
        guard let value = page.values[path] else {
            if absentMeansEnd { return nil }
            throw page.missing(path, what)
        }
        return try page.linkedURL(value, at: path, relativeTo: url)
    }
}
