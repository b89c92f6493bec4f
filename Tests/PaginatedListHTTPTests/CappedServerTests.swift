import Foundation
import HTTPFixtureServer
import PaginatedList
import PaginatedListHTTP
import Signals
import Testing

/// Servers that cap the page size and feeds that shrink, as real frameworks serve them (the fixture
/// server's `/control/cap`, Django REST framework's `/drf/page` and `/drf/offset`, `past_end=404`): a
/// capped page never ends a list silently, and a page past the end is the end, reported, not a failure.
/// A feed of 95 posts (ids 1...95); each test runs its own server.
@Suite final class CappedServerTests {
    let server: FeedServer
    static let posts = Array(1 ... 95)

    init() async throws { server = try await FeedServer.start(items: 95) }

    /// A feed item that is not `Identifiable`: offsets step by the limit.
    struct PlainItem: Decodable, Sendable, Equatable {
        let id: Int
    }

    /// A `PlainItem` with an identity, to watch the rows.
    struct Row: Identifiable, Sendable {
        let id: Int
    }

    /// A list of `source` on the immediate scheduler, and the diagnostics it reports.
    func list<D: PaginatedListDependency>(_ source: D) -> (PaginatedListViewModel<D.Item, HTTPError>, MutableProperty<[PaginatedListDiagnostic]>)
    where D.Failure == HTTPError, D.Item: Sendable {
        let list = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        let diagnostics = MutableProperty<[PaginatedListDiagnostic]>([])
        list.diagnostics.observeValues { diagnostic in diagnostics.modify { $0.append(diagnostic) } }
        return (list, diagnostics)
    }

    /// The source corrections among `diagnostics`.
    static func corrections(_ diagnostics: MutableProperty<[PaginatedListDiagnostic]>) -> [PaginatedListDiagnostic.SourceCorrection] {
        diagnostics.value.compactMap { if case let .sourceCorrection(correction) = $0 { correction } else { nil } }
    }

    /// The `limit` (or `page_size`) of every request the server logged, in order.
    func sizes(_ name: String = "limit") async throws -> [Int] {
        try await server.requests().compactMap { $0.query[name].flatMap(Int.init) }
    }

    // MARK: - Offsets under a cap

    @Test func anOffsetListUnderACapOfItsOwnLimitShowsEveryPostOnceInOrder() async throws {
        try await server.control("cap?size=10")
        let (list, diagnostics) = list(HTTPPageSource<FeedItem>(url: server.url("/offset"), paging: .offset(limit: 10)))
        #expect(await loadAll(list) == .complete)
        #expect(list.items.value.map(\.id) == Self.posts)
        #expect(Self.corrections(diagnostics).allSatisfy { $0.impact == .nothingLost }, "\(Self.corrections(diagnostics))")
    }

    @Test func anOffsetSourceNeverAsksMoreThanTheCapItSawOnceItSawIt() async throws {
        try await server.control("cap?size=10")
        let (list, _) = list(HTTPPageSource<FeedItem>(url: server.url("/drf/offset"), paging: .offset(limit: 10)))
        #expect(await loadAll(list) == .complete)
        #expect(list.items.value.map(\.id) == Self.posts)
        // The first window (10), then one of 10 plus the overlap, cut to 10: from then on, 10 at most.
        let sizes = try await sizes()
        #expect(sizes.prefix(2) == [10, 13] && sizes.dropFirst(2).allSatisfy { $0 <= 10 }, "\(sizes)")
    }

    @Test func anOffsetListUnderACapWithTwoPostsInsertedAtTheTopPerRequestShowsEveryPostOnceInOrder() async throws {
        try await server.control("cap?size=10")
        try await server.control("churn?insert=2")
        let (list, _) = list(HTTPPageSource<FeedItem>(url: server.url("/drf/offset"), paging: .offset(limit: 7)))
        #expect(await loadAll(list, maxPages: 200) == .complete)
        let posts = list.items.value.map(\.id).filter { $0 <= 95 }
        #expect(posts == Self.posts)
        #expect(Set(list.items.value.map(\.id)).count == list.items.value.count, "nothing twice")
    }

