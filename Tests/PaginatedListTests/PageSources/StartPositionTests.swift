import PaginatedList
import PaginatedListTesting
import Signals
import Testing

/// Every source opened in the middle of a feed of 100 items (pages of 10), scrolled up to the top with
/// `loadPreviousPage()` and down to the end with `loadNextPage()` through a view model: the whole feed is
/// held once, in order, and each end is complete; with `maxPages`, a window scrolled both ways loads the
/// pages it dropped again through the end they were dropped at.
@Suite("Start positions")
struct StartPositionTests {
    typealias Item = ChangingFeed.Item

    static let all = Array(0 ..< 100)

    // MARK: - The sources, each logging the requests it makes

    static func arraySource(start: Int, log: RequestLog<Int>? = nil) -> ArraySource<Item, Never> {
        ArraySource(all.map(Item.init(id:)), pageSize: 10, start: start) { page, _ in
            log?.record(page)
            return nil
        }
    }

    static func pageNumberSource(
        startPage: Int?, firstPageIndex: Int = 1, feed: ChangingFeed = ChangingFeed(count: 100),
        log: RequestLog<Int>? = nil
    ) -> PageNumberSource<Item, Never> {
        PageNumberSource(firstPageIndex: firstPageIndex, startPage: startPage, pageSize: 10) { page, size in
            log?.record(page)
            return feed.request { $0.page(page, size: size, firstPageIndex: firstPageIndex) }
        }
    }

    static func offsetSource(start: Int, feed: ChangingFeed = ChangingFeed(count: 100),
                             log: RequestLog<Int>? = nil) -> OffsetSource<Item, Never> {
        OffsetSource(limit: 10, start: start) { offset, limit in
            log?.record(offset)
            return feed.request { $0.offset(offset, limit: limit) }
        }
    }

    /// A keyset cursor API over `all` that pages backwards too: `.after(id)` is the page after item `id`,
    /// `.before(id)` the page that ends just above it.
    enum Cursor: Hashable, Sendable {
        case after(Int)
        case before(Int)
    }

    static func cursorResponse(_ cursor: Cursor?, count: Int = 100) -> CursorResponse<Item, Cursor> {
        let range: Range<Int> = switch cursor {
        case nil: 0 ..< min(10, count)
        case let .after(id): id + 1 ..< min(id + 11, count)
        case let .before(id): max(0, id - 10) ..< id
        }
        return CursorResponse(items: range.map(Item.init(id:)),
                              previousCursor: range.lowerBound > 0 ? .before(range.lowerBound) : nil,
                              nextCursor: range.upperBound < count ? .after(range.upperBound - 1) : nil)
    }

    static func cursorSource(start: Cursor?, log: RequestLog<Cursor?>? = nil) -> CursorSource<Item, Cursor, Never> {
        CursorSource(start: start) { cursor in
            log?.record(cursor)
            return Producer(value: cursorResponse(cursor))
        }
    }

    enum Kind: String, CaseIterable, CustomStringConvertible, Sendable {
        case array, pageNumber, offset, cursor
        var description: String { rawValue }

        /// The source of `kind`, opened at item 55 (its page holds items 50-59).
        func scrolled(maxPages: Int? = nil) -> ScrolledList<Never> {
            switch self {
            case .array: ScrolledList(StartPositionTests.arraySource(start: 55), maxPages: maxPages)
            case .pageNumber: ScrolledList(StartPositionTests.pageNumberSource(startPage: 6), maxPages: maxPages)
            case .offset: ScrolledList(StartPositionTests.offsetSource(start: 50), maxPages: maxPages)
            case .cursor: ScrolledList(StartPositionTests.cursorSource(start: .after(49)), maxPages: maxPages)
            }
        }
    }

    // MARK: - The whole feed, both ways

    @Test(arguments: Kind.allCases)
    func openedInTheMiddleEachSourceScrollsToBothEndsHoldingTheFeedOnceInOrder(_ kind: Kind) {
        let list = kind.scrolled()
        list.open()
        #expect(list.ids == Array(50 ..< 60))
        #expect(list.loadStates.prepend == .idle)
        list.scrollToTop()
        #expect(list.ids == Array(0 ..< 60))
        #expect(list.loadStates.prepend == .complete)
        #expect(list.loadStates.append == .idle)
        list.scrollToEnd()
        #expect(list.ids == Self.all)
        #expect(list.loadStates.prepend == .complete)
        #expect(list.loadStates.append == .complete)
        #expect(list.broken == nil)
        #expect(list.corrections.isEmpty)
    }

    @Test(arguments: Kind.allCases)
    func downFirstThenUpHoldsTheSameFeed(_ kind: Kind) {
        let list = kind.scrolled()
        list.open()
        list.scrollToEnd()
        #expect(list.ids == Array(50 ..< 100))
        list.scrollToTop()
        #expect(list.ids == Self.all)
        #expect(list.loadStates.prepend == .complete)
        #expect(list.broken == nil)
    }

