import Dispatch
import Foundation
import Observation
import PaginatedList
import PaginatedListTesting
import Signals
import Testing

// `ObservablePaginatedList`, observed as SwiftUI observes it: `withObservationTracking` around the
// properties a view reads. Unless a test says otherwise, the view model runs on an `ImmediateScheduler`
// driven from the main actor, over a `ScriptedSource` whose runs the test answers by hand.

typealias TestMirror = ObservablePaginatedList<Int, TestError>

/// The mirror's properties, by name, as a view reads them.
@MainActor private let properties: [(name: String, read: (TestMirror) -> Any)] = [
    ("items", { $0.items }), ("loadStates", { $0.loadStates }), ("gap", { $0.gap as Any }), ("loading", { $0.loading }),
    ("lastError", { $0.lastError as Any }), ("exhausted", { $0.exhausted }),
]

/// The names of the properties whose views `step` invalidates: each property is tracked on its own, as a
/// view that reads only it would be.
@MainActor private func invalidated(in list: TestMirror, by step: () -> Void) -> Set<String> {
    let fired = Locked<Set<String>>([])
    for (name, read) in properties {
        withObservationTracking { _ = read(list) } onChange: { fired.withLock { _ = $0.insert(name) } }
    }
    step()
    return fired.withLock { $0 }
}

/// Whether the caller runs on the main queue, which the main actor runs on (on Linux, after
/// `dispatchMain()`, a worker thread drains it).
private func isOnMainQueue() -> Bool {
    Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) == true
}

private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// Suspends until `condition` holds, checking after each turn of the main actor (and, after the first
/// thousand turns, every millisecond, leaving the cores to the work it waits for); fails the test if it
/// does not hold within a minute. A bound in time, not in turns: under the thread sanitizer on a loaded
/// machine the work on other threads can take longer than any fixed number of quick turns.
@MainActor private func eventually(_ condition: () -> Bool) async {
    let deadline = ContinuousClock.now + .seconds(60)
    var turns = 0
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("the condition never held within a minute")
            return
        }
        turns += 1
        if turns < 1_000 { await Task.yield() } else { try? await Task.sleep(for: .milliseconds(1)) }
    }
}

/// Records, for each change of the mirror's properties, whether it was made on the main queue; tracks
/// again after each change.
@MainActor private func recordUpdateThreads(of list: TestMirror, into updates: Locked<[Bool]>) {
    withObservationTracking { _ = (list.items, list.loadStates, list.loadStates.append.isLoading, list.exhausted) } onChange: {
        updates.withLock { $0.append(isOnMainQueue()) }
        Task { @MainActor in recordUpdateThreads(of: list, into: updates) }
    }
}

extension ScriptedRun {
    /// Sends a page with producers both ways, then completes.
    fileprivate func deliver(_ items: [Int], previous: TestProducer?, next: TestProducer?) {
        input.send(value: Page(items: items, previous: previous, next: next))
        complete()
    }
}

/// Waits for `task`, a call of `refresh()`, to return; if it does not within `eventually`'s minute, records
/// an issue and cancels it (which makes it return), so that a refresh that never ends fails the test
/// instead of hanging it.
@MainActor private func returned(_ task: Task<Void, Never>) async {
    let done = Locked(false)
    let watcher = Task { @MainActor in
        await task.value
        done.withLock { $0 = true }
    }
    await eventually { done.withLock { $0 } }
    task.cancel()
    await watcher.value
}

/// Rows with ids, for the edit and refresh policy tests.
struct MirrorTestRow: Identifiable, Sendable {
    let id: Int
    var title: String
}

@Suite("ObservablePaginatedList: what a transition invalidates") @MainActor
struct ObservablePaginatedListInvalidationTests {
    let source = ScriptedSource()
    let viewModel: TestViewModel
    let list: TestMirror

    init() {
        viewModel = TestViewModel(dependency: source, scheduler: ImmediateScheduler())
        list = TestMirror(viewModel)
    }

    @Test func aNewMirrorShowsTheViewModelsCurrentState() {
        viewModel.loadNextPage()
        source.lastRun.deliver([1, 2, 3], next: nil)
        let late = TestMirror(viewModel)
        #expect(Array(late.items) == [1, 2, 3])
        #expect(late.exhausted)
        #expect(late.loadStates == LoadStates(refresh: .idle, prepend: .complete, append: .complete))
        #expect(!late.loadStates.append.isLoading)
    }

