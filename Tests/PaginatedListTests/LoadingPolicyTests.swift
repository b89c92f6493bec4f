import Foundation
import PaginatedList
import PaginatedListTesting
import Signals
import Testing

// The "Loading policy" of issue 4: prefetch by index, automatic retry, debounced triggers. Unless a test
// says otherwise, the view model runs on an `ImmediateScheduler` over a `ScriptedSource`, whose runs the
// test answers by hand.

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
        viewModel.loadPagesIfNeeded(visibleIndex: 4, prefetchDistance: 5)   // rows 5...9 below: 5
        #expect(source.runs.count == 2)
        #expect(viewModel.loading.value)
    }

    @Test func aRowFartherThanTheDistanceFromTheEndLoadsNothing() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        loadFirstPage(viewModel, source, count: 10)
        viewModel.loadPagesIfNeeded(visibleIndex: 3, prefetchDistance: 5)   // 6 rows below
        #expect(source.runs.count == 1)
        #expect(!viewModel.loading.value)
    }

    @Test func theDefaultDistanceIsFiveRows() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        loadFirstPage(viewModel, source, count: 10)
        viewModel.loadPagesIfNeeded(visibleIndex: 3)
        #expect(source.runs.count == 1)
        viewModel.loadPagesIfNeeded(visibleIndex: 4)
        #expect(source.runs.count == 2)
    }

    @Test func distanceZeroLoadsOnlyWhenTheLastRowIsVisible() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        loadFirstPage(viewModel, source, count: 10)
        viewModel.loadPagesIfNeeded(visibleIndex: 8, prefetchDistance: 0)
        #expect(source.runs.count == 1)
        viewModel.loadPagesIfNeeded(visibleIndex: 9, prefetchDistance: 0)
        #expect(source.runs.count == 2)
    }

    @Test func aNegativeDistanceCountsAsZero() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        loadFirstPage(viewModel, source, count: 10)
        viewModel.loadPagesIfNeeded(visibleIndex: 8, prefetchDistance: -3)
        #expect(source.runs.count == 1)
        viewModel.loadPagesIfNeeded(visibleIndex: 9, prefetchDistance: -3)
        #expect(source.runs.count == 2)
    }

    @Test func anEmptyListLoadsTheFirstPage() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadPagesIfNeeded(visibleIndex: 0)
        #expect(source.firstPageCalls == 1)
        #expect(source.runs.count == 1)
    }

    @Test func aRequestWhileAPageLoadsStartsNoSecondRequest() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        viewModel.loadPagesIfNeeded(visibleIndex: 0)
        viewModel.loadPagesIfNeeded(visibleIndex: 100)
        #expect(source.runs.count == 1)
        #expect(source.activeRuns == 1)
    }

    @Test func aUserParkedNearTheEndDuringALoadGetsTheNextPageWhenItLands() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        loadFirstPage(viewModel, source, count: 10)
        viewModel.loadNextPage()                                              // page 2 loading
        viewModel.loadPagesIfNeeded(visibleIndex: 9, prefetchDistance: 5)  // the user reaches the bottom
        source.lastRun.deliver(Array(10 ..< 13), next: source.producer())     // a short page: row 9 has 3 below
        #expect(source.runs.count == 3)                                       // page 3 started by itself
        #expect(viewModel.loading.value)
        #expect(viewModel.items.value.count == 13)
    }

    @Test func aRememberedRowMovesWithTheItemsAnEditInsertsAboveIt() {
        let source = QuerySource()
        let viewModel = PaginatedListViewModel<Hit, TestError>(scheduler: ImmediateScheduler()) { source.firstPage("a") }
        viewModel.loadNextPage()
        source.lastRun.deliver(20)
        viewModel.loadPagesIfNeeded(visibleIndex: 19, prefetchDistance: 5)      // page 2 loading, row 19 remembered
        viewModel.insert((0 ..< 10).map { Hit(query: "new", n: $0) }, at: 0)   // the user's row is now 29
        source.lastRun.deliver(3)                                                // 33 rows: 3 below row 29
        #expect(source.runs.count == 3, "the next page started by itself")
    }

    @Test func aRememberedRowNearIntMaxSaturatesWhenAnEditInsertsAboveIt() {
        let source = QuerySource()
        let viewModel = PaginatedListViewModel<Hit, TestError>(scheduler: ImmediateScheduler()) { source.firstPage("a") }
        viewModel.loadNextPage()
        source.lastRun.deliver(20)
        viewModel.loadPagesIfNeeded(visibleIndex: .max - 10, prefetchDistance: 5)   // page 2 loading
        viewModel.insert((0 ..< 20).map { Hit(query: "new", n: $0) }, at: 0)         // the row moves past .max
        #expect(viewModel.items.value.count == 40)
        source.lastRun.deliver(3)
        // Saturated at the largest row, the request still reaches past the end: a wrapped one would not.
        #expect(source.runs.count == 3, "the next page started by itself")
    }

    @Test func theRememberedRowIsDroppedWhenTheNewEndIsBeyondTheDistance() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        loadFirstPage(viewModel, source, count: 10)
        viewModel.loadNextPage()
        viewModel.loadPagesIfNeeded(visibleIndex: 9, prefetchDistance: 5)
        source.lastRun.deliver(Array(10 ..< 20), next: source.producer())     // row 9 now has 10 below
        #expect(source.runs.count == 2)
        #expect(!viewModel.loading.value)
    }

    @Test func theFurthestRequestDuringALoadWins() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        loadFirstPage(viewModel, source, count: 10)
        viewModel.loadNextPage()
        viewModel.loadPagesIfNeeded(visibleIndex: 9, prefetchDistance: 5)
        viewModel.loadPagesIfNeeded(visibleIndex: 2, prefetchDistance: 5)  // nearer the top: does not replace 9
        source.lastRun.deliver(Array(10 ..< 13), next: source.producer())
        #expect(source.runs.count == 3)
    }

    @Test func aParkedUserKeepsGettingPagesUntilTheRowIsBeyondTheDistance() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadPagesIfNeeded(visibleIndex: 7, prefetchDistance: 5)  // reach: a list ending at row 12
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
        viewModel.loadPagesIfNeeded(visibleIndex: 0)
        viewModel.loadPagesIfNeeded(visibleIndex: 50)
        source.lastRun.deliver([1, 2], next: nil)
        #expect(source.runs.count == 1)
        #expect(viewModel.exhausted.value)
    }

    @Test func aFailureDoesNotLoadAgainByItself() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        loadFirstPage(viewModel, source, count: 10)
        viewModel.loadNextPage()
        viewModel.loadPagesIfNeeded(visibleIndex: 9)
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
        viewModel.loadPagesIfNeeded(visibleIndex: 9)
        #expect(source.runs.count == 2)
        #expect(viewModel.lastError.value == TestError(1))
    }

    @Test func theRememberedRowIsRecheckedWhenTheRetriedPageLands() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        loadFirstPage(viewModel, source, count: 10)
        viewModel.loadNextPage()
        viewModel.loadPagesIfNeeded(visibleIndex: 9)
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
        viewModel.loadPagesIfNeeded(visibleIndex: 9)
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
        viewModel.loadPagesIfNeeded(visibleIndex: 0)
        #expect(source.runs.count == 1)
    }

    @Test func thePageLandsBeforeTheNextLoadStarts() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        let states = Recorder(viewModel.loadStates.signal)
        viewModel.loadNextPage()
        viewModel.loadPagesIfNeeded(visibleIndex: 0)
        let loadingWhenItemsArrived = Locked<[Bool]>([])
        viewModel.items.signal.observeValues { _ in
            loadingWhenItemsArrived.withLock { $0.append(viewModel.loading.value) }
        }
        source.lastRun.deliver([1, 2], next: source.producer())
        #expect(loadingWhenItemsArrived.withLock { $0 } == [false])
        #expect(states.values.map(\.append) == [.loading, .idle, .loading])
    }

    @Test func requestsFromManyThreadsStartOneLoadAtATime() async {
        let starts = Counter()
        let viewModel = TestViewModel(scheduler: QueueScheduler(queue: DispatchQueue(label: "prefetch"))) {
            synchronousChain(pages: 1_000, size: 3, starts: starts)
        }
        await withTaskGroup(of: Void.self) { group in
            for thread in 0 ..< 8 {
                group.addTask {
                    for row in 0 ..< 50 { viewModel.loadPagesIfNeeded(visibleIndex: row * 8 + thread, prefetchDistance: 2) }
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

// MARK: - Automatic retry

/// A policy without jitter, so that delays are exact.
private func exactPolicy(maxRetries: Int = 5, initial: Duration = .seconds(1), multiplier: Double = 2,
                         maxDelay: Duration = .seconds(60)) -> RetryPolicy {
    RetryPolicy(maxRetries: maxRetries, initialDelay: initial, multiplier: multiplier, maxDelay: maxDelay, jitter: 0)
}

/// A view model on an `ImmediateScheduler` whose automatic retries wait on `timer`.
private func makeRetryingViewModel(_ source: ScriptedSource, _ policy: RetryPolicy, timer: TestScheduler) -> TestViewModel {
    TestViewModel(dependency: source, scheduler: ImmediateScheduler(), retry: AutomaticRetry(policy, on: timer))
}

/// The delays of the retries `diagnostics` announced.
private func scheduledDelays(_ diagnostics: Recorder<PaginatedListDiagnostic>) -> [Duration] {
    diagnostics.values.compactMap { if case let .retryScheduled(_, delay) = $0 { delay } else { nil } }
}

/// A scheduler that runs actions in `TestScheduler` time but cannot cancel them: a retry's timer fires
/// even after the view model tried to cancel it (as one may, racing a cancellation on another thread).
private final class UncancellableScheduler: DateScheduler {
    let base = TestScheduler()
    var currentDate: Date { base.currentDate }
    func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        base.schedule(action)
        return nil
    }
    func schedule(after date: Date, action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        base.schedule(after: date, action: action)
        return nil
    }
}

@Suite("Loading policy: automatic retry")
struct AutomaticRetryTests {
    @Test func aFailedPageIsRetriedAfterTheInitialDelay() {
        let source = ScriptedSource()
        let timer = TestScheduler()
        let viewModel = makeRetryingViewModel(source, exactPolicy(initial: .seconds(3)), timer: timer)
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        timer.advance(by: .milliseconds(2_999))
        #expect(source.runs.count == 1)
        #expect(viewModel.lastError.value == TestError(1))
        timer.advance(by: .milliseconds(1))
        #expect(source.runs.count == 2)
        #expect(source.lastRun.producerID == source.runs[0].producerID)
        #expect(viewModel.loadStates.value.append == .loading)
    }

    @Test func delaysGrowExponentially() {
        let source = ScriptedSource()
        let timer = TestScheduler()
        let viewModel = makeRetryingViewModel(source, exactPolicy(multiplier: 3), timer: timer)
        let diagnostics = Recorder(viewModel.diagnostics)
        viewModel.loadNextPage()
        var retryTimes: [TimeInterval] = []
        for _ in 0 ..< 4 {
            source.lastRun.fail(TestError(1))
            let failedAt = timer.currentDate
            timer.run()                                               // to the retry, and no further
            retryTimes.append(timer.currentDate.timeIntervalSince(failedAt))
        }
        #expect(scheduledDelays(diagnostics) == [.seconds(1), .seconds(3), .seconds(9), .seconds(27)])
        #expect(retryTimes == [1, 3, 9, 27])
    }

    @Test func delaysAreCappedAtTheMaximum() {
        let source = ScriptedSource()
        let timer = TestScheduler()
        let viewModel = makeRetryingViewModel(source, exactPolicy(multiplier: 10, maxDelay: .seconds(25)), timer: timer)
        let diagnostics = Recorder(viewModel.diagnostics)
        viewModel.loadNextPage()
        for _ in 0 ..< 4 {
            source.lastRun.fail(TestError(1))
            timer.run()
        }
        #expect(scheduledDelays(diagnostics) == [.seconds(1), .seconds(10), .seconds(25), .seconds(25)])
    }

    @Test func jitterKeepsEachDelayWithinItsFractionOfTheBase() {
        let source = ScriptedSource()
        let timer = TestScheduler()
        let policy = RetryPolicy(maxRetries: 200, initialDelay: .seconds(10), multiplier: 1, maxDelay: .seconds(60), jitter: 0.25)
        let viewModel = TestViewModel(dependency: source, scheduler: ImmediateScheduler(),
                                      retry: AutomaticRetry(policy, on: timer, using: SplitMix64(seed: 7)))
        let diagnostics = Recorder(viewModel.diagnostics)
        viewModel.loadNextPage()
        for _ in 0 ..< 200 {
            source.lastRun.fail(TestError(1))
            timer.run()
        }
        let delays = scheduledDelays(diagnostics)
        #expect(delays.count == 200)
        #expect(delays.allSatisfy { $0 >= .milliseconds(7_500) && $0 <= .milliseconds(12_500) })
        #expect(Set(delays).count > 100)                              // spread, not constant
        #expect(delays.contains { $0 < .seconds(9) } && delays.contains { $0 > .seconds(11) })
    }

    @Test func jitterNeverTakesADelayPastTheMaximum() {
        let policy = RetryPolicy(maxRetries: 3, initialDelay: .seconds(8), multiplier: 2, maxDelay: .seconds(10), jitter: 0.5)
        #expect(policy.delay(beforeRetry: 1, draw: 1) == .seconds(10))    // 8 × 1.5, capped
        #expect(policy.delay(beforeRetry: 1, draw: 0) == .seconds(4))     // 8 × 0.5
        #expect(policy.delay(beforeRetry: 1, draw: 0.5) == .seconds(8))
        #expect(policy.delay(beforeRetry: 3, draw: 0) == .seconds(5))     // base capped at 10, × 0.5
    }

    @Test func theSameSeedGivesTheSameDelays() {
        func delays(seed: UInt64) -> [Duration] {
            let source = ScriptedSource()
            let timer = TestScheduler()
            let viewModel = TestViewModel(dependency: source, scheduler: ImmediateScheduler(),
                                          retry: AutomaticRetry(RetryPolicy(maxRetries: 5), on: timer, using: SplitMix64(seed: seed)))
            let diagnostics = Recorder(viewModel.diagnostics)
            viewModel.loadNextPage()
            for _ in 0 ..< 5 {
                source.lastRun.fail(TestError(1))
                timer.run()
            }
            return scheduledDelays(diagnostics)
        }
        #expect(delays(seed: 42) == delays(seed: 42))
        #expect(delays(seed: 42) != delays(seed: 43))
    }

    @Test func retriesStopAfterTheMaximumAndAreReported() {
        let source = ScriptedSource()
        let timer = TestScheduler()
        let viewModel = makeRetryingViewModel(source, exactPolicy(maxRetries: 2), timer: timer)
        let diagnostics = Recorder(viewModel.diagnostics)
        viewModel.loadNextPage()
        for _ in 0 ..< 3 {
            source.lastRun.fail(TestError(1))
            timer.run()
        }
        #expect(source.runs.count == 3)                               // the load and 2 retries
        #expect(timer.pendingCount == 0)
        #expect(diagnostics.values == [
            .retryScheduled(retry: 1, delay: .seconds(1)),
            .retryScheduled(retry: 2, delay: .seconds(2)),
            .retriesExhausted(failures: 3),
        ])
        #expect(viewModel.lastError.value == TestError(1))
    }

    @Test func zeroMaxRetriesNeverSchedulesARetry() {
        let source = ScriptedSource()
        let timer = TestScheduler()
        let viewModel = makeRetryingViewModel(source, exactPolicy(maxRetries: 0), timer: timer)
        let diagnostics = Recorder(viewModel.diagnostics)
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        #expect(timer.pendingCount == 0)
        #expect(diagnostics.values == [.retriesExhausted(failures: 1)])
    }

    @Test func aManualLoadRetriesAtOnceAndCancelsTheWaitingRetry() {
        let source = ScriptedSource()
        let timer = TestScheduler()
        let viewModel = makeRetryingViewModel(source, exactPolicy(initial: .seconds(5)), timer: timer)
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        timer.advance(by: .seconds(1))
        viewModel.loadNextPage()
        #expect(source.runs.count == 2)
        #expect(timer.pendingCount == 0)
        timer.run()
        #expect(source.runs.count == 2)
        #expect(source.activeRuns == 1)
    }

    @Test func aFailedManualRetryCountsTowardsTheBackoff() {
        let source = ScriptedSource()
        let timer = TestScheduler()
        let viewModel = makeRetryingViewModel(source, exactPolicy(), timer: timer)
        let diagnostics = Recorder(viewModel.diagnostics)
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(2))
        #expect(scheduledDelays(diagnostics) == [.seconds(1), .seconds(2)])
    }

    @Test func resetCancelsTheWaitingRetry() {
        let source = ScriptedSource()
        let timer = TestScheduler()
        let viewModel = makeRetryingViewModel(source, exactPolicy(), timer: timer)
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        viewModel.reset()
        #expect(timer.pendingCount == 0)
        timer.run()
        #expect(source.runs.count == 1)
        #expect(viewModel.loadStates.value == .idle)
    }

    @Test func aRetryThatFiresAfterItWasCancelledIsIgnored() {
        let source = ScriptedSource()
        let timer = UncancellableScheduler()
        let viewModel = TestViewModel(dependency: source, scheduler: ImmediateScheduler(),
                                      retry: AutomaticRetry(exactPolicy(), on: timer))
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        viewModel.loadNextPage()                                      // manual retry: the timer cannot be cancelled
        timer.base.run()
        #expect(source.runs.count == 2)
        viewModel.reset()
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(2))
        viewModel.reset()
        timer.base.run()
        #expect(source.runs.count == 3)
        #expect(viewModel.loadStates.value == .idle)
    }

    @Test func releasingTheViewModelCancelsTheWaitingRetry() {
        let source = ScriptedSource()
        let timer = TestScheduler()
        weak var released: TestViewModel?
        do {
            let viewModel = makeRetryingViewModel(source, exactPolicy(), timer: timer)
            released = viewModel
            viewModel.loadNextPage()
            source.lastRun.fail(TestError(1))
            #expect(timer.pendingCount == 1)
        }
        #expect(released == nil)
        #expect(timer.pendingCount == 0)
        timer.run()
        #expect(source.runs.count == 1)
    }

    @Test func aPageThatLandsResetsTheRetryCount() {
        let source = ScriptedSource()
        let timer = TestScheduler()
        let viewModel = makeRetryingViewModel(source, exactPolicy(), timer: timer)
        let diagnostics = Recorder(viewModel.diagnostics)
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        timer.run()
        source.lastRun.fail(TestError(1))
        timer.run()
        source.lastRun.deliver([1, 2], next: source.producer())      // the second retry lands
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        #expect(diagnostics.values.last == .retryScheduled(retry: 1, delay: .seconds(1)))
    }

    @Test func theRetryRunsAsACommandOnTheViewModelsScheduler() {
        let source = ScriptedSource()
        let timer = TestScheduler()
        let main = TestScheduler()
        let viewModel = TestViewModel(dependency: source, scheduler: main, retry: AutomaticRetry(exactPolicy(), on: timer))
        viewModel.loadNextPage()
        main.advance()
        source.lastRun.fail(TestError(1))
        main.advance()
        timer.run()
        #expect(source.runs.count == 1)                               // due, but not yet run
        main.advance()
        #expect(source.runs.count == 2)
    }

    @Test func aPrefetchRequestDuringTheWaitLeavesTheRetryToThePolicy() {
        let source = ScriptedSource()
        let timer = TestScheduler()
        let viewModel = makeRetryingViewModel(source, exactPolicy(), timer: timer)
        loadFirstPage(viewModel, source, count: 10)
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        viewModel.loadPagesIfNeeded(visibleIndex: 9)
        #expect(source.runs.count == 2)
        #expect(timer.pendingCount == 1)
        timer.run()                                                   // the policy retries
        source.lastRun.deliver([10, 11], next: source.producer())     // and the parked row loads on
        #expect(source.runs.count == 4)
    }

    @Test func withoutAPolicyAFailureWaitsForLoadNextPage() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        let diagnostics = Recorder(viewModel.diagnostics)
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        #expect(source.runs.count == 1)
        #expect(diagnostics.values.isEmpty)
    }
}

