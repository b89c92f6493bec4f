import Foundation
import HTTPFixtureServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList
import PaginatedListHTTP
import Signals
import Testing

/// Bad responses, cancellation and conditional requests, against the fixture server.
@Suite final class HTTPFailureTests {
    let server: FeedServer

    init() async throws { server = try await FeedServer.start() }

    private func pageList() -> PaginatedListViewModel<FeedItem, HTTPError> {
        PaginatedListViewModel(
            dependency: HTTPPageSource<FeedItem>(url: server.url("/page"), paging: .pageNumber(pageSize: 5)),
            scheduler: ImmediateScheduler()
        )
    }

    // MARK: - Bad responses

    struct BadResponse: Sendable, CustomTestStringConvertible {
        let fault: String
        let kind: HTTPError.Kind
        let status: Int?
        let excerpt: String
        var testDescription: String { fault }
    }

    static let badResponses = [
        BadResponse(fault: "500", kind: .status, status: 500, excerpt: "internal server error"),
        BadResponse(fault: "429", kind: .status, status: 429, excerpt: "too many requests"),
        BadResponse(fault: "malformed", kind: .decoding, status: 200, excerpt: #"{"items": [{"id": 1"#),
        BadResponse(fault: "truncated", kind: .transport, status: nil, excerpt: ""),
        BadResponse(fault: "content-type", kind: .contentType, status: 200, excerpt: "Please log in"),
    ]

    @Test(arguments: badResponses)
    func aBadResponseFailsWithTheTypedErrorKeepsTheListAndIsRetryable(_ bad: BadResponse) async throws {
        let list = pageList()
        #expect(await loadNextPage(list) == .idle)
        try await server.control("fault?kind=\(bad.fault)")

        let failed = await loadNextPage(list)
        let error = try #require(failed?.error)
        #expect(error.kind == bad.kind)
        if let status = bad.status { #expect(error.statusCode == status) }
        if !bad.excerpt.isEmpty { #expect(error.bodyExcerpt.contains(bad.excerpt)) }
        #expect(error.url?.absoluteString.contains("/page?") == true)
        #expect(error.description.contains(error.url?.absoluteString ?? "?"))
        #expect(list.items.value.map(\.id) == Array(1 ... 5), "the list is intact")
        if bad.fault == "429" { #expect(error.retryAfter == 1) }

        // The server behaves again: the same page is retried.
        #expect(await loadNextPage(list) == .idle)
        #expect(list.lastError.value == nil)
        #expect(list.items.value.map(\.id) == Array(1 ... 10))
    }

    @Test func aDecodingErrorNamesThePathAndTheType() async throws {
        struct Strict: Decodable, Sendable { let id: Int; let missingField: String }
        let error = await #expect(throws: HTTPError.self) {
            try await HTTPClient().get([Strict].self, from: self.server.url("/offset?limit=2")).first()
        }
        #expect(error?.kind == .decoding)
        #expect(error?.reason.contains("missing_field") == true)
        #expect(error?.reason.contains("Strict") == true)
    }

    @Test func theUsersDecoderIsUsedWhenGiven() async throws {
        // A plain JSONDecoder does not convert snake_case: `created_at` is not found.
        let client = HTTPClient(makeDecoder: { JSONDecoder() })
        let error = await #expect(throws: HTTPError.self) {
            try await client.get([FeedItem].self, from: self.server.url("/offset?limit=2")).first()
        }
        #expect(error?.kind == .decoding)
        let items = try await HTTPClient().get([FeedItem].self, from: server.url("/offset?limit=2")).first()
        #expect(items?.map(\.id) == [1, 2])
    }

    @Test func aRefusedConnectionIsATransportError() async throws {
        let port = server.port
        await server.stopAndWait()
        let error = await #expect(throws: HTTPError.self) {
            try await HTTPClient().response(from: URL(string: "http://127.0.0.1:\(port)/page")!).first()
        }
        #expect(error?.kind == .transport)
        #expect(error?.transportCode != nil)
    }

    // MARK: - Cancellation

    /// Waits (a bounded poll) until the server has received the request tagged `tag`.
    private func waitUntilReceived(tag: String) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        while try await server.outcomes(tag: tag).isEmpty, clock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// How long the server holds a request that a cancellation test cuts off. Far longer than the test
    /// can take to notice the request and cut it, even on a starved cooperative pool (under the thread
    /// sanitizer on two cores, a 30 s hold was once answered before the test's poll saw the request); the
    /// server stops holding as soon as the client closes the connection, so a passing test never waits.
    private static let hold = 600

    @Test func disposingARunCancelsTheRequestAndTheServerSeesTheConnectionClose() async throws {
        let events = EventLog()
        var request = URLRequest(url: server.url("/offset?delay=\(Self.hold)&tag=slow"))
        request.timeoutInterval = TimeInterval(Self.hold)   // the client must not give up first either
        let run = HTTPClient().response(for: request).start { events.append("\($0)") }
        try await waitUntilReceived(tag: "slow")
        run.dispose()
        #expect(try await server.settledOutcomes(tag: "slow") == ["closed"])
        #expect(events.all == ["interrupted"])
    }

    @Test func resetDuringASlowLoadClosesTheConnectionAndNoStalePageLands() async throws {
        let list = PaginatedListViewModel(
            dependency: HTTPPageSource<FeedItem>(url: server.url("/page?tag=first"), paging: .pageNumber(pageSize: 5)),
            scheduler: ImmediateScheduler()
        )
        let sizes = EventLog()
        list.items.signal.observeValues { sizes.append("\($0.map(\.id))") }
        try await server.control("slow?delay=\(Self.hold)&times=1")
        list.loadNextPage()
        try await waitUntilReceived(tag: "first")
        try await server.control("delete?at=0&count=1")   // the fresh load must see the changed feed
        list.reset()
        #expect(try await server.settledOutcomes(tag: "first") == ["closed"])
        #expect(list.loadStates.value.append == .idle)

        #expect(await loadNextPage(list) == .idle)
        #expect(list.items.value.map(\.id) == Array(2 ... 6))
        #expect(sizes.all == ["\(Array(2 ... 6))"], "only the fresh page ever landed")
    }

    // MARK: - Conditional requests

    @Test func aCheckOfAnUnchangedFeedCostsA304() async throws {
        let monitor = HTTPChangeMonitor(url: server.url("/page?page=1&limit=5&tag=check"))
        #expect(try await monitor.feedChanged().first() == true, "nothing seen yet")
        #expect(monitor.validators.etag == "\"v1\"")
        #expect(try await monitor.feedChanged().first() == false)
        let log = try await server.control("log?tag=check")
        let statuses = (log["requests"] as? [[String: Any]] ?? []).compactMap { $0["status"] as? Int }
        #expect(statuses == [200, 304])
    }

    @Test func aListsMonitorWithNoFirstPageLoadedAnswersChangedWithNoRequest() async throws {
        // A list opened past the end (its start page answers 404) loaded no first page: a check asked the
        // start page and failed with the 404, every time.
        let origin = StubOrigin()
        origin.answer(.init(status: 404))
        let source = HTTPPageSource<FeedItem>(client: origin.client(), url: origin.url(),
                                              paging: .pageNumber(pageSize: 10, startPage: 50))
        #expect(try await HTTPChangeMonitor(source).feedChanged().first() == true)
        #expect(origin.requests.isEmpty)
    }

    @Test func aCheckAfterTheFeedChangedReportsTheChangeOnce() async throws {
        let monitor = HTTPChangeMonitor(url: server.url("/page?page=1&limit=5"))
        _ = try await monitor.feedChanged().first()
        try await server.control("insert?at=0&count=1")
        #expect(try await monitor.feedChanged().first() == true)
        #expect(monitor.validators.etag == "\"v2\"")
        #expect(try await monitor.feedChanged().first() == false)
    }

    @Test func lastModifiedAloneMakesTheRequestConditional() async throws {
        let client = HTTPClient()
        let request = URLRequest(url: server.url("/offset?limit=3"))
        let first = try #require(try await client.response(for: request).first())
        let lastModifiedOnly = HTTPValidators(lastModified: first.validators.lastModified)
        let answer = try await client.conditionalResponse(for: request, validators: lastModifiedOnly).first()
        #expect(answer?.isModified == false)
        #expect(answer?.response.statusCode == 304)
        try await server.control("delete?at=0&count=1")
        let changed = try await client.conditionalResponse(for: request, validators: lastModifiedOnly).first()
        #expect(changed?.isModified == true)
    }

    @Test func aRememberedPageMakesTheFirstCheckConditional() async throws {
        let url = server.url("/page?page=1&limit=5")
        let page = try #require(try await HTTPClient().response(from: url).first())
        let monitor = HTTPChangeMonitor(url: url)
        monitor.remember(page)
        #expect(try await monitor.feedChanged().first() == false)
    }
}

/// Strings appended from any thread.
final class EventLog: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var entries: [String] = []   // guarded by `lock`

    func append(_ entry: String) { lock.withLock { entries.append(entry) } }
    var all: [String] { lock.withLock { entries } }
}