    @Test(arguments: Kind.allCases)
    func aWindowScrolledBothWaysLoadsTheDroppedPagesAgainThroughTheEndTheyWereDroppedAt(_ kind: Kind) {
        let list = kind.scrolled(maxPages: 3)
        list.open()
        list.scrollToTop()
        #expect(list.ids == Array(0 ..< 30))
        #expect(list.loadStates.prepend == .complete)
        #expect(list.loadStates.append == .idle, "the pages dropped below wait to be loaded again")
        list.scrollToEnd()
        #expect(list.ids == Array(70 ..< 100))
        #expect(list.loadStates.append == .complete)
        #expect(list.loadStates.prepend == .idle)
        list.scrollToTop()
        #expect(list.ids == Array(0 ..< 30))
        #expect(list.loadStates.prepend == .complete)
        #expect(list.rowsDropped > 0)
        #expect(list.broken == nil)
        #expect(list.corrections.isEmpty)
    }

    // MARK: - Which pages each source asks for

    @Test func anArraySourceReloadsDroppedPagesInTheOrderTheWindowComesBackToThem() {
        let log = RequestLog<Int>()
        let list = ScrolledList(Self.arraySource(start: 55, log: log), maxPages: 3)
        list.open()
        list.scrollToTop()
        #expect(log.requests == [5, 4, 3, 2, 1, 0])
        log.clear()
        list.scrollToEnd()
        #expect(log.requests == [3, 4, 5, 6, 7, 8, 9])
        log.clear()
        list.scrollToTop()
        #expect(log.requests == [6, 5, 4, 3, 2, 1, 0])
    }

    @Test func anArraySourceOpensAtThePageHoldingTheStartItem() {
        for (start, page) in [(0, 0), (9, 0), (10, 1), (55, 5), (99, 9)] {
            let list = ScrolledList(Self.arraySource(start: start))
            list.open()
            #expect(list.ids == Array(page * 10 ..< page * 10 + 10), "start \(start)")
            #expect(list.loadStates.prepend == (page == 0 ? .complete : .idle), "start \(start)")
        }
    }

    @Test func anArraySourceClampsAStartOutsideTheArray() {
        let past = ScrolledList(Self.arraySource(start: 500))
        past.open()
        #expect(past.ids == Array(90 ..< 100))
        #expect(past.loadStates.append == .complete)
        past.scrollToTop()
        #expect(past.ids == Self.all)
        let negative = ScrolledList(Self.arraySource(start: -3))
        negative.open()
        #expect(negative.ids == Array(0 ..< 10))
        #expect(negative.loadStates.prepend == .complete)
        let empty = ScrolledList<Never>(ArraySource<Item, Never>([], pageSize: 10, start: 5))
        empty.open()
        #expect(empty.ids.isEmpty)
        #expect(empty.loadStates.prepend == .complete)
        #expect(empty.loadStates.append == .complete)
    }

    @Test func aPageNumberSourceAsksForThePagesAboveDownToTheFirstIndex() {
        for firstPageIndex in [0, 1] {
            let log = RequestLog<Int>()
            let list = ScrolledList(Self.pageNumberSource(startPage: firstPageIndex + 3, firstPageIndex: firstPageIndex,
                                                          log: log))
            list.open()
            list.scrollToTop()
            #expect(log.requests == [3, 2, 1, 0].map { $0 + firstPageIndex })
            #expect(list.ids == Array(0 ..< 40))
            #expect(list.loadStates.prepend == .complete)
        }
    }

    @Test func aPageNumberSourceOpensAtTheFirstIndexForAStartBelowIt() {
        let log = RequestLog<Int>()
        let list = ScrolledList(Self.pageNumberSource(startPage: -4, log: log))
        list.open()
        #expect(log.requests == [1])
        #expect(list.ids == Array(0 ..< 10))
        #expect(list.loadStates.prepend == .complete)
    }

    @Test func aPageNumberStartPastTheEndIsAnEmptyListWithNothingBeforeIt() {
        let log = RequestLog<Int>()
        let list = ScrolledList(Self.pageNumberSource(startPage: 40, log: log))
        list.open()
        #expect(list.ids.isEmpty)
        #expect(list.loadStates.prepend == .complete)
        #expect(list.loadStates.append == .complete)
        #expect(log.requests == [40])
    }

    @Test func anOffsetSourceReadsThePageAboveWithTheOverlapBelowIt() {
        let log = RequestLog<Int>()
        let list = ScrolledList(Self.offsetSource(start: 50, log: log))
        list.open()
        list.scrollToTop()
        // Each page above reads its 10 items and the 3 shown below them; the last one starts at the top.
        #expect(log.requests == [50, 40, 30, 20, 10, 0])
        #expect(list.ids == Array(0 ..< 60))
    }

    @Test func anOffsetStartPastTheEndIsAnEmptyListWithNothingBeforeIt() {
        let list = ScrolledList(Self.offsetSource(start: 500))
        list.open()
        #expect(list.ids.isEmpty)
        #expect(list.loadStates.prepend == .complete)
        #expect(list.loadStates.append == .complete)
    }

