import Foundation
import PaginatedList
import PaginatedListHTTP
import Signals

/// How the endpoint given with `--url` pages: one `HTTPPagination` style each.
package enum HTTPStyle: String, CaseIterable, Equatable, Sendable {
    /// `?page=P&limit=L`, the items in an array or under `items`/`data`/`results`; ends at a short page or
    /// the total.
    case page
    /// `next_cursor` in the body, sent back as `?cursor=C`.
    case cursor
    /// `Link: <…>; rel="next"` headers (GitHub).
    case link
    /// `?offset=O&limit=L`, with the drift and hole corrections.
    case offset
    /// Stripe: items under `data`, `?starting_after=<last id>` while `has_more`.
    case stripe
    /// Slack: items under `channels`, `response_metadata.next_cursor`, `{"ok": false}` errors.
    case slack
    /// Notion: items under `results`, `next_cursor` + `has_more`, sent back as `start_cursor`.
    case notion
    /// JSON:API: items under `data`, the next page at `links.next`.
    case jsonapi

    /// The pagination style, for pages of `pageSize` items where the style counts them itself.
    func pagination(pageSize: Int) -> HTTPPagination {
        switch self {
        case .page: .pageNumber(pageSize: pageSize)
        case .cursor: .cursor()
        case .link: .linkHeader()
        case .offset: .offset(limit: pageSize)
        case .stripe: .startingAfter()
        case .slack: .cursor(at: "response_metadata.next_cursor")
        case .notion: .cursor(parameter: "start_cursor", hasMore: "has_more")
        case .jsonapi: .nextURL(at: "links.next", absentMeansEnd: true)
        }
    }

    /// Where the style's API puts the items (`nil`: a top-level array, or `items`/`data`/`results`).
    var items: JSONPath? {
        switch self {
        case .slack: "channels"
        case .jsonapi: "data"
        default: nil
        }
    }

    /// How the style's API reports an error with a 200.
    var errorEnvelope: HTTPErrorEnvelope {
        self == .slack ? .okFlag() : .errorKey()
    }

    /// The query item that sets the page size, for the styles whose first URL must carry it (page
    /// numbers and offsets set theirs on every request).
    var sizeParameter: String? {
        switch self {
        case .stripe, .slack: "limit"
        case .notion: "page_size"
        case .jsonapi: "page[size]"
        case .page, .cursor, .link, .offset: nil
        }
    }
}

/// An item of an HTTP endpoint: its `id` (a number or a string) and a title, read from `title` or `name`,
/// or from them under `attributes` (JSON:API); `nil` when none is there.
package struct HTTPDemoItem: Decodable, Identifiable, Equatable, Sendable {
    package let id: String
    package let title: String?

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    package init(id: String, title: String?) {
        self.id = id
        self.title = title
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        if let text = try? container.decode(String.self, forKey: Key("id")) {
            id = text
        } else {
            id = String(try container.decode(Int64.self, forKey: Key("id")))
        }
        func text(in container: KeyedDecodingContainer<Key>) -> String? {
            ["title", "name"].lazy.compactMap { try? container.decodeIfPresent(String.self, forKey: Key($0)) }.first
        }
        let attributes = try? container.nestedContainer(keyedBy: Key.self, forKey: Key("attributes"))
        title = text(in: container) ?? attributes.flatMap(text(in:))
    }
}

/// The row numbers of an endpoint's ids: a non-negative integer id is its own number; any other id (a
/// string such as `cus_0007`) gets the next free negative number, in the order the ids first arrive, so
/// that the two never collide and the same id always gets the same number.
package final class HTTPRowNumbers: Sendable {
    private let numbers = Locked<[String: Int]>([:])

    package init() {}

    /// The row of `item`: its number, and its title (led by the id when the id is not a number).
    package func row(_ item: HTTPDemoItem) -> Row {
        if let number = Int(item.id), number >= 0, String(number) == item.id {
            return item.title.map { Row(id: number, title: $0) } ?? Row(id: number)
        }
        let number = numbers.withLock { numbers in
            if let known = numbers[item.id] { return known }
            let next = -(numbers.count + 1)
            numbers[item.id] = next
            return next
        }
        return Row(id: number, title: item.title.map { "\(item.id)  \($0)" } ?? item.id)
    }
}

/// The demo's feed over a real HTTP endpoint: an `HTTPPageSource` in the `style` given, its errors
/// reported as `FeedError.http`.
package struct HTTPDemoFeed: PaginatedListDependency, Sendable {
    package typealias Item = Row
    package typealias Failure = FeedError

    package let url: URL
    package let style: HTTPStyle
    package let pageSize: Int
    /// The source of the pages: `url` with the style's page size set unless the URL sets it.
    package let source: HTTPPageSource<HTTPDemoItem>
    private let numbers = HTTPRowNumbers()

    /// A feed of `url` paged in `style`, `pageSize` items a page, the items at `items` (`nil`: where the
    /// style's API puts them).
    package init(url: URL, style: HTTPStyle, pageSize: Int, items: JSONPath? = nil) {
        self.url = url
        self.style = style
        self.pageSize = pageSize
        var first = url
        if let size = style.sizeParameter, !Self.hasQueryItem(size, in: url) {
            first = HTTPQuery.url(url, setting: [size: String(pageSize)])
        }
        source = HTTPPageSource(url: first, paging: style.pagination(pageSize: pageSize), items: items ?? style.items,
                                errorEnvelope: style.errorEnvelope)
    }

    package func firstPage() -> Producer<Page<Row, FeedError>, FeedError> {
        Self.converting(source.firstPage(), numbers)
    }

    /// The same page chain, its items made rows and its failures wrapped in `FeedError.http`.
    private static func converting(
        _ page: Producer<Page<HTTPDemoItem, HTTPError>, HTTPError>, _ numbers: HTTPRowNumbers
    ) -> Producer<Page<Row, FeedError>, FeedError> {
        page.mapError(FeedError.http).map { page in
            Page(items: page.items.map(numbers.row), previous: page.previous.map { converting($0, numbers) },
                 next: page.next.map { converting($0, numbers) }, diagnostics: page.diagnostics,
                 totalCount: page.totalCount)
        }
    }

    /// Whether `url`'s query has an item named `name` (compared decoded).
    private static func hasQueryItem(_ name: String, in url: URL) -> Bool {
        URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems?.contains { $0.name == name } == true
    }
}
