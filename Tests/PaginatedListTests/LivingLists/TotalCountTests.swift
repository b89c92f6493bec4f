import PaginatedList
import PaginatedListTesting
import Signals
import Synchronization
import Testing

/// A chain of pages of `pages` (ids), each saying `totals[i]` as its total, delivered when started.
private func totalChain(_ pages: [[Int]], totals: [Int?]) -> PostProducer {
    func page(_ index: Int) -> PostProducer {
        Producer { observer, _ in
            let next = index + 1 < pages.count ? page(index + 1) : nil
            observer.send(value: Page(items: pages[index].map { FeedPost(id: $0) }, next: next, totalCount: totals[index]))
            observer.sendCompleted()
        }
    }
    return page(0)
}

private typealias NeverViewModel = PaginatedListViewModel<FeedPost, Never>

/// A view model over `dependency`, every page loaded (at most 20).
private func loaded<D: PaginatedListDependency>(_ dependency: D) -> NeverViewModel where D.Item == FeedPost, D.Failure == Never {
    let viewModel = NeverViewModel(dependency: dependency, scheduler: ImmediateScheduler())
    for _ in 0 ..< 20 where !viewModel.exhausted.value { viewModel.loadNextPage() }
    return viewModel
}

@Suite("Total count")
struct TotalCountTests {
    @Test func aNewViewModelHasNoTotal() {
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { totalChain([[1]], totals: [7]) }
        #expect(viewModel.totalCount.value == nil)
    }

    @Test func aPageThatSaysItsTotalSetsTotalCount() {
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { totalChain([[1, 2]], totals: [1_284]) }
        viewModel.loadNextPage()
        #expect(viewModel.totalCount.value == 1_284)
    }

    @Test func aPageThatDoesNotSayKeepsTheLastTotalSaid() {
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { totalChain([[1], [2]], totals: [40, nil]) }
        viewModel.loadNextPage()
        viewModel.loadNextPage()
        #expect(viewModel.totalCount.value == 40)
    }

    @Test func aLaterPageThatSaysReplacesTheTotal() {
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { totalChain([[1], [2]], totals: [40, 41]) }
        viewModel.loadNextPage()
        viewModel.loadNextPage()
        #expect(viewModel.totalCount.value == 41)
    }

