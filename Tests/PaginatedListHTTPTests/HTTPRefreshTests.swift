import Foundation
import HTTPFixtureServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList
import PaginatedListHTTP
import Signals
import Testing

/// A post of the fixture feed with its counter: what a refresh brings up to date.
struct LikedPost: Decodable, Identifiable, Equatable, Sendable {
    let id: Int
    let title: String
    let likes: Int
}

/// A paging style a feed that grows at the top is refreshed through (5 items a page).
struct RefreshStyle: Sendable, CustomTestStringConvertible {
    let name: String
    /// The endpoint (and its page size, unless the style sets it).
    let path: String
    let paging: HTTPPagination

    var testDescription: String { name }

    static let cursor = RefreshStyle(name: "cursor", path: "/cursor?limit=5", paging: .cursor())
    static let linkHeader = RefreshStyle(name: "Link header", path: "/link?limit=5", paging: .linkHeader())
    static let pageNumber = RefreshStyle(name: "page number", path: "/page", paging: .pageNumber(pageSize: 5))
    static let all = [cursor, linkHeader, pageNumber]
}

/// Every way to refresh with a freshness check first.
enum CheckedRefresh: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case refreshIfChanged = "refresh(ifChanged:)"
    case replace = ".replace"
    case mergeOnTop = ".mergeOnTop"
    case reloadAll = ".reloadAll"

    var testDescription: String { rawValue }

    func start<Item>(_ list: PaginatedListViewModel<Item, HTTPError>, ifChanged check: Producer<Bool, HTTPError>)
    where Item: Identifiable {
        switch self {
        case .refreshIfChanged: list.refresh(ifChanged: check)
        case .replace: list.refresh(.replace, ifChanged: check)
        case .mergeOnTop: list.refresh(.mergeOnTop(maxPages: 3, onGap: .keepGap), ifChanged: check)
        case .reloadAll: list.refresh(.reloadAll, ifChanged: check)
        }
    }
}

/// Refreshing a feed that changes between requests, over real HTTP, with each `RefreshPolicy`: the
/// fixture server's feed is changed through its control endpoints (new posts at the top, deletions,
/// moves, a counter), every page carries the feed's ETag and Last-Modified, and the server counts what
/// each refresh requested. Each test runs its own server (23 posts unless it says otherwise).
@Suite final class HTTPRefreshTests {
    let server: FeedServer
    /// The lists' scheduler: a serial queue, so that a test can wait until a transition was delivered in
    /// full (every observer of every property and of `changes`) before it reads what was recorded.
    let scheduler = QueueScheduler(label: "HTTPRefreshTests")

    init() async throws { server = try await FeedServer.start() }

    /// Calls `start` (a refresh or `fillGap()`) and waits until the refresh it started ended and its last
    /// transition was delivered; returns `loadStates.refresh` then (`nil`: none started, or a time-out).
    private func refreshing<Item: Sendable>(
        _ list: PaginatedListViewModel<Item, HTTPError>, _ start: () -> Void
    ) async -> LoadState<HTTPError>? {
        let states = await untilLoadEnds(list.loadStates.signal, isLoading: \.refresh.isLoading, timeout: .seconds(60), start)
        await delivered()
        return states?.refresh
    }

    /// Waits until every transition the lists' scheduler is delivering has been delivered.
    private func delivered() async {
        let queue = scheduler.queue
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    }

    private func source(_ style: RefreshStyle) -> HTTPPageSource<LikedPost> {
        HTTPPageSource<LikedPost>(client: HTTPClient(rateLimits: HTTPRateLimits()), url: server.url(style.path),
                                  paging: style.paging)
    }