    @Test func anOffsetListOpenedInTheMiddleUnderACapShowsEveryPostOnceInOrderBothWays() async throws {
        try await server.control("cap?size=10")
        let (list, diagnostics) = list(HTTPPageSource<FeedItem>(url: server.url("/offset"), paging: .offset(limit: 10, start: 50)))
        #expect(await loadNextPage(list) == .idle)
        #expect(list.items.value.map(\.id) == Array(51 ... 60))
        try await scrollUp(list)
        #expect(list.items.value.map(\.id) == Array(1 ... 60))
        #expect(list.loadStates.value.prepend == .complete)
        #expect(await loadAll(list) == .complete)
        #expect(list.items.value.map(\.id) == Self.posts)
        #expect(Self.corrections(diagnostics).allSatisfy { $0.impact == .nothingLost }, "\(Self.corrections(diagnostics))")
    }

    @Test func offsetsWithoutIdentityUnderACapAskForTheRestOfEachPage() async throws {
        try await server.control("cap?size=10")
        let source = HTTPPageSource<PlainItem>(url: server.url("/offset"), paging: .offset(limit: 25))
        let list = PaginatedListViewModel(scheduler: ImmediateScheduler()) { source.firstPage().map { Self.rows($0) } }
        #expect(await loadAll(list) == .complete)
        #expect(list.items.value.map(\.id) == Self.posts)
        let windows = try await server.requests().map { [$0.query["offset"] ?? "?", $0.query["limit"] ?? "?"] }
        #expect(windows.prefix(4) == [["0", "25"], ["10", "15"], ["20", "5"], ["25", "25"]])
    }

    /// `page` with its items as `Row`s, and the pages around it likewise.
    static func rows(_ page: Page<PlainItem, HTTPError>) -> Page<Row, HTTPError> {
        Page(items: page.items.map { Row(id: $0.id) }, previous: page.previous?.map(rows), next: page.next?.map(rows),
             diagnostics: page.diagnostics)
    }

    // MARK: - Page numbers under a cap

    @Test func aPageNumberListUnderAMaxPageSizeGoesOnWhileTheCountSaysMorePostsRemain() async throws {
        try await server.control("cap?size=10")
        let source = HTTPPageSource<FeedItem>(url: server.url("/drf/page"),
                                              paging: .pageNumber(pageSize: 20, sizeParameter: "page_size"))
        let (list, diagnostics) = list(source)
        #expect(await loadAll(list) == .complete)
        #expect(list.items.value.map(\.id) == Self.posts)
        let pages = try await server.requests().compactMap { $0.query["page"] }
        #expect(pages == (1 ... 10).map(String.init), "one request a page of the size served, none past the end")
        #expect(diagnostics.value.isEmpty)
    }

    @Test func aShortPageWithNothingSayingMoreRemainIsSettledByTheNextPage() async throws {
        try await server.control("cap?size=10")
        let (list, _) = list(HTTPPageSource<FeedItem>(url: server.url("/page"), paging: .pageNumber(pageSize: 20)))
        #expect(await loadAll(list) == .complete)
        #expect(list.items.value.map(\.id) == Self.posts)
    }

    // MARK: - Past the end

