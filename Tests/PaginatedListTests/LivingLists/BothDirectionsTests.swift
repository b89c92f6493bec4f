import PaginatedList
import PaginatedListTesting
import Signals
import Testing

/// A view model that opens `feed` at `offset`.
private func opened(_ feed: ScriptedFeed, at offset: Int, maxPages: Int? = nil) -> PostViewModel {
    PostViewModel(scheduler: ImmediateScheduler(), maxPages: maxPages) { feed.page(at: offset) }
}

@Suite("18. Both directions")
struct BothDirectionsTests {
    @Test func aListOpenedInTheMiddleGrowsUpwardsWithLoadPreviousPage() {
        let feed = ScriptedFeed(ids: Array(1 ... 10), size: 3)
        let viewModel = opened(feed, at: 4)
        viewModel.loadNextPage()
        #expect(ids(viewModel) == [5, 6, 7])
        #expect(viewModel.loadStates.value.prepend == .idle)
        viewModel.loadPreviousPage()
        #expect(ids(viewModel) == [2, 3, 4, 5, 6, 7])
        viewModel.loadPreviousPage()
        #expect(ids(viewModel) == [1, 2, 3, 4, 5, 6, 7])
        #expect(viewModel.loadStates.value.prepend == .complete)
    }

    @Test func aPrependSendsInsertedAtTheTop() {
        let feed = ScriptedFeed(ids: Array(1 ... 10), size: 3)
        let viewModel = opened(feed, at: 4)
        viewModel.loadNextPage()
        let replayer = ChangeReplayer(viewModel)
        let changes = Recorder(viewModel.changes)
        viewModel.loadPreviousPage()
        #expect(changes.values == [.inserted(0 ..< 3)])
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    @Test func loadPreviousPageBeforeTheFirstPageDoesNothing() {
        let feed = ScriptedFeed(ids: Array(1 ... 10), size: 3)
        let viewModel = opened(feed, at: 4)
        viewModel.loadPreviousPage()
        #expect(feed.requests == 0)
        #expect(viewModel.loadStates.value.prepend == .idle)
    }

    @Test func bothDirectionsLoadAtOnceAndAFailureInOneLeavesTheOtherUsable() {
        let previous = PendingPage()
        let next = PendingPage()
        let first = PostProducer(value: Page(
            items: [FeedPost(id: 5)], previous: previous.producer, next: next.producer
        ))
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { first }
        viewModel.loadNextPage()
        viewModel.loadNextPage()
        viewModel.loadPreviousPage()
        #expect(viewModel.loadStates.value.append == .loading)
        #expect(viewModel.loadStates.value.prepend == .loading)
        previous.fail(TestError(1))
        #expect(viewModel.loadStates.value.prepend == .failed(TestError(1)))
        #expect(viewModel.loadStates.value.append == .loading)
        next.send([6])
        #expect(ids(viewModel) == [5, 6])
        #expect(viewModel.loadStates.value.append == .complete)
        #expect(viewModel.lastError.value == TestError(1))
    }

    @Test func prefetchNearTheTopLoadsThePreviousPage() {
        let feed = ScriptedFeed(ids: Array(1 ... 30), size: 5)
        let viewModel = opened(feed, at: 15)
        viewModel.loadNextPage()
        viewModel.loadPagesIfNeeded(visibleIndex: 2, prefetchDistance: 1)
        #expect(ids(viewModel) == Array(16 ... 20))
        viewModel.loadPagesIfNeeded(visibleIndex: 1, prefetchDistance: 1)
        #expect(ids(viewModel) == Array(11 ... 20))
    }

    @Test func visibleRowsPrefetchBothEnds() {
        let feed = ScriptedFeed(ids: Array(1 ... 30), size: 5)
        let viewModel = opened(feed, at: 15)
        viewModel.loadNextPage()
        viewModel.loadPagesIfNeeded(visibleRows: 0 ... 4, prefetchDistance: 0)
        #expect(ids(viewModel) == Array(11 ... 25))
    }
}

@Suite("19. maxPages")
struct MaxPagesTests {
    @Test func beyondTheLimitThePageFarthestFromTheOneThatLandedIsDropped() {
        let feed = ScriptedFeed(ids: Array(1 ... 20), size: 3)
        let viewModel = opened(feed, at: 0, maxPages: 2)
        viewModel.loadNextPage()
        viewModel.loadNextPage()
        #expect(ids(viewModel) == [1, 2, 3, 4, 5, 6])
        let changes = Recorder(viewModel.changes)
        viewModel.loadNextPage()
        #expect(ids(viewModel) == [4, 5, 6, 7, 8, 9])
        #expect(changes.values == [.removed([0, 1, 2]), .appended(3 ..< 6)])
        #expect(viewModel.loadStates.value.prepend == .idle)
    }

