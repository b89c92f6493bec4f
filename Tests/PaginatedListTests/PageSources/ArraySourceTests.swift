import PaginatedList
import PaginatedListTesting
import Signals
import Testing

@Suite("ArraySource")
struct ArraySourceTests {
    struct Row: Identifiable, Sendable, Equatable {
        let id: Int
    }

    @Test func pagesTheWholeArrayExactlyOnceInOrder() {
        let session = drive(ArraySource<Int, Never>(Array(0 ..< 23), pageSize: 5))
        #expect(session.items == Array(0 ..< 23))
        #expect(session.exhausted)
    }

    @Test func thePageHoldingTheLastItemIsTheLast() {
        let model = PaginatedListViewModel(dependency: ArraySource<Int, Never>(Array(0 ..< 10), pageSize: 5),
                                           scheduler: ImmediateScheduler())
        model.loadNextPage()
        #expect(!model.exhausted.value)
        model.loadNextPage()
        #expect(model.exhausted.value)
        #expect(model.items.value.count == 10)
    }

    @Test func anEmptyArrayIsOneEmptyLastPage() {
        let session = drive(ArraySource<Int, Never>([], pageSize: 5))
        #expect(session.items.isEmpty)
        #expect(session.exhausted)
    }

    @Test func withLatencyAPageLandsOnlyWhenTheSchedulerReachesIt() {
        let clock = TestScheduler()
        let source = ArraySource<Int, Never>(Array(0 ..< 10), pageSize: 5, latency: .seconds(2), on: clock)
        let model = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        model.loadNextPage()
        clock.advance(by: .seconds(1))
        #expect(model.items.value.isEmpty)
        #expect(model.loading.value)
        clock.advance(by: .seconds(1))
        #expect(Array(model.items.value) == Array(0 ..< 5))
        #expect(!model.loading.value)
    }

    @Test func resetCancelsTheScheduledDelivery() {
        let clock = TestScheduler()
        let source = ArraySource<Int, Never>(Array(0 ..< 10), pageSize: 5, latency: .seconds(2), on: clock)
        let model = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        model.loadNextPage()
        #expect(clock.pendingCount == 1)
        model.reset()
        #expect(clock.pendingCount == 0)
        clock.run()
        #expect(model.items.value.isEmpty)
    }

    @Test func anInjectedFailureFailsThatAttemptAndTheRetryDelivers() {
        let source = ArraySource<Int, TestFailure>(Array(0 ..< 10), pageSize: 5) { page, attempt in
            page == 1 && attempt == 1 ? TestFailure(page: page) : nil
        }
        let model = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        model.loadNextPage()
        model.loadNextPage()
        #expect(model.lastError.value == TestFailure(page: 1))
        #expect(model.items.value.count == 5)
        model.loadNextPage()
        #expect(model.lastError.value == nil)
        #expect(Array(model.items.value) == Array(0 ..< 10))
        #expect(model.exhausted.value)
    }

    @Test func attemptsCountFromOneAgainAfterReset() {
        let attempts = MutableProperty<[Int]>([])
        let source = ArraySource<Int, Never>(Array(0 ..< 10), pageSize: 5) { _, attempt in
            attempts.modify { $0.append(attempt) }
            return nil
        }
        let model = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        model.loadNextPage()
        model.reset()
        model.loadNextPage()
        #expect(attempts.value == [1, 1])
    }

    @Test func identifiableItemsRepeatedAcrossPagesAreDeliveredOnce() {
        let rows = [0, 1, 2, 2, 3, 1].map(Row.init(id:))
        let session = drive(ArraySource<Row, Never>(rows, pageSize: 3))
        #expect(session.items.map(\.id) == [0, 1, 2, 3])
        #expect(session.corrections == [.duplicatesDropped(count: 2)])
    }

    @Test func keepAllDeliversIdentifiableItemsAsOftenAsTheArrayHoldsThem() {
        let rows = [0, 1, 2, 2, 3, 1].map(Row.init(id:))
        let source = ArraySource<Row, Never>(rows, pageSize: 3, deduplication: .keepAll)
        let pages = firstPages(of: source, count: 2)
        #expect(pages.flatMap(\.items).map(\.id) == [0, 1, 2, 2, 3, 1])
        #expect(pages.allSatisfy { $0.diagnostics.isEmpty })
    }

    @Test func plainItemsAreKeptByDefaultAndDroppedByAKey() {
        let words = ["a", "b", "c", "B", "d", "A"]
        #expect(drive(ArraySource<String, Never>(words, pageSize: 3)).items == words)
        let session = drive(ArraySource<String, Never>(words, pageSize: 3, deduplication: .byKey { $0.lowercased() }))
        #expect(session.items == ["a", "b", "c", "d"])
        #expect(session.corrections == [.duplicatesDropped(count: 2)])
    }

    @Test func byIDDropsWhatAutomaticDrops() {
        let rows = [0, 1, 2, 2, 3, 1].map(Row.init(id:))
        let session = drive(ArraySource<Row, Never>(rows, pageSize: 3, deduplication: .byID))
        #expect(session.items.map(\.id) == [0, 1, 2, 3])
        #expect(session.corrections == [.duplicatesDropped(count: 2)])
    }
}
