import PaginatedList
import PaginatedListTesting
import Signals
import Testing

/// Named regressions: feeds that re-rank, grow by a page or more between requests, and delete in bursts,
/// paged through a view model. Feeds are item IDs from 0, newest first.
@Suite("Changing-feed regressions")
struct ChangingFeedRegressionTests {
    typealias Item = ChangingFeed.Item

    /// An offset source over `feed` that counts its requests in `requests`.
    static func offsetSource(
        _ feed: ChangingFeed, limit: Int, maxSearchDistance: Int = 64, requests: MutableProperty<Int>? = nil
    ) -> OffsetSource<Item, Never> {
        OffsetSource(limit: limit, maxSearchDistance: maxSearchDistance) { offset, limit in
            requests?.modify { $0 += 1 }
            return feed.request { $0.offset(offset, limit: limit) }
        }
    }

    static func idSnapshotSource(_ feed: ChangingFeed, batchSize: Int) -> IDSnapshotSource<Item, Never> {
        IDSnapshotSource(batchSize: batchSize, fetchIDs: { feed.request { $0.ids() } },
                         fetchItems: { ids in feed.request { $0.items(ids: ids) } })
    }

    /// A view model on the immediate scheduler, with the diagnostics it reports.
    static func viewModel<D: PaginatedListDependency>(
        _ dependency: D
    ) -> (PaginatedListViewModel<Item, Never>, MutableProperty<[PaginatedListDiagnostic]>)
    where D.Item == Item, D.Failure == Never {
        let model = PaginatedListViewModel(dependency: dependency, scheduler: ImmediateScheduler())
        let diagnostics = MutableProperty<[PaginatedListDiagnostic]>([])
        model.diagnostics.observeValues { diagnostic in diagnostics.modify { $0.append(diagnostic) } }
        return (model, diagnostics)
    }

    // MARK: - 1. A re-rank of one item shown before

    @Test func anItemShownBeforeReRankedIntoTheUnreadPartIsDroppedNeverTakenAsTheAnchor() {
        // Pages of 3. After the second request the first item (shown) is re-ranked to position 7: the
        // next window holds 4 5 6 7 0 8, and 6 and 7 must not be consumed as if 0 were the anchor.
        let feed = ChangingFeed(count: 10, script: .steps([[], [.move(from: 0, to: 7)]]))
        let session = drive(Self.offsetSource(feed, limit: 3))
        #expect(session.items.map(\.id) == Array(0 ..< 10))
        #expect(session.exhausted)
        #expect(!session.corrections.contains { $0.impact == .possiblyLost })
        #expect(session.corrections.contains(.shownOutOfOrder(count: 1)))
    }

    @Test func aReRankToTheBottomAndADeletionAboveNeitherDropTheRestNorEndTheListEarly() {
        // 150 items, pages of 30. After four pages the item shown last is re-ranked to the bottom and an
        // item above the reader is deleted (both stay in the list: they were shown). The last window then
        // ends with the re-ranked item: taken as the anchor, it would consume 120-149 and end the list.
        let feed = ChangingFeed(count: 150, script: .steps([[], [], [], [.move(from: 119, to: 149), .delete(count: 1, at: 10)]]))
        let session = drive(Self.offsetSource(feed, limit: 30))
        #expect(session.items.map(\.id) == Array(0 ..< 150))
        #expect(session.exhausted)
        #expect(!session.corrections.contains { $0.impact == .possiblyLost })
    }

    // MARK: - 2. A feed that grows by a page or more per request

    @Test func aFeedGrowingByAPageAtTheTopBetweenRequestsDoesNotStallTheOffsetSource() {
        // 100 items, pages of 20, 20 new items at the top after every request.
        let feed = ChangingFeed(count: 100, script: .random(seed: 1, churn: .init(topInserts: 20 ... 20)))
        let requests = MutableProperty(0)
        let session = drive(Self.offsetSource(feed, limit: 20, requests: requests), maxLoads: 20)
        #expect(session.items.map(\.id) == Array(0 ..< 100))
        #expect(session.exhausted)
        #expect(requests.value <= 3 * (100 / 20 + 1))
        #expect(!session.corrections.contains(.feedOutpaced))
    }

    @Test func onAFirehosePageNumbersReportTheFeedOutpacedAndOneCommandMakesAtMostElevenRequests() {
        let feed = ChangingFeed(count: 100, script: .random(seed: 1, churn: .init(topInserts: 20 ... 20)))
        let source = PageNumberSource<Item, Never>(pageSize: 20) { page, size in feed.request { $0.page(page, size: size) } }
        let (model, diagnostics) = Self.viewModel(source)
        // A prefetch request that wants far more than a page: remembered while each page loads.
        model.loadPagesIfNeeded(visibleIndex: 0, prefetchDistance: 1_000)
        #expect(feed.requestCount == 1 + 10)
        #expect(model.items.value.map(\.id) == Array(0 ..< 20))
        #expect(diagnostics.value.filter { $0 == .sourceCorrection(.feedOutpaced) }.count == 10)
        #expect(diagnostics.value.last == .emptyPagesLimitReached(count: 10))
        #expect(model.loadStates.value.append == .idle)
        model.loadNextPage()
        #expect(feed.requestCount == 1 + 10 + 10)
    }

