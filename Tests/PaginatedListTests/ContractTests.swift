import Dispatch
@testable import PaginatedList
import PaginatedListTesting
import Signals
import Testing

// One suite per point of the view model's contract (Docs/PaginatedListViewModel.md, "The contract").
// Unless a test says otherwise, the view model runs on an `ImmediateScheduler` over a `ScriptedSource`,
// whose runs the test answers by hand.

@Suite("1. A new view model")
struct NewViewModelContract {
    @Test func newViewModelIsEmptyIdleAndHasStartedNoRequest() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        #expect(viewModel.snapshot == Snapshot(items: [], loading: false, lastError: nil, exhausted: false, append: .idle))
        #expect(viewModel.items.value.isEmpty)
        #expect(source.firstPageCalls == 0)
        #expect(source.runs.isEmpty)
    }
}

@Suite("2. loadNextPage starts the pending producer")
struct LoadNextPageContract {
    @Test func firstLoadStartsTheDependencysFirstPage() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        #expect(source.firstPageCalls == 1)
        #expect(source.runs.count == 1)
        #expect(source.activeRuns == 1)
    }

    @Test func loadingIsTrueFromTheStartUntilThePageLands() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        #expect(viewModel.loading.value)
        #expect(viewModel.loadStates.value.append == .loading)
        source.lastRun.deliver([1], next: source.producer())
        #expect(!viewModel.loading.value)
        #expect(viewModel.loadStates.value.append == .idle)
    }

    @Test func loadingIsTrueUntilTheProducerFails() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        #expect(viewModel.loading.value)
        source.lastRun.fail(TestError(1))
        #expect(!viewModel.loading.value)
    }

    @Test func nextLoadStartsTheProducerTheLastPageCarried() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        let next = source.producer()
        let nextID = source.runs.count   // not yet started: the id the next producer got is the second made
        source.lastRun.deliver([1], next: next)
        viewModel.loadNextPage()
        #expect(source.runs.count == 2)
        #expect(source.lastRun.producerID == nextID)
        #expect(source.firstPageCalls == 1)
    }

    @Test func synchronousPageSendsLoadingTrueThenFalse() {
        let viewModel = TestViewModel(scheduler: ImmediateScheduler()) { synchronousChain(pages: 3, size: 2) }
        let loading = Recorder(viewModel.loading.signal)
        viewModel.loadNextPage()
        #expect(loading.values == [true, false])
        #expect(Array(viewModel.items.value) == [0, 1])
    }
}

