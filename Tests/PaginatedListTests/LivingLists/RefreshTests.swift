import PaginatedList
import PaginatedListTesting
import Signals
import Testing

@Suite("15. Refresh keeps the list visible")
struct RefreshTests {
    @Test func theHeldItemsStayUntilTheNewFirstPageLandsThenItReplacesThem() {
        let pipe = PendingPage()
        var useHeld = true
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) {
            useHeld ? postChain([[1, 2], [3, 4]]) : pipe.producer
        }
        viewModel.loadNextPage()
        viewModel.loadNextPage()
        useHeld = false
        let snapshots = Recorder(viewModel.items.signal.map { $0.map(\.id) })
        viewModel.refresh()
        #expect(ids(viewModel) == [1, 2, 3, 4])
        #expect(viewModel.loadStates.value.refresh == .loading)
        #expect(viewModel.loading.value)
        pipe.send([0, 1])
        #expect(snapshots.values == [[0, 1]])
        #expect(viewModel.loadStates.value.refresh == .idle)
        #expect(viewModel.exhausted.value)
    }

    @Test func aRefreshCutsOffAnAppendInFlightAndLoadsDuringItDoNothing() {
        let next = PendingPage()
        let fresh = PendingPage()
        var calls = 0
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) {
            calls += 1
            return calls == 1 ? PostProducer(value: Page(items: [FeedPost(id: 1)], next: next.producer))
                : fresh.producer
        }
        viewModel.loadNextPage()
        viewModel.loadNextPage()
        viewModel.refresh()
        #expect(viewModel.loadStates.value.append == .idle)
        next.send([2])
        #expect(ids(viewModel) == [1])
        viewModel.loadNextPage()
        viewModel.loadPreviousPage()
        #expect(calls == 2)
        fresh.send([9])
        #expect(ids(viewModel) == [9])
    }

    @Test func aFailedRefreshKeepsTheListAndReportsOnRefreshAndLastError() {
        var fail = false
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) {
            fail ? PostProducer(error: TestError(3)) : postChain([[1, 2]])
        }
        viewModel.loadNextPage()
        fail = true
        viewModel.refresh()
        #expect(ids(viewModel) == [1, 2])
        #expect(viewModel.loadStates.value.refresh == .failed(TestError(3)))
        #expect(viewModel.lastError.value == TestError(3))
        fail = false
        viewModel.refresh()
        #expect(viewModel.loadStates.value.refresh == .idle)
        #expect(viewModel.lastError.value == nil)
    }

    @Test func anUnchangedFeedCostsOneCheckAndNoPageRequest() {
        let feed = ScriptedFeed(ids: Array(1 ... 6), size: 3)
        let (viewModel, _) = loaded(feed, pages: 2)
        let requests = feed.requests
        var checks = 0
        let itemsSent = Recorder(viewModel.items.signal)
        viewModel.refresh(.mergeOnTop(maxPages: 3, onGap: .keepGap), ifChanged: Producer { observer, _ in
            checks += 1
            observer.send(value: false)
            observer.sendCompleted()
        })
        #expect(checks == 1)
        #expect(feed.requests == requests)
        #expect(itemsSent.count == 0)
        #expect(viewModel.loadStates.value.refresh == .idle)
    }

    @Test func aChangedFeedAfterTheCheckRefreshes() {
        let feed = ScriptedFeed(ids: Array(1 ... 6), size: 3)
        let (viewModel, replayer) = loaded(feed, pages: 2)
        feed.edit { $0.insert(FeedPost(id: 0), at: 0) }
        viewModel.refresh(.mergeOnTop(maxPages: 3, onGap: .keepGap), ifChanged: Producer(value: true))
        #expect(ids(viewModel) == [0, 1, 2, 3, 4, 5, 6])
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    @Test func anAutomaticRetryOfAFailedRefreshCutsOffAnAppendStartedWhileItWaited() {
        let source = QuerySource()
        let timer = TestScheduler()
        let policy = RetryPolicy(maxRetries: 3, initialDelay: .seconds(1), multiplier: 2, maxDelay: .seconds(60), jitter: 0)
        let viewModel = PaginatedListViewModel<Hit, TestError>(scheduler: ImmediateScheduler(),
                                                              retry: AutomaticRetry(policy, on: timer)) { source.firstPage("a") }
        viewModel.loadNextPage()
        source.lastRun.deliver()
        viewModel.refresh()
        source.lastRun.fail()
        viewModel.loadNextPage()
        let append = source.lastRun
        #expect(append.page == 1 && append.isActive, "a failed refresh lets the next page load while its retry waits")
        timer.advance(by: .seconds(1))
        #expect(!append.isActive, "the retried refresh cut the append off")
        #expect(viewModel.loadStates.value.refresh == .loading)
        #expect(!viewModel.loadStates.value.append.isLoading)
        source.lastRun.deliver(2)
        #expect(viewModel.items.value.map(\.id) == ["a#0", "a#1"])
    }

    @Test func anAutomaticRetryOfAFailedReloadAllReloadsThePagesLoadedWhileItWaited() {
        let source = QuerySource()
        let timer = TestScheduler()
        let policy = RetryPolicy(maxRetries: 3, initialDelay: .seconds(1), multiplier: 2, maxDelay: .seconds(60), jitter: 0)
        let viewModel = PaginatedListViewModel<Hit, TestError>(scheduler: ImmediateScheduler(),
                                                              retry: AutomaticRetry(policy, on: timer)) { source.firstPage("a") }
        for _ in 0 ..< 2 {
            viewModel.loadNextPage()
            source.lastRun.deliver()
        }
        viewModel.refresh(.reloadAll)
        source.lastRun.deliver()
        source.lastRun.fail()
        // While the retry waits, the user scrolls on: two more pages.
        for _ in 0 ..< 2 {
            viewModel.loadNextPage()
            source.lastRun.deliver()
        }
        let shown = viewModel.items.value.map(\.id)
        #expect(shown.count == 12)
        timer.advance(by: .seconds(1))
        for _ in 0 ..< 3 { source.lastRun.deliver() }
        #expect(viewModel.loadStates.value.refresh == .idle)
        #expect(viewModel.items.value.map(\.id) == shown)
    }
}