    /// A list of `style`'s source (and the source) with `pages` pages loaded: posts 1...5·pages, one
    /// request a page.
    private func loadedList(
        _ style: RefreshStyle, pages: Int, retry: AutomaticRetry? = nil
    ) async throws -> (PaginatedListViewModel<LikedPost, HTTPError>, HTTPPageSource<LikedPost>) {
        let source = source(style)
        let list = PaginatedListViewModel(dependency: source, scheduler: scheduler, retry: retry)
        for _ in 0 ..< pages { #expect(await loadNextPage(list) == .idle) }
        #expect(list.items.value.map(\.id) == Array(1 ... pages * 5))
        #expect(try await server.requests().count == pages)
        return (list, source)
    }

    /// The requests the server logged after the first `count`.
    private func requests(after count: Int) async throws -> [LoggedRequest] {
        Array(try await server.requests().dropFirst(count))
    }

    // MARK: - .replace

    @Test(arguments: RefreshStyle.all)
    func replaceKeepsTheListUntilTheFirstPageLandsThenShowsIt(_ style: RefreshStyle) async throws {
        let (list, _) = try await loadedList(style, pages: 2)
        let replayer = Replayer(list)
        let sizes = Locked<[Int]>([])
        list.items.signal.observeValues { items in sizes.withLock { $0.append(items.count) } }
        let whileLoading = Locked<[[Int]]>([])
        list.loadStates.signal.observeValues { [weak list] states in
            if states.refresh.isLoading, let list { whileLoading.withLock { $0.append(list.items.value.map(\.id)) } }
        }
        try await server.control("insert?at=0&count=2")
        try await server.control("like?id=1&likes=7")
        try await server.control("delete?ids=3")
        try await server.control("slow?delay=0.3&times=1")

        #expect(await refreshing(list) { list.refresh() } == .idle)
        #expect(whileLoading.withLock { $0 } == [Array(1 ... 10)], "the held items stay while the page loads")
        #expect(list.items.value.map(\.id) == [24, 25, 1, 2, 4], "the feed's first page")
        #expect(list.items.value.first { $0.id == 1 }?.likes == 7)
        #expect(sizes.withLock { $0 } == [5], "one transition, never an empty list")
        #expect(replayer.changes == [.reset])
        #expect(try await requests(after: 2).map(\.status) == [200], "one page request")
        #expect(await loadNextPage(list) == .idle)
        #expect(list.items.value.map(\.id) == [24, 25, 1, 2, 4, 5, 6, 7, 8, 9], "paging goes on from the fresh page")
    }

    // MARK: - .mergeOnTop

    @Test(arguments: RefreshStyle.all)
    func mergeOnTopSplicesNewPostsAboveUpdatesCountersInPlaceAndDropsPostsGoneAtTheTop(_ style: RefreshStyle) async throws {
        let (list, _) = try await loadedList(style, pages: 2)
        let replayer = Replayer(list)
        try await server.control("insert?at=0&count=3")   // 24, 25, 26
        try await server.control("like?id=2&likes=9")
        try await server.control("delete?ids=1")

        let state = await refreshing(list) { list.refresh(.mergeOnTop(maxPages: 3, onGap: .keepGap)) }
        #expect(state == .idle)
        let ids = list.items.value.map(\.id)
        #expect(ids == [24, 25, 26] + Array(2 ... 10))
        #expect(Set(ids).count == ids.count, "no duplicates")
        #expect(list.items.value.first { $0.id == 2 }?.likes == 9, "the changed counter shows")
        #expect(list.gap.value == nil)
        #expect(!replayer.changes.contains(.reset), "spliced, not replaced: \(replayer.changes)")
        #expect(replayer.changes == [.removed([0]), .inserted(0 ..< 3), .updated([3, 4])],
                "1 removed, three new on top, the two held posts the page brought back updated in place")
        #expect(replayer.mirror == Array(list.items.value), "replaying changes gives the list")
        #expect(replayer.mismatches.isEmpty, "\(replayer.mismatches)")
        #expect(try await requests(after: 2).map(\.status) == [200], "the first page overlaps: one request")
        #expect(await loadNextPage(list) == .idle)
        // Below the held posts, by the held pages' own next page (a position-based style's page overlaps
        // the held posts by the two the feed gained: the overlap is dropped).
        let next = list.items.value.map(\.id)
        #expect(next.count > 12 && next == [24, 25, 26] + Array(2 ... next.last!), "paging goes on below the held posts")
    }

    @Test(arguments: RefreshStyle.all)
    func mergeOnTopWithoutAnOverlapKeepsAGapThatFillGapCloses(_ style: RefreshStyle) async throws {
        let (list, _) = try await loadedList(style, pages: 2)
        let replayer = Replayer(list)
        try await server.control("insert?at=0&count=12")   // 24...35: more than 2 pages

        #expect(await refreshing(list) { list.refresh(.mergeOnTop(maxPages: 2, onGap: .keepGap)) } == .idle)
        #expect(list.items.value.map(\.id) == Array(24 ... 33) + Array(1 ... 10), "the held posts below the fresh pages")
        #expect(list.gap.value == 10, "the gap is reported where the held posts start")
        #expect(try await requests(after: 2).map(\.status) == [200, 200], "the budget: two pages")

        #expect(await refreshing(list) { list.fillGap() } == .idle)
        let ids = list.items.value.map(\.id)
        #expect(ids == Array(24 ... 35) + Array(1 ... 10))
        #expect(Set(ids).count == ids.count, "no duplicates")
        #expect(list.gap.value == nil, "the page overlapped: the gap closed")
        #expect(try await requests(after: 4).map(\.status) == [200], "one page, from the gap")
        #expect(!replayer.changes.contains(.reset))
        #expect(replayer.mirror == Array(list.items.value))
        #expect(replayer.mismatches.isEmpty, "\(replayer.mismatches)")
    }