    @Test func startingALoadInvalidatesTheLoadingFlagAndNotTheItems() {
        let names = invalidated(in: list) { viewModel.loadNextPage() }
        #expect(names == ["loadStates", "loading"])
        #expect(list.loadStates.append.isLoading)
        #expect(list.loadStates.append == .loading)
    }

    @Test func aPageLandingInvalidatesTheItemsAndTheLoadingFlag() {
        viewModel.loadNextPage()
        let names = invalidated(in: list) { source.lastRun.deliver([1, 2], next: source.producer()) }
        // The first page also settles `prepend` (nothing before it), hence `loadStates` changes.
        #expect(names == ["items", "loadStates", "loading"])
        #expect(Array(list.items) == [1, 2])
        #expect(!list.loadStates.append.isLoading)
    }

    @Test func theLastPageLandingInvalidatesTheExhaustedFlag() {
        viewModel.loadNextPage()
        source.lastRun.deliver([1], next: source.producer())
        viewModel.loadNextPage()
        let names = invalidated(in: list) { source.lastRun.deliver([2], next: nil) }
        #expect(names == ["items", "loadStates", "loading", "exhausted"])
        #expect(list.exhausted)
    }

    @Test func aFailureInvalidatesTheLoadStatesAndTheErrorAndNotTheItems() {
        viewModel.loadNextPage()
        let names = invalidated(in: list) { source.lastRun.fail(TestError(1)) }
        #expect(names == ["loadStates", "loading", "lastError"])
        #expect(list.loadStates.append.error == TestError(1))
        #expect(list.loadStates.prepend.error == nil && list.loadStates.refresh.error == nil)
    }

    @Test func aRetryClearsTheErrorAsItStarts() {
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        let names = invalidated(in: list) { list.retry() }
        #expect(names == ["loadStates", "loading", "lastError"])
        #expect(list.loadStates.append.error == nil)
        #expect(source.runs.count == 2)
    }

    @Test func aSecondFailureOfTheSamePageShowsTheNewError() {
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(2))
        #expect(list.loadStates.append.error == TestError(2))
    }

    @Test func aResetInvalidatesTheItemsAndTheExhaustedFlag() {
        viewModel.loadNextPage()
        source.lastRun.deliver([1, 2], next: nil)
        let names = invalidated(in: list) { viewModel.reset() }
        #expect(names == ["items", "loadStates", "exhausted"])
        #expect(list.items.isEmpty)
    }

    @Test func commandsThatChangeNothingInvalidateNothing() {
        viewModel.loadNextPage()
        source.lastRun.deliver([1, 2], next: source.producer())
        // A second `loadNextPage()` while loading, and a prefetch far from the end: no transition.
        viewModel.loadNextPage()
        let names = invalidated(in: list) {
            viewModel.loadNextPage()
            list.rowAppeared(0)
        }
        #expect(names.isEmpty)
    }

    @Test func anEditWhileAFailureStandsInvalidatesTheItemsAndNotTheError() {
        let rows = PaginatedListViewModel<MirrorTestRow, TestError>(scheduler: ImmediateScheduler()) {
            Producer(value: Page(items: [MirrorTestRow(id: 1, title: "one")], next: Producer(error: TestError(1))))
        }
        let list = ObservablePaginatedList(rows)
        rows.loadNextPage()
        rows.loadNextPage()
        #expect(list.loadStates.append.error == TestError(1))
        let fired = Locked<Set<String>>([])
        withObservationTracking { _ = list.items } onChange: { fired.withLock { _ = $0.insert("items") } }
        withObservationTracking { _ = list.lastError } onChange: { fired.withLock { _ = $0.insert("lastError") } }
        withObservationTracking { _ = list.loadStates } onChange: { fired.withLock { _ = $0.insert("loadStates") } }
        rows.update(id: 1) { $0.title = "uno" }
        #expect(fired.withLock { $0 } == ["items"])
        #expect(list.items.first?.title == "uno")
    }

    @Test func aTransitionIsShownWholeBeforeTheCallThatCausedItReturns() {
        viewModel.loadNextPage()
        source.lastRun.deliver([1, 2, 3], next: nil)
        // One update: every property already shows the landed last page.
        #expect(Array(list.items) == [1, 2, 3])
        #expect(!list.loadStates.append.isLoading && list.exhausted && list.loadStates.append.error == nil)
        #expect(list.loadStates.append == .complete)
    }

    @Test func rowAppearedLoadsTheNextPageNearTheEnd() {
        viewModel.loadNextPage()
        source.lastRun.deliver(Array(0 ..< 20), next: source.producer())
        list.prefetchDistance = 3
        list.rowAppeared(15)
        #expect(source.runs.count == 1)
        list.rowAppeared(16)
        #expect(source.runs.count == 2)
        #expect(list.loadStates.append.isLoading)
    }

    @Test func rowsPairEachItemWithItsIndexAndAreInvalidatedWithTheItems() {
        viewModel.loadNextPage()
        let fired = Counter()
        withObservationTracking { _ = list.rows } onChange: { fired.increment() }
        source.lastRun.deliver([7, 8, 9], next: nil)
        #expect(fired.count == 1)
        #expect(list.rows.map(\.index) == [0, 1, 2])
        #expect(list.rows.map(\.item) == [7, 8, 9])
        #expect(list.rows[1].item == 8)
    }

    @Test func aRowIsIdentifiedByItsItem() {
        let rows = PaginatedListViewModel<MirrorTestRow, TestError>(scheduler: ImmediateScheduler()) {
            Producer(value: Page(items: [MirrorTestRow(id: 4, title: "four"), MirrorTestRow(id: 2, title: "two")], next: nil))
        }
        let list = ObservablePaginatedList(rows)
        list.loadNextPage()
        #expect(list.rows.map(\.id) == [4, 2])
    }

    @Test func loadNextPageLoadsThePendingPage() {
        list.loadNextPage()
        #expect(source.runs.count == 1)
        #expect(list.loadStates.append.isLoading)
    }
}

