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
    ("items", { $0.items }), ("loadStates", { $0.loadStates }), ("isLoadingNextPage", { $0.isLoadingNextPage }),
    ("isLoadingPreviousPage", { $0.isLoadingPreviousPage }), ("isRefreshing", { $0.isRefreshing }),
    ("nextPageError", { $0.nextPageError as Any }), ("previousPageError", { $0.previousPageError as Any }),
    ("refreshError", { $0.refreshError as Any }), ("isExhausted", { $0.isExhausted }), ("gap", { $0.gap as Any }),
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

/// Suspends until `condition` holds, checking after each turn of the main actor; fails the test after
/// `limit` turns.
@MainActor private func eventually(_ limit: Int = 100_000, _ condition: () -> Bool) async {
    for _ in 0 ..< limit {
        if condition() { return }
        await Task.yield()
    }
    Issue.record("the condition never held")
}

/// Records, for each change of the mirror's properties, whether it was made on the main queue; tracks
/// again after each change.
@MainActor private func recordUpdateThreads(of list: TestMirror, into updates: Locked<[Bool]>) {
    withObservationTracking { _ = (list.items, list.loadStates, list.isLoadingNextPage, list.isExhausted) } onChange: {
        updates.withLock { $0.append(isOnMainQueue()) }
        Task { @MainActor in recordUpdateThreads(of: list, into: updates) }
    }
}