    @Test(arguments: RefreshStyle.all)
    func mergeOnTopWithoutAnOverlapReplacesTheListWhenTold(_ style: RefreshStyle) async throws {
        let (list, _) = try await loadedList(style, pages: 2)
        try await server.control("insert?at=0&count=12")

        #expect(await refreshing(list) { list.refresh(.mergeOnTop(maxPages: 2, onGap: .replace)) } == .idle)
        #expect(list.items.value.map(\.id) == Array(24 ... 33), "the fresh pages, the held posts dropped")
        #expect(list.gap.value == nil)
        #expect(try await requests(after: 2).map(\.status) == [200, 200])
        #expect(await loadNextPage(list) == .idle)
        #expect(list.items.value.map(\.id) == Array(24 ... 35) + Array(1 ... 3), "paging goes on below the fresh pages")
    }

    // MARK: - .reloadAll

    @Test(arguments: RefreshStyle.all)
    func reloadAllReloadsEveryHeldPageWithDeletesMovesInsertsAndCountersAnywhere(_ style: RefreshStyle) async throws {
        let (list, _) = try await loadedList(style, pages: 3)
        let replayer = Replayer(list)
        try await server.control("delete?ids=4,12")
        try await server.control("move?id=14&to=0")
        try await server.control("insert?at=7&count=2")   // 24, 25 in the middle
        try await server.control("like?id=9&likes=5")
        let expected = [14, 1, 2, 3, 5, 6, 7, 24, 25, 8, 9, 10, 11, 13, 15]

        #expect(await refreshing(list) { list.refresh(.reloadAll) } == .idle)
        #expect(list.items.value.map(\.id) == expected, "exactly the three reloaded pages")
        #expect(list.items.value.first { $0.id == 9 }?.likes == 5)
        #expect(try await requests(after: 3).map(\.status) == [200, 200, 200], "the three held pages, once each")
        #expect(!replayer.changes.contains(.reset), "\(replayer.changes)")
        #expect(replayer.changes.contains { if case .moved = $0 { true } else { false } }, "14 moved up")
        #expect(replayer.mirror == Array(list.items.value))
        #expect(replayer.mismatches.isEmpty, "\(replayer.mismatches)")
        #expect(await loadNextPage(list) == .idle)
        #expect(list.items.value.map(\.id) == expected + Array(16 ... 20), "paging goes on after the reloaded pages")
    }

    // MARK: - Freshness checks

    @Test(arguments: CheckedRefresh.allCases)
    func anUnchangedFeedCostsOne304AndNoPageRequestAChangedOneIsRefreshed(_ refresh: CheckedRefresh) async throws {
        let (list, source) = try await loadedList(.cursor, pages: 2)
        let replayer = Replayer(list)

        #expect(await refreshing(list) { refresh.start(list, ifChanged: source.feedChanged()) } == .idle)
        let check = try await requests(after: 2)
        #expect(check.count == 1, "one request: \(check.map(\.path))")
        #expect(check.first?.conditional == true && check.first?.status == 304)
        #expect(check.first?.query["cursor"] == nil, "the first page's request, made conditional")
        #expect(list.items.value.map(\.id) == Array(1 ... 10))
        #expect(replayer.changes.isEmpty, "no change to the list")

        try await server.control("insert?at=0&count=1")   // 24
        #expect(await refreshing(list) { refresh.start(list, ifChanged: source.feedChanged()) } == .idle)
        let expected: [Int]
        let pages: Int
        switch refresh {
        case .refreshIfChanged, .replace: (expected, pages) = ([24, 1, 2, 3, 4], 1)
        case .mergeOnTop: (expected, pages) = ([24] + Array(1 ... 10), 1)
        case .reloadAll: (expected, pages) = ([24] + Array(1 ... 9), 2)
        }
        #expect(list.items.value.map(\.id) == expected)
        let refreshed = try await requests(after: 3)
        #expect(refreshed.map(\.conditional) == [true] + Array(repeating: false, count: pages), "the check, then the pages")
        #expect(refreshed.map(\.status) == Array(repeating: 200, count: pages + 1))

        #expect(await refreshing(list) { refresh.start(list, ifChanged: source.feedChanged()) } == .idle)
        #expect(try await requests(after: 4 + pages).map(\.status) == [304], "the refresh recorded the version it loaded")
        #expect(list.items.value.map(\.id) == expected)
    }

