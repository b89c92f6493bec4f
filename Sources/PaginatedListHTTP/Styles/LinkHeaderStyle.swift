import Foundation

/// `.linkHeader(relation:)`: the next page's URL in the `Link` header (GitHub).
struct LinkHeaderStyle: FollowingStyle {
    /// The relation of the next page's link.
    let relation: String

    var name: String { ".linkHeader" }
    var lookups: [JSONPath] { [] }

    func firstURL(from url: URL) -> URL { url }

    /// A response without the link is the last page.
    func next<Item>(after page: ReadPage<Item>, at pageURL: URL, source url: URL) throws(HTTPError) -> URL? {
        try page.linked([relation], relativeTo: url)
    }

    /// The `prev` (or `previous`) link.
    func previous<Item>(of page: ReadPage<Item>, at pageURL: URL, source url: URL) throws(HTTPError) -> URL? {
        try page.linked(["prev", "previous"], relativeTo: url)
    }
}
