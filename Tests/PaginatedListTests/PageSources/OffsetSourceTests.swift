import PaginatedList
import PaginatedListTesting
import Signals
import Testing

@Suite("OffsetSource")
struct OffsetSourceTests {
    typealias Item = ChangingFeed.Item

    static func source(_ feed: ChangingFeed, limit: Int = 10, maxSearchDistance: Int = 64) -> OffsetSource<Item, Never> {
        OffsetSource(limit: limit, maxSearchDistance: maxSearchDistance) { offset, limit in
            feed.request { $0.offset(offset, limit: limit) }
        }
    }

    @Test func pagesAStaticFeedExactlyOnceInOrder() {
        let feed = ChangingFeed(count: 95)
        let session = drive(Self.source(feed))
        #expect(session.items.map(\.id) == Array(0 ..< 95))
        #expect(session.exhausted)
        #expect(session.diagnostics.isEmpty)
    }

    @Test func readsTheLastThreeItemsShownAgainAfterTheFirstPage() {
        let requests = MutableProperty<[[Int]]>([])
        let feed = ChangingFeed(count: 25)
        let source = OffsetSource<Item, Never>(limit: 10) { offset, limit in
            requests.modify { $0.append([offset, limit]) }
            return feed.request { $0.offset(offset, limit: limit) }
        }
        _ = drive(source)
        #expect(requests.value == [[0, 10], [7, 13], [17, 13]])
    }

    @Test func theLargestLimitAndSearchDistancePageAFeedWithoutOverflow() {
        let feed = ChangingFeed(count: 25, script: .steps([[.delete(count: 2, at: 3)]]))
        let session = drive(Self.source(feed, limit: .max, maxSearchDistance: .max))
        #expect(session.items.map(\.id) == Array(0 ..< 25))
        #expect(session.exhausted)
        #expect(OffsetSource<Item, Never>(limit: .max) { _, _ in Producer(value: []) }.limit == 1 << 30)
    }

    @Test func theLargestStartIsTakenAsTwoToTheFortyAndOpensWithoutOverflow() {
        let requests = MutableProperty<[[Int]]>([])
        let source = OffsetSource<Item, Never>(limit: .max, start: .max) { offset, limit in
            requests.modify { $0.append([offset, limit]) }
            return Producer(value: [])
        }
        #expect(source.start == 1 << 40)
        let session = drive(source)
        #expect(requests.value.first == [1 << 40, 1 << 30])
        #expect(session.items.isEmpty)
        #expect(session.exhausted)
    }

    @Test func aShortAnswerIsSettledByOneRequestBeyondThePagesBudget() {
        let requests = MutableProperty<[[Int]]>([])
        let feed = ChangingFeed(count: 15)
        let source = OffsetSource<Item, Never>(limit: 20, maxRequestsPerPage: 1) { offset, limit in
            requests.modify { $0.append([offset, limit]) }
            return feed.request { $0.offset(offset, limit: limit) }
        }
        let session = drive(source)
        #expect(session.items.map(\.id) == Array(0 ..< 15))
        #expect(session.exhausted)
        #expect(requests.value.count == 2, "the first answer, short, may be a cap: one request settles it")
    }

    @Test func anEmptyFeedIsOneEmptyLastPage() {
        let session = drive(Self.source(ChangingFeed(count: 0)))
        #expect(session.items.isEmpty)
        #expect(session.exhausted)
    }

    @Test func insertionsAboveAreDroppedAsDuplicatesAndThePageIsFilled() {
        // After the first page, three items are inserted at the top: items 7, 8, 9 come back.
        let feed = ChangingFeed(count: 30, script: .steps([[.insert(count: 3, at: 0)]]))
        let model = PaginatedListViewModel(dependency: Self.source(feed), scheduler: ImmediateScheduler())
        let diagnostics = MutableProperty<[PaginatedListDiagnostic]>([])
        model.diagnostics.observeValues { diagnostic in diagnostics.modify { $0.append(diagnostic) } }
        model.loadNextPage()
        model.loadNextPage()
        #expect(model.items.value.map(\.id) == Array(0 ..< 20))
        #expect(diagnostics.value == [.sourceCorrection(.duplicatesDropped(count: 3))])
    }