@Suite("3. A page's arrival is one transition")
struct PageArrivalContract {
    @Test func pageAppendsItsItemsInOrder() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        source.lastRun.deliver([1, 2, 3], next: source.producer())
        viewModel.loadNextPage()
        source.lastRun.deliver([4, 5], next: source.producer())
        #expect(Array(viewModel.items.value) == [1, 2, 3, 4, 5])
    }

    @Test func lastPageSetsExhausted() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        source.lastRun.deliver([1, 2], next: nil)
        #expect(viewModel.snapshot == Snapshot(items: [1, 2], loading: false, lastError: nil, exhausted: true,
                                               append: .complete))
    }

    @Test func pageWithANextProducerDoesNotSetExhausted() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        source.lastRun.deliver([], next: source.producer())
        #expect(!viewModel.exhausted.value)
    }

    @Test func itemsObserverSeesLoadingAlreadyFalseWhenPageLands() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        let seen = Recorder<Snapshot>()
        viewModel.items.signal.observeValues { [weak viewModel] _ in
            if let viewModel { seen.append(viewModel.snapshot) }
        }
        viewModel.loadNextPage()
        source.lastRun.deliver([7], next: source.producer())
        #expect(seen.values == [Snapshot(items: [7], loading: false, lastError: nil, exhausted: false, append: .idle)])
    }

    @Test func everyObserverSeesTheWholeTransitionWhenTheLastPageLands() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        let seen = Recorder<Snapshot>()
        let record: @Sendable () -> Void = { [weak viewModel] in if let viewModel { seen.append(viewModel.snapshot) } }
        viewModel.items.signal.observeValues { _ in record() }
        viewModel.loading.signal.observeValues { _ in record() }
        viewModel.exhausted.signal.observeValues { _ in record() }
        viewModel.lastError.signal.observeValues { _ in record() }
        viewModel.loadStates.signal.observeValues { _ in record() }
        viewModel.changes.observeValues { _ in record() }
        source.lastRun.deliver([1, 2], next: nil)
        let final = Snapshot(items: [1, 2], loading: false, lastError: nil, exhausted: true, append: .complete)
        // items, loading, exhausted, loadStates, changes (lastError did not change).
        #expect(seen.values == Array(repeating: final, count: 5))
    }

    @Test func everyObserverSeesTheWholeTransitionWhenALoadFails() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        source.lastRun.deliver([1], next: source.producer())
        viewModel.loadNextPage()
        let seen = Recorder<Snapshot>()
        let record: @Sendable () -> Void = { [weak viewModel] in if let viewModel { seen.append(viewModel.snapshot) } }
        viewModel.loading.signal.observeValues { _ in record() }
        viewModel.lastError.signal.observeValues { _ in record() }
        viewModel.loadStates.signal.observeValues { _ in record() }
        source.lastRun.fail(TestError(4))
        let final = Snapshot(items: [1], loading: false, lastError: TestError(4), exhausted: false,
                             append: .failed(TestError(4)))
        #expect(seen.values == Array(repeating: final, count: 3))
    }

    @Test func propertiesAgreeAfterEveryTransition() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        var snapshots = [viewModel.snapshot]
        viewModel.loadNextPage(); snapshots.append(viewModel.snapshot)
        source.lastRun.fail(TestError(1)); snapshots.append(viewModel.snapshot)
        viewModel.loadNextPage(); snapshots.append(viewModel.snapshot)
        source.lastRun.deliver([1], next: nil); snapshots.append(viewModel.snapshot)
        viewModel.reset(); snapshots.append(viewModel.snapshot)
        #expect(snapshots.allSatisfy { $0.isConsistent })
    }
}

@Suite("4. Never two requests in flight")
struct SingleRequestContract {
    @Test func loadNextPageWhileLoadingStartsNoSecondRequest() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        viewModel.loadNextPage()
        viewModel.loadNextPage()
        #expect(source.runs.count == 1)
        #expect(source.firstPageCalls == 1)
        #expect(!source.lastRun.hasEnded)
    }

    @Test func loadNextPageWhileLoadingChangesNothing() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        let before = viewModel.snapshot
        let loading = Recorder(viewModel.loading.signal)
        let states = Recorder(viewModel.loadStates.signal)
        viewModel.loadNextPage()
        #expect(viewModel.snapshot == before)
        #expect(loading.count == 0)
        #expect(states.count == 0)
    }

    @Test func loadNextPageWhenExhaustedStartsNoRequest() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        source.lastRun.deliver([1], next: nil)
        let states = Recorder(viewModel.loadStates.signal)
        viewModel.loadNextPage()
        #expect(source.runs.count == 1)
        #expect(viewModel.snapshot == Snapshot(items: [1], loading: false, lastError: nil, exhausted: true, append: .complete))
        #expect(states.count == 0)
    }
}

@Suite("5. Failure and retry")
struct FailureContract {
    @Test func failureSetsLastErrorAndEndsLoading() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(3))
        #expect(viewModel.snapshot == Snapshot(items: [], loading: false, lastError: TestError(3), exhausted: false,
                                               append: .failed(TestError(3))))
    }

    @Test func failureKeepsTheFailedProducerAndRetryStartsItAgain() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        source.lastRun.deliver([1], next: source.producer())
        viewModel.loadNextPage()
        let failed = source.lastRun
        failed.fail(TestError(1))
        viewModel.loadNextPage()
        #expect(source.runs.count == 3)
        #expect(source.lastRun !== failed)
        #expect(source.lastRun.producerID == failed.producerID)
        #expect(source.firstPageCalls == 1)
    }

    @Test func failedFirstPageIsRetriedWithoutAskingTheDependencyAgain() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        let failed = source.lastRun
        failed.fail(TestError(1))
        viewModel.loadNextPage()
        #expect(source.firstPageCalls == 1)
        #expect(source.lastRun.producerID == failed.producerID)
    }

    @Test func retryClearsLastErrorWhenItStarts() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        let lastError = Recorder(viewModel.lastError.signal)
        viewModel.loadNextPage()
        #expect(viewModel.snapshot == Snapshot(items: [], loading: true, lastError: nil, exhausted: false, append: .loading))
        #expect(lastError.values == [nil])
    }

    @Test func failureKeepsTheItemsAlreadyLoaded() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        source.lastRun.deliver([1, 2], next: source.producer())
        let items = Recorder(viewModel.items.signal)
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        #expect(Array(viewModel.items.value) == [1, 2])
        #expect(items.count == 0)
    }

    @Test func successfulRetryAppendsAfterTheEarlierPages() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        source.lastRun.deliver([1, 2], next: source.producer())
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        viewModel.loadNextPage()
        source.lastRun.deliver([3], next: nil)
        #expect(viewModel.snapshot == Snapshot(items: [1, 2, 3], loading: false, lastError: nil, exhausted: true,
                                               append: .complete))
    }

    @Test func secondFailureReplacesLastError() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(2))
        #expect(viewModel.lastError.value == TestError(2))
        #expect(viewModel.loadStates.value.append == .failed(TestError(2)))
    }
}