    @Test func scrollingBackReloadsTheDroppedPagesByTheirProducers() {
        let feed = ScriptedFeed(ids: Array(1 ... 20), size: 3)
        let viewModel = opened(feed, at: 0, maxPages: 2)
        for _ in 0 ..< 4 { viewModel.loadNextPage() }
        #expect(ids(viewModel) == [7, 8, 9, 10, 11, 12])
        viewModel.loadPreviousPage()
        #expect(ids(viewModel) == [4, 5, 6, 7, 8, 9])
        #expect(viewModel.loadStates.value.append == .idle)
        viewModel.loadPreviousPage()
        #expect(ids(viewModel) == [1, 2, 3, 4, 5, 6])
        #expect(viewModel.loadStates.value.prepend == .complete)
        viewModel.loadNextPage()
        viewModel.loadNextPage()
        #expect(ids(viewModel) == [7, 8, 9, 10, 11, 12])
    }

    @Test func aWindowOverPagesThatLeadBothWaysRemembersNothingHoweverFarItScrolls() {
        let feed = ScriptedFeed(ids: Array(1 ... 300), size: 3)
        let viewModel = opened(feed, at: 150, maxPages: 3)
        for _ in 0 ..< 40 { viewModel.loadNextPage() }
        #expect(ids(viewModel) == Array(262 ... 270))
        #expect(MachinePeek(viewModel).rememberedRequests == 0, "the first page's previous leads back up")
        for _ in 0 ..< 80 { viewModel.loadPreviousPage() }
        #expect(ids(viewModel) == Array(22 ... 30))
        #expect(MachinePeek(viewModel).rememberedRequests == 0, "the last page's next leads back down")
        for _ in 0 ..< 7 { viewModel.loadPreviousPage() }
        #expect(ids(viewModel) == Array(1 ... 9))
        #expect(viewModel.loadStates.value.prepend == .complete)
    }

    @Test func aSourceWithoutPreviousProducersStillScrollsBackThroughDroppedPages() {
        let viewModel = PostViewModel(scheduler: ImmediateScheduler(), maxPages: 2) {
            postChain([[1, 2], [3, 4], [5, 6], [7, 8]])
        }
        for _ in 0 ..< 4 { viewModel.loadNextPage() }
        #expect(ids(viewModel) == [5, 6, 7, 8])
        #expect(viewModel.exhausted.value)
        #expect(MachinePeek(viewModel).rememberedRequests == 2, "no page leads up: the requests are kept")
        viewModel.loadPreviousPage()
        viewModel.loadPreviousPage()
        #expect(ids(viewModel) == [1, 2, 3, 4])
        #expect(viewModel.loadStates.value.prepend == .complete)
        #expect(!viewModel.exhausted.value)
    }

    @Test func editsKeepThePageCountsSoDropsRemoveExactlyAPage() {
        let feed = ScriptedFeed(ids: Array(1 ... 20), size: 3)
        let viewModel = opened(feed, at: 0, maxPages: 2)
        viewModel.loadNextPage()
        viewModel.insert([FeedPost(id: 100)], at: 0)
        viewModel.remove(id: 2)
        viewModel.loadNextPage()
        viewModel.loadNextPage()
        // The first page held 100, 1, 3 when it was dropped.
        #expect(ids(viewModel) == [4, 5, 6, 7, 8, 9])
    }

