// The samples of Docs/AppLife.md ("Search as you type", "Coming back to the foreground", "Offline"),
// compiled and run; the SwiftUI view compiled on Apple platforms. `everySampleIsCompiledHere` checks that
// each sample of those sections appears in this file verbatim (ignoring indentation).
import Foundation
import Observation
import PaginatedList
import PaginatedListTesting
import Signals
import Testing
#if canImport(SwiftUI)
import SwiftUI
#endif

/// The guide's samples, in a namespace so that their names stay out of other guides' way.
enum AppLifeGuide {
    struct Repo: Identifiable, Equatable, Sendable {
        let id: Int
        let name: String
    }

    enum SearchError: Error, Equatable, Sendable {
        case offline
    }

    /// Repositories whose name contains the text, two a page, each page delivered inside `start`; it fails
    /// with `.offline` while `offline` is set.
    final class SampleReposAPI: Sendable {
        static let names = ["swift", "swift-nio", "swift-syntax", "swiftlint", "vapor", "kitura", "alamofire"]
        let requests = Requests()
        let offline = Shared(false)

        func repos(matching text: String, from start: Int = 0) -> Producer<Page<Repo, SearchError>, SearchError> {
            Producer { [self] observer, _ in
                requests.increment()
                if offline.value { return observer.send(error: .offline) }
                let matches = Self.names.enumerated().filter { text.isEmpty || $0.element.contains(text) }
                let page = matches.dropFirst(start).prefix(2).map { Repo(id: $0.offset, name: $0.element) }
                let next = start + 2 < matches.count ? repos(matching: text, from: start + 2) : nil
                observer.send(value: Page(items: page, next: next))
                observer.sendCompleted()
            }
        }
    }

    static let api = SampleReposAPI()

    /// A value shared between threads.
    final class Shared<Value: Sendable>: @unchecked Sendable {
        // `@unchecked`: `stored` is guarded by `lock`.
        private let lock = NSLock()
        private var stored: Value
        init(_ value: Value) { stored = value }
        var value: Value {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }

    /// A counter shared between threads.
    final class Requests: Sendable {
        private let total = Shared(0)
        func increment() { total.value += 1 }
        var count: Int { total.value }
    }

    #if canImport(SwiftUI)
    struct RepoSearch: View {
        @State private var search = ObservableQueryPaginatedList(
            QueryPaginatedList<String, Repo, SearchError>(query: "") { text in api.repos(matching: text) }
        )
        @State private var text = ""

        var body: some View {
            NavigationStack {
                List(Array(search.items.enumerated()), id: \.element.id) { index, repo in
                    Text(repo.name).onAppear { search.rowAppeared(index) }
                }
                .searchable(text: $text)
                .task(id: text) {
                    try? await Task.sleep(for: .milliseconds(300))
                    if !Task.isCancelled { search.setQuery(text) }
                }
                .refreshable { await search.refresh() }
                .onAppear { search.loadNextPage() }
            }
        }
    }
    #endif
}

@Suite("Guide: lists in an app's life")
struct AppLifeGuideTests {
    typealias Repo = AppLifeGuide.Repo
    typealias SearchError = AppLifeGuide.SearchError
    let api = AppLifeGuide.SampleReposAPI()
    let scheduler = ImmediateScheduler()
    let clock = TestScheduler()

    @Test func searchAsYouTypeSwitchesOnceTypingPausesAndKeepsThePreviousResultsUntilThen() {
        let search = QueryPaginatedList<String, Repo, SearchError>(query: "", scheduler: scheduler) { text in
            api.repos(matching: text)
        }
        search.loadNextPage()

        // Each keystroke sends the text; the list switches once typing pauses for 300 ms.
        let (keystrokes, typed) = Signal<String, Never>.pipe()
        keystrokes.debounce(.milliseconds(300), on: clock).observeValues { text in
            search.setQuery(text)
        }
        typed.send(value: "sw")
        typed.send(value: "swif")
        typed.send(value: "swift")

        #expect(search.items.value.map(\.name) == ["swift", "swift-nio"])
        clock.advance(by: .milliseconds(300))
        #expect(search.query.value == "swift")
        #expect(search.items.value.map(\.name) == ["swift", "swift-nio"])
        #expect(api.requests.count == 2)
        search.loadNextPage()
        #expect(search.items.value.map(\.name) == ["swift", "swift-nio", "swift-syntax", "swiftlint"])
    }