    @Test func insertionsOfMoreThanAPageAboveNeitherStallNorDuplicate() {
        let feed = ChangingFeed(count: 40, script: .steps([[.insert(count: 25, at: 0)]]))
        let session = drive(Self.source(feed))
        #expect(session.items.map(\.id) == Array(0 ..< 40))
        #expect(session.duplicatesDropped > 0)
    }

    @Test func deletionsAboveAreCaughtByStepingBackInsteadOfLeavingAHole() {
        // After the first page, items 2 and 3 are deleted: items 10 and 11 move up past the next offset.
        let feed = ChangingFeed(count: 30, script: .steps([[.delete(count: 2, at: 2)]]))
        let session = drive(Self.source(feed))
        #expect(session.items.map(\.id) == Array(0 ..< 30))
        #expect(session.corrections == [.resynchronised(by: 2)])
    }

    @Test func deletingTheLastLoadedItemAnchorsOnTheItemBeforeIt() {
        let feed = ChangingFeed(count: 30, script: .steps([[.delete(count: 1, at: 9), .delete(count: 3, at: 0)]]))
        let session = drive(Self.source(feed))
        #expect(session.items.map(\.id) == Array(0 ..< 30))
        #expect(feed.audit(session.items, reachedEnd: session.exhausted).holes.isEmpty)
    }

    @Test func aResynchronisationBeyondTheBoundIsReportedAsFailed() {
        let feed = ChangingFeed(count: 60, script: .steps([[.delete(count: 30, at: 0)]]))
        let session = drive(Self.source(feed, maxSearchDistance: 4))
        #expect(session.exhausted)
        #expect(session.corrections.contains(.resynchronisationFailed))
        #expect(Set(session.items.map(\.id)).count == session.items.count)
    }

    @Test(arguments: [1, 2, 3, 42, 2024] as [UInt64])
    func aFeedThatInsertsAndDeletesBetweenRequestsIsPagedWithoutDuplicatesOrHoles(seed: UInt64) {
        let feed = ChangingFeed(count: 300, script: .random(seed: seed, inserts: 0 ... 3, deletes: 0 ... 3))
        let session = drive(Self.source(feed))
        let audit = feed.audit(session.items, reachedEnd: session.exhausted)
        #expect(session.exhausted)
        #expect(audit.duplicates.isEmpty)
        #expect(audit.holes.isEmpty)
        #expect(audit.unknown.isEmpty)
        #expect(!session.corrections.isEmpty)
    }

    @Test(arguments: [5, 6, 7] as [UInt64])
    func heavyChurnOfUpToAPageBetweenRequestsLeavesNoDuplicatesOrHoles(seed: UInt64) {
        let feed = ChangingFeed(count: 500, script: .random(seed: seed, inserts: 0 ... 10, deletes: 0 ... 10))
        let session = drive(Self.source(feed))
        let audit = feed.audit(session.items, reachedEnd: session.exhausted)
        #expect(session.exhausted)
        #expect(audit.duplicates.isEmpty)
        #expect(audit.holes.isEmpty)
    }

    @Test func aFailedPageIsRetriedFromTheSamePosition() {
        let feed = ChangingFeed(count: 30)
        let failures = MutableProperty(1)
        let source = OffsetSource<Item, TestFailure>(limit: 10) { offset, limit in
            if offset > 0, failures.modify({ remaining in defer { remaining -= 1 }; return remaining > 0 }) {
                return Producer(error: TestFailure(page: 1))
            }
            return feed.request { $0.offset(offset, limit: limit) }
        }
        let model = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        model.loadNextPage()
        model.loadNextPage()
        #expect(model.lastError.value == TestFailure(page: 1))
        for _ in 0 ..< 4 { model.loadNextPage() }
        #expect(model.items.value.map(\.id) == Array(0 ..< 30))
        #expect(model.exhausted.value)
    }

    @Test func startingADeliveredPageAgainDeliversTheSameItems() {
        let source = Self.source(ChangingFeed(count: 30))
        let first = PageSlot<Item, Never>()
        first.load(source.firstPage())
        let (once, again) = (PageSlot<Item, Never>(), PageSlot<Item, Never>())
        once.load(first.page?.next)
        again.load(first.page?.next)
        #expect(once.page?.items.map(\.id) == Array(10 ..< 20))
        #expect(again.page?.items.map(\.id) == Array(10 ..< 20))
        let third = PageSlot<Item, Never>()
        third.load(again.page?.next)
        #expect(third.page?.items.map(\.id) == Array(20 ..< 30))
    }
}
