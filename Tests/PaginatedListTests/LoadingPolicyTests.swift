import Foundation
import PaginatedList
import PaginatedListTesting
import Signals
import Testing

// The "Loading policy" of issue 4: prefetch by index, automatic retry, debounced triggers. Unless a test
// says otherwise, the view model runs on an `ImmediateScheduler` over a `ScriptedSource`, whose runs the
// test answers by hand.

private func makeViewModel(_ source: ScriptedSource) -> TestViewModel {
    TestViewModel(dependency: source, scheduler: ImmediateScheduler())
}

/// Loads the first page of `count` items (0 ..< count) with a next page pending.
private func loadFirstPage(_ viewModel: TestViewModel, _ source: ScriptedSource, count: Int) {
    viewModel.loadNextPage()
    source.lastRun.deliver(Array(0 ..< count), next: source.producer())
}

@Suite("Loading policy: prefetch by index")
struct PrefetchTests {
    @Test func aRowWithinTheDistanceOfTheEndLoadsTheNextPage() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        loadFirstPage(viewModel, source, count: 10)
        viewModel.loadNextPageIfNeeded(visibleIndex: 4, prefetchDistance: 5)   // rows 5...9 below: 5
        #expect(source.runs.count == 2)
        #expect(viewModel.loading.value)
    }

    @Test func aRowFartherThanTheDistanceFromTheEndLoadsNothing() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        loadFirstPage(viewModel, source, count: 10)
        viewModel.loadNextPageIfNeeded(visibleIndex: 3, prefetchDistance: 5)   // 6 rows below
        #expect(source.runs.count == 1)
        #expect(!viewModel.loading.value)
    }

    @Test func theDefaultDistanceIsFiveRows() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        loadFirstPage(viewModel, source, count: 10)
        viewModel.loadNextPageIfNeeded(visibleIndex: 3)
        #expect(source.runs.count == 1)
        viewModel.loadNextPageIfNeeded(visibleIndex: 4)
        #expect(source.runs.count == 2)
    }

    @Test func distanceZeroLoadsOnlyWhenTheLastRowIsVisible() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        loadFirstPage(viewModel, source, count: 10)
        viewModel.loadNextPageIfNeeded(visibleIndex: 8, prefetchDistance: 0)
        #expect(source.runs.count == 1)
        viewModel.loadNextPageIfNeeded(visibleIndex: 9, prefetchDistance: 0)
        #expect(source.runs.count == 2)
    }

    @Test func aNegativeDistanceCountsAsZero() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        loadFirstPage(viewModel, source, count: 10)
        viewModel.loadNextPageIfNeeded(visibleIndex: 8, prefetchDistance: -3)
        #expect(source.runs.count == 1)
        viewModel.loadNextPageIfNeeded(visibleIndex: 9, prefetchDistance: -3)
        #expect(source.runs.count == 2)
    }

    @Test func anEmptyListLoadsTheFirstPage() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPageIfNeeded(visibleIndex: 0)
        #expect(source.firstPageCalls == 1)
        #expect(source.runs.count == 1)
    }

    @Test func aRequestWhileAPageLoadsStartsNoSecondRequest() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        viewModel.loadNextPageIfNeeded(visibleIndex: 0)
        viewModel.loadNextPageIfNeeded(visibleIndex: 100)
        #expect(source.runs.count == 1)
        #expect(source.activeRuns == 1)
    }

    @Test func aUserParkedNearTheEndDuringALoadGetsTheNextPageWhenItLands() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        loadFirstPage(viewModel, source, count: 10)
        viewModel.loadNextPage()                                              // page 2 loading
        viewModel.loadNextPageIfNeeded(visibleIndex: 9, prefetchDistance: 5)  // the user reaches the bottom
        source.lastRun.deliver(Array(10 ..< 13), next: source.producer())     // a short page: row 9 has 3 below
        #expect(source.runs.count == 3)                                       // page 3 started by itself
        #expect(viewModel.loading.value)
        #expect(viewModel.items.value.count == 13)
    }

    @Test func theRememberedRowIsDroppedWhenTheNewEndIsBeyondTheDistance() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        loadFirstPage(viewModel, source, count: 10)
        viewModel.loadNextPage()
        viewModel.loadNextPageIfNeeded(visibleIndex: 9, prefetchDistance: 5)
        source.lastRun.deliver(Array(10 ..< 20), next: source.producer())     // row 9 now has 10 below
        #expect(source.runs.count == 2)
        #expect(!viewModel.loading.value)
    }

    @Test func theFurthestRequestDuringALoadWins() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        loadFirstPage(viewModel, source, count: 10)
        viewModel.loadNextPage()
        viewModel.loadNextPageIfNeeded(visibleIndex: 9, prefetchDistance: 5)
        viewModel.loadNextPageIfNeeded(visibleIndex: 2, prefetchDistance: 5)  // nearer the top: does not replace 9
        source.lastRun.deliver(Array(10 ..< 13), next: source.producer())
        #expect(source.runs.count == 3)
    }

    @Test func aParkedUserKeepsGettingPagesUntilTheRowIsBeyondTheDistance() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPageIfNeeded(visibleIndex: 7, prefetchDistance: 5)  // reach: a list ending at row 12
        for page in 0 ..< 10 where source.runs.count == page + 1 {
            source.lastRun.deliver(Array(page * 2 ..< page * 2 + 2), next: source.producer())
        }
        #expect(viewModel.items.value.count == 14)                            // 13 rows wanted, in pages of 2
        #expect(source.runs.count == 7)
        #expect(!viewModel.loading.value)
    }

    @Test func theLastPageEndsTheChainEvenWhenTheRowIsNearTheEnd() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPageIfNeeded(visibleIndex: 0)
        viewModel.loadNextPageIfNeeded(visibleIndex: 50)
        source.lastRun.deliver([1, 2], next: nil)
        #expect(source.runs.count == 1)
        #expect(viewModel.exhausted.value)
    }

    @Test func aFailureDoesNotLoadAgainByItself() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        loadFirstPage(viewModel, source, count: 10)
        viewModel.loadNextPage()
        viewModel.loadNextPageIfNeeded(visibleIndex: 9)
        source.lastRun.fail(TestError(1))
        #expect(source.runs.count == 2)
        #expect(viewModel.lastError.value == TestError(1))
    }

    @Test func aRequestAfterAFailureDoesNotRetryTheFailedPage() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        loadFirstPage(viewModel, source, count: 10)
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        viewModel.loadNextPageIfNeeded(visibleIndex: 9)
        #expect(source.runs.count == 2)
        #expect(viewModel.lastError.value == TestError(1))
    }

    @Test func theRememberedRowIsRecheckedWhenTheRetriedPageLands() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        loadFirstPage(viewModel, source, count: 10)
        viewModel.loadNextPage()
        viewModel.loadNextPageIfNeeded(visibleIndex: 9)
        source.lastRun.fail(TestError(1))
        viewModel.loadNextPage()                                              // the user retries
        source.lastRun.deliver([10, 11], next: source.producer())
        #expect(source.runs.count == 4)                                       // and the parked row loads on
    }

    @Test func resetForgetsTheRememberedRow() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        loadFirstPage(viewModel, source, count: 10)
        viewModel.loadNextPage()
        viewModel.loadNextPageIfNeeded(visibleIndex: 9)
        viewModel.reset()
        viewModel.loadNextPage()
        source.lastRun.deliver([0, 1], next: source.producer())
        #expect(source.runs.count == 3)
        #expect(!viewModel.loading.value)
    }

    @Test func anExhaustedListLoadsNothing() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        source.lastRun.deliver([1], next: nil)
        viewModel.loadNextPageIfNeeded(visibleIndex: 0)
        #expect(source.runs.count == 1)
    }

    @Test func thePageLandsBeforeTheNextLoadStarts() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        let states = Recorder(viewModel.state.signal)
        viewModel.loadNextPage()
        viewModel.loadNextPageIfNeeded(visibleIndex: 0)
        let loadingWhenItemsArrived = Locked<[Bool]>([])
        viewModel.items.signal.observeValues { _ in
            loadingWhenItemsArrived.withLock { $0.append(viewModel.loading.value) }
        }
        source.lastRun.deliver([1, 2], next: source.producer())
        #expect(loadingWhenItemsArrived.withLock { $0 } == [false])
        #expect(states.values == [.loading, .idle, .loading])
    }

    @Test func requestsFromManyThreadsStartOneLoadAtATime() async {
        let starts = Counter()
        let viewModel = TestViewModel(scheduler: QueueScheduler(queue: DispatchQueue(label: "prefetch"))) {
            synchronousChain(pages: 1_000, size: 3, starts: starts)
        }
        await withTaskGroup(of: Void.self) { group in
            for thread in 0 ..< 8 {
                group.addTask {
                    for row in 0 ..< 50 { viewModel.loadNextPageIfNeeded(visibleIndex: row * 8 + thread, prefetchDistance: 2) }
                }
            }
        }
        let count = await withCheckedContinuation { continuation in
            viewModel.items.producer.filter { $0.count >= 405 }.take(first: 1).startWithValues { continuation.resume(returning: $0.count) }
        }
        // The furthest row is 399: pages load until fewer than 3 rows lie below it (a list of 405 rows),
        // 135 pages of 3, each started once.
        #expect(count == 405)
        #expect(starts.count == 135)
    }
}
