import PaginatedList
import PaginatedListTesting
import Signals
import Testing

@Suite("IDSnapshotSource")
struct IDSnapshotSourceTests {
    typealias Item = ChangingFeed.Item

    static func source(_ feed: ChangingFeed, batchSize: Int = 10) -> IDSnapshotSource<Item, Never> {
        IDSnapshotSource(batchSize: batchSize,
                         fetchIDs: { feed.request { $0.ids() } },
                         fetchItems: { ids in feed.request { $0.items(ids: ids) } })
    }

    @Test func pagesAStaticFeedExactlyOnceInOrder() {
        let feed = ChangingFeed(count: 95)
        let session = drive(Self.source(feed))
        #expect(session.items.map(\.id) == Array(0 ..< 95))
        #expect(session.exhausted)
        #expect(feed.requestCount == 1 + 10)
    }

    @Test func fetchesTheSnapshotOnceForTheWholeChain() {
        let snapshots = MutableProperty(0)
        let feed = ChangingFeed(count: 30)
        let source = IDSnapshotSource<Item, Never>(
            batchSize: 10,
            fetchIDs: { snapshots.modify { $0 += 1 }; return feed.request { $0.ids() } },
            fetchItems: { ids in feed.request { $0.items(ids: ids) } })
        _ = drive(source)
        #expect(snapshots.value == 1)
    }

    @Test func deliversItemsInSnapshotOrderWhateverOrderTheServerAnswersIn() {
        let source = IDSnapshotSource<Item, Never>(
            batchSize: 3,
            fetchIDs: { Producer(value: [5, 3, 9, 1]) },
            fetchItems: { ids in Producer(value: ids.reversed().map(Item.init(id:))) })
        #expect(drive(source).items.map(\.id) == [5, 3, 9, 1])
    }

    @Test func itemsDeletedSinceTheSnapshotAreSkippedReportedAndThePageIsFilled() {
        // After the snapshot is taken, items 2 and 3 are deleted.
        let feed = ChangingFeed(count: 20, script: .steps([[.delete(count: 2, at: 2)]]))
        let model = PaginatedListViewModel(dependency: Self.source(feed, batchSize: 5), scheduler: ImmediateScheduler())
        let diagnostics = MutableProperty<[PaginatedListDiagnostic]>([])
        model.diagnostics.observeValues { diagnostic in diagnostics.modify { $0.append(diagnostic) } }
        model.loadNextPage()
        #expect(model.items.value.map(\.id) == [0, 1, 4, 5, 6])
        #expect(diagnostics.value == [.sourceCorrection(.missingItemsSkipped(count: 2))])
    }

    @Test func anIDTheSnapshotRepeatsIsDeliveredOnce() {
        let source = IDSnapshotSource<Item, Never>(
            batchSize: 2,
            fetchIDs: { Producer(value: [1, 2, 1, 3]) },
            fetchItems: { ids in Producer(value: ids.map(Item.init(id:))) })
        let session = drive(source)
        #expect(session.items.map(\.id) == [1, 2, 3])
        #expect(session.corrections == [.duplicatesDropped(count: 1)])
    }

    @Test func theTotalIsTheSnapshotsDistinctIDs() {
        let source = IDSnapshotSource<Item, Never>(
            batchSize: 2,
            fetchIDs: { Producer(value: [1, 2, 1, 3, 4]) },
            fetchItems: { ids in Producer(value: ids.map(Item.init(id:))) })
        let model = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        #expect(model.totalCount.value == nil)
        model.loadNextPage()
        #expect(model.totalCount.value == 4, "the repeated ID counts once")
    }

    @Test func itemsFoundDeletedLowerTheTotalToTheItemsDeliveredAtTheEnd() {
        // After the snapshot of 20 is taken, items 2 and 3 (first page) and 12 (third page) are deleted.
        let feed = ChangingFeed(count: 20, script: .steps([[.delete(count: 2, at: 2), .delete(count: 1, at: 10)]]))
        let model = PaginatedListViewModel(dependency: Self.source(feed, batchSize: 5), scheduler: ImmediateScheduler())
        var totals: [Int?] = []
        model.loadNextPage()
        totals.append(model.totalCount.value)
        while !model.exhausted.value {
            model.loadNextPage()
            totals.append(model.totalCount.value)
        }
        #expect(totals == [18, 18, 17, 17])
        #expect(model.totalCount.value == model.items.value.count)
    }

    @Test func aKeyedSourcesFirstPageSaysTheTotalAndThePagesOfAKeySayNone() throws {
        let feed = ChangingFeed(count: 12, script: .steps([[.delete(count: 1, at: 0), .delete(count: 1, at: 8)]]))
        let source = Self.source(feed, batchSize: 5)
        let first = MutableProperty<KeyedPage<Item, IDSnapshotPageKey<Item.ID>>?>(nil)
        source.page(at: nil).startWithValues { first.value = $0 }
        #expect(first.value?.totalCount == 11, "12 IDs, one found deleted by the first page")
        let key = try #require(first.value?.next)
        let second = MutableProperty<KeyedPage<Item, IDSnapshotPageKey<Item.ID>>?>(nil)
        source.page(at: key).startWithValues { second.value = $0 }
        #expect(second.value != nil)
        #expect(second.value?.totalCount == nil)
    }

