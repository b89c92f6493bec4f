import Foundation
import PaginatedList
import Signals

/// `.pageNumber(pageSize:parameter:sizeParameter:firstPage:totalItems:totalPages:startPage:pastEndStatuses:)`:
/// `?page=P&limit=S`, walked by `PageNumberSource`.
struct PageNumberStyle: PaginationStyle {
    /// The number of items asked for per page.
    let pageSize: Int
    /// The query item of the page number.
    let parameter: String
    /// The query item of the page size (`nil`: none is sent).
    let sizeParameter: String?
    /// The number of the first page.
    let firstPage: Int
    /// Where the body holds the number of items (required when given).
    let totalItems: JSONPath?
    /// Where the body holds the number of pages (required when given).
    let totalPages: JSONPath?
    /// The page the list opens at (`firstPage` or above).
    let startPage: Int
    let pastEndStatuses: Set<Int>

    var name: String { ".pageNumber" }

    /// The totals named, or else the usual totals; and whether more follow.
    var lookups: [JSONPath] {
        if totalItems != nil || totalPages != nil { return [totalItems, totalPages].compactMap(\.self) + FeedExtent.more }
        return FeedExtent.itemTotals + FeedExtent.pageTotals + FeedExtent.more
    }

    /// The URL of page `number` of `size` items.
    func url(_ url: URL, page number: Int, size: Int) -> URL {
        var items = [(name: parameter, value: String(number))]
        if let sizeParameter { items.append((name: sizeParameter, value: String(size))) }
        return HTTPQuery.url(url, setting: items)
    }

    func firstURL(from url: URL) -> URL {
        self.url(url, page: startPage, size: pageSize)
    }

    /// The page number response of `page`: its items, the totals the style reads (the named ones
    /// required), and whether the body says more follow.
    func response<Item>(_ page: ReadPage<Item>) throws(HTTPError) -> PageNumberResponse<Item> {
        let more = FeedExtent.more(in: page)
        if totalItems != nil || totalPages != nil {
            let items = try totalItems.map { path throws(HTTPError) in try page.total(path) }
            let pages = try totalPages.map { path throws(HTTPError) in try page.total(path) }
            return PageNumberResponse(items: page.items, totalPages: pages, totalItems: items, hasMore: more,
                                      totalCount: try page.shownTotal(defaults: []))
        }
        return PageNumberResponse(items: page.items, totalPages: FeedExtent.first(FeedExtent.pageTotals, in: page),
                                  totalItems: FeedExtent.first(FeedExtent.itemTotals, in: page), hasMore: more,
                                  totalCount: try page.shownTotal(defaults: []))
    }

    /// `PageNumberSource`'s fetch. A page past the end (see `PageReader.read(_:isFirst:pastEndBelow:)`)
    /// is an empty one; page `firstPage` past the end stays an error.
    func fetch<Item>(_ reader: PageReader<Item>) -> PageNumberSource<Item, HTTPError>.Fetch {
        { [self] number, size in
            let isFirst = number == startPage
            guard number > firstPage else {
                return reader.read(url(reader.url, page: number, size: size), isFirst: isFirst)
                    .attemptMap { page throws(HTTPError) in try response(page) }
            }
            let top = isFirst ? url(reader.url, page: firstPage, size: size) : nil
            return reader.read(url(reader.url, page: number, size: size), isFirst: isFirst, pastEndBelow: top)
                .attemptMap { page throws(HTTPError) in try page.map(response) ?? PageNumberResponse(items: []) }
        }
    }

    private func source<Item>(
        _ reader: PageReader<Item>, deduplication: DuplicatePolicy<Item> = .automatic
    ) -> PageNumberSource<Item, HTTPError> {
        PageNumberSource(firstPageIndex: firstPage, startPage: startPage, pageSize: pageSize, deduplication: deduplication,
                         fetch: fetch(reader))
    }

    func firstPage<Item>(
        _ reader: PageReader<Item>, deduplication: DuplicatePolicy<Item>
    ) -> Producer<Page<Item, HTTPError>, HTTPError> {
        source(reader, deduplication: deduplication).firstPage()
    }

    func keyedPage<Item>(at key: HTTPPageKey?, _ reader: PageReader<Item>) -> Producer<KeyedPage<Item, HTTPPageKey>, HTTPError>? {
        let number: Int?
        switch key {
        case nil: number = nil
        case let .page(keyNumber)?: number = keyNumber
        case .offset?, .url?: return nil
        }
        return source(reader).page(at: number).map { page in
            KeyedPage(items: page.items, previous: page.previous.map(HTTPPageKey.page), next: page.next.map(HTTPPageKey.page),
                      totalCount: page.totalCount, validators: number == nil ? reader.firstPageValidators() : nil)
        }
    }
}
