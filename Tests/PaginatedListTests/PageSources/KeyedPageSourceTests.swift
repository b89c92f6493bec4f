import Foundation
import PaginatedList
import PaginatedListTesting
import Signals
import Testing

/// The keyed conformances of the built-in sources: each page names its neighbours' keys, a key survives
/// JSON encoding and decoding (a decoded key loads the same page), and a keyed source drives an in-memory
/// view model.
@Suite("Keyed page sources")
struct KeyedPageSourceTests {
    typealias Item = ChangingFeed.Item

    /// The value (or failure) a producer sends synchronously.
    static func load<Value, Failure>(_ producer: Producer<Value, Failure>) -> Result<Value, Failure>? {
        let box = Locked<Result<Value, Failure>?>(nil)
        producer.start { event in
            switch event {
            case let .value(value): box.withLock { $0 = .success(value) }
            case let .failed(error): box.withLock { $0 = .failure(error) }
            default: break
            }
        }
        return box.withLock { $0 }
    }

    static func page<Source: KeyedPageSource>(_ source: Source, at key: Source.Key?) -> KeyedPage<Source.Item, Source.Key>? {
        try? load(source.page(at: key))?.get()
    }

    static func roundTrip<Key: Codable>(_ key: Key) throws -> Key {
        try JSONDecoder().decode(Key.self, from: JSONEncoder().encode(key))
    }

    static let feed = (0 ..< 25).map(Item.init(id:))

    // MARK: - ArraySource

    @Test func arraySourceKeysAreThePageIndicesAroundThePage() {
        let source = ArraySource<Item, Never>(Self.feed, pageSize: 10, start: 12)
        let first = Self.page(source, at: nil)
        #expect(first?.items.map(\.id) == Array(10 ..< 20))
        #expect(first?.previous == 0)
        #expect(first?.next == 2)
        #expect(first?.totalCount == 25)
    }

    @Test func arraySourceLastPageHasNoNextAndFirstNoPrevious() {
        let source = ArraySource<Item, Never>(Self.feed, pageSize: 10)
        #expect(Self.page(source, at: 2)?.next == nil)
        #expect(Self.page(source, at: 2)?.items.map(\.id) == Array(20 ..< 25))
        #expect(Self.page(source, at: 0)?.previous == nil)
    }

    @Test func arraySourceDecodedKeyLoadsTheSamePage() throws {
        let source = ArraySource<Item, Never>(Self.feed, pageSize: 10)
        let key = try #require(Self.page(source, at: nil)?.next)
        #expect(Self.page(source, at: try Self.roundTrip(key))?.items == Self.page(source, at: key)?.items)
    }

    @Test func arraySourceFailureCountsTheStartsOfOneKeyedProducer() throws {
        let attempts = Recorder<Int>()
        let source = ArraySource<Item, TestError>(Self.feed, pageSize: 10) { page, attempt in
            attempts.append(attempt)
            return page == 1 && attempt == 1 ? TestError(1) : nil
        }
        let producer = source.page(at: 1)
        #expect(throws: TestError(1)) { try Self.load(producer)?.get() }
        #expect(try Self.load(producer)?.get().items.map(\.id) == Array(10 ..< 20))
        #expect(attempts.values == [1, 2])
    }

    @Test(arguments: [Int.max, Int.min, Int.max / 10 + 1])
    func arraySourceKeysOfAnyIntLoadAPageWithoutOverflow(_ key: Int) {
        // A key read back from a store file may be any number.
        let page = Self.page(ArraySource<Item, Never>(Self.feed, pageSize: 10), at: key)
        #expect(page != nil)
    }

    // MARK: - PageNumberSource

    @Test(arguments: [Int.max, Int.min])
    func pageNumberSourceKeysOfAnyIntLoadAPageWithNeighboursWithoutOverflow(_ key: Int) {
        let source = PageNumberSource<Item, Never>(pageSize: 10) { page, _ in
            Producer(value: PageNumberResponse(items: [Item(id: 0)], hasMore: true))
        }
        let page = Self.page(source, at: key)
        #expect(page?.items.map(\.id) == [0])
        #expect(page?.next != nil)
    }

