import PaginatedList
import Signals

/// `QueryPaginatedList` switching between kept queries (issue 22): from the `setQuery` call to `items`
/// holding the query's list, with every item observer and the changes' observer attached, as a screen has.
enum QueryListBenchmarks: BenchmarkSuite {
    static let name = "querylist"

    /// The items each kept query holds: 10 pages of 100.
    static let pages = 10
    static let pageSize = 100
    /// Switches timed per run at full scale (`--quick`: a tenth).
    static let fullSwitches = 20_000

    static var studies: [Study] {
        [Study(name: "setQuery to a cached query (4 kept, 1,000 items each)", run: switching)]
    }

    /// A search result of query `query`.
    struct Hit: Sendable {
        let query: Int
        let n: Int
    }

    /// `pages` pages of `query`'s hits, each landing inside `start`.
    static func chain(_ query: Int, from k: Int = 0) -> Producer<Page<Hit, Never>, Never> {
        Producer { observer, _ in
            let items = (k * pageSize ..< (k + 1) * pageSize).map { Hit(query: query, n: $0) }
            observer.send(value: Page(items: items, next: k + 1 < pages ? chain(query, from: k + 1) : nil))
            observer.sendCompleted()
        }
    }

    /// One run: `switches` switches among 4 kept queries, each timed; whether `items` held the query's
    /// list after every call.
    static func run(switches: Int, revalidation: QueryRevalidation) -> (perSwitch: [Double], ok: Bool) {
        let list = QueryPaginatedList<Int, Hit, Never>(
            query: 0, scheduler: ImmediateScheduler(), cacheLimit: 4, revalidation: revalidation
        ) { chain($0) }
        let seen = Accumulator()
        let observations = [
            list.items.signal.observeValues { seen.add($0.count) },
            list.changes.observeValues { _ in seen.add(1) },
        ]
        for query in 0 ..< 4 {
            list.setQuery(query)
            for _ in 0 ..< pages { list.loadNextPage() }
        }
        let clock = ContinuousClock()
        var perSwitch: [Double] = []
        perSwitch.reserveCapacity(switches)
        var ok = true
        for k in 0 ..< switches {
            let query = k % 4
            let start = clock.now
            list.setQuery(query)
            let shown = list.items.value
            perSwitch.append(nanoseconds(clock.now - start))
            ok = ok && !shown.isEmpty && shown[0].query == query && shown[shown.count - 1].query == query
        }
        for observation in observations { observation?.dispose() }
        return (perSwitch, ok)
    }

    static func switching(quick: Bool, runs: Int) -> StudyResult {
        let switches = quick ? fullSwitches / 10 : fullSwitches
        var result = StudyResult()
        for (label, revalidation) in [("no revalidation", QueryRevalidation.never), ("revalidated", .always(.replace))] {
            var medians: [Double] = []
            var p99s: [Double] = []
            for _ in 0 ..< runs {
                let run = run(switches: switches, revalidation: revalidation)
                result.ok = result.ok && run.ok
                let sorted = run.perSwitch.sorted()
                medians.append(median(sorted))
                p99s.append(sorted[sorted.count * 99 / 100])
            }
            let perSwitch = median(medians) / 1000
            result.figures.append(Figure(
                name: "setQuery → items holds the list, \(label) (µs, median)", value: format(perSwitch),
                target: label == "no revalidation" ? "≤ 20" : "", met: label == "no revalidation" ? perSwitch <= 20 : nil
            ))
            result.figures.append(Figure(name: "the same, 99th percentile (µs)", value: format(median(p99s) / 1000)))
        }
        result.notes = [
            "Each run: 4 kept queries of \(pages * pageSize) items, \(switches) switches round-robin on ImmediateScheduler,",
            "an items observer and a changes observer attached; one figure is the median over \(runs) runs of each run's",
            "median switch. \"revalidated\" refreshes the query it switches to (`.always(.replace)`), its first page",
            "landing inside the call: the list then holds that page only, so its row checks the switch, not the length.",
        ]
        return result
    }
}
