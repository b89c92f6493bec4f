import Foundation
import PaginatedList
import PaginatedListHTTP
import Signals

/// How the endpoint given with `--url` pages.
package enum HTTPStyle: String, CaseIterable, Equatable, Sendable {
    /// `?page=P&limit=L`, the items in an array or under `items`; ends at a short page or the total.
    case page
    /// `next_cursor` in the body, sent back as `?cursor=C`.
    case cursor
    /// `Link: <…>; rel="next"` headers.
    case link
    /// `?offset=O&limit=L`, with the drift and hole corrections.
    case offset
}

/// The demo's feed over a real HTTP endpoint: the `PaginatedListHTTP` source for `style`, its errors
/// reported as `FeedError.http`.
package struct HTTPDemoFeed: PaginatedListDependency, Sendable {
    package typealias Item = Row
    package typealias Failure = FeedError

    package let url: URL
    package let style: HTTPStyle
    package let pageSize: Int

    package init(url: URL, style: HTTPStyle, pageSize: Int) {
        self.url = url
        self.style = style
        self.pageSize = pageSize
    }

    package func firstPage() -> Producer<Page<Row, FeedError>, FeedError> {
        switch style {
        case .page: Self.converting(PageNumberSource<Row, HTTPError>(url: url, pageSize: pageSize).firstPage())
        case .cursor: Self.converting(CursorSource<Row, String, HTTPError>(url: url).firstPage())
        case .link: Self.converting(CursorSource<Row, URL, HTTPError>(url: url).firstPage())
        case .offset: Self.converting(OffsetSource<Row, HTTPError>(url: url, limit: pageSize).firstPage())
        }
    }

    /// The same page chain, its failures wrapped in `FeedError.http`.
    private static func converting(
        _ page: Producer<Page<Row, HTTPError>, HTTPError>
    ) -> Producer<Page<Row, FeedError>, FeedError> {
        page.mapError(FeedError.http).map { page in
            Page(items: page.items, next: page.next.map(converting), diagnostics: page.diagnostics)
        }
    }
}