    // MARK: - A re-ranked feed behind an ID snapshot

    private struct IDs: Decodable, Sendable { let ids: [Int] }
    private struct Posts: Decodable, Sendable { let items: [LikedPost] }

    @Test func aReRankedIDSnapshotFeedIsReconciledByIdsWhenItsValidatorChanged() async throws {
        try await server.control("reset?items=12")
        let client = HTTPClient(rateLimits: HTTPRateLimits())
        let idsURL = server.url("/ids")
        let itemsURL = server.url("/items")
        let monitor = HTTPChangeMonitor(client: client, url: idsURL)
        let source = IDSnapshotSource<LikedPost, HTTPError>(batchSize: 4, fetchIDs: {
            client.get(IDs.self, for: URLRequest(url: idsURL)) { response, body in
                monitor.remember(response)   // the snapshot's version: what the next check compares with
                return body.ids
            }
        }, fetchItems: { ids in
            client.get(Posts.self, from: HTTPQuery.url(itemsURL, setting: ["ids": ids.map(String.init).joined(separator: ",")]))
                .map(\.items)
        })
        let list = PaginatedListViewModel(dependency: source, scheduler: scheduler)
        #expect(await loadNextPage(list) == .idle)
        #expect(await loadNextPage(list) == .idle)
        #expect(list.items.value.map(\.id) == Array(1 ... 8))
        #expect(try await server.requests().map(\.path) == ["/ids", "/items?ids=1%2C2%2C3%2C4", "/items?ids=5%2C6%2C7%2C8"])
        let replayer = Replayer(list)

        #expect(await refreshing(list) { list.refresh(.reloadAll, ifChanged: monitor.feedChanged()) } == .idle)
        let unchanged = try await requests(after: 3)
        #expect(unchanged.map(\.path) == ["/ids"] && unchanged.map(\.status) == [304] && unchanged[0].conditional,
                "one conditional request, no snapshot, no items")
        #expect(replayer.changes.isEmpty)

        try await server.control("move?id=6&to=0")   // 6 rises to the top
        try await server.control("delete?ids=2")
        try await server.control("insert?at=2&count=1")   // 13, third
        try await server.control("like?id=3&likes=4")
        #expect(await refreshing(list) { list.refresh(.reloadAll, ifChanged: monitor.feedChanged()) } == .idle)
        #expect(list.items.value.map(\.id) == [6, 1, 13, 3, 4, 5, 7, 8])
        #expect(list.items.value.first { $0.id == 3 }?.likes == 4)
        let reranked = try await requests(after: 4)
        #expect(reranked.map(\.path) == ["/ids", "/ids", "/items?ids=6%2C1%2C13%2C3", "/items?ids=4%2C5%2C7%2C8"],
                "the check, a new snapshot, the held pages' items")
        #expect(reranked.map(\.conditional) == [true, false, false, false])
        #expect(reranked.map(\.status) == [200, 200, 200, 200])
        #expect(replayer.changes.contains { if case .moved = $0 { true } else { false } }, "\(replayer.changes)")
        #expect(!replayer.changes.contains(.reset))
        #expect(replayer.mirror == Array(list.items.value))
        #expect(replayer.mismatches.isEmpty, "\(replayer.mismatches)")

        #expect(await refreshing(list) { list.refresh(.reloadAll, ifChanged: monitor.feedChanged()) } == .idle)
        #expect(try await requests(after: 8).map(\.status) == [304], "the new snapshot's version was recorded")
    }

    // MARK: - Failures mid-refresh

    @Test func aServerErrorOnTheSecondPageOfAMergeKeepsTheListAndARefreshRetriesIt() async throws {
        let (list, _) = try await loadedList(.cursor, pages: 2)
        let replayer = Replayer(list)
        try await server.control("insert?at=0&count=7")   // 24...30: the first fresh page does not overlap
        try await server.control("fault?kind=500&after=1")   // the second request fails

        let state = await refreshing(list) { list.refresh(.mergeOnTop(maxPages: 3, onGap: .keepGap)) }
        let error = try #require(state?.error)
        #expect(error.kind == .status && error.statusCode == 500)
        #expect(list.lastError.value?.statusCode == 500)
        #expect(list.loadStates.value.refresh.error?.statusCode == 500)
        #expect(list.loadStates.value.append == .idle, "the list can still page")
        #expect(list.items.value.map(\.id) == Array(1 ... 10), "the list is kept")
        #expect(list.gap.value == nil)
        #expect(replayer.changes.isEmpty, "nothing landed: \(replayer.changes)")
        #expect(try await requests(after: 2).map(\.status) == [200, 500])

        #expect(await refreshing(list) { list.refresh(.mergeOnTop(maxPages: 3, onGap: .keepGap)) } == .idle)
        #expect(list.items.value.map(\.id) == Array(24 ... 30) + Array(1 ... 10))
        #expect(list.lastError.value == nil)
        #expect(try await requests(after: 4).map(\.status) == [200, 200], "a fresh refresh, from the first page")
        #expect(replayer.mirror == Array(list.items.value))
        #expect(replayer.mismatches.isEmpty, "\(replayer.mismatches)")
    }

    @Test func anAutomaticRetryRetriesOnlyTheFailedPageOfAMerge() async throws {
        let retry = AutomaticRetry(RetryPolicy(maxRetries: 2, initialDelay: .milliseconds(50), jitter: 0), on: QueueScheduler())
        let (list, _) = try await loadedList(.cursor, pages: 2, retry: retry)
        try await server.control("insert?at=0&count=7")
        try await server.control("fault?kind=500&after=1")

        let state = await refreshing(list) { list.refresh(.mergeOnTop(maxPages: 3, onGap: .keepGap)) }
        #expect(state?.error?.statusCode == 500)
        try await eventually { list.loadStates.value.refresh == .idle }
        #expect(list.items.value.map(\.id) == Array(24 ... 30) + Array(1 ... 10))
        let made = try await requests(after: 2)
        #expect(made.map(\.status) == [200, 500, 200])
        #expect(made.count == 3 && made[2].query == made[1].query, "the failed page again, not the first: \(made.map(\.path))")
    }
}