    @Test func anOffsetStartNotOnAPageBoundaryReachesTheTopWithAShortPage() {
        let list = ScrolledList(Self.offsetSource(start: 47))
        list.open()
        #expect(list.ids == Array(47 ..< 57))
        list.scrollToTop()
        #expect(list.ids == Array(0 ..< 57))
        list.scrollToEnd()
        #expect(list.ids == Self.all)
        #expect(list.corrections.isEmpty)
        #expect(list.broken == nil)
    }

    @Test func anOffsetStartAtTheLastItemsReadsUpFromTheBottomOfTheFeed() {
        for start in [97, 98, 99] {
            let list = ScrolledList(Self.offsetSource(start: start))
            list.open()
            #expect(list.loadStates.append == .complete, "start \(start)")
            list.scrollToTop()
            #expect(list.ids == Self.all, "start \(start)")
            #expect(list.corrections.isEmpty, "start \(start)")
        }
    }

    @Test func aCursorSourceFollowsThePreviousCursorsAndAPageAboveLeadsBackDown() {
        let log = RequestLog<Cursor?>()
        let list = ScrolledList(Self.cursorSource(start: .after(29), log: log))
        list.open()
        list.scrollToTop()
        #expect(log.requests == [.after(29), .before(30), .before(20), .before(10)])
        #expect(list.ids == Array(0 ..< 40))
        let above = PageSlot<Item, Never>()
        above.load(Self.cursorSource(start: .before(50)).firstPage())
        let page = PageSlot<Item, Never>()
        page.load(above.page?.previous)
        #expect(page.page?.items.map(\.id) == Array(30 ..< 40))
        #expect(page.page?.previous != nil)
        let below = PageSlot<Item, Never>()
        below.load(page.page?.next)
        #expect(below.page?.items.map(\.id) == Array(40 ..< 50), "the page above loads the first page again")
    }

    @Test func aCursorThatRepeatsTheCursorOfAPageWithNothingNewEndsThatDirection() {
        let log = RequestLog<String?>()
        let source = CursorSource<Item, String, Never>(start: "b") { cursor in
            log.record(cursor)
            return Producer(value: CursorResponse(items: [Item(id: 1)], previousCursor: cursor, nextCursor: cursor))
        }
        let list = ScrolledList(source)
        list.open()
        list.scrollToEnd()
        list.scrollToTop()
        #expect(log.requests == ["b", "b", "b"])
        #expect(list.loadStates.prepend == .complete)
        #expect(list.loadStates.append == .complete)
        #expect(list.ids == [1])
        #expect(list.corrections == [.duplicatesDropped(count: 1), .duplicatesDropped(count: 1)])
    }

    @Test func aRepeatedCursorOnAPageWithNewItemsIsFollowed() {
        // A server may re-issue a cursor whose item moved: "b" brings item 1, then 2, then nothing new.
        let log = RequestLog<String?>()
        let source = CursorSource<Item, String, Never> { cursor in
            log.record(cursor)
            let served = log.requests.count - 1
            let items = cursor == nil ? [0] : [min(served, 2)]
            return Producer(value: CursorResponse(items: items.map(Item.init(id:)), nextCursor: "b"))
        }
        let list = ScrolledList(source)
        list.open()
        list.scrollToEnd()
        #expect(log.requests == [nil, "b", "b", "b"])
        #expect(list.ids == [0, 1, 2])
        #expect(list.loadStates.append == .complete)
    }

    // MARK: - Identity across the start page

    @Test func itemsThePagesBelowDeliveredAreDroppedFromThePagesAboveAndReported() {
        // Page 3 repeats items 30 and 31 of the start page 4 (30-39), page 2 item 45 of page 5 (40-49).
        let pages: [Int: [Int]] = [1: Array(0 ..< 10), 2: Array(10 ..< 20) + [45], 3: Array(20 ..< 30) + [30, 31],
                                   4: Array(30 ..< 40), 5: Array(40 ..< 50)]
        let source = PageNumberSource<Item, Never>(startPage: 4, pageSize: 10, endOfList: .emptyPage) { page, _ in
            Producer(value: PageNumberResponse(items: (pages[page] ?? []).map(Item.init(id:))))
        }
        let list = ScrolledList(source)
        list.open()
        list.scrollToEnd()
        list.scrollToTop()
        #expect(list.ids == Array(0 ..< 50))
        #expect(list.corrections == [.duplicatesDropped(count: 2), .duplicatesDropped(count: 1)])
    }

    @Test func itemsThePagesAboveDeliveredAreDroppedFromThePagesBelow() {
        let pages: [Int: [Int]] = [3: Array(20 ..< 30), 4: Array(30 ..< 40), 5: [25] + Array(40 ..< 50)]
        let list = ScrolledList(PageNumberSource<Item, Never>(startPage: 4, pageSize: 10, endOfList: .emptyPage) { page, _ in
            Producer(value: PageNumberResponse(items: (pages[page] ?? []).map(Item.init(id:))))
        })
        list.open()
        list.scrollToTop()
        list.scrollToEnd()
        #expect(list.ids == Array(20 ..< 50))
        #expect(list.corrections == [.duplicatesDropped(count: 1)])
    }
}
