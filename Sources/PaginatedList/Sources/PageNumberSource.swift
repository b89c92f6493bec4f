import Signals

/// A page source for servers that page by number: `GET /items?page=3&size=20`.
///
/// Page *n* is fetched with `fetch(n, pageSize)`, starting at `firstPageIndex` (0 or 1, as the server
/// counts). The list ends at an empty page, at a page shorter than `pageSize` (unless `endOfList` is
/// `.emptyPage`), or when the response's `totalPages` / `totalItems` says the page was the last.
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
        /// A page with fewer than `pageSize` items (or none) is the last.
        case shortPage
        /// Only an empty page ends the list (for servers that may send short pages before the end).
        case emptyPage
    }

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
    public init(
        firstPageIndex: Int = 1, startPage: Int? = nil, pageSize: Int, endOfList: EndOfList = .shortPage,
        deduplication: DuplicatePolicy<Item> = .automatic, fetch: @escaping Fetch
    ) {
        precondition(pageSize > 0, "PageNumberSource: pageSize must be positive")
        self.firstPageIndex = firstPageIndex
        self.startPage = max(startPage ?? firstPageIndex, firstPageIndex)
        self.pageSize = pageSize
        self.endOfList = endOfList
        self.fetch = fetch
        self.deduplication = deduplication
    }

    /// The first page of a fresh chain: fetches page `startPage` when started.
    public func firstPage() -> Producer<Page<Item, Failure>, Failure> {
        page(startPage, deduplication.makeChain(), role: .start)
    }

    /// How a page was reached: which of its neighbours it carries.
    private enum Role {
        /// The page the list opens at: the pages on both sides.
        case start
        /// Through `next`: the page after it.
        case below
        /// Through `previous`: the page before it.
        case above
    }

    private func page(
        _ number: Int, _ deduplication: Deduplication<Item>, role: Role
    ) -> Producer<Page<Item, Failure>, Failure> {
        Producer.deferred { [fetch, pageSize] in fetch(number, pageSize) }.map { [self] response in
            let admission = deduplication.admit(response.items)
            var diagnostics = [PaginatedListDiagnostic](droppedDuplicates: admission.dropped)
            // Going back towards the start page, a page loads its neighbour again (the start page as such).
            func back(_ neighbour: Int, _ role: Role) -> Producer<Page<Item, Failure>, Failure> {
                page(neighbour, admission.back ?? .none, role: neighbour == startPage ? .start : role)
            }
            if role == .above {
                let previous = number > firstPageIndex ? page(number - 1, admission.onward, role: .above) : nil
                return Page(items: admission.kept, previous: previous, next: back(number + 1, .above),
                            diagnostics: diagnostics)
            }
            let last = isLast(number, response)
            if !last, admission.kept.isEmpty, response.items.count >= pageSize {
                diagnostics.append(.sourceCorrection(.feedOutpaced))
            }
            // An empty start page (past the end) has nothing before it to go back from.
            let previous: Producer<Page<Item, Failure>, Failure>? = switch role {
            case .start: number > firstPageIndex && !response.items.isEmpty
                ? page(number - 1, admission.above ?? .none, role: .above) : nil
            case .below, .above: back(number - 1, .below)
            }
            return Page(items: admission.kept, previous: previous,
                        next: last ? nil : page(number + 1, admission.onward, role: .below), diagnostics: diagnostics)
        }
    }

    private func isLast(_ number: Int, _ response: PageNumberResponse<Item>) -> Bool {
        let pagesSoFar = number - firstPageIndex + 1
        if response.items.isEmpty { return true }
        if let totalPages = response.totalPages, pagesSoFar >= totalPages { return true }
        if let totalItems = response.totalItems, (pagesSoFar - 1) * pageSize + response.items.count >= totalItems {
            return true
        }
        return endOfList == .shortPage && response.items.count < pageSize
    }
}
