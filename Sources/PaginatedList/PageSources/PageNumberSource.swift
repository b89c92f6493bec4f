import Signals

/// A page source for servers that page by number: `GET /items?page=3&size=20`.
///
/// Page *n* is fetched with `fetch(n, pageSize)`, starting at `firstPageIndex` (0 or 1, as the server
/// counts). The list ends at an empty page, when the response's `hasMore` is `false`, when its
/// `totalPages` / `totalItems` says the page was the last, or at a page shorter than the page size the
/// server serves (unless `endOfList` is `.emptyPage`).
///
/// **Servers that cap the page size** (Django REST framework's `max_page_size`, GitHub's `per_page` ≤ 100)
/// serve fewer items than asked and number their pages by what they serve. A short page ends the list
/// only when nothing says more remain: a total or `hasMore` that says more remain extends it (and the
/// source learns the page size the server serves, for its totals); with neither, a short page that holds
/// at least as many items as any page before may be capped, and the next page settles it (an empty one
/// ends the list). A page shorter than one the server served before is the end.
///
/// **A feed that shrinks.** When the list ends before the place the previous page's total or `hasMore`
/// promised (the page after it came back empty — a 404 past the last page, over HTTP — or short of the
/// total), the feed shrank while it was paged: the page reports
/// `.sourceCorrection(.feedShrank(possiblySkipped:))` and the list ends there, not with a failure.
///
/// The source drops items an earlier page of the same chain delivered, on either side of the start page,
/// by its `deduplication` (by default, by `id` when `Item` is `Identifiable`), and reports them as
/// `.sourceCorrection(.duplicatesDropped(count:))`; a full page that holds nothing else —
/// the feed grew by a page or more above the items shown since the last request, so page numbers cannot
/// catch up — lands empty and says so with `.sourceCorrection(.feedOutpaced)` (the view model loads the
/// next page at once, within its bound). It does *not* fill the hole a deletion above the loaded range
/// leaves, and cannot tell: for feeds that change while they are paged use `OffsetSource`, `CursorSource`
/// with keyset cursors, or `IDSnapshotSource`.
///
/// **Start.** The list opens at page `startPage` (`firstPageIndex` by default). That page carries the page
/// before it as its `previous`, and so does each page loaded through it, down to `firstPageIndex`, which
/// has none: `loadPreviousPage()` scrolls up to the top. Every page carries both neighbours (a page dropped
/// by `maxPages` is loaded again by the page next to it). Going up, the source drops items the pages below
/// delivered (items deleted above the start pull them up into the page above); items inserted above push
/// unread items down into pages already held: holes, unreported, as going down after deletions. A
/// `startPage` below `firstPageIndex` opens at `firstPageIndex`. A start page that comes back empty (past
/// the end of the list) is the whole list: empty, with nothing before it.
///
/// Each call of `firstPage()` starts a fresh chain (fresh de-duplication). Every page producer is cold and
/// independent: starting it again (a retry) fetches the same page again. `fetch` may answer on any thread;
/// its run is disposed when the page's run is.
public struct PageNumberSource<Item: Sendable, Failure: Error>: PaginatedListDependency, Sendable {
    /// Fetches page `page` (counted from `firstPageIndex`) of `size` items.
    public typealias Fetch = @Sendable (_ page: Int, _ size: Int) -> Producer<PageNumberResponse<Item>, Failure>

    /// How the source recognises the last page when the response carries no totals.
    public enum EndOfList: Sendable {
        /// A page with fewer items than the server serves per page (or none) is the last: fewer than
        /// `pageSize`, or than the size a capping server was seen to serve.
        case shortPage
        /// Only an empty page ends the list (for servers that may send short pages before the end).
        case emptyPage
    }

    /// The most pages `startPage` may lie after `firstPageIndex`, and the largest `firstPageIndex` either
    /// way (2^30).
    static var maxPages: Int { 1 << 30 }
    /// The largest `pageSize` a source takes (2^30).
    static var maxPageSize: Int { 1 << 30 }

