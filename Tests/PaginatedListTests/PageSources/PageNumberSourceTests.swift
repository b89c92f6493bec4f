import PaginatedList
import PaginatedListTesting
import Signals
import Testing

@Suite("PageNumberSource")
struct PageNumberSourceTests {
    typealias Item = ChangingFeed.Item

    /// A feed item that is not `Identifiable`: what a source that cannot de-duplicate sees.
    struct Plain: Sendable, Equatable {
        let id: Int
    }

    static func source(_ feed: ChangingFeed, size: Int = 10, totals: Bool = false,
                       requests: MutableProperty<[Int]>? = nil) -> PageNumberSource<Item, Never> {
        PageNumberSource(firstPageIndex: 1, pageSize: size) { page, size in
            requests?.modify { $0.append(page) }
            return feed.request { $0.page(page, size: size, includeTotals: totals) }
        }
    }

    @Test func pagesAStaticFeedExactlyOnceInOrder() {
        let session = drive(Self.source(ChangingFeed(count: 95)))
        #expect(session.items.map(\.id) == Array(0 ..< 95))
        #expect(session.exhausted)
    }

    @Test func theLargestNumbersArePagedWithoutOverflow() {
        let requests = MutableProperty<[Int]>([])
        let source = PageNumberSource<Item, Never>(firstPageIndex: .max, startPage: .max, pageSize: .max) { page, size in
            requests.modify { $0.append(page) }
            return Producer(value: PageNumberResponse(items: [Item(id: page)], totalItems: .max))
        }
        #expect(source.firstPageIndex == 1 << 30)
        #expect(source.startPage == 1 << 31)
        #expect(source.pageSize == 1 << 30)
        let session = drive(source, maxLoads: 3)
        #expect(requests.value == [1 << 31, 1 << 31 + 1, 1 << 31 + 2])
        #expect(session.items.count == 3)
    }

    @Test(arguments: [Int.min, -1])
    func aNegativeTotalIsTakenAsNotSaidAndDoesNotTrap(_ total: Int) {
        // Full pages that say "more" with a nonsense total: the total neither ends the list nor overflows.
        let source = PageNumberSource<Item, Never>(pageSize: 10) { page, size in
            let ids = (page - 1) * size ..< min(page * size, 25)
            return Producer(value: PageNumberResponse(items: ids.map { Item(id: $0) }, totalPages: total, totalItems: total,
                                                      hasMore: page * size < 25 ? true : nil))
        }
        let session = drive(source, maxLoads: 10)
        #expect(session.items.map(\.id) == Array(0 ..< 25))
        #expect(session.exhausted)
    }

    @Test func countsPagesFromTheConfiguredFirstIndex() {
        let requests = MutableProperty<[Int]>([])
        let feed = ChangingFeed(count: 25)
        let source = PageNumberSource<Item, Never>(firstPageIndex: 0, pageSize: 10) { page, size in
            requests.modify { $0.append(page) }
            return feed.request { $0.page(page, size: size, firstPageIndex: 0) }
        }
        let session = drive(source)
        #expect(requests.value == [0, 1, 2])
        #expect(session.items.map(\.id) == Array(0 ..< 25))
    }

    @Test func aShortPageEndsTheList() {
        let requests = MutableProperty<[Int]>([])
        _ = drive(Self.source(ChangingFeed(count: 95), requests: requests))
        #expect(requests.value == Array(1 ... 10))
    }

    @Test func anEmptyPageEndsTheListWhenTheFeedIsAMultipleOfThePageSize() {
        let requests = MutableProperty<[Int]>([])
        let session = drive(Self.source(ChangingFeed(count: 30), requests: requests))
        #expect(requests.value == [1, 2, 3, 4])
        #expect(session.items.count == 30)
        #expect(session.exhausted)
    }

    @Test func withEmptyPageEndingAShortPageDoesNotEndTheList() {
        let pages: [[Int]] = [[1, 2], [3], [4, 5], []]
        let source = PageNumberSource<Int, Never>(firstPageIndex: 0, pageSize: 2, endOfList: .emptyPage) { page, _ in
            Producer(value: PageNumberResponse(items: pages[page]))
        }
        let session = drive(source)
        #expect(session.items == [1, 2, 3, 4, 5])
        #expect(session.exhausted)
    }

    @Test func totalPagesEndsTheListWithoutAnExtraRequest() {
        let requests = MutableProperty<[Int]>([])
        let session = drive(Self.source(ChangingFeed(count: 30), totals: true, requests: requests))
        #expect(requests.value == [1, 2, 3])
        #expect(session.exhausted)
    }

