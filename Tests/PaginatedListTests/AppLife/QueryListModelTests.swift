import Foundation
import PaginatedList
import PaginatedListTesting
import Signals
import Testing

/// Seeded random interleavings of query switches, page deliveries (from runs of the current query, of
/// previous ones, and of runs already cut off), failures, loads and refreshes, checked after every step.
@Suite("Query-keyed lists: seeded interleavings")
struct QueryListModelTests {
    static let queries = ["a", "b", "c", "d"]

    @Test func noPageOfAnOlderQueryEverLandsInANewerOnesListAndTheCacheStaysWithinItsLimit() {
        var failures: [String] = []
        for seed in 0 ..< seededRunCount(2_000) where failures.isEmpty {
            failures += Self.run(seed: UInt64(seed))
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    /// One sequence of 40 steps; what went wrong, described (empty when nothing did).
    static func run(seed: UInt64) -> [String] {
        var random = SplitMix64(seed: seed)
        let source = QuerySource()
        let keepPrevious = random.below(2) == 0
        let cacheLimit = 1 + random.below(3)
        let revalidation: QueryRevalidation = random.below(2) == 0 ? .never : .always(.replace)
        let list = makeHitList(source, keepPrevious: keepPrevious, cacheLimit: cacheLimit, revalidation: revalidation)
        let replayer = ChangeReplayer(list)
        var answered = Set<ObjectIdentifier>()
        for step in 0 ..< 40 {
            let runs = source.runs.filter { !answered.contains(ObjectIdentifier($0)) }
            switch random.below(10) {
            case 0 ..< 3:
                list.setQuery(queries[random.below(queries.count)])
            case 3 ..< 6 where !runs.isEmpty:
                let run = runs[random.below(runs.count)]
                answered.insert(ObjectIdentifier(run))
                run.deliver(random.below(4), more: random.below(3) != 0)
            case 6 where !runs.isEmpty:
                let run = runs[random.below(runs.count)]
                answered.insert(ObjectIdentifier(run))
                run.fail()
            case 7:
                list.refresh()
            default:
                list.loadNextPage()
            }
            let problems = check(list, source, replayer, cacheLimit: cacheLimit, keepPrevious: keepPrevious)
            if !problems.isEmpty { return problems.map { "seed \(seed), step \(step): \($0)" } }
        }
        return []
    }

    static func check(
        _ list: HitList, _ source: QuerySource, _ replayer: ChangeReplayer<Hit>, cacheLimit: Int, keepPrevious: Bool
    ) -> [String] {
        var problems: [String] = []
        let query = list.query.value
        let shown = Array(list.items.value)
        let current = Array(list.current.value.items.value)
        let shownQueries = Set(shown.map(\.query))
        if shownQueries.count > 1 { problems.append("items mix queries \(shownQueries)") }
        // Only while the current query's first page loads (keepPrevious) may items show something else:
        // the items shown before the switch.
        let waits = keepPrevious && current.isEmpty && list.current.value.loadStates.value.isLoading
        if shown != current, !waits {
            problems.append("items \(shown) are not \(query)'s view model's \(current)")
        }
        if current.contains(where: { $0.query != query }) { problems.append("\(query)'s view model holds another's items") }
        let cached = list.cachedQueries
        if cached.count > cacheLimit { problems.append("the cache holds \(cached.count) view models (limit \(cacheLimit))") }
        if cached.last != query { problems.append("the current query \(query) is not the cache's most recent \(cached)") }
        let strays = source.activeRuns.filter { $0.query != query }
        if !strays.isEmpty { problems.append("loads of \(strays.map(\.query)) still run while \(query) is current") }
        if !replayer.mismatches.isEmpty { problems.append("changes do not replay: \(replayer.mismatches)") }
        if replayer.mirror != shown { problems.append("the changes' mirror \(replayer.mirror) is not items \(shown)") }
        return problems
    }
}