    @Test(arguments: [(Int.min, [0, 1, 2, 3, 4]), (-1, [0, 1, 2, 3, 4]), (Int.max, []), (12, [])])
    func aKeyOfAnIndexOutOfTheSnapshotLoadsTheNearestPageWithoutATrap(_ index: Int, _ expected: [Int]) {
        // A key read back from a store file may hold any index.
        let source = Self.source(ChangingFeed(count: 12), batchSize: 5)
        let page = MutableProperty<KeyedPage<Item, IDSnapshotPageKey<Item.ID>>?>(nil)
        source.page(at: IDSnapshotPageKey(ids: Array(0 ..< 12), index: index)).startWithValues { page.value = $0 }
        #expect(page.value?.items.map(\.id) == expected)
        #expect((page.value?.next == nil) == expected.isEmpty, "past the end: the last page")
    }

    @Test func aBatchSizeBeyondTwoToTheThirtiethIsTakenAsThatAndPagesACappingServerWithoutATrap() {
        // 1,000 IDs, a server that serves at most 100 items a request, in order.
        let source = IDSnapshotSource<Item, Never>(
            batchSize: .max,
            fetchIDs: { Producer(value: Array(0 ..< 1_000)) },
            fetchItems: { ids in Producer(value: ids.prefix(100).map(Item.init(id:))) })
        #expect(source.batchSize == 1 << 30)
        let session = drive(source, maxLoads: 20)
        #expect(session.items.map(\.id) == Array(0 ..< 1_000))
        #expect(session.exhausted)
    }

    /// A source over `ids` whose server no longer has `gone(request)` (the request's number, from 0).
    static func source(_ ids: [Int], batchSize: Int, gone: @escaping @Sendable (Int) -> Set<Int>) -> IDSnapshotSource<Item, Never> {
        let requests = MutableProperty(0)
        return IDSnapshotSource(
            batchSize: batchSize,
            fetchIDs: { Producer(value: ids) },
            fetchItems: { asked in
                let request = requests.modify { count in
                    defer { count += 1 }
                    return count
                }
                return Producer(value: asked.filter { !gone(request).contains($0) }.map(Item.init(id:)))
            })
    }

    /// The view model's total after each page, to the end.
    static func totals(_ source: IDSnapshotSource<Item, Never>) -> (totals: [Int?], items: [Int]) {
        let model = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        var totals: [Int?] = []
        repeat {
            model.loadNextPage()
            totals.append(model.totalCount.value)
        } while !model.exhausted.value
        return (totals, model.items.value.map(\.id))
    }

    @Test func aRepeatedIDDeliveredOnceStaysCountedWhenItsOtherPlaceComesBackEmpty() {
        // Item 1 is delivered by the first page, then deleted: the snapshot's second place of it comes back empty.
        let (totals, items) = Self.totals(Self.source([1, 2, 3, 1], batchSize: 2) { request in request == 0 ? [] : [1] })
        #expect(items == [1, 2, 3])
        #expect(totals == [3, 3], "the total never falls below the items delivered")
    }

    @Test func aRepeatedIDFoundDeletedIsCountedAgainWhenItsOtherPlaceDeliversIt() {
        // The first page finds item 1 gone (left out before an item served); the second page's request serves it.
        let (totals, items) = Self.totals(Self.source([1, 2, 3, 1], batchSize: 2) { request in request == 0 ? [1] : [] })
        #expect(items == [2, 3, 1])
        #expect(totals == [2, 3], "the total comes back up to the items delivered")
    }

    @Test func anEmptySnapshotIsOneEmptyLastPage() {
        let session = drive(Self.source(ChangingFeed(count: 0)))
        #expect(session.items.isEmpty)
        #expect(session.exhausted)
    }

    @Test func anEmptySnapshotsTotalIsZero() {
        let model = PaginatedListViewModel(dependency: Self.source(ChangingFeed(count: 0)), scheduler: ImmediateScheduler())
        model.loadNextPage()
        #expect(model.totalCount.value == 0)
    }

    @Test(arguments: [1, 2, 3, 42, 2024] as [UInt64])
    func aFeedReRankedInsertedIntoAndDeletedFromBetweenRequestsIsPagedWithoutDuplicatesOrHoles(seed: UInt64) {
        let feed = ChangingFeed(count: 300, script: .random(seed: seed, inserts: 0 ... 3, deletes: 0 ... 3, moves: 0 ... 5))
        let session = drive(Self.source(feed))
        let audit = feed.audit(session.items, reachedEnd: session.exhausted)
        #expect(session.exhausted)
        #expect(audit.duplicates.isEmpty)
        #expect(audit.holes.isEmpty)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func onTheSameReRankingFeedPlainPageNumbersProduceDuplicatesAndHoles(seed: UInt64) {
        let feed = ChangingFeed(count: 300, script: .random(seed: seed, inserts: 0 ... 3, deletes: 0 ... 3, moves: 0 ... 5))
        let source = PageNumberSource<PageNumberSourceTests.Plain, Never>(pageSize: 10) { page, size in
            feed.request { $0.page(page, size: size).items.map { PageNumberSourceTests.Plain(id: $0.id) } }
                .map { PageNumberResponse(items: $0) }
        }
        let session = drive(source)
        let audit = feed.audit(session.items.map { Item(id: $0.id) }, reachedEnd: session.exhausted)
        #expect(!audit.duplicates.isEmpty)
        #expect(!audit.holes.isEmpty)
    }
}
