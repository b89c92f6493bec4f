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

/// The pagination styles against the fixture server shaped like GitHub, Stripe, Slack, Notion and
/// JSON:API: each paged whole and once, and through every fault (the typed error on `lastError` with
/// what the server said, the list kept, one request per retry, none inside a `Retry-After` window).
/// Each test runs its own server (23 items, 5 a page); the rate-limit windows and the retries run in
/// virtual time (`clock`).
@Suite final class HTTPStyleTests {
    let server: FeedServer

    init() async throws { server = try await FeedServer.start() }

    let clock = TestScheduler()

    private func list(_ shape: APIShape, retry: AutomaticRetry? = nil) -> PaginatedListViewModel<APIItem, HTTPError> {
        let client = HTTPClient(rateLimits: HTTPRateLimits(scheduler: clock))
        return PaginatedListViewModel(dependency: shape.source(client, server.url(shape.path)), scheduler: ImmediateScheduler(),
                                      retry: retry)
    }

    /// Waits until `count` feed requests reached the server and an action is due on `clock` (a retry, or
    /// a request held back by a window).
    private func untilWaiting(after count: Int) async throws {
        try await eventually { [clock, server] in
            guard clock.pendingCount == 1 else { return false }
            return try await server.requests().count == count
        }
    }

    // MARK: - Whole and once

    @Test(arguments: APIShape.all)
    func eachShapeIsPagedWholeAndOnce(_ shape: APIShape) async throws {
        let list = list(shape)
        #expect(await loadAll(list) == .complete)
        #expect(list.items.value.map(\.id) == shape.ids(23))
        let requests = try await server.requests()
        #expect(requests.count == 5, "five pages, no request for an empty one")
        #expect(Set(requests.map(\.path)).count == requests.count, "no page requested twice")
        #expect(requests.allSatisfy { $0.status == 200 })
    }

    @Test(arguments: APIShape.all)
    func aFeedThatFillsItsLastPageEndsWithoutAnEmptyPage(_ shape: APIShape) async throws {
        try await server.control("reset?items=20")
        let list = list(shape)
        #expect(await loadAll(list) == .complete)
        #expect(list.items.value.map(\.id) == shape.ids(20))
        #expect(try await server.requests().count == 4)
    }

    // MARK: - Faults

    struct Fault: Sendable, CustomTestStringConvertible {
        let name: String
        let kind: HTTPError.Kind
        let status: Int?
        /// The header the error must keep, and its value (`nil`: only that it is there).
        let header: (name: String, value: String?)?
        /// Text the error's body holds.
        let body: String?
        let serverMessage: String?
        /// Whether the server asked for a wait (then the next request waits it out).
        let waits: Bool
        let advice: RetryAdvice?
        var testDescription: String { name }
    }

