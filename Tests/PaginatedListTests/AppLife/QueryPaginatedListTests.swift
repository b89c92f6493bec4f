import Foundation
import PaginatedList
import PaginatedListTesting
import Signals
import Testing

@Suite("Query-keyed lists: QueryPaginatedList")
struct QueryPaginatedListTests {
    @Test func aNewQueryLoadsItsFirstPageAtOnce() {
        let source = QuerySource()
        let list = makeHitList(source)
        source.lastRun.deliver()
        list.setQuery("b")
        #expect(source.lastRun.query == "b")
        #expect(source.lastRun.page == 0)
        #expect(list.query.value == "b")
        #expect(list.loadStates.value.append == .loading)
    }

    @Test func theFirstQuerysViewModelStartsNoRequestUntilAskedToLoad() {
        let source = QuerySource()
        _ = HitList(query: "a", scheduler: ImmediateScheduler(), firstPage: source.firstPage)
        #expect(source.runs.isEmpty)
    }

    @Test func switchingCutsOffThePreviousQuerysLoadInFlight() {
        let source = QuerySource()
        let list = makeHitList(source)
        let previous = source.lastRun
        list.setQuery("b")
        #expect(!previous.isActive)
    }

    @Test func aPageThePreviousQuerysProducerSendsAfterTheSwitchNeverLands() {
        let source = QuerySource()
        let list = makeHitList(source)
        let previous = source.lastRun
        list.setQuery("b")
        previous.deliver()
        source.lastRun.deliver()
        #expect(list.shownQueries == ["b"])
        #expect(list.items.value.count == 3)
    }

    @Test func aTransitionOfThePreviousQuerysViewModelQueuedBeforeTheSwitchRanNeverReachesTheList() {
        let source = QuerySource()
        let scheduler = TestScheduler()
        let list = makeScheduledHitList(source, on: scheduler, showing: "a")
        let previous = list.current.value
        let changes = Recorder(list.changes)
        // Queued in this order: the edit runs first, and its transition reaches the list's queue behind the switch.
        previous.remove(id: "a#0")
        list.setQuery("b")
        scheduler.run()
        #expect(previous.items.value.map(\.id) == ["a#1", "a#2"], "the previous query's view model changed")
        #expect(list.items.value.map(\.id) == ["a#0", "a#1", "a#2"], "what the list showed stays until b's page lands")
        #expect(changes.values.isEmpty)
    }

    @Test func withKeepPreviousThePreviousItemsStayUntilTheNewFirstPageLandsThenOneResetReplacesThem() {
        let source = QuerySource()
        let list = makeHitList(source)
        source.lastRun.deliver()
        let changes = Recorder(list.changes)
        let snapshots = Recorder(list.items.signal.map { $0.map(\.id) })
        list.setQuery("b")
        #expect(list.shownQueries == ["a"])
        #expect(snapshots.values.isEmpty)
        source.lastRun.deliver(2)
        #expect(snapshots.values == [["b#0", "b#1"]])
        #expect(changes.values == [.reset])
    }

    @Test func withoutKeepPreviousTheListBlanksAtOnce() {
        let source = QuerySource()
        let list = makeHitList(source, keepPrevious: false)
        source.lastRun.deliver()
        let changes = Recorder(list.changes)
        list.setQuery("b")
        #expect(list.items.value.isEmpty)
        #expect(changes.values == [.reset])
        source.lastRun.deliver(2)
        #expect(list.shownQueries == ["b"])
        #expect(changes.values == [.reset, .appended(0 ..< 2)])
    }

    @Test func aFailedFirstPageReplacesThePreviousItemsWithTheNewQuerysBlankListAndShowsTheFailure() {
        let source = QuerySource()
        let list = makeHitList(source)
        source.lastRun.deliver()
        list.setQuery("b")
        source.lastRun.fail(7)
        #expect(list.items.value.isEmpty)
        #expect(list.loadStates.value.append == .failed(TestError(7)))
    }