/// A view model of posts whose dependency serves `held` first (every page of it loaded here), then `fresh`
/// (what a refresh loads).
private func postsLoaded(held: [[Int]], fresh: [[Int]], maxPages: Int? = nil) -> PostViewModel {
    let calls = Locked(0)
    let viewModel = PostViewModel(scheduler: ImmediateScheduler(), maxPages: maxPages) {
        postChain(calls.withLock { calls in
            calls += 1
            return calls == 1
        } ? held : fresh)
    }
    for _ in held { viewModel.loadNextPage() }
    return viewModel
}

@Suite("16-17. Merge on top, gaps, reload all")
struct MergeOnTopTests {
    @Test func newItemsGoAboveTheOverlapAndHeldItemsThatCameBackAreUpdatedInPlace() {
        let feed = ScriptedFeed(ids: Array(1 ... 9), size: 3)
        let (viewModel, replayer) = loaded(feed, pages: 3)
        feed.edit { posts in
            posts.insert(contentsOf: [FeedPost(id: 20), FeedPost(id: 21)], at: 0)
            posts[2].likes = 5  // post 1, which the first fresh page brings back
        }
        let changes = Recorder(viewModel.changes)
        viewModel.refresh(.mergeOnTop(maxPages: 3, onGap: .keepGap))
        #expect(ids(viewModel) == [20, 21, 1, 2, 3, 4, 5, 6, 7, 8, 9])
        #expect(viewModel.items.value[2].likes == 5)
        #expect(viewModel.gap.value == nil)
        #expect(changes.values.contains(.inserted(0 ..< 2)))
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    @Test func heldItemsAboveTheOverlapThatTheFeedNoLongerHasAreRemoved() {
        let feed = ScriptedFeed(ids: Array(1 ... 9), size: 3)
        let (viewModel, replayer) = loaded(feed, pages: 3)
        feed.edit { posts in
            posts.removeFirst(2)
            posts.insert(FeedPost(id: 30), at: 0)
        }
        viewModel.refresh(.mergeOnTop(maxPages: 3, onGap: .keepGap))
        #expect(ids(viewModel) == [30, 3, 4, 5, 6, 7, 8, 9])
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    @Test func noOverlapWithinTheBudgetKeepsTheHeldItemsBelowAReportedGap() {
        let feed = ScriptedFeed(ids: Array(1 ... 6), size: 2)
        let (viewModel, replayer) = loaded(feed, pages: 3)
        feed.edit { $0.insert(contentsOf: (100 ..< 106).map { FeedPost(id: $0) }, at: 0) }
        viewModel.refresh(.mergeOnTop(maxPages: 2, onGap: .keepGap))
        #expect(ids(viewModel) == [100, 101, 102, 103, 1, 2, 3, 4, 5, 6])
        #expect(viewModel.gap.value == 4)
        viewModel.fillGap()
        #expect(ids(viewModel) == [100, 101, 102, 103, 104, 105, 1, 2, 3, 4, 5, 6])
        #expect(viewModel.gap.value == nil)
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    @Test func noOverlapWithReplaceDropsTheHeldItems() {
        let feed = ScriptedFeed(ids: Array(1 ... 6), size: 2)
        let (viewModel, replayer) = loaded(feed, pages: 3)
        feed.edit { $0.insert(contentsOf: (100 ..< 106).map { FeedPost(id: $0) }, at: 0) }
        viewModel.refresh(.mergeOnTop(maxPages: 2, onGap: .replace))
        #expect(ids(viewModel) == [100, 101, 102, 103])
        #expect(viewModel.gap.value == nil)
        #expect(!viewModel.exhausted.value)
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    @Test func aSecondGapDropsTheItemsBelowTheFirst() {
        let feed = ScriptedFeed(ids: Array(1 ... 4), size: 2)
        let (viewModel, _) = loaded(feed, pages: 2)
        feed.edit { $0.insert(contentsOf: (100 ..< 106).map { FeedPost(id: $0) }, at: 0) }
        viewModel.refresh(.mergeOnTop(maxPages: 1, onGap: .keepGap))
        #expect(ids(viewModel) == [100, 101, 1, 2, 3, 4])
        feed.edit { $0.insert(contentsOf: (200 ..< 204).map { FeedPost(id: $0) }, at: 0) }
        viewModel.refresh(.mergeOnTop(maxPages: 1, onGap: .keepGap))
        #expect(ids(viewModel) == [200, 201, 100, 101])
        #expect(viewModel.gap.value == 2)
    }

    @Test func aMergeThatRemovesItemsAboveTheGapKeepsTheGapAboveTheSameHeldItem() {
        let feed = ScriptedFeed(ids: Array(1 ... 6), size: 2)
        let (viewModel, replayer) = loaded(feed, pages: 3)
        feed.edit { $0.insert(contentsOf: (100 ..< 106).map { FeedPost(id: $0) }, at: 0) }
        viewModel.refresh(.mergeOnTop(maxPages: 2, onGap: .keepGap))
        #expect(viewModel.gap.value == 4)
        feed.edit { $0.removeFirst() }
        viewModel.refresh(.mergeOnTop(maxPages: 2, onGap: .keepGap))
        #expect(ids(viewModel) == [101, 102, 103, 1, 2, 3, 4, 5, 6])
        #expect(viewModel.gap.value == 3)
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    @Test func aPageTheFillLoadedIsDroppedAndLoadedAgainOnItsOwn() {
        // Six pages of two; the fill's page [104, 105] sits between the fresh pages and the held ones.
        let feed = ScriptedFeed(ids: Array(1 ... 12), size: 2)
        let (viewModel, replayer) = loaded(feed, pages: 3, maxPages: 6)
        feed.edit { $0.insert(contentsOf: (100 ..< 106).map { FeedPost(id: $0) }, at: 0) }
        viewModel.refresh(.mergeOnTop(maxPages: 2, onGap: .keepGap))
        viewModel.fillGap()
        #expect(ids(viewModel) == Array(feed.ids.prefix(12)))
        #expect(viewModel.gap.value == nil)
        // Down to the end of the feed, dropping the pages at the top, then back up to its top.
        for _ in 0 ..< 3 { viewModel.loadNextPage() }
        #expect(ids(viewModel) == Array(1 ... 12))
        for _ in 0 ..< 3 { viewModel.loadPreviousPage() }
        #expect(ids(viewModel) == Array(feed.ids.prefix(12)))
        #expect(viewModel.loadStates.value.prepend == .complete)
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    @Test func reloadAllAfterAFillReloadsAPageForEachPageTheFillLoaded() {
        let feed = ScriptedFeed(ids: Array(1 ... 6), size: 2)
        let (viewModel, replayer) = loaded(feed, pages: 3)
        feed.edit { $0.insert(contentsOf: (100 ..< 108).map { FeedPost(id: $0) }, at: 0) }
        viewModel.refresh(.mergeOnTop(maxPages: 1, onGap: .keepGap))
        viewModel.fillGap()
        #expect(ids(viewModel) == [100, 101, 102, 103, 1, 2, 3, 4, 5, 6])
        #expect(viewModel.gap.value == 4)
        viewModel.refresh(.reloadAll)
        #expect(ids(viewModel) == Array(feed.ids.prefix(10)))
        #expect(viewModel.gap.value == nil)
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    @Test func aFillThatReachesTheEndOfTheFeedKeepsItsLastPage() {
        let feed = ScriptedFeed(ids: Array(1 ... 6), size: 2)
        let (viewModel, replayer) = loaded(feed, pages: 3)
        feed.edit { $0 = (100 ..< 106).map { FeedPost(id: $0) } }
        viewModel.refresh(.mergeOnTop(maxPages: 2, onGap: .keepGap))
        viewModel.fillGap()
        #expect(ids(viewModel) == Array(100 ..< 106))
        #expect(viewModel.exhausted.value)
        viewModel.refresh(.reloadAll)
        #expect(ids(viewModel) == Array(100 ..< 106))
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    @Test func aFillDropsThePagesBeyondMaxPagesAtTheBottomFirst() {
        let feed = ScriptedFeed(ids: Array(1 ... 6), size: 2)
        let (viewModel, replayer) = loaded(feed, pages: 3, maxPages: 4)
        feed.edit { $0.insert(contentsOf: (100 ..< 108).map { FeedPost(id: $0) }, at: 0) }
        viewModel.refresh(.mergeOnTop(maxPages: 1, onGap: .keepGap))
        #expect(ids(viewModel) == [100, 101, 1, 2, 3, 4, 5, 6])
        viewModel.fillGap()
        #expect(ids(viewModel) == [100, 101, 102, 103, 1, 2, 3, 4])
        #expect(viewModel.gap.value == 4)
        #expect(replayer.mirror == Array(viewModel.items.value))
        // The page dropped at the bottom is loaded again there.
        viewModel.loadNextPage()
        #expect(ids(viewModel).suffix(2) == [5, 6])
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    @Test func mergeOnTopCountsOnlyPagesHoldingItemsTowardsItsBudget() {
        let viewModel = postsLoaded(held: [[1, 2], [3, 4]], fresh: [[], [7, 8], [9, 10], [1, 2]])
        viewModel.refresh(.mergeOnTop(maxPages: 1, onGap: .keepGap))
        #expect(ids(viewModel) == [7, 8, 1, 2, 3, 4])
        #expect(viewModel.gap.value == 2)
    }

    @Test func anEmptyPageTheFillLoadsTakesNoSlotOfMaxPages() {
        let viewModel = postsLoaded(held: [[1, 2], [3, 4], [5, 6]], fresh: [[100, 101], [], [102, 103], [1, 2]],
                                    maxPages: 4)
        viewModel.refresh(.mergeOnTop(maxPages: 1, onGap: .keepGap))
        #expect(ids(viewModel) == [100, 101, 1, 2, 3, 4, 5, 6])
        viewModel.fillGap()   // one page (the budget): the empty one
        #expect(ids(viewModel) == [100, 101, 1, 2, 3, 4, 5, 6])
        #expect(viewModel.gap.value == 2)
    }

    @Test func aReplaceAfterEmptyPagesKeepsThePagesThatHoldItemsWithinMaxPages() {
        let viewModel = postsLoaded(held: [[1, 2], [3, 4]], fresh: [[], [], [7, 8], [9, 10], [11, 12]], maxPages: 2)
        viewModel.refresh(.mergeOnTop(maxPages: 2, onGap: .replace))
        #expect(ids(viewModel) == [7, 8, 9, 10])
        #expect(!viewModel.exhausted.value)
    }

    @Test func tenEmptyPagesInARowAfterAPageWithItemsStopTheRefreshAndAreReported() {
        let viewModel = postsLoaded(held: [[1, 2], [3, 4]], fresh: [[7, 8]] + Array(repeating: [], count: 10) + [[1, 2]])
        let diagnostics = Recorder(viewModel.diagnostics)
        viewModel.refresh(.mergeOnTop(maxPages: 3, onGap: .keepGap))
        #expect(ids(viewModel) == [7, 8, 1, 2, 3, 4])
        #expect(viewModel.gap.value == 2)
        #expect(diagnostics.values == [.emptyPagesLimitReached(count: 10)])
    }

    @Test func aFillThatClosesItsGapDropsThePagesItEmptiedFromMaxPages() {
        let feed = ScriptedFeed(ids: Array(1 ... 12), size: 2)
        let (viewModel, replayer) = loaded(feed, pages: 4, maxPages: 5)
        feed.edit { posts in
            posts.removeFirst(4)   // 1...4 deleted,
            posts.insert(contentsOf: [FeedPost(id: 100), FeedPost(id: 101)], at: 0)   // two new on top
        }
        viewModel.refresh(.mergeOnTop(maxPages: 1, onGap: .keepGap))
        #expect(ids(viewModel) == [100, 101] + Array(1 ... 8))
        viewModel.fillGap()
        #expect(ids(viewModel) == [100, 101, 5, 6, 7, 8])
        #expect(viewModel.gap.value == nil)
        viewModel.loadNextPage()   // four pages held, not six: nothing to drop
        #expect(ids(viewModel) == [100, 101, 5, 6, 7, 8, 9, 10])
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    @Test func aMergeOnTopRefreshWhosePagesAreAllEmptyKeepsTheListAndReportsIt() {
        let viewModel = postsLoaded(held: [[1, 2], [3, 4]], fresh: Array(repeating: [], count: 12) + [[1, 2]])
        let diagnostics = Recorder(viewModel.diagnostics)
        let sends = Recorder(viewModel.items.signal)
        viewModel.refresh(.mergeOnTop(maxPages: 3, onGap: .keepGap))
        #expect(ids(viewModel) == [1, 2, 3, 4])
        #expect(viewModel.gap.value == nil)
        #expect(sends.count == 0)
        #expect(viewModel.loadStates.value.refresh == .idle)
        #expect(diagnostics.values == [.emptyPagesLimitReached(count: 10)])
    }

    @Test func reloadAllEndsWithExactlyTheReloadedPagesContent() {
        let feed = ScriptedFeed(ids: Array(1 ... 9), size: 3)
        let (viewModel, replayer) = loaded(feed, pages: 2)
        feed.edit { posts in
            let moved = posts.remove(at: 4)  // 5 moves to the top
            posts.insert(moved, at: 0)
            posts.remove(at: 2)              // 2 is deleted
            posts.insert(FeedPost(id: 50), at: 3)
        }
        let changes = Recorder(viewModel.changes)
        viewModel.refresh(.reloadAll)
        #expect(ids(viewModel) == Array(feed.ids.prefix(6)))
        #expect(changes.values.contains { if case .moved = $0 { true } else { false } })
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    @Test func batchPatchesAreOneTransitionWithOneUpdatedChange() {
        let feed = ScriptedFeed(ids: Array(1 ... 6), size: 3)
        let (viewModel, replayer) = loaded(feed, pages: 2)
        let changes = Recorder(viewModel.changes)
        let sends = Recorder(viewModel.items.signal)
        viewModel.update([(5, 50), (2, 20), (99, 1)], id: { $0.0 }, apply: { item, patch in item.likes = patch.1 })
        #expect(sends.count == 1)
        #expect(changes.values == [.updated([1, 4])])
        #expect(viewModel.items.value.map(\.likes) == [0, 20, 0, 0, 50, 0])
        #expect(replayer.mirror == Array(viewModel.items.value))
    }
}

@Suite("15. Refresh of items that are not Identifiable")
struct PlainItemRefreshTests {
    /// A chain of pages of plain `Int` items, delivered at start.
    private func chain(_ pages: [[Int]]) -> TestProducer {
        func page(_ index: Int) -> TestProducer {
            Producer { observer, _ in
                observer.send(value: Page(items: pages[index], next: index + 1 < pages.count ? page(index + 1) : nil))
                observer.sendCompleted()
            }
        }
        return page(0)
    }

    /// A view model of plain items whose first call serves `held`, later calls `fresh`, with every page of
    /// `held` loaded.
    private func loaded(held: [[Int]], fresh: [[Int]]) -> TestViewModel {
        var calls = 0
        let viewModel = TestViewModel(scheduler: ImmediateScheduler()) { [self] in
            calls += 1
            return chain(calls == 1 ? held : fresh)
        }
        for _ in held { viewModel.loadNextPage() }
        return viewModel
    }

    @Test func mergeOnTopActsAsReplaceAndOpensNoGap() {
        let viewModel = loaded(held: [[1, 2], [3, 4]], fresh: [[7, 8], [1, 2], [3, 4]])
        viewModel.refresh(.mergeOnTop(maxPages: 1, onGap: .keepGap))
        #expect(Array(viewModel.items.value) == [7, 8])
        #expect(viewModel.gap.value == nil)
        #expect(viewModel.loadStates.value.refresh == .idle)
    }

    @Test func reloadAllEndsWithExactlyTheReloadedPagesContent() {
        let viewModel = loaded(held: [[1, 2], [3, 4]], fresh: [[0, 1], [2, 3], [4, 5]])
        viewModel.refresh(.reloadAll)
        #expect(Array(viewModel.items.value) == [0, 1, 2, 3])
        #expect(viewModel.loadStates.value.refresh == .idle)
    }
}
