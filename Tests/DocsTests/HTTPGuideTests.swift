// The samples of Docs/HTTP.md, compiled and run against the fixture server (HTTPFixtureServer).
// Keep both in sync.
import Foundation
import HTTPFixtureServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList
import PaginatedListHTTP
import PaginatedListStore
import PaginatedListTesting
import Signals
import Testing

/// The guide's names, kept apart from the other guides'.
enum HTTPGuide {
    struct Issue: Codable, Identifiable, Sendable {
        let id: Int
        let title: String
    }

    struct Customer: Decodable, Identifiable, Sendable {
        let id: String   // "cus_0007"
    }

    struct Channel: Decodable, Identifiable, Sendable {
        let id: String   // "C0007"
    }

    struct NotionPage: Decodable, Identifiable, Sendable {
        let id: String   // "page-7"
    }

    struct Article: Decodable, Identifiable, Sendable {
        struct Attributes: Decodable, Sendable { let title: String }
        let id: String
        let attributes: Attributes
    }

    struct Post: Decodable, Identifiable, Sendable {
        let id: Int
        let title: String
        let createdAt: Date   // "created_at": "2024-05-01T12:00:07Z"
    }

    struct Envelope: Decodable, Sendable {
        let items: [Post]
        let total: Int?
    }

    struct Headline: Decodable, Sendable {   // not Identifiable: told apart by its title
        let title: String
    }

    struct Ranking: Decodable, Sendable { let ids: [Int] }
    struct RankedPosts: Decodable, Sendable { let items: [Post] }
}

@Suite("Guide: HTTP feeds")
final class HTTPGuideTests {
    typealias Issue = HTTPGuide.Issue
    typealias Customer = HTTPGuide.Customer
    typealias Channel = HTTPGuide.Channel
    typealias NotionPage = HTTPGuide.NotionPage
    typealias Article = HTTPGuide.Article
    typealias Post = HTTPGuide.Post
    typealias Envelope = HTTPGuide.Envelope
    typealias Headline = HTTPGuide.Headline
    typealias Ranking = HTTPGuide.Ranking
    typealias RankedPosts = HTTPGuide.RankedPosts
    let server: FeedServer
    var base: URL { server.url("/") }

    init() async throws { server = try await FeedServer.start() }

    /// Calls `loadNextPage()` on `list` (on `ImmediateScheduler`) and returns the state the next page's
    /// load ended in.
    func loadNextPage<Item: Sendable>(_ list: PaginatedListViewModel<Item, HTTPError>) async -> LoadState<HTTPError>? {
        // Observe before the call, so the load's `.loading` and the state after it are both seen.
        let (states, continuation) = AsyncStream.makeStream(of: LoadState<HTTPError>.self)
        let observation = list.loadStates.signal.observeValues { continuation.yield($0.append) }
        defer { observation?.dispose() }
        let append = list.loadStates.value.append
        guard append == .idle || append.error != nil else { return nil }   // nothing to load
        list.loadNextPage()
        var started = false
        for await state in states {
            if state.isLoading { started = true } else if started { return state }
        }
        return nil
    }

    /// Loads every page of `source` (the view model on `ImmediateScheduler`) and returns the items.
    func loadAll<D: PaginatedListDependency>(_ source: D) async -> [D.Item] where D.Failure == HTTPError, D.Item: Sendable {
        let list = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        for _ in 0 ..< 50 {
            guard await loadNextPage(list) == .idle else { break }
        }
        #expect(list.exhausted.value, "\(String(describing: list.lastError.value))")
        return Array(list.items.value)
    }

    static let numbers = Array(1 ... 23)

    // MARK: - One line per API

    @Test func theGitHubSamplePagesTheIssues() async {
        let issues = HTTPPageSource<Issue>(url: URL(string: "github?per_page=10", relativeTo: base)!, paging: .linkHeader())
        let issuesList = PaginatedListViewModel(dependency: issues)
        #expect(issuesList.items.value.isEmpty)
        #expect(await loadAll(issues).map(\.id) == Self.numbers)
    }