    @Test func anEmptyFirstPageReplacesThePreviousItems() {
        let source = QuerySource()
        let list = makeHitList(source)
        source.lastRun.deliver()
        list.setQuery("b")
        source.lastRun.deliver(0, more: false)
        #expect(list.items.value.isEmpty)
        #expect(list.loadStates.value.append == .complete)
    }

    @Test func anEmptyFirstPageWithMoreAfterItKeepsThePreviousItemsUntilAPageBringsSome() {
        let source = QuerySource()
        let list = makeHitList(source)
        source.lastRun.deliver()
        let changes = Recorder(list.changes)
        list.setQuery("b")
        source.lastRun.deliver(0, more: true)
        #expect(source.lastRun.page == 1, "the view model loads the next page at once")
        #expect(list.shownQueries == ["a"])
        #expect(changes.values.isEmpty)
        source.lastRun.deliver(2)
        #expect(list.shownQueries == ["b"])
        #expect(changes.values == [.reset])
    }

    @Test func switchingAwayAndBackBeforeTheFirstPageLandsKeepsThePreviousItemsUntilItLands() throws {
        let source = QuerySource()
        let scheduler = TestScheduler()
        let list = makeScheduledHitList(source, on: scheduler, showing: "x")
        list.setQuery("a")
        scheduler.run()
        let changes = Recorder(list.changes)
        // Both switches run in one turn: "a"'s view model is paused (its load cut off) after the switch back.
        list.setQuery("b")
        list.setQuery("a")
        scheduler.run()
        #expect(list.shownQueries == ["x"], "the cut-off load is not the end of the wait")
        #expect(changes.values.isEmpty)
        #expect(list.loadStates.value.append == .loading)
        let load = try #require(source.activeRuns.last)
        #expect(load.query == "a")
        load.deliver(2)
        scheduler.run()
        #expect(list.shownQueries == ["a"])
        #expect(changes.values == [.reset])
    }

    @Test func loadStatesFollowTheNewQueryFromTheSwitch() {
        let source = QuerySource()
        let list = makeHitList(source)
        source.lastRun.deliver(3, more: false)
        #expect(list.loadStates.value.append == .complete)
        list.setQuery("b")
        #expect(list.loadStates.value.append == .loading)
    }

    /// A switch away cuts off what is in flight, and nothing of a failure: going back shows it again, and
    /// only `loadNextPage()` retries it (the pause once made the failed page ready, unpublished: the list
    /// showed the failure while a prefetch loaded the page on its own).
    @Test func aFailureOfAQuerySwitchedAwayFromIsShownWhenItComesBackAndRetriedOnlyByLoadNextPage() {
        let source = QuerySource()
        let list = makeHitList(source, revalidation: .never)
        source.lastRun.deliver(3)
        list.loadNextPage()
        source.lastRun.fail(7)
        #expect(list.loadStates.value.append == .failed(TestError(7)))
        list.setQuery("b")
        source.lastRun.deliver(2)
        let runsBefore = source.runs.count
        list.setQuery("a")
        #expect(list.items.value.map(\.id) == ["a#0", "a#1", "a#2"])
        #expect(list.loadStates.value.append == .failed(TestError(7)))
        #expect(list.current.value.lastError.value == TestError(7))
        list.current.value.loadPagesIfNeeded(visibleIndex: 2)
        #expect(source.runs.count == runsBefore)
        list.loadNextPage()
        #expect(source.runs.count == runsBefore + 1)
        #expect(source.lastRun.query == "a" && source.lastRun.page == 1)
        #expect(list.loadStates.value.append == .loading)
    }