    @Test func pageNumberSourceKeysArePageNumbersAndTheTotalIsKept() {
        let changing = ChangingFeed(count: 25)
        let source = PageNumberSource<Item, Never>(pageSize: 10) { page, size in
            changing.request { $0.page(page, size: size, firstPageIndex: 1, includeTotals: true) }
        }
        let first = Self.page(source, at: nil)
        #expect(first?.items.map(\.id) == Array(0 ..< 10))
        #expect(first?.previous == nil)
        #expect(first?.next == 2)
        #expect(first?.totalCount == 25)
        let last = Self.page(source, at: 3)
        #expect(last?.items.map(\.id) == Array(20 ..< 25))
        #expect(last?.previous == 2)
        #expect(last?.next == nil)
    }

    // MARK: - CursorSource

    @Test func cursorSourceKeysAreTheResponsesCursors() throws {
        let changing = ChangingFeed(count: 25)
        let source = CursorSource<Item, Int, Never> { cursor in
            changing.request { $0.cursor(after: cursor, limit: 10) }
        }
        let first = try #require(Self.page(source, at: nil))
        #expect(first.items.map(\.id) == Array(0 ..< 10))
        let key = try #require(first.next)
        let second = try #require(Self.page(source, at: try Self.roundTrip(key)))
        #expect(second.items.map(\.id) == Array(10 ..< 20))
    }

    @Test func cursorSourceRepeatedCursorOnAnEmptyPageEndsTheFeed() {
        let source = CursorSource<Int, String, Never> { cursor in
            Producer(value: CursorResponse(items: [], nextCursor: cursor ?? "same"))
        }
        #expect(Self.page(source, at: "same")?.next == nil)
    }

    @Test func cursorSourceRepeatedCursorOnAPageWithItemsEndsTheFeed() {
        let source = CursorSource<Int, String, Never> { cursor in
            Producer(value: CursorResponse(items: [1, 2], previousCursor: cursor, nextCursor: cursor ?? "same"))
        }
        let page = Self.page(source, at: "same")
        #expect(page?.items == [1, 2])
        #expect(page?.next == nil)
        #expect(page?.previous == nil)
    }

    // MARK: - IDSnapshotSource

    @Test func idSnapshotSourceKeyCarriesTheSnapshotAndGoesOnFromItsIndex() throws {
        let changing = ChangingFeed(count: 25)
        let source = IDSnapshotSource<Item, Never>(batchSize: 10) {
            changing.request { $0.ids() }
        } fetchItems: { ids in
            changing.request { $0.items(ids: ids) }
        }
        let first = try #require(Self.page(source, at: nil))
        let key = try #require(first.next)
        #expect(key.ids == Array(0 ..< 25))
        #expect(key.index == 10)
        changing.apply([.insert(count: 3, at: 0)])   // the snapshot holds: the next page does not move
        let second = try #require(Self.page(source, at: try Self.roundTrip(key)))
        #expect(second.items.map(\.id) == Array(10 ..< 20))
        #expect(second.previous == nil)
    }

    // MARK: - In memory

    @Test func keyedSourceDrivesAnInMemoryViewModelBothWays() {
        let source = ArraySource<Item, Never>(Self.feed, pageSize: 10, start: 12)
        let list = PaginatedListViewModel(source: source, scheduler: ImmediateScheduler())
        list.loadNextPage()
        list.loadPreviousPage()
        list.loadNextPage()
        #expect(list.items.value.map(\.id) == Array(0 ..< 25))
        #expect(list.loadStates.value.prepend == .complete)
        #expect(list.exhausted.value)
    }

    @Test func keyedSourceViewModelOpensAtTheStartKey() {
        let source = ArraySource<Item, Never>(Self.feed, pageSize: 10)
        let list = PaginatedListViewModel(source: source, start: 2, scheduler: ImmediateScheduler())
        list.loadNextPage()
        #expect(list.items.value.map(\.id) == Array(20 ..< 25))
    }

    @Test func keyedSourceViewModelLoadsDroppedPagesAgainFromTheirKeys() {
        let requests = Recorder<Int>()
        let source = ArraySource<Item, Never>(Self.feed, pageSize: 10) { page, _ in
            requests.append(page)
            return nil
        }
        let list = PaginatedListViewModel(source: source, scheduler: ImmediateScheduler(), maxPages: 2)
        for _ in 0 ..< 3 { list.loadNextPage() }
        #expect(list.items.value.map(\.id) == Array(10 ..< 25))
        list.loadPreviousPage()
        #expect(list.items.value.map(\.id) == Array(0 ..< 20))
        #expect(requests.values == [0, 1, 2, 0])
    }
}