    @Test func aCachedQueryYoungerThanItsRevalidationAgeShowsWithoutARequest() {
        let cached = QueryPaginatedList<String, Repo, SearchError>(
            query: "", scheduler: scheduler, cacheLimit: 8,
            revalidation: .ifOlderThan(.seconds(60), policy: .replace, on: clock)
        ) { text in api.repos(matching: text) }
        cached.loadNextPage()
        cached.setQuery("vapor")
        cached.setQuery("")
        #expect(cached.items.value.map(\.name) == ["swift", "swift-nio"])
        #expect(api.requests.count == 2)
        cached.setQuery("vapor")
        clock.advance(by: .seconds(60))
        cached.setQuery("")
        #expect(api.requests.count == 3)
    }

    @Test func aTriggerRefreshesTheTimelineOnlyOnceItIsFiveMinutesOld() {
        let timeline = PaginatedListViewModel<Repo, SearchError>(scheduler: scheduler) { api.repos(matching: "") }
        let (screenAppeared, appeared) = Signal<Void, Never>.pipe()
        let stale = timeline.refresh(
            whenever: screenAppeared, ifOlderThan: .seconds(300), policy: .mergeOnTop(maxPages: 3, onGap: .keepGap),
            on: clock
        )
        timeline.loadNextPage()
        appeared.send(value: ())   // fresh: nothing happens
        clock.advance(by: .seconds(300))
        appeared.send(value: ())   // five minutes old: one refresh, the list stays on screen

        #expect(api.requests.count == 2)
        #expect(timeline.items.value.map(\.name) == ["swift", "swift-nio"])
        stale.dispose()
    }

    @Test func offlineAFailedPageWaitsForTheNetworkAndTheReconnectionRefreshesAStaleList() {
        let online = MutableProperty(true)   // on Apple platforms: the isConnected of a NetworkConnectivity kept by the app
        let retry = AutomaticRetry(RetryPolicy(maxRetries: 5), on: clock, connectivity: Property(online))
        let feed = PaginatedListViewModel<Repo, SearchError>(scheduler: scheduler, retry: retry) {
            api.repos(matching: "")
        }
        feed.refresh(
            whenever: RefreshTriggers.reconnections(of: Property(online)), ifOlderThan: .seconds(60), policy: .replace,
            on: clock
        )

        feed.loadNextPage()
        online.value = false
        api.offline.value = true
        feed.loadNextPage()
        clock.advance(by: .seconds(600))
        #expect(feed.loadStates.value.append == .failed(.offline))
        #expect(api.requests.count == 2)
        api.offline.value = false
        online.value = true
        // The list, ten minutes old, is refreshed at once (the refresh takes the waiting page's place).
        #expect(api.requests.count == 3)
        #expect(feed.loadStates.value.append == .idle)
        #expect(feed.items.value.map(\.name) == ["swift", "swift-nio"])
    }

    @MainActor @Test func everySampleIsCompiledHere() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let source = SwiftUIGuideTests.normalized(try String(contentsOf: here, encoding: .utf8))
        let guide = try String(contentsOf: root.appendingPathComponent("Docs/AppLife.md"), encoding: .utf8)
        let mine = ["Search as you type", "Coming back to the foreground", "Offline"]
        let sections = guide.components(separatedBy: "\n## ").filter { section in
            mine.contains { section.hasPrefix($0 + "\n") }
        }
        #expect(sections.count == mine.count)
        let samples = sections.flatMap { SwiftUIGuideTests.swiftBlocks(in: $0) }
        #expect(samples.count == 5)
        for sample in samples {
            #expect(source.contains(SwiftUIGuideTests.normalized(sample)), "not compiled by AppLifeGuideTests:\n\(sample)")
        }
    }
}
