import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList
import Signals

/// A page source over an HTTP API, described in one line: the first page's URL, how the API pages
/// (`HTTPPagination`), where the items are, and how the API reports errors in a `200`.
///
/// ```swift
/// // GitHub: a top-level array, Link headers.
/// HTTPPageSource<Issue>(url: issuesURL, paging: .linkHeader())
/// // Stripe: items under "data", `starting_after` = the last id, `has_more`.
/// HTTPPageSource<Customer>(url: customersURL, paging: .startingAfter())
/// // Slack: items under "channels", cursor at response_metadata.next_cursor, {"ok": false} errors.
/// HTTPPageSource<Channel>(url: channelsURL, paging: .cursor(at: "response_metadata.next_cursor"),
///                         items: "channels", errorEnvelope: .okFlag())
/// ```
///
/// Each page is one GET through `client` (so a retry is a new request, a reset cancels it, and rate-limit
/// windows are respected); the URL's own query items are kept and the style's are set with `HTTPQuery`.
/// The paging logic is `PaginatedList`'s sources': page numbers end at a short page or the total, offsets
/// over `Identifiable` items overlap and correct for a changing feed, and items an earlier page delivered
/// are dropped by `deduplication` (by `id` for `Identifiable` items by default). A body that is not what
/// the style needs fails the page with an `HTTPError` naming the key path: never a silent end of the list.
///
/// **Both ways.** The list opens where the style's start says (`startPage:` of `.pageNumber`, `start:` of
/// `.offset`, `.cursor` and `.startingAfter`; the URL itself for `.nextURL` and `.linkHeader`), and
/// `loadPreviousPage()` loads the pages before it: page numbers down to the first, offsets up to the top,
/// and the pages a body's previous cursor or URL (`previous:`) or a `Link: <…>; rel="prev"` names. The
/// items they repeat are dropped like the next pages' are.
///
/// Each successful first-page response is recorded in `firstPageVersion`, so a freshness check starts
/// from what the list loaded (`changeMonitor()`). A value; `Sendable`; copies share `firstPageVersion`.
public struct HTTPPageSource<Item: Decodable & Sendable>: PaginatedListDependency, Sendable {
    /// The error of every page: `HTTPError`.
    public typealias Failure = HTTPError

    /// The client the pages are requested through.
    public var client: HTTPClient { reader.client }
    /// The URL the pages are requested from (the first page's, before the style's query items).
    public var url: URL { reader.url }
    /// How the API pages.
    public var paging: HTTPPagination { reader.pagination }
    /// Where the items are in a body (`nil`: a top-level array, or the first of `items`, `data`, `results`).
    public var items: JSONPath? { reader.items }
    /// How the API reports an error in a `200`.
    public var errorEnvelope: HTTPErrorEnvelope { reader.envelope }
    /// The version of the first page last loaded (shared by every copy of the source).
    public var firstPageVersion: HTTPFirstPageVersion { reader.version }

    /// Which items are dropped as delivered by an earlier page of the chain.
    public let deduplication: DuplicatePolicy<Item>

    let reader: PageReader<Item>
    private let makeFirstPage: @Sendable () -> Producer<Page<Item, HTTPError>, HTTPError>

    /// A source of the pages of `url`, paged by `paging`, the items at `items` (`nil`: a top-level array,
    /// or the first of `items`, `data`, `results`), errors in a `200` read by `errorEnvelope` (by default
    /// a non-null `error` key); drops items an earlier page of the chain delivered by `deduplication`
    /// (`.automatic`: by `id` when `Item` is `Identifiable`, else none).
    ///
    /// `totalCount` names where a body says how many items the feed holds (`"meta.total"`), shown on the
    /// view model's `totalCount`: a missing or `null` value says nothing, any other value than a count
    /// fails the page with `.decoding` at that key. `nil` (the default): `.pageNumber` and `.offset` show
    /// the total they read (named there, or the first of `total`, `total_count`, `total_items`, `count`,
    /// `meta.total`, `meta.count`, `meta.total_count`); the styles that follow the server show none.
    public init(client: HTTPClient = HTTPClient(), url: URL, paging: HTTPPagination, items: JSONPath? = nil,
                errorEnvelope: HTTPErrorEnvelope = .errorKey(), deduplication: DuplicatePolicy<Item> = .automatic,
                totalCount: JSONPath? = nil) {
        let reader = PageReader<Item>(client: client, url: url, pagination: paging, items: items, envelope: errorEnvelope,
                                      version: HTTPFirstPageVersion(), total: totalCount)
        self.init(reader: reader, deduplication: deduplication) {
            reader.style.firstPage(reader, deduplication: deduplication)
        }
    }

    private init(reader: PageReader<Item>, deduplication: DuplicatePolicy<Item>,
                 firstPage: @escaping @Sendable () -> Producer<Page<Item, HTTPError>, HTTPError>) {
        self.reader = reader
        self.deduplication = deduplication
        makeFirstPage = firstPage
    }

    /// The first page of a fresh chain (the page the list opens at): requested when started.
    public func firstPage() -> Producer<Page<Item, HTTPError>, HTTPError> {
        makeFirstPage()
    }

    /// The first page's request, as the source makes it (the style's query items set): the page the list
    /// opens at.
    public var firstPageRequest: URLRequest {
        URLRequest(url: reader.firstURL)
    }

    /// A monitor that tells whether the feed changed since the first page the list last loaded, with
    /// one conditional request and no request of its own to learn the version (see `HTTPChangeMonitor`).
    public func changeMonitor() -> HTTPChangeMonitor {
        HTTPChangeMonitor(client: client, request: firstPageRequest, loaded: firstPageVersion)
    }

    /// A producer that, on every start, asks the server whether the feed changed since the first page the
    /// list last loaded (one conditional request: `false` on a `304`); `true` when none was loaded. The
    /// freshness check of a refresh: `list.refresh(ifChanged: source.feedChanged())`.
    public func feedChanged() -> Producer<Bool, HTTPError> {
        changeMonitor().feedChanged()
    }
}

extension HTTPPageSource where Item: Identifiable, Item.ID: Sendable {
    /// A source of the pages of `url`, paged by `paging`, the items at `items`, errors in a `200` read by
    /// `errorEnvelope`; drops items an earlier page of the chain delivered by `deduplication` (`.automatic`:
    /// by `id`). With `.offset` and a policy by id (`.automatic`, `.byID`) it corrects for a feed that
    /// changes while it is paged (see `OffsetSource`); under `.byKey` or `.keepAll` it steps the offsets by
    /// `limit`, as for items that are not `Identifiable`. `totalCount`: where a body says how many items
    /// the feed holds, as for the other initialiser.
    public init(client: HTTPClient = HTTPClient(), url: URL, paging: HTTPPagination, items: JSONPath? = nil,
                errorEnvelope: HTTPErrorEnvelope = .errorKey(), deduplication: DuplicatePolicy<Item> = .automatic,
                totalCount: JSONPath? = nil) {
        let reader = PageReader<Item>(client: client, url: url, pagination: paging, items: items, envelope: errorEnvelope,
                                      version: HTTPFirstPageVersion(), total: totalCount)
        self.init(reader: reader, deduplication: deduplication) {
            reader.style.identifiableFirstPage(reader, deduplication: deduplication)
        }
    }
}