@Suite("ObservablePaginatedList: refresh() async") @MainActor
struct ObservablePaginatedListRefreshTests {
    let source = ScriptedSource()
    let viewModel: TestViewModel
    let list: TestMirror

    init() {
        viewModel = TestViewModel(dependency: source, scheduler: ImmediateScheduler())
        list = TestMirror(viewModel)
        viewModel.loadNextPage()
        source.lastRun.deliver([1, 2], next: source.producer())
    }

    /// Starts `list.refresh()` in a task that records what the mirror shows when it returns.
    private func startRefresh() -> (task: Task<Void, Never>, shown: Locked<[Int]?>) {
        let shown = Locked<[Int]?>(nil)
        let task = Task { @MainActor [list] in
            await list.refresh()
            shown.withLock { $0 = Array(list.items) }
        }
        return (task, shown)
    }

    /// Lets the refresh task run until its refresh has started a load.
    private func waitForTheRefreshsLoad() async {
        await eventually { source.runs.count == 2 }
        for _ in 0 ..< 100 { await Task.yield() }
    }

    @Test func refreshReturnsOnceThePageLandedWithTheMirrorShowingIt() async {
        let (task, shown) = startRefresh()
        await waitForTheRefreshsLoad()
        #expect(shown.withLock { $0 } == nil)
        source.lastRun.deliver([7, 8, 9], next: nil)
        await returned(task)
        #expect(shown.withLock { $0 } == [7, 8, 9])
    }

    @Test func refreshReturnsOnceTheRefreshFailedWithTheMirrorShowingTheError() async {
        let (task, shown) = startRefresh()
        await waitForTheRefreshsLoad()
        #expect(shown.withLock { $0 } == nil)
        source.lastRun.fail(TestError(3))
        await returned(task)
        #expect(list.loadStates.refresh.error == TestError(3))
        #expect(shown.withLock { $0 } == [1, 2])
        #expect(!list.loadStates.refresh.isLoading)
    }

    @Test func refreshReturnsWhenAnotherRefreshCutsItOff() async {
        let (task, shown) = startRefresh()
        await waitForTheRefreshsLoad()
        viewModel.refresh()
        await returned(task)
        #expect(shown.withLock { $0 } == [1, 2])
        #expect(source.runs[1].wasCutOff)
        #expect(list.loadStates.refresh.isLoading)
    }

    @Test func theListStaysVisibleWhileTheRefreshLoads() async {
        let (task, _) = startRefresh()
        await waitForTheRefreshsLoad()
        #expect(Array(list.items) == [1, 2])
        #expect(list.loadStates.refresh.isLoading)
        #expect(!list.loadStates.append.isLoading)
        source.lastRun.deliver([3], next: nil)
        await returned(task)
        #expect(!list.loadStates.refresh.isLoading)
    }

