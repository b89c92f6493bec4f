import Foundation
import HTTPFixtureServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList
import PaginatedListHTTP
import PaginatedListTesting
import Signals
import Testing

/// No request is sent into a known rate-limit window, whoever makes it; the automatic retry waits the
/// server's `Retry-After` and makes exactly one request per retry. The windows run in virtual time (a
/// `TestScheduler` for the client's `HTTPRateLimits` and the retry): nothing waits on the wall clock.
@Suite final class RateLimitTests {
    let server: FeedServer
    let clock = TestScheduler()

    init() async throws { server = try await FeedServer.start() }

    /// A client with windows of its own, on the suite's virtual clock.
    private func client(maxWait: Duration = .seconds(30)) -> HTTPClient {
        HTTPClient(rateLimits: HTTPRateLimits(maxWait: maxWait, scheduler: clock))
    }

    /// The number of feed requests the server received.
    private func requestCount() async throws -> Int {
        try await Self.requestCount(server)
    }

    /// The number of feed requests `server` received.
    private static func requestCount(_ server: FeedServer) async throws -> Int {
        let log = try await server.control("log")
        return (log["requests"] as? [[String: Any]] ?? []).count
    }

    @Test func aRequestInsideARetryAfterWindowWaitsUntilTheWindowCloses() async throws {
        let client = client()
        let url = server.url("/offset?limit=2")
        try await server.control("fault?kind=429")
        let refused = await #expect(throws: HTTPError.self) { try await client.response(from: url).first() }
        #expect(refused?.retryAfter == 1)
        let held = Task { try await client.response(from: url).first()?.statusCode }
        try await eventually { [clock] in clock.pendingCount == 1 }
        clock.advance(by: .milliseconds(999))
        #expect(try await requestCount() == 1, "none sent into the window")
        clock.advance(by: .milliseconds(1))
        #expect(try await held.value == 200)
        #expect(try await requestCount() == 2)
    }

    @Test func aWindowLongerThanTheClientWaitsFailsAtOnceWithoutARequest() async throws {
        let client = client(maxWait: .milliseconds(100))
        let url = server.url("/offset?limit=2")
        try await server.control("fault?kind=429-long")
        _ = try? await client.response(from: url).first()
        let error = await #expect(throws: HTTPError.self) { try await client.response(from: url).first() }
        #expect(error?.kind == .rateLimited)
        #expect(error?.retryAfter == 60, "the rest of the server's window")
        #expect(error?.description.contains("not sent") == true)
        #expect(clock.pendingCount == 0)
        #expect(try await requestCount() == 1)
    }

    @Test func windowsBelongToAnOriginAndOtherOriginsAreNotHeldBack() async throws {
        let limits = HTTPRateLimits(scheduler: clock)
        limits.record(until: clock.currentDate.addingTimeInterval(60), for: URL(string: "http://127.0.0.1:1/x")!)
        #expect(limits.windowEnd(for: URL(string: "http://127.0.0.1:1/other?q=1")!) != nil)
        #expect(limits.windowEnd(for: server.url("/offset")) == nil)
        let client = HTTPClient(rateLimits: limits)
        #expect(try await client.response(from: server.url("/offset?limit=1")).first()?.statusCode == 200)
    }

    @Test func aManualLoadNextPageInsideTheWindowIsHeldBackNotSent() async throws {
        let list = PaginatedListViewModel(
            dependency: HTTPPageSource<FeedItem>(client: client(), url: server.url("/page"), paging: .pageNumber(pageSize: 5)),
            scheduler: ImmediateScheduler()
        )
        #expect(await loadNextPage(list) == .idle)
        try await server.control("fault?kind=429")
        #expect(await loadNextPage(list)?.error?.statusCode == 429)
        list.loadNextPage()
        try await eventually { [clock] in clock.pendingCount == 1 }
        #expect(try await requestCount() == 2, "held back, not sent")
        clock.advance(by: .seconds(1))
        try await eventually { list.items.value.count == 10 }
        #expect(list.items.value.map(\.id) == Array(1 ... 10))
        #expect(try await requestCount() == 3)
    }

    @Test func theAutomaticRetryWaitsTheServersRetryAfterWithOneRequestPerRetry() async throws {
        let policy = RetryPolicy(maxRetries: 3, initialDelay: .milliseconds(50), jitter: 0)
        let list = PaginatedListViewModel(
            dependency: HTTPPageSource<FeedItem>(client: client(), url: server.url("/page"), paging: .pageNumber(pageSize: 5)),
            scheduler: ImmediateScheduler(), retry: AutomaticRetry(policy, on: clock)
        )
        let diagnostics = EventLog()
        list.diagnostics.observeValues { diagnostics.append("\($0)") }
        try await server.control("fault?kind=429&times=2")
        list.loadNextPage()
        for refused in 1 ... 2 {
            try await eventually { [clock, server] in
                guard clock.pendingCount == 1 else { return false }
                return try await Self.requestCount(server) == refused
            }
            clock.advance(by: .milliseconds(999))
            #expect(try await requestCount() == refused, "nothing sent before the server's Retry-After")
            clock.advance(by: .milliseconds(1))
        }
        try await eventually { list.items.value.count == 5 }
        #expect(list.items.value.map(\.id) == Array(1 ... 5))
        #expect(try await requestCount() == 3, "two refusals and the page")
        #expect(diagnostics.all.filter { $0.hasPrefix("retryScheduled") }.count == 2)
    }

    @Test func theAutomaticRetryDoesNotRetryANotFound() async throws {
        let policy = RetryPolicy(maxRetries: 3, initialDelay: .milliseconds(10), jitter: 0)
        let list = PaginatedListViewModel(
            dependency: HTTPPageSource<FeedItem>(client: client(), url: server.url("/page"), paging: .pageNumber(pageSize: 5)),
            scheduler: ImmediateScheduler(), retry: AutomaticRetry(policy, on: clock)
        )
        let diagnostics = EventLog()
        list.diagnostics.observeValues { diagnostics.append("\($0)") }
        try await server.control("fault?kind=404")
        #expect(await loadNextPage(list)?.error?.statusCode == 404)
        #expect(clock.pendingCount == 0, "no retry scheduled")
        clock.run()
        #expect(try await requestCount() == 1)
        #expect(diagnostics.all == ["retryNotAttempted"])
        #expect(await loadNextPage(list) == .idle, "a manual retry still loads the page")
    }
}