@Suite("6. reset")
struct ResetContract {
    @Test func resetInterruptsTheLoadInFlight() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        let run = source.lastRun
        viewModel.reset()
        #expect(run.wasCutOff)
        #expect(source.activeRuns == 0)
    }

    @Test func resetWhileLoadingClearsLoading() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        source.lastRun.deliver([1], next: source.producer())
        viewModel.loadNextPage()
        viewModel.reset()
        #expect(viewModel.snapshot == Snapshot(items: [], loading: false, lastError: nil, exhausted: false, append: .idle))
    }

    @Test func resetAfterFailureClearsLastError() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        source.lastRun.deliver([1], next: source.producer())
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        viewModel.reset()
        #expect(viewModel.snapshot == Snapshot(items: [], loading: false, lastError: nil, exhausted: false, append: .idle))
    }

    @Test func resetAfterTheLastPageClearsExhausted() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        source.lastRun.deliver([1], next: nil)
        viewModel.reset()
        #expect(viewModel.snapshot == Snapshot(items: [], loading: false, lastError: nil, exhausted: false, append: .idle))
    }

    @Test func resetStartsNoRequest() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        source.lastRun.deliver([1], next: source.producer())
        viewModel.reset()
        #expect(source.runs.count == 1)
        #expect(source.firstPageCalls == 1)
    }

    @Test func loadAfterResetAsksTheDependencyForAFreshFirstPage() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        let first = source.lastRun
        first.deliver([1], next: source.producer())
        viewModel.reset()
        viewModel.loadNextPage()
        #expect(source.firstPageCalls == 2)
        #expect(source.runs.count == 2)
        #expect(source.lastRun.producerID != first.producerID)
        source.lastRun.deliver([10], next: nil)
        #expect(Array(viewModel.items.value) == [10])
    }

    @Test func loadAfterResetOfAFailedFirstPageAsksTheDependencyAgain() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        viewModel.reset()
        viewModel.loadNextPage()
        #expect(source.firstPageCalls == 2)
    }
}

@Suite("6b. reload")
struct ReloadContract {
    @Test func reloadEmptiesTheListAndLoadsAFreshFirstPage() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        source.lastRun.deliver([1, 2], next: nil)
        let items = Recorder(viewModel.items.signal)
        viewModel.reload()
        #expect(source.firstPageCalls == 2)
        #expect(viewModel.snapshot == Snapshot(items: [], loading: true, lastError: nil, exhausted: false, append: .loading))
        source.lastRun.deliver([3], next: source.producer())
        #expect(items.values.map(Array.init) == [[], [3]])
    }

    @Test func reloadWhileLoadingCutsTheLoadOffAndStartsAFreshOne() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        let cutOff = source.lastRun
        viewModel.reload()
        #expect(cutOff.wasCutOff)
        #expect(source.runs.count == 2)
        #expect(source.activeRuns == 1)
        cutOff.deliver([99], next: nil)
        source.lastRun.deliver([1], next: source.producer())
        #expect(viewModel.snapshot == Snapshot(items: [1], loading: false, lastError: nil, exhausted: false, append: .idle))
    }

    @Test func reloadAfterFailureStartsAFreshFirstPageNotTheFailedOne() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        source.lastRun.deliver([1], next: source.producer())
        viewModel.loadNextPage()
        let failed = source.lastRun
        failed.fail(TestError(1))
        viewModel.reload()
        #expect(source.firstPageCalls == 2)
        #expect(source.lastRun.producerID != failed.producerID)
        #expect(viewModel.lastError.value == nil)
    }
}

