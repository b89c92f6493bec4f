import PaginatedList
import PaginatedListTesting
import Signals
import Testing

// The smallest cases the randomized tests (BothDirectionsModelTests, RefreshModelTests) found, one test
// each, named for the rule they broke.

@Suite("Living lists: regressions")
struct LivingListsRegressionTests {
    /// Posts 100 ..< 106 arrive in `feed` at `index`, then a refresh of one page keeps the held items below
    /// a gap.
    private func freshPostsOnTop(_ feed: ScriptedFeed, _ viewModel: PostViewModel, at index: Int = 0) {
        feed.edit { $0.insert(contentsOf: (100 ..< 106).map { FeedPost(id: $0) }, at: index) }
        viewModel.refresh(.mergeOnTop(maxPages: 1, onGap: .keepGap))
    }

    /// A page that lands beyond `maxPages` at the bottom drops the top page in the same transition: the
    /// changes must name the landed rows by their offsets in that transition's snapshot.
    @Test func anAppendThatDropsTheTopPageSendsChangesThatReplay() {
        let feed = ScriptedFeed(ids: [1, 2, 3, 4], size: 2)
        let (viewModel, replayer) = loaded(feed, pages: 2, maxPages: 1)
        #expect(ids(viewModel) == [3, 4])
        #expect(replayer.mismatches.isEmpty)
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    /// With `maxPages`, scrolling down past the fresh pages of a `.keepGap` refresh drops them at the top:
    /// the gap closed with them, and the list, loaded from the feed's top, took its top for the feed's.
    /// The fresh pages and the gap below them must come back from above.
    @Test func aDropAtTheTopThatTakesTheGapAwayLoadsTheFreshPagesAndTheGapAgainFromAbove() {
        let feed = ScriptedFeed(ids: Array(1 ... 12), size: 2)
        let (viewModel, replayer) = loaded(feed, pages: 3, maxPages: 4)
        freshPostsOnTop(feed, viewModel)
        #expect(ids(viewModel) == [100, 101] + Array(1 ... 6))
        #expect(viewModel.gap.value == 2)
        viewModel.loadNextPage()                                   // [7, 8] lands, the fresh page goes
        #expect(ids(viewModel) == Array(1 ... 8))
        #expect(viewModel.loadStates.value.prepend != .complete, "the fresh items lie above")
        viewModel.loadPreviousPage()                               // the fresh page again, the gap below it
        #expect(ids(viewModel).prefix(4) == [100, 101, 1, 2])
        #expect(viewModel.gap.value == 2)
        viewModel.fillGap()                                        // a page a fill (the refresh's budget)
        #expect(ids(viewModel).prefix(5) == [100, 101, 102, 103, 1])
        viewModel.fillGap()                                        // [104, 105]
        viewModel.fillGap()                                        // [1, 2]: the gap closes
        #expect(viewModel.gap.value == nil)
        #expect(ids(viewModel).prefix(8) == [100, 101, 102, 103, 104, 105, 1, 2])
        #expect(replayer.mismatches.isEmpty)
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    /// Removing every held item below the gap took the gap away and left the list complete at the bottom:
    /// the items in the gap were never loaded. The bottom must go on from the gap.
    @Test func removingEveryItemBelowTheGapLetsTheBottomLoadTheGap() {
        let feed = ScriptedFeed(ids: [1, 2], size: 2)
        let (viewModel, replayer) = loaded(feed, pages: 1)
        freshPostsOnTop(feed, viewModel)
        #expect(ids(viewModel) == [100, 101, 1, 2])
        #expect(viewModel.gap.value == 2)
        viewModel.remove(id: 1)
        viewModel.remove(id: 2)
        #expect(viewModel.gap.value == nil)
        #expect(!viewModel.exhausted.value, "the items of the gap follow")
        for _ in 0 ..< 3 { viewModel.loadNextPage() }              // [102, 103], [104, 105], [1, 2]
        #expect(ids(viewModel) == [100, 101, 102, 103, 104, 105, 1, 2])
        #expect(viewModel.exhausted.value)
        #expect(replayer.mismatches.isEmpty)
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    /// The pages below the gap that edits emptied stayed in the ledger: with `maxPages`, a page of the gap
    /// dropped at the bottom was loaded again by the emptied page's `next`, skipping the rest of the gap.
    @Test func pagesBelowTheGapThatEditsEmptiedGoAndTheGapIsLoadedWhole() {
        let feed = ScriptedFeed(ids: Array(1 ... 6), size: 2)
        let viewModel = PostViewModel(scheduler: ImmediateScheduler(), maxPages: 3) { feed.page(at: 2) }
        let replayer = ChangeReplayer(viewModel)
        viewModel.loadNextPage()                                   // [3, 4]
        freshPostsOnTop(feed, viewModel, at: 2)
        #expect(ids(viewModel) == [100, 101, 3, 4])
        viewModel.remove(id: 3)
        viewModel.remove(id: 4)                                    // the gap closes: the bottom goes on from it
        viewModel.loadNextPage()                                   // [102, 103]
        viewModel.loadPreviousPage()                               // [1, 2]: three pages, none dropped
        viewModel.loadNextPage()                                   // [104, 105]: [1, 2] dropped
        #expect(ids(viewModel) == [100, 101, 102, 103, 104, 105])
        #expect(replayer.mismatches.isEmpty)
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    /// A refresh's drop at the bottom that closed the gap left the pages below it that edits had emptied in
    /// the ledger: they took slots of `maxPages` (and could lead a dropped page of the gap to be loaded again
    /// by their `next`, skipping the rest of the gap).
    @Test func aGapClosedByADropTakesThePagesEditsEmptiedBelowItAway() {
        let feed = ScriptedFeed(ids: [1, 2, 3, 4], size: 2)
        let (viewModel, replayer) = loaded(feed, pages: 2, maxPages: 3)
        freshPostsOnTop(feed, viewModel)
        viewModel.remove(id: 1)
        viewModel.remove(id: 2)                                    // the page below the gap holds nothing
        #expect(ids(viewModel) == [100, 101, 3, 4])
        feed.edit { $0.insert(FeedPost(id: 99), at: 0) }
        viewModel.refresh(.mergeOnTop(maxPages: 1, onGap: .keepGap))   // [99] on top: [3, 4] dropped, the gap closes
        #expect(ids(viewModel) == [99, 100, 101])
        viewModel.loadNextPage()                                   // [102, 103]
        viewModel.loadNextPage()                                   // [104, 105]: [99] dropped
        #expect(ids(viewModel) == [100, 101, 102, 103, 104, 105])
        #expect(replayer.mismatches.isEmpty)
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    /// With the gap dropped at the top (waiting to open again), edits that took every held item left
    /// nothing below the page above the gap when it came back: the gap was forgotten and skipped.
    @Test func removingEveryHeldItemWhileADroppedGapWaitsLetsTheBottomLoadTheGap() {
        let feed = ScriptedFeed(ids: [1, 2, 3, 4], size: 2)
        let (viewModel, replayer) = loaded(feed, pages: 1, maxPages: 2)
        freshPostsOnTop(feed, viewModel)
        viewModel.loadNextPage()                                   // [3, 4]: the fresh page dropped with the gap
        #expect(ids(viewModel) == [1, 2, 3, 4])
        for id in 1 ... 4 { viewModel.remove(id: id) }
        viewModel.loadPreviousPage()                               // [100, 101], nothing below it
        #expect(ids(viewModel) == [100, 101])
        #expect(!viewModel.exhausted.value, "the gap follows")
        viewModel.loadNextPage()
        #expect(ids(viewModel) == [100, 101, 102, 103])
        #expect(replayer.mismatches.isEmpty)
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    /// `.reloadAll` counted a page that came back empty (all repeats, or none) as one of the pages to
    /// reload, and removed the held items of the page it stood for, which the feed still had.
    @Test func reloadAllDoesNotCountAnEmptyPageAsAPageReloaded() {
        // Pages: [1, 2], [], [3, 4], [5, 6].
        let pages: [[Int]] = [[1, 2], [], [3, 4], [5, 6]]
        func page(_ index: Int) -> PostProducer {
            Producer(value: Page(items: pages[index].map { FeedPost(id: $0) }, next: index + 1 < pages.count ? page(index + 1) : nil))
        }
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { page(0) }
        let replayer = ChangeReplayer(viewModel)
        viewModel.loadNextPage()
        viewModel.loadNextPage()                                   // the empty page, then [3, 4] at once
        #expect(ids(viewModel) == [1, 2, 3, 4])
        viewModel.refresh(.reloadAll)
        #expect(ids(viewModel) == [1, 2, 3, 4], "the feed still has them")
        #expect(replayer.mismatches.isEmpty)
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    /// `.reloadAll` when the feed's first item is gone: the first fresh page's items are already where
    /// they belong but were counted in the page below; each later page must still find its own range.
    @Test func reloadAllAfterTheFirstItemWasDeletedReloadsEveryPage() {
        let feed = ScriptedFeed(ids: [1, 2, 3], size: 1)
        let (viewModel, replayer) = loaded(feed, pages: 3)
        feed.edit { posts in
            posts.removeFirst()
            posts.append(FeedPost(id: 4))
        }
        viewModel.refresh(.reloadAll)
        #expect(ids(viewModel) == [2, 3, 4])
        #expect(replayer.mismatches.isEmpty)
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    /// `.reloadAll` after new items arrived on top: every page's content shifts down, and the held items a
    /// fresh page no longer has are the next page's, not gone; no transition may hide them in between.
    @Test func reloadAllNeverHidesAnItemThatStayedInTheFeed() {
        let feed = ScriptedFeed(ids: [1, 2, 3], size: 1)
        let (viewModel, replayer) = loaded(feed, pages: 3)
        feed.edit { $0.insert(FeedPost(id: 0), at: 0) }
        let snapshots = Recorder<[Int]>()
        viewModel.items.signal.observeValues { items in snapshots.append(items.map(\.id)) }
        viewModel.refresh(.reloadAll)
        #expect(ids(viewModel) == [0, 1, 2])
        #expect(!snapshots.values.isEmpty)
        for snapshot in snapshots.values {
            #expect(snapshot.contains(1) && snapshot.contains(2), "\(snapshot) hides an item the feed kept")
        }
        #expect(replayer.mismatches.isEmpty)
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    /// A list opened in the middle scrolled up past its first page with a window; a `.reloadAll` reloads
    /// from the first page, and fails after one page: the list is as it was (not the reloaded first page
    /// above the old pages), and the page before it is still the one before its top.
    @Test func aReloadAllThatFailsPartWayLeavesTheListAsItWas() throws {
        let feed = WindowFeed(count: 10, size: 1, start: 5)
        let viewModel = PostViewModel(scheduler: ImmediateScheduler(), maxPages: 2) { feed.firstPage() }
        let replayer = ChangeReplayer(viewModel)
        viewModel.loadNextPage()
        try #require(feed.activeRuns.count == 1)
        feed.activeRuns[0].deliver(feed.page(5 ..< 6))
        for top in [4, 3] {
            viewModel.loadPreviousPage()
            feed.activeRuns[0].deliver(feed.page(top ..< top + 1))
        }
        #expect(ids(viewModel) == [3, 4])
        viewModel.refresh(.reloadAll)
        feed.activeRuns[0].deliver(feed.page(5 ..< 6))
        feed.activeRuns[0].fail(TestError(1))
        #expect(ids(viewModel) == [3, 4])
        viewModel.loadPreviousPage()
        #expect(feed.activeRuns.map(\.range) == [2 ..< 3])
        #expect(replayer.mismatches.isEmpty)
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    /// `.mergeOnTop` on a feed that re-ranked: the fresh page has held items in another order than the
    /// list, so new items go in after held items further up after some went in further down; every
    /// inserted and updated row must still be named by its offset in the transition's snapshot.
    @Test func aMergeOnTopOfAReorderedFeedSendsChangesThatReplay() {
        let feed = ScriptedFeed(ids: [1, 2, 3, 4], size: 5)
        let (viewModel, replayer) = loaded(feed, pages: 1)
        feed.edit { $0 = [10, 3, 11, 1, 12, 2, 4].map { FeedPost(id: $0, likes: 1) } }
        viewModel.refresh(.mergeOnTop(maxPages: 2, onGap: .keepGap))
        #expect(Set(ids(viewModel)) == [1, 2, 3, 4, 10, 11, 12])
        #expect(ids(viewModel).count == 7)
        #expect(replayer.mismatches.isEmpty)
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    /// `.mergeOnTop` after the feed moved a held item down: held items stay in place, so a new item that
    /// follows the moved one in the fresh page must not go in after the moved item's old place (above held
    /// items the feed still has above it), but after the last held item the page keeps in the list's order.
    /// Found by RefreshModelTests, seed 15373040995211214116.
    @Test func aMergeOnTopPutsNewItemsAfterAHeldItemTheFeedMovedBelowThemInFeedOrder() {
        let feed = ScriptedFeed(ids: [0, 1, 2, 3], size: 4)
        let (viewModel, replayer) = loaded(feed, pages: 1)
        feed.edit { $0 = [1, 3, 0, 4].map { FeedPost(id: $0) } }
        viewModel.refresh(.mergeOnTop(maxPages: 1, onGap: .keepGap))
        // 0 is updated in place, 2 (below the overlap) is kept; 4 follows 3 in the feed, and so in the list.
        #expect(ids(viewModel) == [0, 1, 2, 3, 4])
        #expect(replayer.mismatches.isEmpty)
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    /// `.mergeOnTop` that opens a gap with more fresh pages than `maxPages` holds: the pages dropped at
    /// the bottom include fresh ones inserted in the same transition, which its changes must not name.
    @Test func aGapOpenedBeyondMaxPagesSendsChangesThatReplay() {
        let feed = ScriptedFeed(ids: [1, 2], size: 2)
        let (viewModel, replayer) = loaded(feed, pages: 1, maxPages: 1)
        feed.edit { $0.insert(contentsOf: [5, 6, 7, 8].map { FeedPost(id: $0) }, at: 0) }
        viewModel.refresh(.mergeOnTop(maxPages: 2, onGap: .keepGap))
        #expect(ids(viewModel) == [5, 6])
        #expect(replayer.mismatches.isEmpty)
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    /// `.mergeOnTop` removes the held items above the first one the fresh page overlaps; their pages must
    /// go with them, or a later drop at the top takes one of those empty pages for the page above the list
    /// and `loadPreviousPage()` loads it, far above the items held.
    @Test func aMergeOnTopForgetsThePagesWhoseItemsItRemoved() throws {
        let feed = WindowFeed(count: 20, size: 2, start: 6)
        let viewModel = PostViewModel(scheduler: ImmediateScheduler(), maxPages: 3) { feed.firstPage() }
        viewModel.loadNextPage()
        try #require(feed.activeRuns.count == 1)
        feed.activeRuns[0].deliver(feed.page(6 ..< 8))
        for top in [4, 2] {
            viewModel.loadPreviousPage()
            feed.activeRuns[0].deliver(feed.page(top ..< top + 2))
        }
        viewModel.refresh(.mergeOnTop(maxPages: 1, onGap: .replace))
        feed.activeRuns[0].deliver(feed.page(6 ..< 8))
        #expect(ids(viewModel) == [6, 7])
        viewModel.loadNextPage()
        feed.activeRuns[0].deliver(feed.page(8 ..< 10))
        #expect(ids(viewModel) == [6, 7, 8, 9])
        viewModel.loadPreviousPage()
        #expect(feed.activeRuns.map(\.range) == [4 ..< 6])
    }

    /// A gap opened with `maxPages`: the drops at the bottom take every held page below the gap. The list
    /// now ends at the gap, so the next page is the one after the fresh items, not a page that was below
    /// the gap (here the feed's old first page, which would bring nothing new).
    @Test func whenDropsTakeEverythingBelowTheGapTheNextPageIsTheGapsContinuation() {
        let feed = ScriptedFeed(ids: [1, 2, 3, 4], size: 2)
        let (viewModel, replayer) = loaded(feed, pages: 2, maxPages: 2)
        feed.edit { $0.insert(contentsOf: [5, 6, 7, 8].map { FeedPost(id: $0) }, at: 0) }
        viewModel.refresh(.mergeOnTop(maxPages: 2, onGap: .keepGap))
        #expect(ids(viewModel) == [5, 6, 7, 8])
        #expect(viewModel.gap.value == nil)
        viewModel.loadNextPage()
        #expect(ids(viewModel) == [7, 8, 1, 2])
        #expect(replayer.mismatches.isEmpty)
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    /// Removing an item above the gap moves the gap up with the items below it.
    @Test func removingAnItemAboveTheGapKeepsTheGapOnTheSameItem() {
        let feed = ScriptedFeed(ids: [1, 2], size: 2)
        let (viewModel, _) = loaded(feed, pages: 1)
        feed.edit { $0.insert(contentsOf: [5, 6, 7, 8].map { FeedPost(id: $0) }, at: 0) }
        viewModel.refresh(.mergeOnTop(maxPages: 1, onGap: .keepGap))
        #expect(ids(viewModel) == [5, 6, 1, 2])
        #expect(viewModel.gap.value == 2)
        viewModel.remove(id: 5)
        #expect(viewModel.gap.value == 1)
    }
}