    @Test func retryRepeatsAFailedRefresh() async {
        let (task, _) = startRefresh()
        await waitForTheRefreshsLoad()
        source.lastRun.fail(TestError(3))
        await returned(task)
        list.retry()
        #expect(source.runs.count == 3)
        #expect(list.loadStates.refresh.isLoading && list.loadStates.refresh.error == nil)
        source.lastRun.deliver([4], next: nil)
        #expect(Array(list.items) == [4])
    }

    @Test func refreshReturnsWhenTheRefreshIsCutOff() async {
        let (task, shown) = startRefresh()
        await waitForTheRefreshsLoad()
        viewModel.reset()
        await returned(task)
        #expect(shown.withLock { $0 } == [])
        #expect(source.runs[1].wasCutOff)
    }

    @Test func refreshReturnsAtOnceWhenThePageLandsDuringTheRefreshCall() async {
        let viewModel = TestViewModel(scheduler: ImmediateScheduler()) { synchronousChain(pages: 2, size: 3) }
        let list = TestMirror(viewModel)
        await list.refresh()
        #expect(Array(list.items) == [0, 1, 2])
        #expect(!list.loadStates.refresh.isLoading)
    }

    @Test func refreshReturnsWhenItsTaskIsCancelledAndTheRefreshGoesOn() async {
        let (task, _) = startRefresh()
        await waitForTheRefreshsLoad()
        task.cancel()
        await task.value
        #expect(list.loadStates.refresh.isLoading)
        source.lastRun.deliver([5], next: nil)
        #expect(Array(list.items) == [5])
    }

    @Test func refreshReturnsWithAViewModelOnABackgroundScheduler() async {
        let viewModel = TestViewModel(scheduler: QueueScheduler(label: "refresh")) { synchronousChain(pages: 2, size: 3) }
        let list = TestMirror(viewModel)
        await list.refresh()
        #expect(Array(list.items) == [0, 1, 2])
        #expect(!list.loadStates.refresh.isLoading)
    }
}

/// A source of `MirrorTestRow` pages that the test answers by hand: each run is kept until then.
@MainActor final class RowScript {
    private(set) var runs: [Signal<Page<MirrorTestRow, TestError>, TestError>.Observer] = []

    func producer() -> Producer<Page<MirrorTestRow, TestError>, TestError> {
        Producer { observer, _ in self.runs.append(observer) }
    }

    /// Answers the last run with rows of `ids` and a next page, and completes it.
    func deliver(_ ids: [Int], next: Producer<Page<MirrorTestRow, TestError>, TestError>?) {
        let run = runs[runs.count - 1]
        run.send(value: Page(items: ids.map { MirrorTestRow(id: $0, title: "\($0)") }, next: next))
        run.sendCompleted()
    }
}

@Suite("ObservablePaginatedList: refresh policies and gaps") @MainActor
struct ObservablePaginatedListPolicyTests {
    let script = RowScript()
    let viewModel: PaginatedListViewModel<MirrorTestRow, TestError>
    let list: ObservablePaginatedList<MirrorTestRow, TestError>

    /// A list holding rows 5 and 6, whose feed gained rows 1 to 4 above them since.
    init() {
        let script = self.script
        viewModel = PaginatedListViewModel(scheduler: ImmediateScheduler()) { script.producer() }
        list = ObservablePaginatedList(viewModel)
        list.loadNextPage()
        script.deliver([5, 6], next: nil)
    }

    /// A `.mergeOnTop` refresh of one page that brings rows 1 and 2, with more after them: rows 3 and 4
    /// are missing between them and the rows held (`gap == 2`).
    func refreshLeavingAGap() async {
        let task = Task { @MainActor [list] in await list.refresh(.mergeOnTop(maxPages: 1, onGap: .keepGap)) }
        await eventually { script.runs.count == 2 }
        script.deliver([1, 2], next: script.producer())
        await returned(task)
    }

    @Test func aMergingRefreshReturnsAfterItsLastPage() async {
        let done = Locked(false)
        let task = Task { @MainActor [list] in
            await list.refresh(.mergeOnTop(maxPages: 3, onGap: .keepGap))
            done.withLock { $0 = true }
        }
        await eventually { script.runs.count == 2 }
        script.deliver([1, 2], next: script.producer())
        for _ in 0 ..< 100 { await Task.yield() }
        #expect(!done.withLock { $0 })
        #expect(list.loadStates.refresh.isLoading)
        script.deliver([3, 4, 5], next: script.producer())
        await returned(task)
        #expect(list.items.map(\.id) == [1, 2, 3, 4, 5, 6])
        #expect(list.gap == nil && !list.loadStates.refresh.isLoading)
    }