    @Test func aPagePastTheEndAfterTheFeedShrankEndsTheListWithAShrinkReportNotAFailure() async throws {
        let source = HTTPPageSource<FeedItem>(url: server.url("/drf/page"),
                                              paging: .pageNumber(pageSize: 10, sizeParameter: "page_size"))
        let (list, diagnostics) = list(source)
        for _ in 0 ..< 3 { #expect(await loadNextPage(list) == .idle) }
        #expect(list.items.value.map(\.id) == Array(1 ... 30))
        try await server.control("delete?at=0&count=70")
        #expect(await loadNextPage(list) == .complete)
        #expect(list.lastError.value == nil)
        try await eventually { !Self.corrections(diagnostics).isEmpty }
        // Page 3 said 95 posts: the 65 after it are gone from where page 4 would read them.
        #expect(Self.corrections(diagnostics) == [.feedShrank(possiblySkipped: 65)])
        #expect(Self.corrections(diagnostics).first?.impact == .possiblyLost)
        let statuses = try await server.requests().map(\.status)
        #expect(statuses == [200, 200, 200, 404])
    }

    @Test func anOffsetPastTheEndAnsweredWith404IsAnEmptyWindowTheSourceLooksBackFrom() async throws {
        let (list, diagnostics) = list(HTTPPageSource<FeedItem>(url: server.url("/offset?past_end=404"), paging: .offset(limit: 10)))
        for _ in 0 ..< 3 { #expect(await loadNextPage(list) == .idle) }
        try await server.control("delete?at=0&count=70")
        #expect(await loadAll(list) == .complete)
        #expect(list.lastError.value == nil)
        #expect(list.items.value.map(\.id) == Array(1 ... 30) + Array(71 ... 95), "the posts that moved up, read")
        // Every post it had shown was deleted, and it read the whole feed from the top: nothing lost.
        #expect(Self.corrections(diagnostics).allSatisfy { $0.impact == .nothingLost }, "\(Self.corrections(diagnostics))")
    }

    // MARK: - ID snapshots under a cap

    @Test func anIDSnapshotUnderACapAsksAgainForTheItemsHeldBackAndSkipsNone() async throws {
        struct Ranking: Decodable, Sendable { let ids: [Int] }
        struct Items: Decodable, Sendable { let items: [FeedItem] }
        try await server.control("cap?size=4")
        let client = HTTPClient()
        let (idsURL, itemsURL) = (server.url("/ids"), server.url("/items"))
        let source = IDSnapshotSource<FeedItem, HTTPError>(batchSize: 10, fetchIDs: {
            client.get(Ranking.self, from: idsURL).map(\.ids)
        }, fetchItems: { ids in
            client.get(Items.self, from: HTTPQuery.url(itemsURL, setting: ["ids": ids.map(String.init).joined(separator: ",")]))
                .map(\.items)
        })
        let (list, diagnostics) = list(source)
        #expect(await loadAll(list, maxPages: 200) == .complete)
        #expect(list.items.value.map(\.id) == Self.posts)
        #expect(Self.corrections(diagnostics).isEmpty, "nothing reported missing: \(Self.corrections(diagnostics))")
    }

    @Test(arguments: ["/drf/page?page_size=10", "/page?limit=10&past_end=404"])
    func aStartPagePastTheEndAnsweredWith404IsAnEmptyListCompleteAtBothEnds(_ path: String) async throws {
        let source = HTTPPageSource<FeedItem>(url: server.url(path), paging: .pageNumber(pageSize: 10, sizeParameter: nil,
                                                                                         startPage: 40))
        let (list, _) = list(source)
        #expect(await loadNextPage(list) == .complete)
        #expect(list.items.value.isEmpty)
        #expect(list.loadStates.value.prepend == .complete)
        #expect(list.lastError.value == nil)
    }

    @Test func anOffsetStartPastTheEndAnsweredWith404IsAnEmptyListCompleteAtBothEnds() async throws {
        let source = HTTPPageSource<FeedItem>(url: server.url("/offset?past_end=404"), paging: .offset(limit: 10, start: 400))
        let (list, _) = list(source)
        #expect(await loadNextPage(list) == .complete)
        #expect(list.items.value.isEmpty)
        #expect(list.loadStates.value.prepend == .complete)
    }

    @Test func a404ForTheFirstPageStaysAnError() async throws {
        let (list, _) = list(HTTPPageSource<FeedItem>(url: server.url("/drf/page?page_size=10"),
                                                      paging: .pageNumber(pageSize: 10, sizeParameter: nil, firstPage: 0)))
        let error = try #require(await loadNextPage(list)?.error)
        #expect(error.statusCode == 404)
        #expect(!list.exhausted.value)
    }

    @Test func aStartPageAnswered404WhileTheFirstPageFailsTooIsTheFirstPagesError() async throws {
        let (list, _) = list(HTTPPageSource<FeedItem>(url: server.url("/nowhere"), paging: .pageNumber(pageSize: 10, startPage: 3)))
        let error = try #require(await loadNextPage(list)?.error)
        #expect(error.statusCode == 404)
        #expect(error.url?.query == "page=1&limit=10", "the wrong URL shows in the first page's request")
        #expect(!list.exhausted.value)
    }

    @Test func withNoPastEndStatusesA404PastTheEndIsAnError() async throws {
        let source = HTTPPageSource<FeedItem>(url: server.url("/drf/page"),
                                              paging: .pageNumber(pageSize: 10, sizeParameter: "page_size", pastEndStatuses: []))
        let (list, _) = list(source)
        for _ in 0 ..< 3 { #expect(await loadNextPage(list) == .idle) }
        try await server.control("delete?at=0&count=70")
        #expect(await loadNextPage(list)?.error?.statusCode == 404)
        #expect(!list.exhausted.value)
        #expect(list.items.value.map(\.id) == Array(1 ... 30), "what was loaded stays")
    }

    @Test func a400PastTheEndEndsTheListOnlyWhenTheStyleListsIt() async throws {
        let listing = HTTPPageSource<FeedItem>(url: server.url("/page?past_end=400"),
                                               paging: .pageNumber(pageSize: 19, pastEndStatuses: [404, 400]))
        let (ends, _) = list(listing)
        #expect(await loadAll(ends) == .complete)
        #expect(ends.items.value.map(\.id) == Self.posts)
        let strict = HTTPPageSource<FeedItem>(url: server.url("/page?past_end=400"), paging: .pageNumber(pageSize: 19))
        let (fails, _) = list(strict)
        #expect(await loadAll(fails)?.error?.statusCode == 400)
        #expect(fails.items.value.map(\.id) == Self.posts, "what was loaded stays")
    }

    // MARK: - Keyed pages under a cap

    /// Follows the keys of `source` from the page at `start` one way (`next`, or `previous` when `up`), each
    /// key round-tripped through JSON as a store keeps it; the pages in the order loaded.
    private func keyedPages(
        _ source: HTTPPageSource<FeedItem>, from start: HTTPPageKey? = nil, up: Bool = false
    ) async throws -> [KeyedPage<FeedItem, HTTPPageKey>] {
        var pages: [KeyedPage<FeedItem, HTTPPageKey>] = []
        var key = start
        repeat {
            let page = try #require(try await source.page(at: key).first())
            pages.append(page)
            key = try (up ? page.previous : page.next).map { try JSONDecoder().decode(HTTPPageKey.self, from: JSONEncoder().encode($0)) }
        } while key != nil && pages.count < 100
        return pages
    }

    @Test(arguments: ["/drf/offset", "/offset"])
    func keyedOffsetWindowsUnderACapReachTheEndByTheirKeys(_ path: String) async throws {
        try await server.control("cap?size=10")
        let pages = try await keyedPages(HTTPPageSource<FeedItem>(url: server.url(path), paging: .offset(limit: 15)))
        #expect(pages.flatMap(\.items).map(\.id) == Self.posts)
    }

    @Test func keyedOffsetWindowsUnderACapGoUpFromTheEndWithoutAGap() async throws {
        try await server.control("cap?size=10")
        let source = HTTPPageSource<FeedItem>(url: server.url("/drf/offset"), paging: .offset(limit: 15))
        let pages = try await keyedPages(source, from: .offset(90), up: true)
        // The pages above may overlap (a list keeps each id once); none leaves a post out.
        var kept = Set<Int>()
        let ids = pages.reversed().flatMap(\.items).map(\.id).filter { kept.insert($0).inserted }
        #expect(ids == Self.posts)
    }

    @Test func aKeyedPageNumberPageUnderAMaxPageSizeNearTheEndIsNotTheLast() async throws {
        try await server.control("cap?size=10")
        let source = HTTPPageSource<FeedItem>(url: server.url("/drf/page"),
                                              paging: .pageNumber(pageSize: 20, sizeParameter: "page_size"))
        // Page 5 holds posts 41-50 (pages of the 10 served): by the 20 asked, posts 81-95 would end there.
        let pages = try await keyedPages(source, from: .page(5))
        #expect(pages.flatMap(\.items).map(\.id) == Array(41 ... 95))
    }

    @Test func aKeyedOffsetWindowPastTheEndAnswered404IsAnEmptyLastWindow() async throws {
        let source = HTTPPageSource<FeedItem>(url: server.url("/offset?past_end=404"), paging: .offset(limit: 10))
        let page = try #require(try await source.page(at: .offset(120)).first())
        #expect(page.items.isEmpty && page.next == nil)
    }

    // MARK: - Scrolling

    /// `loadPreviousPage()` until nothing comes before the first item held, or a page fails.
    private func scrollUp<Item: Identifiable & Sendable>(_ list: PaginatedListViewModel<Item, HTTPError>) async throws
    where Item.ID: Sendable {
        for _ in 0 ..< 100 {
            let prepend = list.loadStates.value.prepend
            if prepend.isComplete || prepend.error != nil { return }
            let count = list.items.value.count
            list.loadPreviousPage()
            try await eventually {
                let prepend = list.loadStates.value.prepend
                return !prepend.isLoading && (list.items.value.count != count || prepend.isComplete || prepend.error != nil)
            }
        }
    }
}