    /// The index of the first page, as the server counts (usually 0 or 1).
    public let firstPageIndex: Int
    /// The number of the page the list opens at (at least `firstPageIndex`).
    public let startPage: Int
    /// The number of items asked for per page.
    public let pageSize: Int
    /// How the last page is recognised when the response carries no totals.
    public let endOfList: EndOfList
    let fetch: Fetch
    /// Which items are dropped as delivered by an earlier page of the chain.
    public let deduplication: DuplicatePolicy<Item>

    /// A source fetching pages of `pageSize` items with `fetch`, the first numbered `firstPageIndex`,
    /// opening at page `startPage` (`nil`: `firstPageIndex`), dropping items an earlier page of the chain
    /// delivered by `deduplication` (`.automatic`: by `id` when `Item` is `Identifiable`), on either side
    /// of the start page.
    ///
    /// `startPage`: the page the list opens at; the pages before it, down to `firstPageIndex`,
    ///   come through `Page.previous`. A number below `firstPageIndex` opens at `firstPageIndex`.
    ///
    /// Numbers are bounded so that no arithmetic on them can overflow: `firstPageIndex` is taken within
    /// ±2^30, `startPage` at most 2^30 pages after it, and `pageSize` as at most 2^30.
    public init(
        firstPageIndex: Int = 1, startPage: Int? = nil, pageSize: Int, endOfList: EndOfList = .shortPage,
        deduplication: DuplicatePolicy<Item> = .automatic, fetch: @escaping Fetch
    ) {
        precondition(pageSize > 0, "PageNumberSource: pageSize must be positive")
        // Bounded, so that no page number or item count (pages before × size) can overflow.
        let first = min(max(firstPageIndex, -Self.maxPages), Self.maxPages)
        self.firstPageIndex = first
        self.startPage = min(max(startPage ?? first, first), first + Self.maxPages)
        self.pageSize = min(pageSize, Self.maxPageSize)
        self.endOfList = endOfList
        self.fetch = fetch
        self.deduplication = deduplication
    }

    /// The first page of a fresh chain: fetches page `startPage` when started.
    public func firstPage() -> Producer<Page<Item, Failure>, Failure> {
        let chain = Chain(
            fetch: { [fetch, pageSize] place in Producer.deferred { fetch(place.number, pageSize) } },
            items: { response, _ in response.items }, neighbours: { [self] in neighbours($0, $1, $2, kept: $3) }
        )
        return chain.firstPage(at: Place(number: startPage, course: Course()), deduplication.makeChain())
    }

    private typealias Chain = PageChain<Item, Failure, Place, PageNumberResponse<Item>>

    /// A page of the chain: its number, and what the pages read before it on the way down learned.
    struct Place: Sendable {
        let number: Int
        let course: Course
    }

    /// What the pages read so far on the way down tell the next one.
    struct Course: Sendable {
        /// The page size the server serves (a cap, once one showed).
        var served = ServedSize()
        /// What the last page said lies after it, if it said.
        var promised: Promise?
    }

    /// What a page said lies after it.
    enum Promise: Sendable, Equatable {
        /// This many items (its total, less the positions up to the page's end).
        case items(Int)
        /// More pages, no number said (`hasMore`, or a page total).
        case more
    }

