import Foundation
import PaginatedList
import PaginatedListTesting
import Signals
import Testing

/// A view model over `source`'s query "a", with its first page loading, and a trigger to refresh it by.
private func triggered(
    _ source: QuerySource, every staleAfter: Duration = .seconds(60), policy: RefreshPolicy = .replace,
    clock: TestScheduler
) -> (viewModel: PaginatedListViewModel<Hit, TestError>, trigger: Signal<Void, Never>.Observer, stop: any Disposable) {
    let viewModel = PaginatedListViewModel<Hit, TestError>(scheduler: ImmediateScheduler()) { source.firstPage("a") }
    let (trigger, input) = Signal<Void, Never>.pipe()
    let stop = viewModel.refresh(whenever: trigger, ifOlderThan: staleAfter, policy: policy, on: clock)
    viewModel.loadNextPage()
    return (viewModel, input, stop)
}

@Suite("Refresh on a trigger: refresh(whenever:ifOlderThan:policy:on:)")
struct RefreshTriggerTests {
    @Test func aTriggerRefreshesWhenTheFirstPageIsOlderThanTheInterval() {
        let source = QuerySource()
        let clock = TestScheduler()
        let (viewModel, trigger, _) = triggered(source, clock: clock)
        source.lastRun.deliver()
        clock.advance(by: .seconds(60))
        trigger.send(value: ())
        #expect(viewModel.loadStates.value.refresh == .loading)
        #expect(source.runs.count == 2)
    }

    @Test func itemsInsertedBeforeTheFirstPageLandedDoNotHideItsLanding() {
        let source = QuerySource()
        let clock = TestScheduler()
        let (viewModel, trigger, _) = triggered(source, clock: clock)
        viewModel.insert([Hit(query: "draft", n: 0)], at: 0)   // an optimistic post while the first page loads
        source.lastRun.deliver()
        clock.advance(by: .seconds(60))
        trigger.send(value: ())
        #expect(viewModel.loadStates.value.refresh == .loading)
        #expect(source.runs.count == 2)
    }

    @Test func aTriggerBeforeTheIntervalDoesNothing() {
        let source = QuerySource()
        let clock = TestScheduler()
        let (viewModel, trigger, _) = triggered(source, clock: clock)
        source.lastRun.deliver()
        clock.advance(by: .seconds(59))
        trigger.send(value: ())
        #expect(viewModel.loadStates.value.refresh == .idle)
        #expect(source.runs.count == 1)
    }

    @Test func triggersWhileARefreshLoadsStartNoSecondRefresh() {
        let source = QuerySource()
        let clock = TestScheduler()
        let (viewModel, trigger, _) = triggered(source, clock: clock)
        source.lastRun.deliver()
        clock.advance(by: .seconds(90))
        trigger.send(value: ())
        let refreshRun = source.lastRun
        trigger.send(value: ())
        trigger.send(value: ())
        #expect(source.runs.count == 2)
        #expect(refreshRun.isActive)
        withExtendedLifetime(viewModel) {}
    }

    @Test func aTriggeredRefreshKeepsTheListUntilTheNewFirstPageLands() {
        let source = QuerySource()
        let clock = TestScheduler()
        let (viewModel, trigger, _) = triggered(source, clock: clock)
        source.lastRun.deliver(3)
        let snapshots = Recorder(viewModel.items.signal.map { $0.count })
        clock.advance(by: .seconds(60))
        trigger.send(value: ())
        #expect(viewModel.items.value.count == 3)
        source.lastRun.deliver(2)
        #expect(snapshots.values == [2])
    }

    @Test func aListWithoutAFirstPageIsNotRefreshed() {
        let source = QuerySource()
        let clock = TestScheduler()
        let (viewModel, trigger, _) = triggered(source, clock: clock)
        clock.advance(by: .seconds(120))
        trigger.send(value: ())
        #expect(viewModel.loadStates.value.refresh == .idle)
        #expect(source.runs.count == 1)
    }

    @Test func theAgeCountsFromTheLastRefreshThatLanded() {
        let source = QuerySource()
        let clock = TestScheduler()
        let (viewModel, trigger, _) = triggered(source, clock: clock)
        source.lastRun.deliver()
        clock.advance(by: .seconds(60))
        trigger.send(value: ())
        clock.advance(by: .seconds(10))
        source.lastRun.deliver()
        clock.advance(by: .seconds(55))
        trigger.send(value: ())
        #expect(viewModel.loadStates.value.refresh == .idle)
        #expect(source.runs.count == 2)
    }