// MARK: - Helpers

/// Records a view model's `changes` and mirrors its list from them alone (each change read against the
/// `items` snapshot of its transition, as a view does). A change that does not fit the mirror is
/// recorded in `mismatches` (and leaves the mirror as it was).
final class Replayer<Item: Equatable & Sendable>: @unchecked Sendable {
    // `@unchecked`: every stored property is read and written holding `lock`.
    private let lock = NSLock()
    private var snapshot: ItemList<Item>?
    private var replayed: [Item]
    private var recorded: [ItemListChange] = []
    private var misfits: [String] = []

    init(_ list: PaginatedListViewModel<Item, HTTPError>) {
        replayed = Array(list.items.value)
        list.items.signal.observeValues { [self] items in lock.withLock { snapshot = items } }
        list.changes.observeValues { [self] change in lock.withLock { replay(change) } }
    }

    private func replay(_ change: ItemListChange) {
        recorded.append(change)
        guard let items = snapshot else {
            misfits.append("\(change) arrived without a snapshot")
            return
        }
        let fits: Bool = switch change {
        case let .appended(range), let .inserted(range): range.lowerBound <= replayed.count && range.upperBound <= items.count
        case let .removed(offsets): offsets.allSatisfy { replayed.indices.contains($0) }
        case let .updated(offsets): offsets.allSatisfy { replayed.indices.contains($0) && $0 < items.count }
        case let .moved(from, to): replayed.indices.contains(from) && replayed.indices.contains(to)
        case .reset: true
        }
        guard fits else {
            misfits.append("\(change) does not fit \(replayed.count) rows and a snapshot of \(items.count)")
            return
        }
        switch change {
        case let .appended(range), let .inserted(range):
            replayed.insert(contentsOf: range.map { items[$0] }, at: range.lowerBound)
        case let .removed(offsets):
            for offset in offsets.sorted(by: >) { replayed.remove(at: offset) }
        case let .updated(offsets):
            for offset in offsets { replayed[offset] = items[offset] }
        case let .moved(from, to):
            replayed.insert(replayed.remove(at: from), at: to)
        case .reset:
            replayed = Array(items)
        }
    }

    /// Every change sent since the replayer was made, in order.
    var changes: [ItemListChange] { lock.withLock { recorded } }
    /// The list as replaying the changes made it.
    var mirror: [Item] { lock.withLock { replayed } }
    /// The changes that did not fit the mirror.
    var mismatches: [String] { lock.withLock { misfits } }
}