    @Test func aRefreshThatLeavesAGapShowsItAndFillGapClosesIt() async {
        await refreshLeavingAGap()
        #expect(list.items.map(\.id) == [1, 2, 5, 6])
        #expect(list.gap == 2)
        let names = Locked<Set<String>>([])
        withObservationTracking { _ = list.gap } onChange: { names.withLock { _ = $0.insert("gap") } }
        withObservationTracking { _ = list.loading } onChange: { names.withLock { _ = $0.insert("loading") } }
        withObservationTracking { _ = list.items } onChange: { names.withLock { _ = $0.insert("items") } }
        list.fillGap()
        #expect(names.withLock { $0 } == ["loading"])
        script.deliver([3, 4, 5], next: script.producer())
        #expect(list.items.map(\.id) == [1, 2, 3, 4, 5, 6])
        #expect(list.gap == nil)
    }

    @Test func retryRepeatsAFailedGapFill() async {
        await refreshLeavingAGap()
        list.fillGap()
        script.runs[script.runs.count - 1].send(error: TestError(4))
        #expect(list.loadStates.refresh.error == TestError(4))
        #expect(list.gap == 2)
        list.retry()
        #expect(script.runs.count == 4)
        script.deliver([3, 4, 5], next: script.producer())
        #expect(list.items.map(\.id) == [1, 2, 3, 4, 5, 6])
    }

    /// After a gap fill that closed its gap, a refresh the mirror did not start (the view model's own, as a
    /// trigger or a store's revalidation starts) fails: `retry()` runs that refresh's failed step again (it
    /// once repeated the gap fill, which found no gap and did nothing).
    @Test func retryRetriesTheRefreshThatFailedNotTheLastOneTheMirrorStarted() async {
        await refreshLeavingAGap()
        list.fillGap()
        script.deliver([3, 4, 5], next: script.producer())
        #expect(list.gap == nil)
        viewModel.refresh(.mergeOnTop(maxPages: 2, onGap: .keepGap))
        script.runs[script.runs.count - 1].send(error: TestError(6))
        #expect(list.loadStates.refresh.error == TestError(6))
        let runs = script.runs.count
        list.retry()
        #expect(script.runs.count == runs + 1)
        #expect(list.loadStates.refresh.isLoading && list.loadStates.refresh.error == nil)
        script.deliver([0, 1], next: script.producer())
        #expect(list.items.map(\.id) == [0, 1, 2, 3, 4, 5, 6])
        #expect(!list.loadStates.refresh.isLoading)
    }

    /// A gap fill asked for while a refresh loads is refused: when that refresh fails, `retry()` retries the
    /// refresh, from its failed page (it once ran the refused gap fill instead, which left the top stale).
    @Test func retryAfterARefusedGapFillRetriesTheRefreshThatFailed() async {
        await refreshLeavingAGap()
        #expect(list.gap == 2)
        viewModel.refresh(.mergeOnTop(maxPages: 1, onGap: .keepGap))
        let refreshRuns = script.runs.count
        list.fillGap()
        #expect(script.runs.count == refreshRuns)
        script.runs[script.runs.count - 1].send(error: TestError(7))
        list.retry()
        #expect(script.runs.count == refreshRuns + 1)
        script.deliver([0, 1], next: script.producer())
        #expect(list.items.prefix(3).map(\.id) == [0, 1, 2])
    }
}

@Suite("ObservablePaginatedList: both directions") @MainActor
struct ObservablePaginatedListDirectionsTests {
    let source = ScriptedSource()
    let viewModel: TestViewModel
    let list: TestMirror

    /// A list opened in the middle of its feed: rows 10 to 19, with pages before and after.
    init() {
        viewModel = TestViewModel(dependency: source, scheduler: ImmediateScheduler())
        list = TestMirror(viewModel)
        list.loadNextPage()
        source.lastRun.deliver(Array(10 ..< 20), previous: source.producer(), next: source.producer())
    }

    @Test func aRowNearTheTopLoadsThePreviousPage() {
        list.prefetchDistance = 2
        let names = invalidated(in: list) { list.rowAppeared(2) }
        #expect(names == ["loadStates", "loading"])
        #expect(source.runs.count == 2)
        source.lastRun.deliver(Array(0 ..< 10), previous: nil, next: nil)
        #expect(Array(list.items) == Array(0 ..< 20))
        #expect(!list.loadStates.prepend.isLoading)
    }