@Suite("7. Cut-off loads never land")
struct CutOffContract {
    @Test func pageFromCutOffLoadNeverLandsEvenIfProducerIgnoresInterruption() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        let cutOff = source.lastRun
        viewModel.reset()
        let items = Recorder(viewModel.items.signal)
        cutOff.deliver([1, 2, 3], next: nil)
        #expect(viewModel.snapshot == Snapshot(items: [], loading: false, lastError: nil, exhausted: false, append: .idle))
        #expect(items.count == 0)
    }

    @Test func pageFromCutOffLoadDoesNotLandInTheNextLoad() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        let cutOff = source.lastRun
        viewModel.reset()
        viewModel.loadNextPage()
        cutOff.deliver([99], next: nil)
        #expect(viewModel.loading.value)
        source.lastRun.deliver([1], next: source.producer())
        #expect(Array(viewModel.items.value) == [1])
    }

    @Test func failureFromCutOffLoadIsIgnored() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        let cutOff = source.lastRun
        viewModel.reset()
        cutOff.fail(TestError(1))
        #expect(viewModel.snapshot == Snapshot(items: [], loading: false, lastError: nil, exhausted: false, append: .idle))
    }

    @Test func pageSentBeforeResetRanIsDiscardedAsStale() {
        let scheduler = TestScheduler()
        let source = ScriptedSource()
        let viewModel = makeViewModel(source, scheduler: scheduler)
        let diagnostics = Recorder(viewModel.diagnostics)
        viewModel.loadNextPage()
        scheduler.advance()
        viewModel.reset()                                  // queued first
        source.lastRun.deliver([1, 2], next: nil)          // queued behind the reset: sent before the cut-off
        scheduler.advance()
        #expect(viewModel.snapshot == Snapshot(items: [], loading: false, lastError: nil, exhausted: false, append: .idle))
        #expect(diagnostics.values == [.stalePageDiscarded])
    }

    @Test func pageSentBeforeReloadRanIsDiscardedAndTheFreshLoadLands() {
        let scheduler = TestScheduler()
        let source = ScriptedSource()
        let viewModel = makeViewModel(source, scheduler: scheduler)
        let diagnostics = Recorder(viewModel.diagnostics)
        viewModel.loadNextPage()
        scheduler.advance()
        let cutOff = source.lastRun
        viewModel.reload()
        cutOff.deliver([99], next: nil)
        scheduler.advance()
        #expect(viewModel.loading.value)
        source.lastRun.deliver([1], next: source.producer())
        scheduler.advance()
        #expect(Array(viewModel.items.value) == [1])
        #expect(diagnostics.values == [.stalePageDiscarded])
    }

    @Test func pageFromLoadCutOffByReleaseNeverLands() {
        let scheduler = TestScheduler()
        let source = ScriptedSource()
        var viewModel: TestViewModel? = makeViewModel(source, scheduler: scheduler)
        let items = Recorder<[Int]>()
        viewModel!.items.signal.observeValues { items.append(Array($0)) }
        viewModel!.loadNextPage()
        scheduler.advance()
        source.lastRun.deliver([1], next: nil)   // queued on the scheduler
        viewModel = nil
        scheduler.run()
        #expect(items.count == 0)
    }
}

@Suite("8. Delivery on the scheduler, once per list change")
struct DeliveryContract {
    @Test func propertyChangesAreDeliveredOnTheScheduler() {
        let scheduler = TestScheduler()
        let source = ScriptedSource()
        let viewModel = makeViewModel(source, scheduler: scheduler)
        let loading = Recorder(viewModel.loading.signal)
        viewModel.loadNextPage()
        #expect(source.runs.isEmpty)
        #expect(!viewModel.loading.value)
        #expect(loading.count == 0)
        scheduler.advance()
        #expect(viewModel.loading.value)
        #expect(loading.values == [true])
        source.lastRun.deliver([1], next: nil)
        #expect(viewModel.items.value.isEmpty)
        #expect(viewModel.loading.value)
        scheduler.advance()
        #expect(viewModel.snapshot == Snapshot(items: [1], loading: false, lastError: nil, exhausted: true, append: .complete))
        viewModel.reset()
        #expect(Array(viewModel.items.value) == [1])
        scheduler.advance()
        #expect(viewModel.items.value.isEmpty)
    }

