import Foundation
import HTTPFixtureServer
import PaginatedList
import PaginatedListHTTP
import Signals
import Testing

/// Every HTTP source opened in the middle of the fixture server's feed (23 items, ids 1...23, pages of 5),
/// scrolled up with `loadPreviousPage()` and down with `loadNextPage()`: the whole feed once, in order,
/// each page requested once; with `maxPages`, the dropped pages requested again from the end they were
/// dropped at. Each test runs its own server.
@Suite final class HTTPStartPositionTests {
    let server: FeedServer

    init() async throws { server = try await FeedServer.start() }

    /// A feed item that is not `Identifiable`: offsets step by the limit.
    struct PlainItem: Decodable, Sendable, Equatable {
        let id: Int
    }

    /// A `PlainItem` with an identity, to watch the rows (the source sees `PlainItem`s).
    struct Row: Identifiable, Sendable {
        let id: Int
    }

    /// A source opened at the page holding items 11-15 (or, for `steppedOffsets`, 13-17).
    enum Opening: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case pageNumber, offset, cursor, nextURL, linkHeader

        var testDescription: String { rawValue }

        func list(_ server: FeedServer, maxPages: Int? = nil) -> PaginatedListViewModel<FeedItem, HTTPError> {
            func model<D: PaginatedListDependency>(_ source: D) -> PaginatedListViewModel<FeedItem, HTTPError>
            where D.Item == FeedItem, D.Failure == HTTPError {
                PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler(), maxPages: maxPages)
            }
            return switch self {
            case .pageNumber:
                model(HTTPPageSource<FeedItem>(url: server.url("/page"), paging: .pageNumber(pageSize: 5, startPage: 3)))
            case .offset:
                model(HTTPPageSource<FeedItem>(url: server.url("/offset"), paging: .offset(limit: 5, start: 10)))
            case .cursor:
                model(HTTPPageSource<FeedItem>(url: server.url("/cursor?limit=5"),
                                               paging: .cursor(previous: "prev_cursor", start: "10")))
            case .nextURL:
                model(HTTPPageSource<FeedItem>(url: server.url("/drf?limit=5&cursor=10"), paging: .nextURL(previous: "previous")))
            case .linkHeader:
                model(HTTPPageSource<FeedItem>(url: server.url("/link?limit=5&page=3"), paging: .linkHeader()))
            }
        }
    }

    /// `loadPreviousPage()` until nothing comes before the first item held, or a page fails; each time
    /// waits until the page landed (the first row changed), failed, or was the top.
    private func scrollUp<Item: Identifiable & Sendable>(_ list: PaginatedListViewModel<Item, HTTPError>) async throws
    where Item.ID: Sendable {
        for _ in 0 ..< 50 {
            let prepend = list.loadStates.value.prepend
            if prepend.isComplete || prepend.error != nil { return }
            let first = list.items.value.first?.id
            list.loadPreviousPage()
            try await eventually {
                let prepend = list.loadStates.value.prepend
                return !prepend.isLoading && (list.items.value.first?.id != first || prepend.isComplete || prepend.error != nil)
            }
        }
    }

    /// `loadNextPage()` until the list is exhausted, or a page fails; each time waits until the page
    /// landed (the last row changed), failed, or was the last.
    private func scrollDown<Item: Identifiable & Sendable>(_ list: PaginatedListViewModel<Item, HTTPError>) async throws
    where Item.ID: Sendable {
        for _ in 0 ..< 50 {
            let append = list.loadStates.value.append
            if append.isComplete || append.error != nil { return }
            let last = list.items.value.last?.id
            list.loadNextPage()
            try await eventually {
                let append = list.loadStates.value.append
                return !append.isLoading && (list.items.value.last?.id != last || append.isComplete || append.error != nil)
            }
        }
    }

    @Test(arguments: Opening.allCases)
    func openedInTheMiddleEachSourceLoadsThePagesAboveAndBelowOnce(_ opening: Opening) async throws {
        let fresh = opening.list(server)
        #expect(await loadNextPage(fresh) == .idle)
        #expect(fresh.items.value.map(\.id) == Array(11 ... 15))
        #expect(!fresh.loadStates.value.prepend.isComplete, "the page opened at has pages before it")
        try await scrollUp(fresh)
        #expect(fresh.items.value.map(\.id) == Array(1 ... 15))
        #expect(fresh.loadStates.value.prepend == .complete)
        try await scrollDown(fresh)
        #expect(fresh.items.value.map(\.id) == Array(1 ... 23))
        #expect(fresh.loadStates.value.append == .complete)
        let requests = try await server.requests()
        #expect(requests.count == 5, "one request a page: \(requests.map(\.query))")
        #expect(Set(requests.map(\.path)).count == requests.count, "no page requested twice")
    }

    @Test func offsetsWithoutIdentityStepFromTheStartUpToAShortTopPage() async throws {
        let source = HTTPPageSource<PlainItem>(url: server.url("/offset"), paging: .offset(limit: 5, start: 12))
        let list = PaginatedListViewModel(scheduler: ImmediateScheduler()) {
            source.firstPage().map { Self.rows($0) }
        }
        #expect(await loadNextPage(list) == .idle)
        #expect(list.items.value.map(\.id) == Array(13 ... 17))
        try await scrollUp(list)
        #expect(list.items.value.map(\.id) == Array(1 ... 17))
        #expect(list.loadStates.value.prepend == .complete)
        let offsets = try await server.requests().map { [$0.query["offset"] ?? "?", $0.query["limit"] ?? "?"] }
        #expect(offsets == [["12", "5"], ["7", "5"], ["2", "5"], ["0", "2"]])
    }

    /// `page` with its items as `Row`s, and the pages around it likewise.
    static func rows(_ page: Page<PlainItem, HTTPError>) -> Page<Row, HTTPError> {
        Page(items: page.items.map { Row(id: $0.id) }, previous: page.previous?.map(rows), next: page.next?.map(rows),
             diagnostics: page.diagnostics)
    }

    @Test func aWindowOfTwoPagesScrolledBothWaysRequestsTheDroppedPagesAgainFromTheRightEnd() async throws {
        let list = Opening.pageNumber.list(server, maxPages: 2)
        #expect(await loadNextPage(list) == .idle)
        try await scrollUp(list)
        #expect(list.items.value.map(\.id) == Array(1 ... 10))
        #expect(list.loadStates.value.prepend == .complete)
        try await scrollDown(list)
        #expect(list.items.value.map(\.id) == Array(16 ... 23))
        #expect(list.loadStates.value.append == .complete)
        try await scrollUp(list)
        #expect(list.items.value.map(\.id) == Array(1 ... 10))
        let pages = try await server.requests().map { $0.query["page"] ?? "?" }
        #expect(pages == ["3", "2", "1", "3", "4", "5", "3", "2", "1"])
    }

    @Test func aCursorWindowScrolledBothWaysLoadsDroppedPagesByTheirNeighboursCursors() async throws {
        let list = Opening.cursor.list(server, maxPages: 2)
        #expect(await loadNextPage(list) == .idle)
        try await scrollUp(list)
        try await scrollDown(list)
        #expect(list.items.value.map(\.id) == Array(16 ... 23))
        try await scrollUp(list)
        #expect(list.items.value.map(\.id) == Array(1 ... 10))
        #expect(list.loadStates.value.prepend == .complete)
        let cursors = try await server.requests().map { $0.query["cursor"] ?? "-" }
        // Coming back, each page is loaded again by the cursor of the page next to it.
        #expect(cursors == ["10", "<11", "<6", "10", "15", "20", "<16", "<11", "<6"])
    }

    @Test func theFirstPageRequestIsThePageTheListOpensAt() {
        func query(_ paging: HTTPPagination, _ path: String = "/x") -> String? {
            HTTPPageSource<FeedItem>(url: server.url(path), paging: paging).firstPageRequest.url?.query
        }
        #expect(query(.pageNumber(pageSize: 5, startPage: 3)) == "page=3&limit=5")
        #expect(query(.pageNumber(pageSize: 5, firstPage: 1, startPage: -2)) == "page=1&limit=5")
        #expect(query(.offset(limit: 5, start: 40)) == "offset=40&limit=5")
        #expect(query(.offset(limit: 5, start: -4)) == "offset=0&limit=5")
        #expect(query(.cursor(start: "a+b")) == "cursor=a%2Bb")
        #expect(query(.cursor(start: "")) == nil)
        #expect(query(.startingAfter(start: "cus_0007")) == "starting_after=cus_0007")
    }

    @Test func aStartPagePastTheEndIsAnEmptyListCompleteAtBothEnds() async throws {
        let source = HTTPPageSource<FeedItem>(url: server.url("/page"), paging: .pageNumber(pageSize: 5, startPage: 40))
        let list = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        #expect(await loadNextPage(list) == .complete)
        #expect(list.items.value.isEmpty)
        #expect(list.loadStates.value.prepend == .complete)
    }

    @Test func aPreviousCursorThatRepeatsItsPagesCursorFailsThePageLoudly() async throws {
        let list = Opening.cursor.list(server)
        #expect(await loadNextPage(list) == .idle)
        try await server.control("fault?kind=same-cursor")
        list.loadPreviousPage()
        try await eventually { list.loadStates.value.prepend.error != nil }
        let error = try #require(list.loadStates.value.prepend.error)
        #expect(error.kind == .decoding)
        #expect(error.keyPath == "prev_cursor")
        #expect(list.items.value.map(\.id) == Array(11 ... 15), "the items held stay")
        #expect(list.loadStates.value.append == .idle, "the other end stays usable")
        list.loadPreviousPage()
        try await eventually { list.items.value.count == 10 }
        #expect(list.items.value.map(\.id) == Array(6 ... 15), "the retry, without the fault, loads the page")
    }

    @Test func aPreviousCursorKeyMissingFromTheBodyFailsThePageLoudly() async throws {
        let source = HTTPPageSource<FeedItem>(url: server.url("/cursor?limit=5"),
                                              paging: .cursor(previous: "previous_cursor", start: "10"))
        let list = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        let state = await loadNextPage(list)
        #expect(state?.error?.keyPath == "previous_cursor")
    }
}
