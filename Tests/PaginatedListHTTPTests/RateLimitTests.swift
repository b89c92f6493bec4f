import Foundation
import HTTPFixtureServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList
import PaginatedListHTTP
import Signals
import Testing

/// No request is sent into a known rate-limit window, whoever makes it; the automatic retry waits the
/// server's `Retry-After` and makes exactly one request per retry.
@Suite final class RateLimitTests {
    let server: FeedServer

    init() async throws { server = try await FeedServer.start() }

    /// The feed requests the server received: (path, seconds since it started).
    private func requests() async throws -> [(path: String, time: Double)] {
        let log = try await server.control("log")
        return (log["requests"] as? [[String: Any]] ?? []).map {
            (path: $0["path"] as? String ?? "", time: $0["time"] as? Double ?? -1)
        }
    }

    /// Waits (a bounded poll, a safety net) until `condition` holds.
    private func eventually(_ condition: @Sendable () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while try await !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
    }

    @Test func aRequestInsideARetryAfterWindowWaitsUntilTheWindowCloses() async throws {
        let client = HTTPClient(rateLimits: HTTPRateLimits())
        let url = server.url("/offset?limit=2")
        try await server.control("fault?kind=429")
        let refused = await #expect(throws: HTTPError.self) { try await client.response(from: url).first() }
        #expect(refused?.retryAfter == 1)
        #expect(try await client.response(from: url).first()?.statusCode == 200)
        let times = try await requests().map(\.time)
        #expect(times.count == 2, "one request each, none sent into the window")
        #expect(times[1] - times[0] >= 0.95, "the second request was sent after the window: \(times)")
    }

    @Test func aWindowLongerThanTheClientWaitsFailsAtOnceWithoutARequest() async throws {
        let client = HTTPClient(rateLimits: HTTPRateLimits(maxWait: .milliseconds(100)))
        let url = server.url("/offset?limit=2")
        // A 60 s window: what is left of it when the second call fails does not depend on how busy the
        // machine is (a 1 s window left less than 0.5 s under load).
        try await server.control("fault?kind=429-long")
        _ = try? await client.response(from: url).first()
        let error = await #expect(throws: HTTPError.self) { try await client.response(from: url).first() }
        #expect(error?.kind == .rateLimited)
        #expect((error?.retryAfter ?? 0) > 30, "the rest of the server's window")
        #expect(error?.description.contains("not sent") == true)
        #expect(try await requests().count == 1)
    }

    @Test func windowsBelongToAnOriginAndOtherOriginsAreNotHeldBack() async throws {
        let limits = HTTPRateLimits()
        limits.record(until: Date().addingTimeInterval(60), for: URL(string: "http://127.0.0.1:1/x")!)
        #expect(limits.windowEnd(for: URL(string: "http://127.0.0.1:1/other?q=1")!) != nil)
        #expect(limits.windowEnd(for: server.url("/offset")) == nil)
        let client = HTTPClient(rateLimits: limits)
        #expect(try await client.response(from: server.url("/offset?limit=1")).first()?.statusCode == 200)
    }

    @Test func aManualLoadNextPageInsideTheWindowIsHeldBackNotSent() async throws {
        let client = HTTPClient(rateLimits: HTTPRateLimits())
        let list = PaginatedListViewModel(
            dependency: HTTPPageSource<FeedItem>(client: client, url: server.url("/page"), paging: .pageNumber(pageSize: 5)),
            scheduler: ImmediateScheduler()
        )
        #expect(await loadNextPage(list) == .idle)
        try await server.control("fault?kind=429")
        #expect(await loadNextPage(list)?.error?.statusCode == 429)
        #expect(await loadNextPage(list) == .idle)
        #expect(list.items.value.map(\.id) == Array(1 ... 10))
        let times = try await requests().map(\.time)
        #expect(times.count == 3)
        #expect(times[2] - times[1] >= 0.95, "\(times)")
    }

    @Test func theAutomaticRetryWaitsTheServersRetryAfterWithOneRequestPerRetry() async throws {
        let client = HTTPClient(rateLimits: HTTPRateLimits())
        let policy = RetryPolicy(maxRetries: 3, initialDelay: .milliseconds(50), jitter: 0)
        let list = PaginatedListViewModel(
            dependency: HTTPPageSource<FeedItem>(client: client, url: server.url("/page"), paging: .pageNumber(pageSize: 5)),
            scheduler: ImmediateScheduler(), retry: AutomaticRetry(policy, on: QueueScheduler())
        )
        let diagnostics = EventLog()
        list.diagnostics.observeValues { diagnostics.append("\($0)") }
        try await server.control("fault?kind=429&times=2")
        list.loadNextPage()
        try await eventually { list.items.value.count == 5 }
        #expect(list.items.value.map(\.id) == Array(1 ... 5))
        let times = try await requests().map(\.time)
        #expect(times.count == 3, "two refusals and the page")
        #expect(times[1] - times[0] >= 0.95 && times[2] - times[1] >= 0.95, "\(times)")
        #expect(diagnostics.all.filter { $0.hasPrefix("retryScheduled") }.count == 2)
    }

    @Test func theAutomaticRetryDoesNotRetryANotFound() async throws {
        let policy = RetryPolicy(maxRetries: 3, initialDelay: .milliseconds(10), jitter: 0)
        let list = PaginatedListViewModel(
            dependency: HTTPPageSource<FeedItem>(url: server.url("/page"), paging: .pageNumber(pageSize: 5)),
            scheduler: ImmediateScheduler(), retry: AutomaticRetry(policy, on: QueueScheduler())
        )
        let diagnostics = EventLog()
        list.diagnostics.observeValues { diagnostics.append("\($0)") }
        try await server.control("fault?kind=404")
        #expect(await loadNextPage(list)?.error?.statusCode == 404)
        try await Task.sleep(for: .milliseconds(200))   // ten times the retry's delay: it would have run
        #expect(try await requests().count == 1)
        #expect(diagnostics.all == ["retryNotAttempted"])
        #expect(await loadNextPage(list) == .idle, "a manual retry still loads the page")
    }
}
