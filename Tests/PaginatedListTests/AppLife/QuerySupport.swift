import Foundation
import PaginatedList
import PaginatedListTesting
import Signals

/// A search result: which query's page brought it, and its place in that query's feed.
struct Hit: Identifiable, Equatable, Sendable, CustomStringConvertible {
    let query: String
    let n: Int
    var id: String { "\(query)#\(n)" }
    var description: String { id }
}

typealias HitPage = Page<Hit, TestError>
typealias HitProducer = Producer<HitPage, TestError>
typealias HitList = QueryPaginatedList<String, Hit, TestError>

/// One run of a query's page producer, answered by the test (or never); the input is kept after the
/// view model cuts the run off, so a test can send a page "anyway".
final class QueryRun {
    let query: String
    /// The page of the query's feed this run loads (0: the first page).
    let page: Int
    let input: Signal<HitPage, TestError>.Observer
    private let status = RunStatus()
    private let source: QuerySource

    init(query: String, page: Int, input: Signal<HitPage, TestError>.Observer, lifetime: Lifetime, source: QuerySource) {
        self.query = query
        self.page = page
        self.input = input
        self.source = source
        lifetime.observeEnded { [status] in status.end() }
    }

    /// Whether the view model still waits for this run.
    var isActive: Bool { !status.hasEnded }

    /// Sends the page's `count` hits (numbered from `page * 10`) and a next page if `more`, then completes.
    func deliver(_ count: Int = 3, more: Bool = true) {
        let hits = (0 ..< count).map { Hit(query: query, n: page * 10 + $0) }
        input.send(value: Page(items: hits, next: more ? source.producer(query, page: page + 1) : nil))
        input.sendCompleted()
    }

    func fail(_ code: Int = 1) {
        input.send(error: TestError(code))
    }
}

/// The page producers of every query; records each run. Thread-safe.
final class QuerySource: Sendable {
    private let recorded = Locked<[QueryRun]>([])

    /// The first page of `query`: the closure a `QueryPaginatedList` takes.
    var firstPage: @Sendable (String) -> HitProducer {
        { [self] query in producer(query, page: 0) }
    }

    func producer(_ query: String, page: Int) -> HitProducer {
        Producer { [self] observer, lifetime in
            let run = QueryRun(query: query, page: page, input: observer, lifetime: lifetime, source: self)
            recorded.withLock { $0.append(run) }
        }
    }

    var runs: [QueryRun] { recorded.withLock { $0 } }
    /// The run started last.
    var lastRun: QueryRun { runs[runs.count - 1] }
    /// The runs still waited for.
    var activeRuns: [QueryRun] { runs.filter(\.isActive) }
}

/// A list over `source`, on an `ImmediateScheduler`, with the first query's first page loading.
func makeHitList(
    _ source: QuerySource, query: String = "a", keepPrevious: Bool = true, cacheLimit: Int = 4,
    revalidation: QueryRevalidation = .always(.replace)
) -> HitList {
    let list = HitList(
        query: query, scheduler: ImmediateScheduler(), keepPrevious: keepPrevious, cacheLimit: cacheLimit,
        revalidation: revalidation, firstPage: source.firstPage
    )
    list.loadNextPage()
    return list
}

/// A list over `source` on `scheduler` (whose actions run when the test runs them), showing the first page
/// of `query`, three hits.
func makeScheduledHitList(_ source: QuerySource, on scheduler: TestScheduler, showing query: String) -> HitList {
    let list = HitList(query: query, scheduler: scheduler, firstPage: source.firstPage)
    list.loadNextPage()
    scheduler.run()
    source.lastRun.deliver()
    scheduler.run()
    return list
}

extension QueryPaginatedList where Item == Hit {
    /// The queries of the items shown.
    var shownQueries: Set<String> { Set(items.value.map(\.query)) }
}
