import PaginatedList
import PaginatedListTesting
import Signals
import Testing

@Suite("CursorSource")
struct CursorSourceTests {
    typealias Item = ChangingFeed.Item

    static func source(_ feed: ChangingFeed, cursors: MutableProperty<[Int?]>? = nil) -> CursorSource<Item, Int, Never> {
        CursorSource { cursor in
            cursors?.modify { $0.append(cursor) }
            return feed.request { $0.cursor(after: cursor, limit: 10) }
        }
    }

    @Test func pagesAStaticFeedExactlyOnceInOrder() {
        let session = drive(Self.source(ChangingFeed(count: 95)))
        #expect(session.items.map(\.id) == Array(0 ..< 95))
        #expect(session.exhausted)
    }

    @Test func startsWithANilCursorAndPassesEachNextCursorOn() {
        let cursors = MutableProperty<[Int?]>([])
        _ = drive(Self.source(ChangingFeed(count: 25), cursors: cursors))
        #expect(cursors.value == [nil, 9, 19])
    }

    @Test func aNilNextCursorEndsTheList() {
        let source = CursorSource<Int, String, Never> { cursor in
            Producer(value: cursor == nil ? CursorResponse(items: [1, 2], nextCursor: "b")
                                          : CursorResponse(items: [3], nextCursor: nil))
        }
        let session = drive(source)
        #expect(session.items == [1, 2, 3])
        #expect(session.exhausted)
    }

    @Test func keepAllDeliversIdentifiableItemsAnEarlierPageDelivered() {
        let source = CursorSource<Item, Int, Never>(deduplication: .keepAll) { cursor in
            Producer(value: cursor == nil ? CursorResponse(items: [0, 1, 2].map(Item.init(id:)), nextCursor: 1)
                                          : CursorResponse(items: [1, 2, 3].map(Item.init(id:)), nextCursor: nil))
        }
        let pages = firstPages(of: source, count: 2)
        #expect(pages.flatMap(\.items).map(\.id) == [0, 1, 2, 1, 2, 3])
        #expect(pages.allSatisfy { $0.diagnostics.isEmpty })
    }

    @Test func identifiableItemsAnEarlierPageDeliveredAreDroppedAndReported() {
        let source = CursorSource<Item, Int, Never> { cursor in
            Producer(value: cursor == nil ? CursorResponse(items: [0, 1, 2].map(Item.init(id:)), nextCursor: 1)
                                          : CursorResponse(items: [1, 2, 3].map(Item.init(id:)), nextCursor: nil))
        }
        let session = drive(source)
        #expect(session.items.map(\.id) == [0, 1, 2, 3])
        #expect(session.corrections == [.duplicatesDropped(count: 2)])
    }

    /// A server whose cursors name each other: nil → [1, 2] then "A", "A" → [3, 4] then "B", "B" → [5] then "A".
    private static func cyclingSource(_ cursors: MutableProperty<[String?]>) -> CursorSource<Item, String, Never> {
        CursorSource { cursor in
            cursors.modify { $0.append(cursor) }
            let (ids, next): ([Int], String) = switch cursor {
            case nil: ([1, 2], "A")
            case "A": ([3, 4], "B")
            default: ([5], "A")
            }
            return Producer(value: CursorResponse(items: ids.map { Item(id: $0) }, nextCursor: next))
        }
    }

    @Test func aCycleOfCursorsOnPagesThatBringNothingNewStopsEachLoadAtTheEmptyPagesLimit() {
        // A cursor fetched before may bring new items on a feed that moved (a keyset cursor re-issued), so
        // the source follows a cycle; the view model stops each load after 10 pages that bring nothing.
        let cursors = MutableProperty<[String?]>([])
        let model = PaginatedListViewModel(dependency: Self.cyclingSource(cursors), scheduler: ImmediateScheduler())
        let diagnostics = MutableProperty<[PaginatedListDiagnostic]>([])
        model.diagnostics.observeValues { diagnostic in diagnostics.modify { $0.append(diagnostic) } }
        for _ in 0 ..< 4 { model.loadNextPage() }
        #expect(model.items.value.map(\.id) == [1, 2, 3, 4, 5])
        let afterPages = cursors.value.count
        #expect(afterPages == 3 + 10, "three pages, then one load of ten empty ones")
        model.loadNextPage()
        #expect(cursors.value.count == afterPages + 10, "each later load asks at most ten pages")
        #expect(!model.loading.value)
        #expect(diagnostics.value.filter { if case .emptyPagesLimitReached = $0 { true } else { false } }.count == 2)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aKeysetCursorPagesAFeedThatInsertsAndDeletesWithoutDuplicatesOrHoles(seed: UInt64) {
        let feed = ChangingFeed(count: 300, script: .random(seed: seed, inserts: 0 ... 3, deletes: 0 ... 3))
        let session = drive(Self.source(feed))
        let audit = feed.audit(session.items, reachedEnd: session.exhausted)
        #expect(audit.duplicates.isEmpty)
        #expect(audit.holes.isEmpty)
    }
}