    static let faults: [Fault] = [
        Fault(name: "502", kind: .status, status: 502, header: ("Content-Type", "text/html"),
              body: "<center><h1>502 Bad Gateway</h1></center>\r\n</body>", serverMessage: nil, waits: false, advice: .retry),
        Fault(name: "429", kind: .status, status: 429, header: ("Retry-After", "1"), body: "too many requests",
              serverMessage: "too many requests", waits: true, advice: .retryAfter(.seconds(1))),
        Fault(name: "github-rate-limit", kind: .status, status: 403, header: ("X-RateLimit-Remaining", "0"),
              body: "documentation_url", serverMessage: "API rate limit exceeded for 127.0.0.1.", waits: true, advice: nil),
        Fault(name: "truncated", kind: .transport, status: nil, header: nil, body: nil, serverMessage: nil, waits: false,
              advice: .retry),
        Fault(name: "malformed", kind: .decoding, status: 200, header: ("ETag", nil), body: #"{"items": [{"id": 1"#,
              serverMessage: nil, waits: false, advice: .doNotRetry),
        Fault(name: "content-type", kind: .contentType, status: 200, header: ("Content-Type", "text/html; charset=utf-8"),
              body: "Please log in", serverMessage: nil, waits: false, advice: .retry),
        Fault(name: "slack-error", kind: .errorEnvelope, status: 200, header: ("Content-Type", "application/json"),
              body: #""ok": false"#, serverMessage: "invalid_auth", waits: false, advice: .doNotRetry),
    ]

    static let shapesAndFaults: [(APIShape, Fault)] = APIShape.all.flatMap { shape in faults.map { (shape, $0) } }

    @Test(arguments: shapesAndFaults)
    func aFaultIsATypedErrorOnLastErrorTheListIsKeptAndTheRetryIsOneRequest(_ shape: APIShape, _ fault: Fault) async throws {
        let list = list(shape)
        #expect(await loadNextPage(list) == .idle)
        try await server.control("fault?kind=\(fault.name)")

        let failed = await loadNextPage(list)
        let error = try #require(list.lastError.value)
        #expect(failed?.error == error)
        #expect(error.kind == fault.kind)
        #expect(error.statusCode == fault.status)
        if let header = fault.header {
            let value = error.header(header.name)
            if let expected = header.value { #expect(value == expected) } else { #expect(value != nil) }
        }
        if let body = fault.body { #expect(error.bodyText.contains(body), "\(error.bodyText)") }
        #expect(error.serverMessage == fault.serverMessage)
        if fault.kind == .errorEnvelope { #expect(error.keyPath == shape.envelopeKey) }
        #expect(fault.waits == (error.retryAfter != nil))
        if fault.waits { #expect((0.5 ... 3).contains(error.retryAfter ?? 0), "\(error.retryAfter ?? -1)") }
        if let advice = fault.advice { #expect(error.retryAdvice == advice) }
        if case .retryAfter = error.retryAdvice { #expect(fault.waits) }
        #expect(!error.description.contains("\n") && !error.description.contains("\r"), "\(error.description)")
        #expect(error.description.contains(error.url?.absoluteString ?? "(no URL)"))
        #expect(error.kind != .transport || !error.reason.hasPrefix("The operation could not be completed"))
        #expect(list.items.value.map(\.id) == shape.ids(5), "the loaded list is kept")
        #expect(list.loadStates.value.append.error == error)

        // The retry is one request for the same page, sent after any window the server opened.
        if fault.waits {
            list.loadNextPage()
            try await untilWaiting(after: 2)
            clock.advance(by: .seconds(3))
            try await eventually { list.items.value.count == 10 }
        } else {
            #expect(await loadNextPage(list) == .idle)
        }
        #expect(list.items.value.map(\.id) == shape.ids(10))
        #expect(await loadAll(list) == .complete)
        #expect(list.items.value.map(\.id) == shape.ids(23))
        let requests = try await server.requests()
        #expect(requests.count == 6, "five pages and the one that failed")
        #expect(requests[1].path == requests[2].path, "the failed page is requested again, as it was")
    }

    /// A list of `shape` retried automatically (3 retries, the first after `initialDelay`, no jitter), its
    /// diagnostics logged, with its first page loaded.
    private func retryingList(
        _ shape: APIShape, initialDelay: Duration
    ) async throws -> (PaginatedListViewModel<APIItem, HTTPError>, EventLog) {
        let policy = RetryPolicy(maxRetries: 3, initialDelay: initialDelay, jitter: 0)
        let list = list(shape, retry: AutomaticRetry(policy, on: clock))
        let diagnostics = EventLog()
        list.diagnostics.observeValues { diagnostics.append("\($0)") }
        #expect(await loadNextPage(list) == .idle)
        return (list, diagnostics)
    }

    @Test(arguments: APIShape.all)
    func theAutomaticRetryMakesOneRequestPerRetryAndWaitsTheServersRetryAfter(_ shape: APIShape) async throws {
        let (list, diagnostics) = try await retryingList(shape, initialDelay: .milliseconds(50))
        for fault in ["502", "429", "truncated"] { try await server.control("fault?kind=\(fault)") }

        list.loadNextPage()
        try await untilWaiting(after: 2)   // the 502, its retry scheduled
        clock.run()
        try await untilWaiting(after: 3)   // the 429
        clock.advance(by: .milliseconds(999))
        #expect(try await server.requests().count == 3, "the retry after the 429 waits its Retry-After")
        clock.run()
        try await untilWaiting(after: 4)   // cut short
        clock.run()
        try await eventually { list.items.value.count == 10 }
        #expect(list.items.value.map(\.id) == shape.ids(10))
        #expect(list.lastError.value == nil)
        let requests = try await server.requests()
        #expect(requests.map(\.status) == [200, 502, 429, 200, 200], "one request per retry (the third was cut short)")
        #expect(Set(requests.dropFirst().map(\.path)).count == 1, "every retry asks for the same page")
        #expect(diagnostics.all.filter { $0.hasPrefix("retryScheduled") }.count == 3)
    }

    @Test(arguments: APIShape.all)
    func theAutomaticRetryDoesNotRetryWhatCannotSucceed(_ shape: APIShape) async throws {
        let (list, diagnostics) = try await retryingList(shape, initialDelay: .milliseconds(10))
        try await server.control("fault?kind=malformed")
        #expect(await loadNextPage(list)?.error?.kind == .decoding)
        #expect(clock.pendingCount == 0, "no retry scheduled")
        clock.run()
        #expect(try await server.requests().count == 2)
        #expect(diagnostics.all == ["retryNotAttempted"])
        #expect(await loadNextPage(list) == .idle, "a manual retry still loads the page")
    }

    @Test func aSlowPageIsWaitedForAndLandsWhole() async throws {
        let list = list(.stripe)
        try await server.control("slow?delay=0.5&times=1")
        #expect(await loadNextPage(list) == .idle)
        #expect(list.items.value.map(\.id) == APIShape.stripe.ids(5))
    }

    // MARK: - GitHub's Link header

    @Test func githubsLinkHeaderNamesFirstPrevNextAndLast() async throws {
        let client = HTTPClient()
        let response = try #require(try await client.response(from: server.url("/github?per_page=5&page=2")).first())
        let links = response.links
        func target(_ relation: String) -> String? { links.first { $0.has(relation: relation) }?.target.absoluteString }
        let base = "http://127.0.0.1:\(server.port)/github?per_page=5&page="
        #expect(target("first") == base + "1")
        #expect(target("prev") == base + "1")
        #expect(target("next") == base + "3")
        #expect(target("last") == base + "5")
        #expect(links.first { $0.has(relation: "first") }?.parameters["title"] == "first, the one")
    }

    @Test func aListOpenedInTheMiddleLoadsThePagesBeforeItByTheirPrevLinks() async throws {
        let source = HTTPPageSource<APIItem>(url: server.url("/github?per_page=5&page=3"), paging: .linkHeader())
        let list = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        #expect(await loadNextPage(list) == .idle)
        #expect(list.items.value.map(\.id) == (11 ... 15).map(String.init))
        #expect(!list.loadStates.value.prepend.isComplete, "page 3 names a page before it")

        for expected in [6 ... 15, 1 ... 15] {
            list.loadPreviousPage()
            try await eventually { list.items.value.count == expected.count && !list.loadStates.value.prepend.isLoading }
            #expect(list.items.value.map(\.id) == expected.map(String.init))
        }
        #expect(list.loadStates.value.prepend.isComplete, "page 1 has no prev link")
        #expect(await loadAll(list) == .complete)
        #expect(list.items.value.map(\.id) == APIShape.github.ids(23))
        let pages = try await server.requests().map { $0.query["page"] ?? "?" }
        #expect(pages == ["3", "2", "1", "4", "5"], "each page requested once, in the order the list asked")
    }

    @Test func aListOpenedAtTheStartHasNothingBeforeIt() async throws {
        let list = list(.github)
        #expect(await loadNextPage(list) == .idle)
        #expect(list.loadStates.value.prepend.isComplete)
    }

    @Test func aFailedFirstPageOfTheLinkHeaderStyleIsRetriedAsOneRequest() async throws {
        let list = list(.github)
        try await server.control("fault?kind=502")
        #expect(await loadNextPage(list)?.error?.statusCode == 502)
        #expect(await loadNextPage(list) == .idle)
        #expect(list.items.value.map(\.id) == APIShape.github.ids(5))
        #expect(try await server.requests().map(\.status) == [502, 200])
    }

    // MARK: - Loud, never silent

    struct MissingKey: Sendable, CustomTestStringConvertible {
        let name: String
        let path: String
        let keyPath: String
        let pagesBefore: Int
        let source: @Sendable (URL) -> HTTPPageSource<APIItem>
        var testDescription: String { name }
    }

    static let missingKeys: [MissingKey] = [
        MissingKey(name: "a cursor key that is not in the body", path: "/slack?limit=5", keyPath: "next_cursor", pagesBefore: 0) {
            HTTPPageSource(url: $0, paging: .cursor(), items: "channels", errorEnvelope: .okFlag())
        },
        MissingKey(name: "a misspelt nested cursor", path: "/slack?limit=5", keyPath: "response_metadata.next_cursr",
                   pagesBefore: 0) {
            HTTPPageSource(url: $0, paging: .cursor(at: "response_metadata.next_cursr"), items: "channels")
        },
        MissingKey(name: "has_more where the API sends none", path: "/cursor?limit=5", keyPath: "has_more", pagesBefore: 0) {
            HTTPPageSource(url: $0, paging: .startingAfter())
        },
        MissingKey(name: "an items key that is not there", path: "/slack?limit=5", keyPath: "channel", pagesBefore: 0) {
            HTTPPageSource(url: $0, paging: .cursor(at: "response_metadata.next_cursor"), items: "channel")
        },
        MissingKey(name: "no items where the automatic lookup looks", path: "/slack?limit=5", keyPath: "items", pagesBefore: 0) {
            HTTPPageSource(url: $0, paging: .cursor(at: "response_metadata.next_cursor"))
        },
        MissingKey(name: "an id field the items lack", path: "/stripe?limit=5", keyPath: "uuid", pagesBefore: 0) {
            HTTPPageSource(url: $0, paging: .startingAfter(idField: "uuid"))
        },
        MissingKey(name: "a named total that is not there", path: "/page", keyPath: "meta.total", pagesBefore: 0) {
            HTTPPageSource(url: $0, paging: .pageNumber(pageSize: 5, totalItems: "meta.total"))
        },
        MissingKey(name: "a cursor of the wrong kind", path: "/notion?page_size=5", keyPath: "has_more", pagesBefore: 0) {
            HTTPPageSource(url: $0, paging: .cursor(at: "has_more", parameter: "start_cursor"))
        },
        MissingKey(name: "JSON:API's absent next link, not declared as the end", path: "/jsonapi?page%5Bsize%5D=5",
                   keyPath: "links.next", pagesBefore: 4) {
            HTTPPageSource(url: $0, paging: .nextURL(at: "links.next"), items: "data")
        },
    ]

    @Test(arguments: missingKeys)
    func aStyleThatCannotFindItsKeyFailsNamingItNeverExhausted(_ missing: MissingKey) async throws {
        let list = PaginatedListViewModel(dependency: missing.source(server.url(missing.path)), scheduler: ImmediateScheduler())
        for _ in 0 ..< missing.pagesBefore { #expect(await loadNextPage(list) == .idle) }
        let state = await loadNextPage(list)
        let error = try #require(state?.error, "\(String(describing: state))")
        #expect(error.kind == .decoding)
        #expect(error.keyPath == missing.keyPath)
        #expect(error.description.contains(missing.keyPath))
        #expect(!list.exhausted.value)
        #expect(list.items.value.count == missing.pagesBefore * 5, "what was loaded is kept")
    }

    @Test func slacksOkFalseWithAStatus200IsAnErrorWithTheServersMessage() async throws {
        // The fixture answers a cursor it did not issue as Slack does: {"ok": false, "error": "invalid_cursor"}.
        let source = HTTPPageSource<APIItem>(url: server.url("/slack?limit=5&cursor=bm90LWEtY3Vyc29y"),
                                             paging: .cursor(at: "response_metadata.next_cursor"), items: "channels",
                                             errorEnvelope: .okFlag())
        let list = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        let error = try #require(await loadNextPage(list)?.error)
        #expect(error.kind == .errorEnvelope)
        #expect(error.statusCode == 200)
        #expect(error.serverMessage == "invalid_cursor")
        #expect(error.description.hasSuffix("reports an error: ok is false: invalid_cursor"), "\(error.description)")
    }

    @Test func anErrorObjectAtStatus200IsAnErrorWithTheServersMessage() async throws {
        let list = list(.stripe)
        try await server.control("fault?kind=error-200")
        let error = try #require(await loadNextPage(list)?.error)
        #expect(error.kind == .errorEnvelope)
        #expect(error.serverMessage == "token expired")
        #expect(error.keyPath == "error")
    }

    // MARK: - Freshness from what was loaded

    @Test func aRefreshIfChangedCostsOneConditionalRequestWhenTheFeedIsUnchanged() async throws {
        let source = HTTPPageSource<APIItem>(url: server.url("/github?per_page=5"), paging: .linkHeader())
        let list = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        #expect(await loadNextPage(list) == .idle)
        #expect(await loadNextPage(list) == .idle)
        let server = server
        let refreshed = { @Sendable (requests: Int) async throws in
            try await eventually {
                try await server.requests().count == requests && !list.loadStates.value.refresh.isLoading
            }
        }

        list.refresh(ifChanged: source.feedChanged())
        try await refreshed(3)
        #expect(try await server.requests().map(\.status) == [200, 200, 304], "no page request")
        #expect(list.items.value.map(\.id) == APIShape.github.ids(10), "nothing changed")

        try await server.control("insert?at=0&count=1")
        list.refresh(ifChanged: source.feedChanged())
        try await refreshed(5)
        #expect(try await server.requests().map(\.status) == [200, 200, 304, 200, 200], "the check, then the first page")
        #expect(list.items.value.first?.id == "24", "the new item is on top")
        #expect(source.firstPageVersion.latest?.validators.etag == "\"v2\"")

        list.refresh(ifChanged: source.feedChanged())
        try await refreshed(6)
        #expect(try await server.requests().last?.status == 304, "the refresh recorded the version it loaded")
    }

    @Test func theChangeMonitorStartsFromTheFirstPageTheListLoadedWithNoRequestOfItsOwn() async throws {
        let source = HTTPPageSource<APIItem>(url: server.url("/github?per_page=5"), paging: .linkHeader())
        let list = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        #expect(source.firstPageVersion.latest == nil)
        #expect(await loadNextPage(list) == .idle)
        #expect(await loadNextPage(list) == .idle)
        let version = try #require(source.firstPageVersion.latest)
        #expect(version.validators.etag == "\"v1\"")
        #expect(version.request.url == source.firstPageRequest.url, "the second page did not replace the first's version")

        let monitor = source.changeMonitor()
        #expect(try await monitor.feedChanged().first() == false)
        #expect(try await server.requests().map(\.status) == [200, 200, 304], "one conditional request, nothing else")

        try await server.control("insert?at=0&count=1")
        #expect(try await monitor.feedChanged().first() == true)
        #expect(try await monitor.feedChanged().first() == true, "the monitor reads the list's version: changed until it reloads")
        list.refresh()
        try await eventually { source.firstPageVersion.latest?.validators.etag == "\"v2\"" }
        #expect(try await monitor.feedChanged().first() == false)
    }
}