    @Test func observersRunOnTheQueueOfAQueueScheduler() {
        let queue = DispatchQueue(label: "view-model")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 1)
        let viewModel = TestViewModel(scheduler: QueueScheduler(queue: queue)) { synchronousChain(pages: 2, size: 3) }
        let onQueue = Recorder<Bool>()
        viewModel.items.signal.observeValues { _ in onQueue.append(DispatchQueue.getSpecific(key: key) == 1) }
        viewModel.loading.signal.observeValues { _ in onQueue.append(DispatchQueue.getSpecific(key: key) == 1) }
        // One at a time: two commands queued together would be a load while loading (point 4).
        viewModel.loadNextPage()
        queue.sync {}
        viewModel.loadNextPage()
        queue.sync {}
        #expect(Array(viewModel.items.value) == Array(0 ..< 6))
        #expect(onQueue.count == 6)   // items ×2, loading ×4
        #expect(onQueue.values.allSatisfy { $0 })
    }

    @Test func itemsSendsOncePerListChangeNotForStateChanges() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        let items = Recorder(viewModel.items.signal)
        viewModel.loadNextPage()                               // loading: no list change
        source.lastRun.fail(TestError(1))                      // failure: none
        viewModel.loadNextPage()                               // retry: none
        source.lastRun.deliver([1, 2], next: source.producer()) // page: one
        viewModel.loadNextPage()
        source.lastRun.deliver([3], next: nil)                 // last page: one (exhausted rides along)
        viewModel.reset()                                      // reset of a non-empty list: one
        viewModel.reset()                                      // reset of an empty list: none
        #expect(items.values.map(Array.init) == [[1, 2], [1, 2, 3], []])
    }

    @Test func pageWithoutItemsDoesNotSendItems() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        let items = Recorder(viewModel.items.signal)
        let changes = Recorder(viewModel.changes)
        viewModel.loadNextPage()
        source.lastRun.deliver([], next: nil)
        #expect(items.count == 0)
        #expect(changes.count == 0)
        #expect(viewModel.exhausted.value)
    }

    @Test func changesDescribeAppendedRangesAndResets() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        let changes = Recorder(viewModel.changes)
        viewModel.loadNextPage()
        source.lastRun.deliver([1, 2, 3], next: source.producer())
        viewModel.loadNextPage()
        source.lastRun.deliver([4, 5], next: source.producer())
        viewModel.reset()
        viewModel.reset()
        viewModel.loadNextPage()
        source.lastRun.deliver([6], next: nil)
        #expect(changes.values == [.appended(0 ..< 3), .appended(3 ..< 5), .reset, .appended(0 ..< 1)])
    }

    @Test func changesObserverSeesItemsAlreadyChanged() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        let seen = Recorder<[Int]>()
        viewModel.changes.observeValues { [weak viewModel] _ in
            if let viewModel { seen.append(Array(viewModel.items.value)) }
        }
        viewModel.loadNextPage()
        source.lastRun.deliver([1, 2], next: source.producer())
        viewModel.reset()
        #expect(seen.values == [[1, 2], []])
    }

    @Test func loadStatesSendEachTransition() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        let states = Recorder(viewModel.loadStates.signal)
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        viewModel.loadNextPage()
        source.lastRun.deliver([1], next: source.producer())
        viewModel.loadNextPage()
        source.lastRun.deliver([2], next: nil)
        viewModel.reset()
        #expect(states.values.map(\.append) == [.loading, .failed(TestError(1)), .loading, .idle, .loading, .complete, .idle])
    }

    @Test func loadingLastErrorAndExhaustedSendOnlyWhenTheyChange() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        let loading = Recorder(viewModel.loading.signal)
        let lastError = Recorder(viewModel.lastError.signal)
        let exhausted = Recorder(viewModel.exhausted.signal)
        viewModel.loadNextPage()
        source.lastRun.deliver([1], next: source.producer())
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        viewModel.loadNextPage()
        source.lastRun.deliver([2], next: nil)
        viewModel.reset()
        #expect(loading.values == [true, false, true, false, true, false])
        #expect(lastError.values == [TestError(1), nil])
        #expect(exhausted.values == [true, false])
    }
}