    @Test func theMiddleOfGitHubSampleLoadsThePageAboveByItsPrevLink() async throws {
        let fromPage2 = HTTPPageSource<Issue>(url: URL(string: "github?per_page=10&page=2", relativeTo: base)!, paging: .linkHeader())
        let list = PaginatedListViewModel(dependency: fromPage2, scheduler: ImmediateScheduler())
        #expect(await loadNextPage(list) == .idle)
        #expect(list.items.value.map(\.id) == Array(11 ... 20))
        list.loadPreviousPage()
        // A bounded wait for the page above, as a safety net.
        let deadline = ContinuousClock.now + .seconds(60)
        while list.items.value.count < 20, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(list.items.value.map(\.id) == Array(1 ... 20))
        #expect(await loadNextPage(list) == .complete)
        #expect(list.items.value.map(\.id) == Self.numbers)
    }

    @Test func theOpeningInTheMiddleSamplesLoadThePagesAboveToTheTop() async throws {
        // Page 2 of 10-post pages, then page 1 above it.
        let fromPage2 = HTTPPageSource<Post>(url: base.appendingPathComponent("page"),
                                             paging: .pageNumber(pageSize: 10, startPage: 2))
        // The 10 posts from position 12, then upwards to the top.
        let fromOffset = HTTPPageSource<Post>(url: base.appendingPathComponent("offset"),
                                              paging: .offset(limit: 10, start: 12))
        // The page after cursor "10"; each body's "prev_cursor" names the page above.
        let aroundCursor = HTTPPageSource<Post>(url: URL(string: "cursor?limit=10", relativeTo: base)!,
                                                paging: .cursor(previous: "prev_cursor", start: "10"))
        // Django REST framework: open at any page's URL; "previous" names the page above.
        let aroundLink = HTTPPageSource<Post>(url: URL(string: "drf?limit=10&cursor=10", relativeTo: base)!,
                                              paging: .nextURL(previous: "previous"))

        func opened<D: PaginatedListDependency>(_ source: D) async throws -> (first: [Int], top: [Int])
        where D.Item == Post, D.Failure == HTTPError {
            let list = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
            _ = await loadNextPage(list)
            let first = list.items.value.map(\.id)
            let deadline = ContinuousClock.now + .seconds(10)
            while !list.loadStates.value.prepend.isComplete, list.lastError.value == nil, ContinuousClock.now < deadline {
                let count = list.items.value.count
                list.loadPreviousPage()
                while list.items.value.count == count, !list.loadStates.value.prepend.isComplete,
                      list.lastError.value == nil, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(10))
                }
            }
            return (first, list.items.value.map(\.id))
        }
        #expect(try await opened(fromPage2) == (Array(11 ... 20), Array(1 ... 20)))
        #expect(try await opened(fromOffset) == (Array(13 ... 22), Array(1 ... 22)))
        #expect(try await opened(aroundCursor) == (Array(11 ... 20), Array(1 ... 20)))
        #expect(try await opened(aroundLink) == (Array(11 ... 20), Array(1 ... 20)))
    }

    @Test func theStripeSamplePagesTheCustomers() async {
        let customers = HTTPPageSource<Customer>(url: URL(string: "stripe?limit=10", relativeTo: base)!, paging: .startingAfter())
        #expect(await loadAll(customers).map(\.id) == Self.numbers.map { "cus_" + String(format: "%04d", $0) })
    }

    @Test func theSlackSamplePagesTheChannels() async {
        let channels = HTTPPageSource<Channel>(url: URL(string: "slack?limit=10", relativeTo: base)!,
                                               paging: .cursor(at: "response_metadata.next_cursor"),
                                               items: "channels", errorEnvelope: .okFlag())
        #expect(await loadAll(channels).map(\.id) == Self.numbers.map { "C" + String(format: "%04d", $0) })
    }

    @Test func theNotionSamplePagesThePages() async {
        let pages = HTTPPageSource<NotionPage>(url: URL(string: "notion?page_size=10", relativeTo: base)!,
                                               paging: .cursor(parameter: "start_cursor", hasMore: "has_more"))
        #expect(await loadAll(pages).map(\.id) == Self.numbers.map { "page-\($0)" })
    }

    @Test func theJSONAPISamplePagesTheArticles() async {
        let articlesURL = HTTPQuery.url(base.appendingPathComponent("jsonapi"), setting: ["page[size]": "10"])
        let articles = HTTPPageSource<Article>(url: articlesURL, paging: .nextURL(at: "links.next", absentMeansEnd: true),
                                               items: "data")
        let loaded = await loadAll(articles)
        #expect(loaded.map(\.id) == Self.numbers.map(String.init))
        #expect(loaded.first?.attributes.title == "Item 1")
    }

    @Test func thePageNumberAndOffsetSamplesPageTheFeed() async {
        let numbered = HTTPPageSource<Post>(url: base.appendingPathComponent("page"), paging: .pageNumber(pageSize: 20))
        let offsets = HTTPPageSource<Post>(url: base.appendingPathComponent("offset"), paging: .offset(limit: 20))
        #expect(await loadAll(numbered).map(\.id) == Self.numbers)
        #expect(await loadAll(offsets).map(\.id) == Self.numbers)
    }

    @Test func theRepeatedItemsSamplesDropByTitleAndKeepEverything() async throws {
        let headlines = HTTPPageSource<Headline>(url: base.appendingPathComponent("page"),
                                                 paging: .pageNumber(pageSize: 20), deduplication: .byKey { $0.title })
        let everyPost = HTTPPageSource<Post>(url: base.appendingPathComponent("page"),
                                             paging: .pageNumber(pageSize: 20), deduplication: .keepAll)
        #expect(await loadAll(everyPost).map(\.id) == Self.numbers)
        // Two posts inserted at the top after the first page: page 2 repeats the last two of page 1.
        try await server.control("churn?insert=2&delete=0&times=1")
        #expect(await loadAll(headlines).map(\.title) == Self.numbers.map { "Item \($0)" })
    }

    @Test func theCappedServerSamplesPageTheWholeFeedTenAtATime() async throws {
        try await server.control("cap?size=10")
        let drfPages = HTTPPageSource<Post>(url: base.appendingPathComponent("drf/page"),
                                            paging: .pageNumber(pageSize: 20, sizeParameter: "page_size"))
        let drfOffsets = HTTPPageSource<Post>(url: base.appendingPathComponent("drf/offset"), paging: .offset(limit: 20))
        #expect(await loadAll(drfPages).map(\.id) == Self.numbers)
        #expect(await loadAll(drfOffsets).map(\.id) == Self.numbers)
    }

    @Test func thePastEndStatusesSamplesEndAtA400OrFailAtA404() async throws {
        // Pages of 23 / 23: the second page is past the end, answered with the status the URL asks for.
        let laravel = HTTPPageSource<Post>(url: URL(string: "page?past_end=400", relativeTo: base)!,
                                           paging: .pageNumber(pageSize: 23, pastEndStatuses: [404, 400]))
        #expect(await loadAll(laravel).map(\.id) == Self.numbers)
        let strict = HTTPPageSource<Post>(url: URL(string: "page?past_end=404", relativeTo: base)!,
                                          paging: .pageNumber(pageSize: 23, pastEndStatuses: []))
        let list = PaginatedListViewModel(dependency: strict, scheduler: ImmediateScheduler())
        #expect(await loadNextPage(list) == .idle)
        #expect(await loadNextPage(list)?.error?.statusCode == 404)
        #expect(list.items.value.map(\.id) == Self.numbers, "what was loaded stays")
    }

    @Test func aMisspeltPathFailsAsTheGuideShows() async throws {
        let misspelt = HTTPPageSource<Channel>(url: URL(string: "slack?limit=10", relativeTo: base)!,
                                               paging: .cursor(at: "response_metadata.next_cursr"), items: "channels")
        let list = PaginatedListViewModel(dependency: misspelt, scheduler: ImmediateScheduler())
        let error = try #require(await loadNextPage(list)?.error)
        #expect(error.keyPath == "response_metadata.next_cursr")
        let prefix = "HTTP 200 from \(base.absoluteString)slack?limit=10 did not decode: "
            + "missing key response_metadata.next_cursr (the next page's cursor); body: {\"ok\": true, "
        #expect(error.description.hasPrefix(prefix), "\(error.description)")
        #expect(!list.exhausted.value)
    }

    // MARK: - Building URLs

    @Test func theHTTPQuerySampleEncodesAsItsCommentSays() {
        let next = HTTPQuery.url(base.appendingPathComponent("cursor"), setting: ["cursor": "ab+c/d==", "q": "c++"])
        #expect(next.absoluteString.hasSuffix("/cursor?cursor=ab%2Bc%2Fd%3D%3D&q=c%2B%2B"))
    }

    // MARK: - Errors and retry

    @Test func theErrorSampleReadsWhatTheServerSaid() async throws {
        let issues = HTTPPageSource<Issue>(client: HTTPClient(rateLimits: HTTPRateLimits()),
                                           url: URL(string: "github?per_page=10", relativeTo: base)!, paging: .linkHeader())
        let issuesList = PaginatedListViewModel(dependency: issues, scheduler: ImmediateScheduler())
        #expect(await loadNextPage(issuesList) == .idle)
        try await server.control("fault?kind=github-rate-limit")
        _ = await loadNextPage(issuesList)

        let error = try #require(issuesList.lastError.value)
        // HTTP 403 from …/github?per_page=10&page=2: Forbidden: API rate limit exceeded for 127.0.0.1; retry after 2 s
        print(error)
        print(error.header("X-RateLimit-Remaining") ?? "", error.serverMessage ?? "", error.retryAfter ?? 0)
        #expect(error.description.hasPrefix("HTTP 403 from \(base.absoluteString)github?per_page=10&page=2: Forbidden: "
            + "API rate limit exceeded for 127.0.0.1; retry after "), "\(error.description)")
        #expect(error.header("X-RateLimit-Remaining") == "0")
        #expect(error.serverMessage == "API rate limit exceeded for 127.0.0.1.")
        #expect((0.5 ... 3).contains(error.retryAfter ?? 0))
        #expect(issuesList.items.value.count == 10)
    }

    @Test func theRetrySamplesDecideAsTheirCommentsSay() {
        let issues = HTTPPageSource<Issue>(url: URL(string: "github?per_page=10", relativeTo: base)!, paging: .linkHeader())
        let retrying = PaginatedListViewModel(
            dependency: issues, retry: AutomaticRetry(RetryPolicy(maxRetries: 3), on: QueueScheduler())
        )
        #expect(retrying.items.value.isEmpty)

        let policy = RetryPolicy(maxRetries: 3, initialDelay: .seconds(1), jitter: 0)
        let tooMany = HTTPError(kind: .status, url: nil, statusCode: 429, reason: "Too Many Requests", retryAfter: 5)
        #expect(policy.decision(after: tooMany, failures: 1, draw: 0.5) == .retry(after: .seconds(5)))
        let notFound = HTTPError(kind: .status, url: nil, statusCode: 404, reason: "Not Found")
        #expect(policy.decision(after: notFound, failures: 1, draw: 0.5) == .stop(.cannotSucceed))
    }

    /// The number of feed requests the server received.
    private func requestCount() async throws -> Int {
        (try await server.control("log")["requests"] as? [Any])?.count ?? -1
    }

    @Test func theOneClientPerAPISampleSharesTheWindowsOfItsSources() async throws {
        // One client for GitHub: both lists respect every window GitHub opens for either.
        let github = HTTPClient(headers: ["Authorization": "Bearer <token>"])
        let openIssues = HTTPPageSource<Issue>(client: github, url: URL(string: "github?state=open", relativeTo: base)!,
                                               paging: .linkHeader())
        let closedIssues = HTTPPageSource<Issue>(client: github, url: URL(string: "github?state=closed", relativeTo: base)!,
                                                 paging: .linkHeader())
        // Windows shared with every client of the process that passes `.shared`.
        let processWide = HTTPClient(rateLimits: .shared)

        #expect(processWide.rateLimits === HTTPRateLimits.shared && github.rateLimits !== HTTPRateLimits.shared)
        #expect(HTTPClient().rateLimits !== HTTPClient().rateLimits, "no client shares windows unless given them")
        // A window of an hour: the second request finds it open however slowly the machine runs.
        try await server.control("fault?kind=429-hour")
        let refused = await #expect(throws: HTTPError.self) { try await openIssues.firstPage().map(\.items.count).first() }
        #expect(refused?.statusCode == 429)
        let held = await #expect(throws: HTTPError.self) { try await closedIssues.firstPage().map(\.items.count).first() }
        #expect(held?.kind == .rateLimited, "not sent into the window the other list's answer opened")
        #expect(try await requestCount() == 1)
    }

    @Test func theVirtualTimeSampleSendsTheHeldBackRequestWhenTheClockPassesTheWindow() async throws {
        try await server.control("fault?kind=429-long")
        let clock = TestScheduler()
        let testClient = HTTPClient(rateLimits: HTTPRateLimits(maxWait: .seconds(120), scheduler: clock))
        _ = try? await testClient.response(from: base.appendingPathComponent("page")).first()
        // The server answered 429 with Retry-After: 60: the next request is held back…
        let held = testClient.response(from: base.appendingPathComponent("page")).start()
        #expect(clock.pendingCount == 1)
        #expect(try await requestCount() == 1, "held back, not sent")
        clock.advance(by: .seconds(60))   // …and goes now, with no real time waited.
        let deadline = ContinuousClock.now + .seconds(60)
        while try await requestCount() < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(try await requestCount() == 2)
        held.dispose()
    }

    @Test func theRateLimitsSampleBelievesWaitsOfAnHourAtMost() async throws {
        // Hold requests back up to 10 s; believe waits of up to an hour, not a day.
        let hourLimits = HTTPRateLimits(maxWait: .seconds(10), maxWindow: .seconds(3_600))
        let patientClient = HTTPClient(rateLimits: hourLimits)

        #expect(hourLimits.maxWait == .seconds(10) && patientClient.rateLimits === hourLimits)
        hourLimits.record(until: Date().addingTimeInterval(7_200), for: base)
        #expect(hourLimits.windowEnd(for: base) == nil, "a wait beyond an hour is not believed")
        hourLimits.record(until: Date().addingTimeInterval(3_500), for: base)
        #expect(hourLimits.windowEnd(for: base) != nil)
    }

    // MARK: - Keeping the pages in a store

    /// Calls `loadNextPage()` on a store-backed `list` and waits until the load it started ended (the command
    /// may run after this call returns, on the thread that delivers the page before: `loading` is watched, not
    /// read once).
    func loadNextStoredPage<Item: Sendable>(_ list: PaginatedListViewModel<Item, StoredListError<HTTPError>>) async {
        let (states, continuation) = AsyncStream.makeStream(of: Bool.self)
        let observation = list.loading.signal.observeValues { continuation.yield($0) }
        defer { observation?.dispose() }
        guard !list.exhausted.value else { return }
        list.loadNextPage()
        var started = false
        for await loading in states {
            if loading { started = true } else if started { return }
        }
    }

    @Test func theStoreSampleGoesOnFromTheStoredLinkAfterARelaunch() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("HTTPGuideStore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let issues = HTTPPageSource<Issue>(url: URL(string: "github?per_page=10", relativeTo: base)!, paging: .linkHeader())
        do {
            let store = try PagingStore(path: folder.appendingPathComponent("github.sqlite").path)
            let storedIssues = PaginatedListViewModel(feed: store.feed("issues", of: Issue.self), remote: issues,
                                                      revalidate: .ifOlderThan(.seconds(600), .replace),
                                                      scheduler: ImmediateScheduler())
            await loadNextStoredPage(storedIssues)
            await loadNextStoredPage(storedIssues)
            #expect(storedIssues.items.value.count == 20)
        }
        let before = try await server.requestedPaths()
        // The next launch: the stored rows, the stored validators, and the page after the stored ones.
        let store = try PagingStore(path: folder.appendingPathComponent("github.sqlite").path)
        let storedIssues = PaginatedListViewModel(feed: store.feed("issues", of: Issue.self), remote: issues,
                                                  revalidate: .ifOlderThan(.seconds(600), .replace),
                                                  scheduler: ImmediateScheduler())
        storedIssues.loadNextPage()
        #expect(storedIssues.items.value.map(\.id) == Array(1 ... 10))
        #expect(try await server.requestedPaths() == before, "no request: the stored rows are fresh enough")

        let stored = try store.feed("issues", of: Issue.self).info().validators
        let monitor = HTTPChangeMonitor(request: issues.firstPageRequest,
                                        validators: HTTPValidators(etag: stored?.etag, lastModified: stored?.lastModified))
        let changed = try await monitor.feedChanged().first()
        #expect(changed == false, "the stored ETag is the server's")

        await loadNextStoredPage(storedIssues)
        await loadNextStoredPage(storedIssues)
        #expect(storedIssues.items.value.map(\.id) == Array(1 ... 23))
        let after = try await server.requestedPaths().dropFirst(before.count)
        #expect(Array(after) == ["/github?per_page=10", "/github?per_page=10&page=3"], "the 304 check, then page 3 only")
    }

    // MARK: - Freshness

    @Test func theRefreshIfChangedSampleMakesNoPageRequestWhenUnchanged() async throws {
        let issues = HTTPPageSource<Issue>(url: URL(string: "github?per_page=10", relativeTo: base)!,
                                           paging: .linkHeader())
        let issuesList = PaginatedListViewModel(dependency: issues, scheduler: ImmediateScheduler())
        #expect(await loadNextPage(issuesList) == .idle)
        let answered = Locked(false)
        issuesList.refresh(ifChanged: issues.feedChanged().on(value: { _ in answered.withLock { $0 = true } }))
        // A bounded wait for the check and the refresh it ends, as a safety net.
        let deadline = ContinuousClock.now + .seconds(60)
        while !answered.withLock({ $0 }) || issuesList.loadStates.value.refresh.isLoading, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(issuesList.items.value.count == 10)
        #expect(issues.firstPageVersion.latest?.validators.etag == "\"v1\"")
    }

    @Test func theChangeMonitorSampleRefreshesOnlyWhenTheFeedChanged() async throws {
        let issues = HTTPPageSource<Issue>(url: URL(string: "github?per_page=10", relativeTo: base)!, paging: .linkHeader())
        let issuesList = PaginatedListViewModel(dependency: issues, scheduler: ImmediateScheduler())
        #expect(await loadNextPage(issuesList) == .idle)
        #expect(await loadNextPage(issuesList) == .idle)

        let monitor = issues.changeMonitor()
        let answers = Locked<[Bool]>([])
        func runTheSample() async throws {
            let before = answers.withLock { $0.count }
            let check = monitor.feedChanged().startWithValues { changed in
                answers.withLock { $0.append(changed) }
                if changed { issuesList.refresh() }
            }
            // A bounded wait for the sample's answer, as a safety net.
            let deadline = ContinuousClock.now + .seconds(60)
            while answers.withLock({ $0.count }) == before, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            check.dispose()
        }
        try await runTheSample()
        #expect(answers.withLock { $0 } == [false])
        #expect(issuesList.items.value.count == 20, "unchanged: nothing reloaded")

        try await server.control("insert?at=0&count=1")
        try await runTheSample()
        #expect(answers.withLock { $0 } == [false, true])
        let deadline = ContinuousClock.now + .seconds(60)
        while issues.firstPageVersion.latest?.validators.etag != "\"v2\"", ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(try await monitor.feedChanged().first() == false, "the refresh recorded the new version")
    }

    // MARK: - Refreshing a feed that changes

    /// Runs `start` (a refresh of `list`, on `ImmediateScheduler`) and waits until the refresh ended: it
    /// was seen loading, then not. (Polling `isLoading` alone could return before the refresh started: the
    /// command runs later when an HTTP thread is still delivering the previous load's events.)
    func refreshed<Item>(_ list: PaginatedListViewModel<Item, HTTPError>, _ start: () -> Void) async throws {
        let progress = Locked((started: false, ended: false))
        let observation = list.loadStates.signal.observeValues { states in
            progress.withLock { progress in
                if states.refresh.isLoading { progress.started = true } else if progress.started { progress.ended = true }
            }
        }
        defer { observation?.dispose() }
        start()
        // A bounded wait, as a safety net.
        let deadline = ContinuousClock.now + .seconds(60)
        while !progress.withLock({ $0.ended }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test func theRefreshSamplesBringTheTimelineUpToDate() async throws {
        let timeline = HTTPPageSource<Post>(url: base.appendingPathComponent("cursor"), paging: .cursor())
        let guideList = PaginatedListViewModel(dependency: timeline)
        #expect(guideList.items.value.isEmpty)
        // The guide's calls, one after the other, on a list that delivers at once.
        let timelineList = PaginatedListViewModel(dependency: timeline, scheduler: ImmediateScheduler())
        #expect(await loadNextPage(timelineList) == .idle)
        #expect(await loadNextPage(timelineList) == .idle)
        #expect(timelineList.items.value.map(\.id) == Array(1 ... 20))

        try await server.control("insert?at=0&count=2")   // 24, 25
        try await refreshed(timelineList) { timelineList.refresh(.mergeOnTop(maxPages: 3, onGap: .keepGap)) }
        #expect(timelineList.items.value.map(\.id) == [24, 25] + Array(1 ... 20), "new posts on top, held ones kept")

        try await server.control("delete?ids=5")
        try await server.control("move?id=20&to=0")
        try await refreshed(timelineList) { timelineList.refresh(.reloadAll) }
        let feed = [20, 24, 25, 1, 2, 3, 4] + Array(6 ... 19) + Array(21 ... 23)
        let reloaded = timelineList.items.value.map(\.id)
        #expect(reloaded.count >= 20 && reloaded == Array(feed.prefix(reloaded.count)), "\(reloaded)")

        try await refreshed(timelineList) {
            timelineList.refresh(.mergeOnTop(maxPages: 3, onGap: .keepGap), ifChanged: timeline.feedChanged())
        }
        #expect(timelineList.items.value.map(\.id) == reloaded, "unchanged: a 304, nothing else")

        try await refreshed(timelineList) { timelineList.refresh() }
        #expect(timelineList.items.value.map(\.id) == Array(feed.prefix(10)), "the first page")
    }

    @Test func theIDSnapshotSampleReconcilesARerankedFeedById() async throws {
        let base = base
        let client = HTTPClient()
        let idsURL = base.appendingPathComponent("ids")
        let ranking = HTTPChangeMonitor(client: client, url: idsURL)
        let ranked = IDSnapshotSource<Post, HTTPError>(batchSize: 20, fetchIDs: {
            client.get(Ranking.self, for: URLRequest(url: idsURL)) { response, body in
                ranking.remember(response)   // the snapshot's version: what the next check compares with
                return body.ids
            }
        }, fetchItems: { ids in
            let url = HTTPQuery.url(base.appendingPathComponent("items"),
                                    setting: ["ids": ids.map(String.init).joined(separator: ",")])
            return client.get(RankedPosts.self, from: url).map(\.items)
        })
        let rankedList = PaginatedListViewModel(dependency: ranked, scheduler: ImmediateScheduler())
        #expect(await loadNextPage(rankedList) == .idle)
        #expect(rankedList.items.value.map(\.id) == Array(1 ... 20))

        try await refreshed(rankedList) { rankedList.refresh(.reloadAll, ifChanged: ranking.feedChanged()) }
        #expect(rankedList.items.value.map(\.id) == Array(1 ... 20), "unchanged")

        try await server.control("move?id=6&to=0")
        try await server.control("delete?ids=2")
        try await refreshed(rankedList) { rankedList.refresh(.reloadAll, ifChanged: ranking.feedChanged()) }
        #expect(rankedList.items.value.map(\.id) == [6, 1, 3, 4, 5] + Array(7 ... 21), "re-ranked: reconciled by id")
    }

    // MARK: - Command-line programs

    @Test func theCommandLineSamplePagesEverythingWithoutAMainRunLoop() async {
        let issues = HTTPPageSource<Issue>(url: URL(string: "github?per_page=10", relativeTo: base)!, paging: .linkHeader())
        let list = PaginatedListViewModel(dependency: issues, scheduler: QueueScheduler(label: "issues"))
        paging: for await states in list.loadStates.values {
            switch states.append {
            case .idle: list.loadNextPage()   // at the start, and after each page: the next one
            case .loading: continue
            case .complete: break paging
            case let .failed(error): print(error); break paging
            }
        }
        print("\(list.items.value.count) issues")
        #expect(list.items.value.map(\.id) == Self.numbers)
    }

    @Test func theCommandLineSampleWorksFromSynchronousCodeToo() async {
        let issues = HTTPPageSource<Issue>(url: URL(string: "github?per_page=10", relativeTo: base)!, paging: .linkHeader())
        // A synchronous program blocks its main thread; here a dispatch thread stands in for it.
        let outcome = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let list = PaginatedListViewModel(dependency: issues, scheduler: QueueScheduler(label: "issues"))
                let done = DispatchSemaphore(value: 0)
                let observation = list.loadStates.producer.startWithValues { states in
                    switch states.append {
                    case .idle: list.loadNextPage()
                    case .loading: break
                    case .complete, .failed: done.signal()
                    }
                }
                // Bounded only against a hang: under the thread sanitizer, on two cores also running other
                // builds, paging these 23 issues once took over 20 s.
                let ended = done.wait(timeout: .now() + 600) == .success
                observation.dispose()
                continuation.resume(returning: (ended: ended, count: list.items.value.count))
            }
        }
        #expect(outcome.ended, "the list ended (complete or failed) within the bound")
        #expect(outcome.count == 23)
    }

    // MARK: - The client, your own envelope

    @Test func theClientSampleDecodesPosts() async throws {
        let client = HTTPClient()   // URLSession.shared; JSONCoding's decoder: snake_case keys, ISO 8601 dates
        let posts: Producer<[Post], HTTPError> = client.get([Post].self, from: base.appendingPathComponent("offset"))
        let first = try await posts.first()
        #expect(first?.first?.createdAt == Date(timeIntervalSince1970: 1_714_564_801))
    }

    @Test func theOwnEnvelopeSamplePagesTheFeed() async {
        let client = HTTPClient()
        let base = base
        let custom = PageNumberSource<Post, HTTPError>(pageSize: 20) { page, size in
            let url = HTTPQuery.url(base.appendingPathComponent("page"),
                                    setting: ["page": "\(page)", "limit": "\(size)", "totals": "1"])
            return client.get(Envelope.self, from: url).map { body in
                PageNumberResponse(items: body.items, totalItems: body.total)
            }
        }
        #expect(await loadAll(custom).map(\.id) == Self.numbers)
    }
}