    @Test func aRefreshsPageThatSaysReplacesTheTotal() {
        let total = Locked<Int>(10)
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) {
            totalChain([[1, 2]], totals: [total.withLock { $0 }])
        }
        viewModel.loadNextPage()
        total.withLock { $0 = 11 }
        viewModel.refresh()
        #expect(viewModel.totalCount.value == 11)
    }

    @Test func aNegativeTotalSaysNothing() {
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { totalChain([[1], [2]], totals: [12, -1]) }
        viewModel.loadNextPage()
        viewModel.loadNextPage()
        #expect(viewModel.totalCount.value == 12)
    }

    @Test func resetClearsTheTotal() {
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { totalChain([[1]], totals: [3]) }
        viewModel.loadNextPage()
        viewModel.reset()
        #expect(viewModel.totalCount.value == nil)
    }

    @Test func aMaxPagesDropKeepsTheTotal() {
        let viewModel = PostViewModel(scheduler: ImmediateScheduler(), maxPages: 1) {
            totalChain([[1], [2]], totals: [9, nil])
        }
        viewModel.loadNextPage()
        viewModel.loadNextPage()
        #expect(viewModel.items.value.map(\.id) == [2])
        #expect(viewModel.totalCount.value == 9)
    }

    @Test func totalCountSendsOnlyWhenItChanges() {
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { totalChain([[1], [2], [3]], totals: [5, 5, 6]) }
        let sent = Recorder(viewModel.totalCount.signal)
        for _ in 0 ..< 3 { viewModel.loadNextPage() }
        #expect(sent.values == [5, 6])
    }

    @Test func totalCountHasChangedWhenTheItemsOfItsPageAreSent() {
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { totalChain([[1]], totals: [8]) }
        let seen = Recorder<Int?>()
        viewModel.items.signal.observeValues { [totalCount = viewModel.totalCount] _ in seen.append(totalCount.value) }
        viewModel.loadNextPage()
        #expect(seen.values == [8])
    }

    // MARK: - Sources

    @Test func anArraySourceSaysHowManyItemsItServes() {
        let viewModel = loaded(ArraySource((0 ..< 25).map { FeedPost(id: $0) }, pageSize: 10))
        #expect(viewModel.totalCount.value == 25)
    }

    @Test func aKeyedSourceChainShowsTheTotalOfItsKeyedPages() {
        let viewModel = NeverViewModel(source: ArraySource((0 ..< 25).map { FeedPost(id: $0) }, pageSize: 10),
                                       scheduler: ImmediateScheduler())
        viewModel.loadNextPage()
        #expect(viewModel.totalCount.value == 25)
    }

    @Test func aPageNumberSourceShowsTheResponsesTotalItems() {
        let source = PageNumberSource<FeedPost, Never>(firstPageIndex: 1, pageSize: 10) { page, size in
            Producer(value: PageNumberResponse(items: ((page - 1) * size ..< min(page * size, 25)).map { FeedPost(id: $0) },
                                               totalItems: 25))
        }
        let viewModel = NeverViewModel(dependency: source, scheduler: ImmediateScheduler())
        viewModel.loadNextPage()
        #expect(viewModel.totalCount.value == 25)
    }

    @Test func aPageNumberSourceShowsNoTotalFromTotalPagesAlone() {
        let source = PageNumberSource<FeedPost, Never>(firstPageIndex: 1, pageSize: 10) { page, size in
            Producer(value: PageNumberResponse(items: ((page - 1) * size ..< page * size).map { FeedPost(id: $0) },
                                               totalPages: 3))
        }
        let viewModel = NeverViewModel(dependency: source, scheduler: ImmediateScheduler())
        viewModel.loadNextPage()
        #expect(viewModel.totalCount.value == nil)
    }

    @Test func aResponsesTotalCountIsShownOverItsTotalItems() {
        let source = PageNumberSource<FeedPost, Never>(firstPageIndex: 1, pageSize: 10) { page, size in
            Producer(value: PageNumberResponse(items: ((page - 1) * size ..< page * size).map { FeedPost(id: $0) },
                                               totalItems: 100, totalCount: 99))
        }
        let viewModel = NeverViewModel(dependency: source, scheduler: ImmediateScheduler())
        viewModel.loadNextPage()
        #expect(viewModel.totalCount.value == 99)
    }

    @Test func anOffsetSourceShowsTheTotalOfAFullWindow() {
        let source = OffsetSource<FeedPost, Never>(limit: 10) { offset, limit in
            Producer(value: OffsetResponse(items: (offset ..< min(offset + limit, 60)).map { FeedPost(id: $0) },
                                           totalItems: 60))
        }
        let viewModel = NeverViewModel(dependency: source, scheduler: ImmediateScheduler())
        viewModel.loadNextPage()
        #expect(viewModel.items.value.count == 10)
        #expect(viewModel.totalCount.value == 60)
    }

    @Test func aCursorSourceShowsTheResponsesTotalCount() {
        let source = CursorSource<FeedPost, Int, Never> { cursor in
            let start = cursor ?? 0
            return Producer(value: CursorResponse(items: (start ..< start + 5).map { FeedPost(id: $0) }, previousCursor: nil,
                                                  nextCursor: start + 5 < 20 ? start + 5 : nil, totalCount: 20))
        }
        let viewModel = NeverViewModel(dependency: source, scheduler: ImmediateScheduler())
        viewModel.loadNextPage()
        #expect(viewModel.totalCount.value == 20)
    }
}