@Suite("9. Any thread, any depth")
struct ReentrancyContract {
    @Test func loadNextPageFromInsideItemsObserverLoadsEveryPageOnceInOrder() {
        let pages = 10_000
        let starts = Counter()
        let firstPageCalls = Counter()
        let viewModel = TestViewModel(scheduler: ImmediateScheduler()) {
            firstPageCalls.increment()
            return synchronousChain(pages: pages, size: 1, starts: starts)
        }
        let sends = Counter()
        viewModel.items.signal.observeValues { [weak viewModel] _ in
            sends.increment()
            viewModel?.loadNextPage()
        }
        viewModel.loadNextPage()
        #expect(viewModel.items.value.count == pages)
        #expect(viewModel.items.value.elementsEqual(0 ..< pages))
        #expect(starts.count == pages)
        #expect(firstPageCalls.count == 1)
        #expect(sends.count == pages)
        #expect(viewModel.exhausted.value)
        #expect(!viewModel.loading.value)
    }

    @Test func loadNextPageFromInsideLoadingObserverDoesNotStartASecondRequest() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loading.signal.observeValues { [weak viewModel] _ in viewModel?.loadNextPage() }
        viewModel.loadNextPage()
        #expect(source.runs.count == 1)
        source.lastRun.deliver([1], next: source.producer())   // loading → false: the observer loads the next page
        #expect(source.runs.count == 2)
        #expect(viewModel.loading.value)
    }

    @Test func resetFromInsideItemsObserverRunsAfterThePageHasLanded() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        let seen = Recorder<Snapshot>()
        viewModel.items.signal.observeValues { [weak viewModel] items in
            guard let viewModel else { return }
            seen.append(viewModel.snapshot)
            if !items.isEmpty { viewModel.reset() }
        }
        viewModel.loadNextPage()
        source.lastRun.deliver([1], next: nil)
        #expect(seen.values == [
            Snapshot(items: [1], loading: false, lastError: nil, exhausted: true, append: .complete),
            Snapshot(items: [], loading: false, lastError: nil, exhausted: false, append: .idle),
        ])
    }

    @Test func reloadFromInsideLoadStatesObserverAfterFailureLoadsAFreshFirstPage() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadStates.signal.observeValues { [weak viewModel] states in
            if states.append.error != nil { viewModel?.reload() }
        }
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        #expect(source.firstPageCalls == 2)
        #expect(viewModel.snapshot == Snapshot(items: [], loading: true, lastError: nil, exhausted: false, append: .loading))
    }

    @Test func commandFromAnotherThreadRunsOnTheSchedulersQueue() {
        let queue = DispatchQueue(label: "view-model")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 1)
        let viewModel = TestViewModel(scheduler: QueueScheduler(queue: queue)) { synchronousChain(pages: 5, size: 2) }
        let onQueue = Recorder<Bool>()
        viewModel.items.signal.observeValues { _ in onQueue.append(DispatchQueue.getSpecific(key: key) == 1) }
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { viewModel.loadNextPage() }
        group.wait()
        queue.sync {}
        #expect(Array(viewModel.items.value) == [0, 1])
        #expect(onQueue.values == [true])
    }

    @Test func loadNextPageFromManyThreadsAtOnceStartsOneRequest() {
        let scheduler = TestScheduler()
        let starts = Counter()
        let viewModel = TestViewModel(scheduler: scheduler) { synchronousChain(pages: 100, size: 1, starts: starts) }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in viewModel.loadNextPage() }
        scheduler.run()
        // The eight commands run in turn; the first starts the load, the seven behind it find it loading.
        #expect(starts.count == 1)
        #expect(Array(viewModel.items.value) == [0])
    }

    @Test func commandsFromManyThreadsAreNoneLost() {
        let scheduler = TestScheduler()
        let starts = Counter()
        let viewModel = TestViewModel(scheduler: scheduler) { synchronousChain(pages: 100, size: 1, starts: starts) }
        for _ in 0 ..< 8 {
            DispatchQueue.concurrentPerform(iterations: 8) { _ in viewModel.loadNextPage() }
            scheduler.run()
        }
        // Every round of eight concurrent calls loads exactly one page.
        #expect(starts.count == 8)
        #expect(viewModel.items.value.elementsEqual(0 ..< 8))
    }
}