    @Test func aFailedPreviousPageShowsItsErrorAndRetryLoadsItAgain() {
        list.loadPreviousPage()
        source.lastRun.fail(TestError(5))
        #expect(list.loadStates.prepend.error == TestError(5))
        #expect(list.loadStates.append.error == nil)
        list.retry()
        #expect(source.runs.count == 3)
        #expect(list.loadStates.prepend.isLoading && list.loadStates.prepend.error == nil)
    }
}

@Suite("ObservablePaginatedList: threads and ownership") @MainActor
struct ObservablePaginatedListThreadingTests {
    @Test func everyUpdateIsMadeOnTheMainActorWhenTheViewModelRunsElsewhere() async {
        let viewModel = TestViewModel(scheduler: QueueScheduler(label: "pages")) { synchronousChain(pages: 20, size: 5) }
        let list = TestMirror(viewModel)
        let updates = Locked<[Bool]>([])
        recordUpdateThreads(of: list, into: updates)
        // A row far below the end: each page that lands loads the next, on the view model's queue.
        Task.detached { viewModel.loadPagesIfNeeded(visibleIndex: 1_000, prefetchDistance: 0) }
        await eventually { list.exhausted }
        #expect(list.items.count == 100)
        #expect(!updates.withLock { $0 }.isEmpty)
        #expect(updates.withLock { $0 }.allSatisfy { $0 })
    }

    @Test func transitionsFromAnotherThreadAreShownWhole() async {
        let viewModel = TestViewModel(scheduler: QueueScheduler(label: "pages")) { synchronousChain(pages: 50, size: 2) }
        let list = TestMirror(viewModel)
        Task.detached { viewModel.loadPagesIfNeeded(visibleIndex: 1_000, prefetchDistance: 0) }
        var seen = 0
        while !list.exhausted {
            // Whenever the main actor looks, the mirror shows one transition: a list of 100 items is exhausted,
            // a shorter one is not, and no page lands while its load is still shown as in flight.
            #expect(list.exhausted == (list.items.count == 100))
            #expect(!(list.loadStates.append.isLoading && list.items.count == 100))
            seen += 1
            await Task.yield()
            if seen > 1_000_000 { Issue.record("never exhausted"); return }
        }
        #expect(list.items.count == 100)
    }

    @Test func aNewFailureOfTheSamePageIsShownWhenTheRetryWasNeverSeen() async {
        let attempts = Counter()
        let viewModel = TestViewModel(scheduler: QueueScheduler(label: "failures")) {
            Producer { observer, _ in
                attempts.increment()
                observer.send(error: TestError(attempts.count))
            }
        }
        let published = DispatchSemaphore(value: 0)
        viewModel.lastError.signal.observeValues { error in
            if error != nil { published.signal() }
        }
        let list = TestMirror(viewModel)
        viewModel.loadNextPage()
        await eventually { list.loadStates.append.error == TestError(1) }
        // The retry starts and fails on the view model's queue while the main actor is kept busy: the
        // mirror sees `.failed` before and after, never the `.loading` in between.
        viewModel.loadNextPage()
        published.wait()
        published.wait()
        let fired = Counter()
        withObservationTracking { _ = list.loadStates.append.error } onChange: { fired.increment() }
        await eventually { list.loadStates.append.error == TestError(2) }
        #expect(fired.count == 1)
    }

    @Test func releasingTheMirrorFreesItAndTheViewModelKeepsWorking() {
        let leaks = LeakChecker()
        let source = ScriptedSource()
        let viewModel = TestViewModel(dependency: source, scheduler: ImmediateScheduler())
        do {
            let list = TestMirror(viewModel)
            leaks.watch(list)
            list.loadNextPage()
        }
        #expect(leaks.alive.isEmpty)
        source.lastRun.deliver([1], next: nil)
        #expect(Array(viewModel.items.value) == [1])
    }

    @Test func releasingTheMirrorAndItsViewModelFreesBoth() {
        let leaks = LeakChecker()
        let source = ScriptedSource()
        do {
            let viewModel = TestViewModel(dependency: source, scheduler: ImmediateScheduler())
            let list = TestMirror(viewModel)
            leaks.watch(list)
            leaks.watch(viewModel)
            list.loadNextPage()
            source.lastRun.deliver([1], next: source.producer())
            list.loadNextPage()
        }
        #expect(leaks.alive.isEmpty)
        #expect(source.lastRun.wasCutOff)
    }
}