// MARK: - Debounce

@Suite("Loading policy: debounced triggers")
struct DebouncedTriggerTests {
    @Test func aBurstOfTriggersLoadsOnePageOnceItIsQuiet() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        let timer = TestScheduler()
        let (triggers, input) = Signal<Void, Never>.pipe()
        let observation = viewModel.loadNextPage(whenever: triggers, debounce: .milliseconds(300), on: timer)
        for _ in 0 ..< 5 {
            input.send(value: ())
            timer.advance(by: .milliseconds(100))
        }
        #expect(source.runs.isEmpty)
        timer.advance(by: .milliseconds(200))
        #expect(source.runs.count == 1)
        observation.dispose()
    }

    @Test func eachQuietBurstLoadsAPage() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        let timer = TestScheduler()
        let (triggers, input) = Signal<Void, Never>.pipe()
        let observation = viewModel.loadNextPage(whenever: triggers, debounce: .milliseconds(300), on: timer)
        input.send(value: ())
        timer.advance(by: .seconds(1))
        source.lastRun.deliver([1], next: source.producer())
        input.send(value: ())
        input.send(value: ())
        timer.advance(by: .seconds(1))
        #expect(source.runs.count == 2)
        observation.dispose()
    }

    @Test func disposingTheObservationDropsTheWaitingTrigger() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        let timer = TestScheduler()
        let (triggers, input) = Signal<Void, Never>.pipe()
        let observation = viewModel.loadNextPage(whenever: triggers, debounce: .milliseconds(300), on: timer)
        input.send(value: ())
        observation.dispose()
        #expect(timer.pendingCount == 0)
        input.send(value: ())
        timer.run()
        #expect(source.runs.isEmpty)
    }

    @Test func aCompletedTriggerSignalActsOnTheWaitingTrigger() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        let timer = TestScheduler()
        let (triggers, input) = Signal<Void, Never>.pipe()
        viewModel.loadNextPage(whenever: triggers, debounce: .milliseconds(300), on: timer)
        input.send(value: ())
        input.sendCompleted()
        #expect(source.runs.count == 1)
    }

    @Test func theObservationDoesNotKeepTheViewModelAlive() {
        let source = ScriptedSource()
        let timer = TestScheduler()
        let (triggers, input) = Signal<Void, Never>.pipe()
        weak var released: TestViewModel?
        do {
            let viewModel = makeViewModel(source)
            released = viewModel
            viewModel.loadNextPage(whenever: triggers, debounce: .milliseconds(300), on: timer)
        }
        #expect(released == nil)
        input.send(value: ())
        timer.run()
        #expect(source.runs.isEmpty)
    }

    @Test func theLastRowOfABurstDecidesWhetherToPrefetch() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        loadFirstPage(viewModel, source, count: 10)
        let timer = TestScheduler()
        let (rows, input) = Signal<Int, Never>.pipe()
        let observation = viewModel.loadPagesIfNeeded(visibleIndices: rows, prefetchDistance: 2,
                                                         debounce: .milliseconds(100), on: timer)
        for row in [5, 9, 3] { input.send(value: row) }              // scrolled down, then back up
        timer.run()
        #expect(source.runs.count == 1)
        for row in [4, 6, 8] { input.send(value: row) }
        timer.run()
        #expect(source.runs.count == 2)
        observation.dispose()
    }
}