@Suite("10. Release")
struct ReleaseContract {
    @Test func releasingTheViewModelInterruptsItsLoadAndFreesIt() {
        let source = ScriptedSource()
        var viewModel: TestViewModel? = makeViewModel(source)
        weak let weakViewModel = viewModel
        viewModel!.items.signal.observeValues { [weak viewModel] _ in viewModel?.loadNextPage() }
        viewModel!.loadNextPage()
        let run = source.lastRun
        viewModel = nil
        #expect(weakViewModel == nil)
        #expect(run.wasCutOff)
    }

    @Test func releasingTheViewModelAfterPagesFreesIt() {
        var viewModel: TestViewModel? = TestViewModel(scheduler: ImmediateScheduler()) {
            synchronousChain(pages: 3, size: 2)
        }
        weak let weakViewModel = viewModel
        viewModel!.loadNextPage()
        viewModel!.loadNextPage()
        viewModel = nil
        #expect(weakViewModel == nil)
    }

    @Test func releasingTheViewModelCompletesItsProperties() {
        let source = ScriptedSource()
        var viewModel: TestViewModel? = makeViewModel(source)
        let completed = Counter()
        viewModel!.items.signal.observe { if case .completed = $0 { completed.increment() } }
        viewModel!.loading.signal.observe { if case .completed = $0 { completed.increment() } }
        viewModel!.loadNextPage()
        viewModel = nil
        #expect(completed.count == 2)
    }

    @Test func commandsQueuedBeforeReleaseNeverRun() {
        let scheduler = TestScheduler()
        let source = ScriptedSource()
        var viewModel: TestViewModel? = makeViewModel(source, scheduler: scheduler)
        weak let weakViewModel = viewModel
        viewModel!.loadNextPage()
        viewModel = nil
        #expect(weakViewModel == nil)
        scheduler.run()
        #expect(source.runs.isEmpty)
    }

    @Test func releasingTheViewModelWithANeverEndingProducerInterruptsIt() {
        let ended = RunStatus()
        var viewModel: TestViewModel? = TestViewModel(scheduler: ImmediateScheduler()) {
            Producer { observer, lifetime in
                observer.keepAliveUntilTerminated()
                lifetime.observeEnded { ended.end() }
            }
        }
        weak let weakViewModel = viewModel
        viewModel!.loadNextPage()
        #expect(!ended.hasEnded)
        viewModel = nil
        #expect(weakViewModel == nil)
        #expect(ended.hasEnded)
    }
}