    /// The pages around the page at `place` (reached as `role`, its `response` kept to `kept`), and what it
    /// reports: going down (from the start page too), whether it ends the list, a shrink or an outpacing
    /// feed; going up, only whether it is the top.
    private func neighbours(
        _ place: Place, _ role: PageChainRole, _ response: PageNumberResponse<Item>, kept: [Item]
    ) -> PageNeighbours<Place> {
        let response = response.withoutNegativeTotals
        let (number, course) = (place.number, place.course)
        // Going back towards the start page, a page loads its neighbour again (the start page as such,
        // knowing what the pages below it learned of the server's page size).
        let back = Course(served: course.served)
        if role == .above {
            return PageNeighbours(previous: number > firstPageIndex ? Place(number: number - 1, course: course) : nil,
                                  next: Place(number: number + 1, course: back), totalCount: response.totalCount ?? response.totalItems)
        }
        var onward = course
        let last = ends(number, response, &onward)
        var diagnostics: [PaginatedListDiagnostic] = []
        if last, let shrink = shrinkage(response, promised: course.promised) {
            diagnostics.append(.sourceCorrection(shrink))
        }
        if !last, kept.isEmpty, response.items.count >= onward.served.size ?? pageSize {
            diagnostics.append(.sourceCorrection(.feedOutpaced))
        }
        // An empty start page (past the end) has nothing before it to go back from.
        let previous: Place? = switch role {
        case .start: number > firstPageIndex && !response.items.isEmpty
            ? Place(number: number - 1, course: Course(served: onward.served)) : nil
        case .below, .above: Place(number: number - 1, course: back)
        }
        return PageNeighbours(previous: previous, next: last ? nil : Place(number: number + 1, course: onward),
                              diagnostics: diagnostics, totalCount: response.totalCount ?? response.totalItems)
    }

    /// Whether page `number` (its `response`) is the last; learns the page size the server serves, and
    /// what the page says lies after it, into `course`.
    private func ends(_ number: Int, _ response: PageNumberResponse<Item>, _ course: inout Course) -> Bool {
        let count = response.items.count
        let largestBefore = course.served.note(count)
        course.promised = nil
        guard count > 0 else { return true }
        let pagesBefore = number - firstPageIndex
        // The positions up to the page's end, with the page size the server serves.
        func end(_ size: Int) -> Int { pagesBefore * size + count }
        var size = course.served.size ?? pageSize
        // A short page after others, its size not known (a page loaded from its number, a start page): an
        // item total tells the end at this size from a cap of the page's own size (pages numbered by it)
        // when both read it alike, or when the page ends exactly at the total by this size. Else the next
        // page settles it.
        let ambiguous = count < size && !course.served.isConfirmed && pagesBefore > 0 && response.hasMore == nil
            && response.totalPages == nil
            && response.totalItems.map { (end(size) < $0) != (end(count) < $0) && end(size) != $0 } == true
        // What the server says: read as if the page were full by its size (a short page at the end).
        let said: Bool? = ambiguous ? nil : response.hasMore ?? {
            if let totalPages = response.totalPages { return pagesBefore + 1 < totalPages }
            if let totalItems = response.totalItems { return end(size) < totalItems }
            return nil
        }()
        if count < size {
            switch (said, endOfList) {
            case (false?, _):
                return true
            case (true?, _):
                // More remain after a short page: the server serves no more per page.
                if !course.served.isConfirmed {
                    course.served.confirm(count)
                    size = count
                }
            case (nil, .emptyPage):
                break
            case (nil, .shortPage):
                // Shorter than the size the server serves, or than a page served before: the end. Else
                // perhaps capped: the next page settles it.
                if course.served.size != nil || count < largestBefore { return true }
                course.served.suspect(count)
                size = count
            }
        } else {
            // A page of the suspected size: the server serves pages of that size.
            course.served.confirm(byIdentity: true)
            if said == false { return true }
        }
        if ambiguous {
            return false
        } else if let totalItems = response.totalItems, response.hasMore != false {
            course.promised = .items(totalItems - end(size))
        } else if said == true {
            course.promised = .more
        }
        return false
    }

    /// The shrink a last page shows: it holds fewer items than the page before promised.
    private func shrinkage(
        _ response: PageNumberResponse<Item>, promised: Promise?
    ) -> PaginatedListDiagnostic.SourceCorrection? {
        switch promised {
        case let .items(count)? where count > response.items.count:
            .feedShrank(possiblySkipped: count - response.items.count)
        case .more? where response.items.isEmpty:
            .feedShrank(possiblySkipped: nil)
        default:
            nil
        }
    }
}