    @Test func totalItemsEndsTheListWithoutAnExtraRequest() {
        let requests = MutableProperty<[Int]>([])
        let source = PageNumberSource<Int, Never>(pageSize: 3) { page, size in
            requests.modify { $0.append(page) }
            let items = Array((page - 1) * size ..< min(page * size, 6))
            return Producer(value: PageNumberResponse(items: items, totalItems: 6))
        }
        let session = drive(source)
        #expect(requests.value == [1, 2])
        #expect(session.items == Array(0 ..< 6))
    }

    @Test func plainItemsAnEarlierPageDeliveredAreDroppedByAKey() {
        let pages: [[Int]] = [[0, 1, 2], [2, 3, 4], [4, 5]]
        let source = PageNumberSource<Int, Never>(pageSize: 3, deduplication: .byKey { $0 }) { page, _ in
            Producer(value: PageNumberResponse(items: pages[page - 1]))
        }
        let session = drive(source)
        #expect(session.items == Array(0 ... 5))
        #expect(session.corrections == [.duplicatesDropped(count: 1), .duplicatesDropped(count: 1)])
    }

    @Test func identifiableItemsAnEarlierPageDeliveredAreDroppedAndReported() {
        let pages: [[Int]] = [[0, 1, 2], [2, 3, 4], [4, 5]]
        let source = PageNumberSource<Item, Never>(pageSize: 3) { page, _ in
            Producer(value: PageNumberResponse(items: pages[page - 1].map(Item.init(id:))))
        }
        let session = drive(source)
        #expect(session.items.map(\.id) == Array(0 ... 5))
        #expect(session.corrections == [.duplicatesDropped(count: 1), .duplicatesDropped(count: 1)])
    }

    @Test func aRetriedPageDeliversItsItemsAgain() {
        let failed = MutableProperty(false)
        let source = PageNumberSource<Item, TestFailure>(pageSize: 3) { page, _ in
            if page == 2, !failed.value {
                failed.value = true
                return Producer(error: TestFailure(page: 2))
            }
            return Producer(value: PageNumberResponse(items: ((page - 1) * 3 ..< page * 3).map(Item.init(id:)),
                                                      totalPages: 3))
        }
        let model = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        for _ in 0 ..< 4 { model.loadNextPage() }
        #expect(model.items.value.map(\.id) == Array(0 ..< 9))
        #expect(model.exhausted.value)
    }

    // MARK: - What plain page numbers get wrong on a feed that changes

    @Test func onAFeedThatChangesPlainPageNumbersRepeatItemsAfterInsertionsAndSkipItemsAfterDeletions() {
        // After page 1: two items inserted at the top (page 2 repeats 8 and 9, ends at 17). After page 2:
        // three items deleted at the top (page 3 starts at 21: 18, 19, 20 are never seen).
        let feed = ChangingFeed(count: 40, script: .steps([[.insert(count: 2, at: 0)], [.delete(count: 3, at: 0)]]))
        let source = PageNumberSource<Plain, Never>(pageSize: 10) { page, size in
            feed.request { $0.page(page, size: size).items.map { Plain(id: $0.id) } }
                .map { PageNumberResponse(items: $0) }
        }
        let session = drive(source)
        let audit = feed.audit(session.items.map { Item(id: $0.id) }, reachedEnd: session.exhausted)
        #expect(audit.duplicates == [8, 9])
        #expect(audit.holes == [18, 19, 20])
    }

    @Test(arguments: [1, 2, 3, 42, 2024] as [UInt64])
    func onTheChurningFeedPlainPageNumbersProduceDuplicatesAndHoles(seed: UInt64) {
        // The same script the offset source pages without a duplicate or a hole.
        let feed = ChangingFeed(count: 300, script: .random(seed: seed, inserts: 0 ... 3, deletes: 0 ... 3))
        let source = PageNumberSource<Plain, Never>(pageSize: 10) { page, size in
            feed.request { $0.page(page, size: size).items.map { Plain(id: $0.id) } }
                .map { PageNumberResponse(items: $0) }
        }
        let session = drive(source)
        let audit = feed.audit(session.items.map { Item(id: $0.id) }, reachedEnd: session.exhausted)
        #expect(!audit.duplicates.isEmpty)
        #expect(!audit.holes.isEmpty)
    }

    @Test(arguments: [1, 2, 3, 42, 2024] as [UInt64])
    func onTheChurningFeedDeduplicationRemovesTheDuplicatesButNotTheHoles(seed: UInt64) {
        let feed = ChangingFeed(count: 300, script: .random(seed: seed, inserts: 0 ... 3, deletes: 0 ... 3))
        let session = drive(Self.source(feed))
        let audit = feed.audit(session.items, reachedEnd: session.exhausted)
        #expect(audit.duplicates.isEmpty)
        #expect(session.duplicatesDropped > 0)
        #expect(!audit.holes.isEmpty)
    }
}