    @Test func fillingAGapBelowTheTopDoesNotMakeTheListYounger() {
        let clock = TestScheduler()
        let feed = ScriptedFeed(ids: Array(1 ... 6), size: 2)
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { feed.page(at: 0) }
        let (trigger, input) = Signal<Void, Never>.pipe()
        viewModel.refresh(whenever: trigger, ifOlderThan: .seconds(60), policy: .replace, on: clock)
        for _ in 0 ..< 3 { viewModel.loadNextPage() }
        // A refresh at 0 s loads the top and leaves a gap above the items held.
        feed.edit { $0.insert(contentsOf: (100 ..< 106).map { FeedPost(id: $0) }, at: 0) }
        viewModel.refresh(.mergeOnTop(maxPages: 2, onGap: .keepGap))
        #expect(viewModel.gap.value != nil)
        clock.advance(by: .seconds(50))
        viewModel.fillGap()
        #expect(viewModel.gap.value == nil)
        feed.edit { $0.insert(FeedPost(id: 200), at: 0) }
        clock.advance(by: .seconds(10))
        input.send(value: ())
        #expect(viewModel.items.value.first?.id == 200, "the top is 60 s old: the trigger refreshed it")
    }

    @Test func aListThatHeldItemsWhenTheTriggerWasAttachedCountsAsLoadedThen() {
        let source = QuerySource()
        let clock = TestScheduler()
        let viewModel = PaginatedListViewModel<Hit, TestError>(scheduler: ImmediateScheduler()) { source.firstPage("a") }
        viewModel.loadNextPage()
        source.lastRun.deliver()
        clock.advance(by: .seconds(100))
        let (trigger, input) = Signal<Void, Never>.pipe()
        viewModel.refresh(whenever: trigger, ifOlderThan: .seconds(60), policy: .replace, on: clock)
        input.send(value: ())
        #expect(source.runs.count == 1)
        clock.advance(by: .seconds(60))
        input.send(value: ())
        #expect(source.runs.count == 2)
    }

    @Test func forItemsThatAreNotIdentifiableMergeOnTopActsAsReplace() {
        let clock = TestScheduler()
        let viewModel = TestViewModel(scheduler: ImmediateScheduler()) { synchronousChain(pages: 2, size: 3) }
        let (trigger, input) = Signal<Void, Never>.pipe()
        viewModel.refresh(
            whenever: trigger, ifOlderThan: .zero, policy: .mergeOnTop(maxPages: 3, onGap: .keepGap), on: clock
        )
        viewModel.loadNextPage()
        viewModel.loadNextPage()
        let changes = Recorder(viewModel.changes)
        input.send(value: ())
        #expect(changes.values == [.reset])
        #expect(Array(viewModel.items.value) == [0, 1, 2])
    }

    @Test func disposingTheReturnedDisposableStopsTheTriggers() {
        let source = QuerySource()
        let clock = TestScheduler()
        let (viewModel, trigger, stop) = triggered(source, clock: clock)
        source.lastRun.deliver()
        clock.advance(by: .seconds(60))
        stop.dispose()
        trigger.send(value: ())
        #expect(source.runs.count == 1)
        withExtendedLifetime(viewModel) {}
    }

    @Test func theFirstTriggerAfterTheViewModelIsReleasedEndsTheObservation() {
        let clock = TestScheduler()
        let (trigger, input) = Signal<Void, Never>.pipe()
        var viewModel: PaginatedListViewModel<Hit, TestError>? = PaginatedListViewModel(scheduler: ImmediateScheduler()) {
            QuerySource().firstPage("a")
        }
        let observation = viewModel!.refresh(whenever: trigger, ifOlderThan: .seconds(60), policy: .replace, on: clock)
        viewModel = nil
        #expect(!observation.isDisposed, "the trigger has sent nothing since")
        input.send(value: ())
        #expect(observation.isDisposed)
    }

    @Test func theTriggerDoesNotKeepTheViewModelAlive() {
        let source = QuerySource()
        let leaks = LeakChecker()
        let (trigger, input) = Signal<Void, Never>.pipe()
        do {
            let viewModel = PaginatedListViewModel<Hit, TestError>(scheduler: ImmediateScheduler()) { source.firstPage("a") }
            viewModel.refresh(whenever: trigger, ifOlderThan: .zero, policy: .replace, on: TestScheduler())
            leaks.watch(viewModel)
        }
        input.send(value: ())
        #expect(leaks.alive.isEmpty)
    }

    @Test func reconnectionsSendEachTimeTheConnectivityTurnsTrueAgain() {
        let connectivity = MutableProperty(true)
        let reconnections = Recorder(RefreshTriggers.reconnections(of: Property(connectivity)).map { "back" })
        connectivity.value = true
        connectivity.value = false
        connectivity.value = false
        connectivity.value = true
        connectivity.value = true
        connectivity.value = false
        connectivity.value = true
        #expect(reconnections.values == ["back", "back"])
    }

    @Test func theNetworkComingBackRefreshesAStaleList() {
        let source = QuerySource()
        let clock = TestScheduler()
        let connectivity = MutableProperty(true)
        let viewModel = PaginatedListViewModel<Hit, TestError>(scheduler: ImmediateScheduler()) { source.firstPage("a") }
        viewModel.refresh(
            whenever: RefreshTriggers.reconnections(of: Property(connectivity)), ifOlderThan: .seconds(30), policy: .replace,
            on: clock
        )
        viewModel.loadNextPage()
        source.lastRun.deliver()
        connectivity.value = false
        clock.advance(by: .seconds(45))
        connectivity.value = true
        #expect(viewModel.loadStates.value.refresh == .loading)
    }
}
