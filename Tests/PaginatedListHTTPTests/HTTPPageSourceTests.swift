import Foundation
import HTTPFixtureServer
import PaginatedList
import PaginatedListHTTP
import Signals
import Testing

/// Every paging style against the fixture server: the whole feed, exactly once, through a view model.
/// Each test runs its own server (a fresh feed of 23 items, ids 1...23).
@Suite final class HTTPPageSourceTests {
    let server: FeedServer

    init() async throws { server = try await FeedServer.start() }

    private func list<D: PaginatedListDependency>(_ source: D) -> PaginatedListViewModel<FeedItem, HTTPError>
    where D.Item == FeedItem, D.Failure == HTTPError {
        PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
    }

    private func requestCount() async throws -> Int {
        let log = try await server.control("log")
        return (log["requests"] as? [Any])?.count ?? -1
    }

    @Test func pageNumbersPageTheWholeFeedOnceAndEndAtTheShortPage() async throws {
        let list = list(HTTPPageSource<FeedItem>(url: server.url("/page"), paging: .pageNumber(pageSize: 5)))
        let state = await loadAll(list)
        #expect(state == .complete)
        #expect(list.items.value.map(\.id) == Array(1 ... 23))
        #expect(try await requestCount() == 5)
    }

    @Test func pageNumbersEndAtTheTotalInTheEnvelopeWithoutAnEmptyPage() async throws {
        try await server.control("reset?items=20")
        let list = list(HTTPPageSource<FeedItem>(url: server.url("/page?totals=1"), paging: .pageNumber(pageSize: 5)))
        #expect(await loadAll(list) == .complete)
        #expect(list.items.value.map(\.id) == Array(1 ... 20))
        #expect(try await requestCount() == 4)
    }

    @Test func itemsDecodeWithTheSharedCodersSnakeCaseAndISO8601() async throws {
        let list = list(HTTPPageSource<FeedItem>(url: server.url("/page"), paging: .pageNumber(pageSize: 5)))
        _ = await loadNextPage(list)
        #expect(list.items.value.first == FeedItem(id: 1, title: "Item 1", createdAt: Date(timeIntervalSince1970: 1_714_564_801)))
    }

    @Test func aCursorInTheBodyPagesTheWholeFeedOnce() async throws {
        let list = list(HTTPPageSource<FeedItem>(url: server.url("/cursor?limit=5"), paging: .cursor()))
        #expect(await loadAll(list) == .complete)
        #expect(list.items.value.map(\.id) == Array(1 ... 23))
    }

    @Test func aNextURLInTheBodyWithTheCursorInAQueryItemPagesTheWholeFeedOnce() async throws {
        let list = list(HTTPPageSource<FeedItem>(url: server.url("/drf?limit=5"), paging: .nextURL()))
        #expect(await loadAll(list) == .complete)
        #expect(list.items.value.map(\.id) == Array(1 ... 23))
    }

    @Test func relativeLinkHeadersPageTheWholeFeedOnce() async throws {
        let list = list(HTTPPageSource<FeedItem>(url: server.url("/link?limit=5"), paging: .linkHeader()))
        #expect(await loadAll(list) == .complete)
        #expect(list.items.value.map(\.id) == Array(1 ... 23))
        #expect(try await requestCount() == 5)
    }

    @Test func absoluteLinkHeadersPageTheWholeFeedOnce() async throws {
        let list = list(HTTPPageSource<FeedItem>(url: server.url("/link?limit=5&absolute=1"), paging: .linkHeader()))
        #expect(await loadAll(list) == .complete)
        #expect(list.items.value.map(\.id) == Array(1 ... 23))
    }

    @Test func offsetsPageTheWholeFeedOnce() async throws {
        let list = list(HTTPPageSource<FeedItem>(url: server.url("/offset"), paging: .offset(limit: 5)))
        #expect(await loadAll(list) == .complete)
        #expect(list.items.value.map(\.id) == Array(1 ... 23))
    }

    @Test func offsetsCorrectForInsertionsAndDeletionsBetweenPages() async throws {
        let list = list(HTTPPageSource<FeedItem>(url: server.url("/offset"), paging: .offset(limit: 5)))
        #expect(await loadNextPage(list) == .idle)
        try await server.control("insert?at=0&count=2")    // drift: loaded items pushed down
        #expect(await loadNextPage(list) == .idle)
        try await server.control("delete?at=0&count=4")    // two new ones and items 1, 2: a hole above
        #expect(await loadNextPage(list) == .idle)
        try await server.control("delete?at=15&count=1")   // item 18, not loaded yet, goes
        let state = await loadAll(list)
        #expect(state == .complete)
        let ids = list.items.value.map(\.id)
        #expect(ids.count == Set(ids).count, "no duplicates")
        // Every item still in the feed, and every item loaded before it went, exactly once, in order.
        #expect(ids == Array(1 ... 17) + Array(19 ... 23))
    }

    @Test func aResetStartsAFreshChainFromTheFirstPage() async throws {
        let list = list(HTTPPageSource<FeedItem>(url: server.url("/page"), paging: .pageNumber(pageSize: 5)))
        _ = await loadNextPage(list)
        _ = await loadNextPage(list)
        list.reset()
        #expect(await loadNextPage(list) == .idle)
        #expect(list.items.value.map(\.id) == Array(1 ... 5))
    }
}