    @Test func anOffsetSourceBeyondItsBoundReportsTheFeedOutpacedAndOneCommandStaysWithinItsBound() {
        // Ten pages of 20 are shown; then 150 new items arrive at the top after every request: more than
        // a window reaches (3 + 20 + 64), so every window holds items shown before.
        let feed = ChangingFeed(count: 400, script: .steps(Array(repeating: [], count: 9)
                + Array(repeating: [.insert(count: 150, at: 0)], count: 200)))
        let requests = MutableProperty(0)
        let (model, diagnostics) = Self.viewModel(Self.offsetSource(feed, limit: 20, requests: requests))
        for _ in 0 ..< 10 { model.loadNextPage() }
        #expect(requests.value == 10)
        model.loadPagesIfNeeded(visibleIndex: 199)
        #expect(requests.value == 10 + 10 * 8)
        #expect(model.items.value.map(\.id) == Array(0 ..< 200))
        #expect(diagnostics.value.filter { $0 == .sourceCorrection(.feedOutpaced) }.count == 10)
        #expect(diagnostics.value.last == .emptyPagesLimitReached(count: 10))
        #expect(model.loadStates.value.append == .idle)
    }

    // MARK: - 3. Pages of one item

    @Test func pagesOfOneItemJumpOverItemsShownBeforeInsteadOfWalkingThemOneARequest() {
        // Pages of 1. After the fifth request, 12 items are inserted at the top: more than the 5 items
        // shown, so the next window holds only new items; the search finds the items shown at the end of
        // a wider window, and the shown items known to follow them are jumped over. Walking them one item
        // a request would take 12 requests and run out of a page's budget.
        let feed = ChangingFeed(count: 20, script: .steps([[], [], [], [], [.insert(count: 12, at: 0)]]))
        let requests = MutableProperty(0)
        let session = drive(Self.offsetSource(feed, limit: 1, requests: requests))
        #expect(session.items.map(\.id) == Array(0 ..< 20))
        #expect(session.exhausted)
        // A request a page, one for the end, one for the search and one for the jump.
        #expect(requests.value == 20 + 1 + 2)
        #expect(!session.corrections.contains(.resynchronisationFailed))
        #expect(!session.corrections.contains(.feedOutpaced))
    }

    // MARK: - 4. Empty pages

    /// A feed of 100 whose IDs 10-89 are deleted right after the snapshot is taken: a removed spam wave.
    static func spamWave() -> ChangingFeed {
        ChangingFeed(count: 100, script: .steps([[.delete(count: 80, at: 10)]]))
    }

    static let survivors = Array(0 ..< 10) + Array(90 ..< 100)

    @Test func anItemsObserverThatLoadsTheNextPageIsNeverStrandedByPagesWhoseItemsWereAllDeleted() {
        let (model, _) = Self.viewModel(Self.idSnapshotSource(Self.spamWave(), batchSize: 1))
        model.items.signal.observeValues { [weak model] _ in model?.loadNextPage() }
        model.loadNextPage()
        #expect(model.items.value.map(\.id) == Self.survivors)
        #expect(model.exhausted.value)
    }

    @Test func loadNextPageCrossesARunOfDeletedItemsInOneCommand() {
        let (model, diagnostics) = Self.viewModel(Self.idSnapshotSource(Self.spamWave(), batchSize: 1))
        for _ in 0 ..< 10 { model.loadNextPage() }
        #expect(model.items.value.count == 10)
        model.loadNextPage()
        #expect(model.items.value.map(\.id) == Array(0 ..< 10) + [90])
        let skipped = diagnostics.value.reduce(0) {
            if case let .sourceCorrection(.missingItemsSkipped(count)) = $1 { $0 + count } else { $0 }
        }
        #expect(skipped == 80)
        #expect(!diagnostics.value.contains { if case .emptyPagesLimitReached = $0 { true } else { false } })
    }

    @Test func aPrefetchRequestCrossesARunOfDeletedItemsInOneCall() {
        let (model, _) = Self.viewModel(Self.idSnapshotSource(Self.spamWave(), batchSize: 1))
        for _ in 0 ..< 10 { model.loadNextPage() }
        model.loadPagesIfNeeded(visibleIndex: 9, prefetchDistance: 0)
        #expect(model.items.value.map(\.id) == Array(0 ..< 10) + [90])
    }

    @Test func pagesOfTwentyCrossEightyDeletedItemsInOnePage() {
        let feed = Self.spamWave()
        let (model, _) = Self.viewModel(Self.idSnapshotSource(feed, batchSize: 20))
        model.loadNextPage()
        #expect(model.items.value.map(\.id) == Self.survivors)
        #expect(feed.requestCount <= 1 + 4)
    }

    // MARK: - Requests far out of range

    /// A page number or a size far out of range asks for nothing, or for the rest of the feed; it never traps
    /// (the page count was `(count + size - 1) / size`, and the offset `(page - first) * size`).
    @Test func aPageNumberOrSizeFarOutOfRangeAnswersWithoutTrapping() {
        let feed = ChangingFeed(count: 45)
        let whole = feed.page(1, size: .max, includeTotals: true)
        #expect(whole.items.map(\.id) == Array(0 ..< 45))
        #expect(whole.totalPages == 1 && whole.totalItems == 45)
        #expect(feed.page(2, size: .max, includeTotals: true).items.isEmpty)
        #expect(feed.page(.max, size: 20).items.isEmpty)
        #expect(feed.page(.min, size: 20).items.isEmpty)
        let none = feed.page(1, size: 0, includeTotals: true)
        #expect(none.items.isEmpty && none.totalPages == nil && none.totalItems == 45)
        #expect(feed.page(3, size: 20, includeTotals: true).totalPages == 3)
        #expect(feed.offset(40, limit: .max).map(\.id) == Array(40 ..< 45))
        #expect(feed.cursor(after: 39, limit: .max).items.map(\.id) == Array(40 ..< 45))
    }
}