    @Test func aLoadInFlightAtTheEndThatLostPagesIsCutOff() {
        let feed = ScriptedFeed(ids: Array(1 ... 20), size: 3)
        let previous = PendingPage()
        let viewModel = PostViewModel(scheduler: ImmediateScheduler(), maxPages: 2) {
            PostProducer(value: Page(items: [FeedPost(id: 100)], previous: previous.producer, next: feed.page(at: 0)))
        }
        viewModel.loadNextPage()
        viewModel.loadPreviousPage()
        viewModel.loadNextPage()
        viewModel.loadNextPage()
        #expect(ids(viewModel) == [1, 2, 3, 4, 5, 6])
        previous.send([99])
        #expect(ids(viewModel) == [1, 2, 3, 4, 5, 6])
        #expect(viewModel.loadStates.value.prepend == .idle)
    }
}

/// An item whose release a `LeakChecker` can watch: each load of a page makes its rows afresh.
private final class Row: Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}

/// Page `k` of `pages` pages of 3 rows (`3k ..< 3k + 3`), leading both ways when `bothWays`.
private func rowPage(_ k: Int, of pages: Int, bothWays: Bool = true) -> Producer<Page<Row, Never>, Never> {
    Producer { observer, _ in
        observer.send(value: Page(
            items: (3 * k ..< 3 * k + 3).map(Row.init),
            previous: bothWays && k > 0 ? rowPage(k - 1, of: pages) : nil,
            next: k + 1 < pages ? rowPage(k + 1, of: pages, bothWays: bothWays) : nil
        ))
        observer.sendCompleted()
    }
}

@Suite("19. maxPages: memory")
struct MaxPagesMemoryTests {
    /// Runs `move`, then watches every row the window holds; returns the names of the rows alive among all
    /// those watched so far, and of the rows held.
    private static func step(
        _ viewModel: PaginatedListViewModel<Row, Never>, _ leaks: LeakChecker, _ move: () -> Void
    ) -> (alive: Set<String>, held: Set<String>) {
        move()
        var held: Set<String> = []
        for row in viewModel.items.value {
            leaks.watch(row, name: "row \(row.id)")
            held.insert("row \(row.id)")
        }
        // A description reads "row 7 (watched at …)".
        return (Set(leaks.alive.map { String($0.prefix { $0 != "(" }.dropLast()) }), held)
    }

    /// Both ways: the page now at an end leads back to a dropped page. One way: the request that loaded
    /// each page dropped at the top is kept instead; neither keeps a row.
    @Test(arguments: [true, false])
    func aDroppedPageIsFreedInEitherDirectionAndAfterATurn(bothWays: Bool) {
        let viewModel = PaginatedListViewModel<Row, Never>(scheduler: ImmediateScheduler(), maxPages: 2) {
            rowPage(5, of: 10, bothWays: bothWays)
        }
        let leaks = LeakChecker()
        // Down from the middle to the last page, up as far as the source goes, down again: every row a drop
        // removed is freed at once (no snapshot is held between moves), so the rows alive are the window's.
        let moves: [() -> Void] = Array(repeating: viewModel.loadNextPage, count: 5)
            + Array(repeating: viewModel.loadPreviousPage, count: 8)
            + Array(repeating: viewModel.loadNextPage, count: 3)
        for (index, move) in moves.enumerated() {
            let (alive, held) = Self.step(viewModel, leaks, move)
            #expect(alive == held, "after move \(index)")
        }
        // Both ways: pages 3 and 4 (up to page 0, down 3). One way: up to page 5 only, then down to the end.
        #expect(viewModel.items.value.map(\.id) == (bothWays ? Array(9 ..< 15) : Array(24 ..< 30)))
    }
}