/// Rows with ids, for the edit tests.
private struct Row: Identifiable, Sendable {
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
        #expect(late.isExhausted)
        #expect(late.loadStates == LoadStates(refresh: .idle, prepend: .complete, append: .complete))
        #expect(!late.isLoadingNextPage)
    }

    @Test func startingALoadInvalidatesTheLoadingFlagAndNotTheItems() {
        let names = invalidated(in: list) { viewModel.loadNextPage() }
        #expect(names == ["loadStates", "isLoadingNextPage"])
        #expect(list.isLoadingNextPage)
        #expect(list.loadStates.append == .loading)
    }

    @Test func aPageLandingInvalidatesTheItemsAndTheLoadingFlag() {
        viewModel.loadNextPage()
        let names = invalidated(in: list) { source.lastRun.deliver([1, 2], next: source.producer()) }
        // The first page also settles `prepend` (nothing before it), hence `loadStates` changes.
        #expect(names == ["items", "loadStates", "isLoadingNextPage"])
        #expect(Array(list.items) == [1, 2])
        #expect(!list.isLoadingNextPage)
    }

    @Test func theLastPageLandingInvalidatesTheExhaustedFlag() {
        viewModel.loadNextPage()
        source.lastRun.deliver([1], next: source.producer())
        viewModel.loadNextPage()
        let names = invalidated(in: list) { source.lastRun.deliver([2], next: nil) }
        #expect(names == ["items", "loadStates", "isLoadingNextPage", "isExhausted"])
        #expect(list.isExhausted)
    }

    @Test func aFailureInvalidatesTheErrorOfItsDirectionAndNotTheItems() {
        viewModel.loadNextPage()
        let names = invalidated(in: list) { source.lastRun.fail(TestError(1)) }
        #expect(names == ["loadStates", "isLoadingNextPage", "nextPageError"])
        #expect(list.nextPageError == TestError(1))
        #expect(list.previousPageError == nil && list.refreshError == nil)
    }

    @Test func aRetryClearsTheErrorAsItStarts() {
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        let names = invalidated(in: list) { list.retry() }
        #expect(names == ["loadStates", "isLoadingNextPage", "nextPageError"])
        #expect(list.nextPageError == nil)
        #expect(source.runs.count == 2)
    }

    @Test func aSecondFailureOfTheSamePageShowsTheNewError() {
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(1))
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(2))
        #expect(list.nextPageError == TestError(2))
    }

    @Test func aResetInvalidatesTheItemsAndTheExhaustedFlag() {
        viewModel.loadNextPage()
        source.lastRun.deliver([1, 2], next: nil)
        let names = invalidated(in: list) { viewModel.reset() }
        #expect(names == ["items", "loadStates", "isExhausted"])
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
        let rows = PaginatedListViewModel<Row, TestError>(scheduler: ImmediateScheduler()) {
            Producer(value: Page(items: [Row(id: 1, title: "one")], next: Producer(error: TestError(1))))
        }
        let list = ObservablePaginatedList(rows)
        rows.loadNextPage()
        rows.loadNextPage()
        #expect(list.nextPageError == TestError(1))
        let fired = Locked<Set<String>>([])
        withObservationTracking { _ = list.items } onChange: { fired.withLock { _ = $0.insert("items") } }
        withObservationTracking { _ = list.nextPageError } onChange: { fired.withLock { _ = $0.insert("nextPageError") } }
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
        #expect(!list.isLoadingNextPage && list.isExhausted && list.nextPageError == nil)
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
        #expect(list.isLoadingNextPage)
    }

    @Test func loadNextPageLoadsThePendingPage() {
        list.loadNextPage()
        #expect(source.runs.count == 1)
        #expect(list.isLoadingNextPage)
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
        await task.value
        #expect(shown.withLock { $0 } == [7, 8, 9])
    }

    @Test func refreshReturnsOnceTheRefreshFailedWithTheMirrorShowingTheError() async {
        let (task, shown) = startRefresh()
        await waitForTheRefreshsLoad()
        #expect(shown.withLock { $0 } == nil)
        source.lastRun.fail(TestError(3))
        await task.value
        #expect(list.refreshError == TestError(3))
        #expect(list.nextPageError == nil)
    }

    @Test func refreshReturnsWhenTheRefreshIsCutOff() async {
        let (task, shown) = startRefresh()
        await waitForTheRefreshsLoad()
        viewModel.reset()
        await task.value
        #expect(shown.withLock { $0 } == [])
        #expect(source.runs[1].wasCutOff)
    }

    @Test func refreshReturnsAtOnceWhenThePageLandsDuringTheRefreshCall() async {
        let viewModel = TestViewModel(scheduler: ImmediateScheduler()) { synchronousChain(pages: 2, size: 3) }
        let list = TestMirror(viewModel)
        await list.refresh()
        #expect(Array(list.items) == [0, 1, 2])
        #expect(!list.isLoadingNextPage)
    }

    @Test func refreshReturnsWhenItsTaskIsCancelledAndTheRefreshGoesOn() async {
        let (task, _) = startRefresh()
        await waitForTheRefreshsLoad()
        task.cancel()
        await task.value
        #expect(list.isRefreshing)
        source.lastRun.deliver([5], next: nil)
        #expect(Array(list.items) == [5])
    }

    @Test func refreshReturnsWithAViewModelOnABackgroundScheduler() async {
        let viewModel = TestViewModel(scheduler: QueueScheduler(label: "refresh")) { synchronousChain(pages: 2, size: 3) }
        let list = TestMirror(viewModel)
        await list.refresh()
        #expect(Array(list.items) == [0, 1, 2])
        #expect(!list.isLoadingNextPage)
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
        Task.detached { viewModel.loadNextPageIfNeeded(visibleIndex: 1_000, prefetchDistance: 0) }
        await eventually { list.isExhausted }
        #expect(list.items.count == 100)
        #expect(!updates.withLock { $0 }.isEmpty)
        #expect(updates.withLock { $0 }.allSatisfy { $0 })
    }

    @Test func transitionsFromAnotherThreadAreShownWhole() async {
        let viewModel = TestViewModel(scheduler: QueueScheduler(label: "pages")) { synchronousChain(pages: 50, size: 2) }
        let list = TestMirror(viewModel)
        Task.detached { viewModel.loadNextPageIfNeeded(visibleIndex: 1_000, prefetchDistance: 0) }
        var seen = 0
        while !list.isExhausted {
            // Whenever the main actor looks, the mirror shows one transition: a list of 100 items is exhausted,
            // a shorter one is not, and no page lands while its load is still shown as in flight.
            #expect(list.isExhausted == (list.items.count == 100))
            #expect(!(list.isLoadingNextPage && list.items.count == 100))
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
        await eventually { list.nextPageError == TestError(1) }
        // The retry starts and fails on the view model's queue while the main actor is kept busy: the
        // mirror sees `.failed` before and after, never the `.loading` in between.
        viewModel.loadNextPage()
        published.wait()
        published.wait()
        let fired = Counter()
        withObservationTracking { _ = list.nextPageError } onChange: { fired.increment() }
        await eventually { list.nextPageError == TestError(2) }
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


@Suite("ObservablePaginatedList: gaps and both directions") @MainActor
struct ObservablePaginatedListLivingListTests {
    typealias PostMirror = ObservablePaginatedList<FeedPost, TestError>

    @Test func aRefreshThatOpensAGapShowsItAndFillGapClosesIt() async {
        let feed = ScriptedFeed(ids: Array(1 ... 4), size: 2)
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { feed.page(at: 0) }
        let list = PostMirror(viewModel)
        list.loadNextPage()
        list.loadNextPage()
        feed.edit { $0.insert(contentsOf: (100 ..< 106).map { FeedPost(id: $0) }, at: 0) }
        let changed = Locked(false)
        withObservationTracking { _ = list.gap } onChange: { changed.withLock { $0 = true } }
        viewModel.refresh(.mergeOnTop(maxPages: 2, onGap: .keepGap))
        #expect(changed.withLock { $0 })
        #expect(list.gap == 4)
        list.fillGap()
        #expect(list.gap == nil)
        #expect(list.items.map(\.id) == [100, 101, 102, 103, 104, 105, 1, 2, 3, 4])
    }

    @Test func refreshReturnsAfterTheLastPageOfAMultiPageRefresh() async {
        let feed = ScriptedFeed(ids: Array(1 ... 4), size: 2)
        let second = PendingPage()
        let first = PendingPage()
        let refreshing = Locked(false)
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) {
            refreshing.withLock { $0 } ? first.producer : feed.page(at: 0)
        }
        let list = PostMirror(viewModel)
        list.loadNextPage()
        refreshing.withLock { $0 = true }
        let returned = Locked(false)
        let task = Task { @MainActor in
            await list.refresh(.mergeOnTop(maxPages: 3, onGap: .keepGap))
            returned.withLock { $0 = true }
        }
        await eventually { first.observer != nil }
        #expect(list.isRefreshing)
        first.send([100, 101], next: second.producer)
        for _ in 0 ..< 100 { await Task.yield() }
        #expect(list.isRefreshing)
        #expect(!returned.withLock { $0 })
        second.send([102, 1])
        await task.value
        #expect(!list.isRefreshing)
        #expect(list.items.map(\.id) == [100, 101, 102, 1, 2])
    }

    @Test func retryRetriesAFailedPreviousPage() {
        let previous = PendingPage()
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) {
            PostProducer(value: Page(items: [FeedPost(id: 5)], previous: previous.producer, next: nil))
        }
        let list = PostMirror(viewModel)
        list.loadNextPage()
        list.rowAppeared(0)
        #expect(list.isLoadingPreviousPage)
        previous.fail(TestError(2))
        #expect(list.previousPageError == TestError(2))
        list.retry()
        #expect(list.isLoadingPreviousPage)
        previous.send([4])
        #expect(list.items.map(\.id) == [4, 5])
    }
}