@Suite("11. Misbehaving producers")
struct MisbehavingProducerContract {
    @Test func secondPageAfterTheFirstHasLandedIsDropped() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        let run = source.lastRun
        run.sendPage([1], next: source.producer())
        // The first page landed and the view model disposed the run: the second page goes nowhere.
        run.sendPage([2], next: nil)
        #expect(viewModel.snapshot == Snapshot(items: [1], loading: false, lastError: nil, exhausted: false, append: .idle))
    }

    @Test func secondPageQueuedBeforeTheFirstLandsIsIgnoredAndReported() {
        let scheduler = TestScheduler()
        let source = ScriptedSource()
        let viewModel = makeViewModel(source, scheduler: scheduler)
        let diagnostics = Recorder(viewModel.diagnostics)
        viewModel.loadNextPage()
        scheduler.advance()
        source.lastRun.sendPage([1], next: source.producer())
        source.lastRun.sendPage([2], next: nil)
        scheduler.advance()
        #expect(viewModel.snapshot == Snapshot(items: [1], loading: false, lastError: nil, exhausted: false, append: .idle))
        #expect(diagnostics.values == [.extraPageIgnored])
    }

    @Test func synchronousSecondPageIsIgnoredAndReported() {
        let viewModel = TestViewModel(scheduler: ImmediateScheduler()) {
            Producer(values: [Page(items: [1], next: nil), Page(items: [2], next: nil)])
        }
        let diagnostics = Recorder(viewModel.diagnostics)
        viewModel.loadNextPage()
        #expect(Array(viewModel.items.value) == [1])
        #expect(diagnostics.values == [.extraPageIgnored])
    }

    @Test func completionWithoutPageKeepsTheProducerPendingAndIsReported() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        let diagnostics = Recorder(viewModel.diagnostics)
        viewModel.loadNextPage()
        let empty = source.lastRun
        empty.complete()
        #expect(viewModel.snapshot == Snapshot(items: [], loading: false, lastError: nil, exhausted: false, append: .idle))
        #expect(diagnostics.values == [.completedWithoutPage])
        viewModel.loadNextPage()
        #expect(source.lastRun.producerID == empty.producerID)
        #expect(source.firstPageCalls == 1)
    }

    @Test func selfInterruptionWithoutPageKeepsTheProducerPendingAndIsReported() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        let diagnostics = Recorder(viewModel.diagnostics)
        viewModel.loadNextPage()
        let interrupted = source.lastRun
        interrupted.interruptItself()
        #expect(viewModel.snapshot == Snapshot(items: [], loading: false, lastError: nil, exhausted: false, append: .idle))
        #expect(diagnostics.values == [.interruptedWithoutPage])
        viewModel.loadNextPage()
        #expect(source.lastRun.producerID == interrupted.producerID)
    }

    @Test func failureAfterPageIsIgnoredAndReported() {
        let viewModel = TestViewModel(scheduler: ImmediateScheduler()) {
            Producer { observer, _ in
                observer.send(value: Page(items: [1], next: nil))
                observer.send(error: TestError(1))
            }
        }
        let diagnostics = Recorder(viewModel.diagnostics)
        viewModel.loadNextPage()
        #expect(viewModel.snapshot == Snapshot(items: [1], loading: false, lastError: nil, exhausted: true, append: .complete))
        #expect(diagnostics.values == [.failureAfterPageIgnored])
    }

    @Test func pageAfterCompletionIsDropped() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        let run = source.lastRun
        run.complete()
        run.sendPage([1], next: nil)
        #expect(viewModel.snapshot == Snapshot(items: [], loading: false, lastError: nil, exhausted: false, append: .idle))
    }

    @Test func pageAfterFailureIsDropped() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        let run = source.lastRun
        run.fail(TestError(1))
        run.sendPage([1], next: nil)
        #expect(viewModel.snapshot == Snapshot(items: [], loading: false, lastError: TestError(1), exhausted: false,
                                               append: .failed(TestError(1))))
    }

    @Test func viewModelDisposesTheRunOnceItsPageHasLanded() {
        let source = ScriptedSource()
        let viewModel = makeViewModel(source)
        viewModel.loadNextPage()
        source.lastRun.sendPage([1], next: nil)   // no completion
        #expect(source.lastRun.wasCutOff)
        #expect(Array(viewModel.items.value) == [1])
    }
}

@Suite("12. Appending costs O(page)")
struct AppendCostContract {
    @Test func appendingAPageSharesStorageWithEverySnapshotObserversKept() {
        let pages = 1_000
        let viewModel = TestViewModel(scheduler: ImmediateScheduler()) { synchronousChain(pages: pages, size: 10) }
        let snapshots = Recorder(viewModel.items.signal)
        viewModel.items.signal.observeValues { [weak viewModel] _ in viewModel?.loadNextPage() }
        viewModel.loadNextPage()
        let kept = snapshots.values
        #expect(kept.count == pages)
        // Snapshots share their nodes: each page adds a leaf and copies the right edge of the tree.
        let distinct = Set(kept.flatMap { $0.nodeIdentifiers() })
        #expect(distinct.count <= pages * viewModel.items.value.levels)
        #expect(kept.enumerated().allSatisfy { index, snapshot in
            snapshot.count == (index + 1) * 10 && snapshot[snapshot.count - 1] == snapshot.count - 1
        })
        #expect(kept[0].elementsEqual(0 ..< 10))
    }
}