    /// From the switch on, `append` says `.loading` until the new query's first page says otherwise: the
    /// observation's first value, the new view model's states before its load (idle), is not shown, even
    /// when the load starts a turn later (an asynchronous scheduler).
    @Test func loadStatesSayLoadingFromTheSwitchUntilTheFirstPageLandsOnAnAsynchronousScheduler() {
        let source = QuerySource()
        let scheduler = TestScheduler()
        let list = makeScheduledHitList(source, on: scheduler, showing: "a")
        let states = Recorder(list.loadStates.signal)
        list.setQuery("b")
        scheduler.run()
        #expect(list.loadStates.value.append == .loading)
        source.lastRun.deliver(2, more: false)
        scheduler.run()
        #expect(list.items.value.map(\.id) == ["b#0", "b#1"])
        let appends = states.values.map(\.append)
        #expect(appends.first == .loading && appends.last == .complete)
        #expect(!appends.contains(.idle), "\(appends)")
    }

    /// `query` and `current` change together: an observer of `query` that acts on the list acts on the new
    /// query's view model (it once found the previous one, and refreshed a query no longer shown).
    @Test func anObserverOfQueryFindsTheNewQuerysViewModelInCurrent() {
        let source = QuerySource()
        let list = makeHitList(source, revalidation: .never)
        source.lastRun.deliver(3)
        let seen = Recorder<String>()
        list.query.signal.observeValues { [weak list] query in
            guard let list else { return }
            seen.append("\(query): \(list.current.value.items.value.isEmpty ? "new" : "kept")")
        }
        let first = list.current.value
        list.current.signal.observeValues { [weak list, weak first] viewModel in
            guard let list else { return }
            seen.append("current is \(viewModel === first ? "a's" : "another") with query \(list.query.value)")
        }
        list.setQuery("b")
        #expect(seen.values == ["b: new", "current is another with query b"])
    }

    @Test func goingBackToAKeptQueryShowsItsItemsAtOnce() {
        let source = QuerySource()
        let list = makeHitList(source, revalidation: .never)
        source.lastRun.deliver(3)
        list.setQuery("b")
        source.lastRun.deliver(2)
        let runsBefore = source.runs.count
        list.setQuery("a")
        #expect(list.items.value.map(\.id) == ["a#0", "a#1", "a#2"])
        #expect(source.runs.count == runsBefore)
    }

    @Test func revalidationAlwaysRefreshesAKeptQueryWithoutBlankingIt() {
        let source = QuerySource()
        let list = makeHitList(source, revalidation: .always(.replace))
        source.lastRun.deliver(3)
        list.setQuery("b")
        source.lastRun.deliver(2)
        list.setQuery("a")
        #expect(source.lastRun.query == "a")
        #expect(source.lastRun.page == 0)
        #expect(list.loadStates.value.refresh == .loading)
        #expect(list.items.value.count == 3)
        source.lastRun.deliver(1)
        #expect(list.items.value.map(\.id) == ["a#0"])
    }

    @Test func revalidationIfOlderThanRefreshesOnlyAQueryWhoseFirstPageIsThatOld() {
        let source = QuerySource()
        let clock = TestScheduler()
        let list = makeHitList(source, revalidation: .ifOlderThan(.seconds(60), policy: .replace, on: clock))
        source.lastRun.deliver()
        list.setQuery("b")
        source.lastRun.deliver()
        clock.advance(by: .seconds(30))
        let runsBefore = source.runs.count
        list.setQuery("a")
        #expect(source.runs.count == runsBefore)
        list.setQuery("b")
        clock.advance(by: .seconds(30))
        list.setQuery("a")
        #expect(source.runs.count == runsBefore + 1)
        #expect(list.loadStates.value.refresh == .loading)
    }

    @Test func aKeptQueryWhoseFirstPageNeverLandedLoadsItAgain() {
        let source = QuerySource()
        let list = makeHitList(source)
        list.setQuery("b")
        list.setQuery("a")
        #expect(source.lastRun.query == "a")
        #expect(source.lastRun.isActive)
        source.lastRun.deliver(2)
        #expect(list.shownQueries == ["a"])
    }

    @Test func theCacheKeepsTheLastCacheLimitQueriesLeastRecentlyUsedFirst() {
        let source = QuerySource()
        let list = makeHitList(source, cacheLimit: 2)
        list.setQuery("b")
        list.setQuery("a")
        list.setQuery("c")
        #expect(list.cachedQueries == ["a", "c"])
    }

    @Test func anEvictedViewModelIsFreed() {
        let source = QuerySource()
        let leaks = LeakChecker()
        let list = makeHitList(source, cacheLimit: 2)
        do {
            source.lastRun.deliver()
            leaks.watch(list.current.value, name: "the view model of a")
            list.setQuery("b")
            list.setQuery("c")
        }
        #expect(leaks.alive.isEmpty)
        #expect(list.cachedQueries == ["b", "c"])
    }

    @Test func releasingTheListFreesEveryViewModel() {
        let source = QuerySource()
        let leaks = LeakChecker()
        do {
            let list = makeHitList(source)
            leaks.watch(list.current.value, name: "the view model of a")
            source.lastRun.deliver()
            list.setQuery("b")
            leaks.watch(list, name: "the list")
            leaks.watch(list.current.value, name: "the view model of b")
            list.setQuery("c")
            leaks.watch(list.current.value, name: "the view model of c")
        }
        #expect(leaks.alive.isEmpty)
    }

    @Test func changesReplayOntoItemsAcrossSwitches() {
        let source = QuerySource()
        let list = makeHitList(source)
        let replayer = ChangeReplayer(list)
        source.lastRun.deliver()
        list.loadNextPage()
        source.lastRun.deliver()
        list.setQuery("b")
        source.lastRun.deliver(2)
        list.setQuery("a")
        source.lastRun.deliver(1)
        list.current.value.remove(id: "a#0")
        #expect(replayer.mismatches.isEmpty)
        #expect(replayer.mirror == Array(list.items.value))
    }

    @Test func settingTheCurrentQueryAgainDoesNothing() {
        let source = QuerySource()
        let list = makeHitList(source)
        source.lastRun.deliver()
        let runsBefore = source.runs.count
        let changes = Recorder(list.changes)
        list.setQuery("a")
        #expect(source.runs.count == runsBefore)
        #expect(changes.values.isEmpty)
    }

    @Test func currentIsTheNewQuerysViewModelFromTheSwitch() {
        let source = QuerySource()
        let list = makeHitList(source)
        let first = list.current.value
        list.setQuery("b")
        #expect(list.current.value !== first)
        source.lastRun.deliver(2)
        #expect(list.current.value.items.value.map(\.id) == ["b#0", "b#1"])
    }
}

@Suite("Query-keyed lists: setQuery from many threads")
struct QueryPaginatedListConcurrencyTests {
    @Test func setQueryFromManyThreadsEndsOnOneQueryShowingOnlyItsItems() async {
        let queries = ["a", "b", "c", "d", "e", "f"]
        let list = HitList(query: "a", scheduler: ImmediateScheduler(), cacheLimit: 3) { query in
            Producer(value: Page(items: (0 ..< 3).map { Hit(query: query, n: $0) }, next: nil))
        }
        let replayer = ChangeReplayer(list)
        list.loadNextPage()
        await withTaskGroup(of: Void.self) { group in
            for thread in 0 ..< 8 {
                group.addTask {
                    for step in 0 ..< 200 {
                        list.setQuery(queries[(thread * 7 + step * 5) % queries.count])
                        if step % 3 == 0 { list.loadNextPage() }
                        if step % 5 == 0 { list.refresh() }
                    }
                }
            }
        }
        #expect(list.cachedQueries.count <= 3)
        #expect(list.shownQueries.isSubset(of: [list.query.value]))
        #expect(list.items.value.map(\.id) == list.current.value.items.value.map(\.id))
        #expect(replayer.mismatches.isEmpty)
        #expect(replayer.mirror == Array(list.items.value))
    }
}
