// The samples of Docs/PageSources.md, compiled and run. Keep both in sync.
import Foundation
import PaginatedList
import PaginatedListTesting
import Signals
import Testing

// MARK: A stand-in API for the samples

struct Post: Identifiable, Sendable { let id: Int }

enum APIError: Error, Equatable { case offline }

/// An in-memory API over posts 0 ..< 45.
struct PostsAPI: Sendable {
    let all = (0 ..< 45).map(Post.init(id:))

    func posts(page: Int, size: Int) -> Producer<PageNumberResponse<Post>, APIError> {
        Producer(value: PageNumberResponse(items: Array(all.dropFirst((page - 1) * size).prefix(size))))
    }

    func posts(after cursor: String?) -> Producer<CursorResponse<Post, String>, APIError> {
        let start = cursor.flatMap(Int.init) ?? 0
        let items = Array(all.dropFirst(start).prefix(20))
        let next = start + items.count < all.count ? String(start + items.count) : nil
        return Producer(value: CursorResponse(items: items, nextCursor: next))
    }

    /// Pages of 10 both ways: "after:ID" is the page after post ID, "before:ID" the page that ends above it.
    func posts(cursor: String?) -> Producer<CursorResponse<Post, String>, APIError> {
        let parts = cursor?.split(separator: ":")
        let id = parts.flatMap { Int($0[1]) } ?? -1
        let range = parts?[0] == "before" ? max(0, id - 10) ..< id : id + 1 ..< min(id + 11, all.count)
        return Producer(value: CursorResponse(
            items: Array(all[range]),
            previousCursor: range.lowerBound > 0 ? "before:\(range.lowerBound)" : nil,
            nextCursor: range.upperBound < all.count ? "after:\(range.upperBound - 1)" : nil))
    }

    func posts(offset: Int, limit: Int) -> Producer<[Post], APIError> {
        Producer(value: Array(all.dropFirst(offset).prefix(limit)))
    }

    func postIDs() -> Producer<[Int], APIError> {
        Producer(value: all.map(\.id))
    }

    func posts(ids: [Int]) -> Producer<[Post], APIError> {
        Producer(value: ids.reversed().map(Post.init(id:)))
    }
}

// MARK: Page numbers

func pageNumberList(api: PostsAPI) -> PaginatedListViewModel<Post, APIError> {
    let source = PageNumberSource<Post, APIError>(firstPageIndex: 1, pageSize: 20) { page, size in
        api.posts(page: page, size: size)   // Producer<PageNumberResponse<Post>, APIError>
    }
    return PaginatedListViewModel(dependency: source)
}

@Suite("Guide: page sources")
struct PageSourcesGuideTests {
    let api = PostsAPI()

    func loadAll<D: PaginatedListDependency>(_ source: D) -> [D.Item] where D.Item: Sendable {
        let list = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        while !list.exhausted.value, list.lastError.value == nil { list.loadNextPage() }
        return Array(list.items.value)
    }

    @Test func thePageNumberSampleBuildsAViewModel() {
        let list = pageNumberList(api: api)
        #expect(list.items.value.isEmpty)
        let source = PageNumberSource<Post, APIError>(firstPageIndex: 1, pageSize: 20) { page, size in
            api.posts(page: page, size: size)
        }
        #expect(loadAll(source).map(\.id) == Array(0 ..< 45))
    }

    @Test func theCursorSampleLoadsEveryPost() {
        let api = api
        let cursorSource = CursorSource<Post, String, APIError> { cursor in
            api.posts(after: cursor)   // Producer<CursorResponse<Post, String>, APIError>
        }
        #expect(loadAll(cursorSource).map(\.id) == Array(0 ..< 45))
    }

    @Test func theOffsetSampleLoadsEveryPost() {
        let api = api
        let offsetSource = OffsetSource<Post, APIError>(limit: 20) { offset, limit in
            api.posts(offset: offset, limit: limit)   // Producer<[Post], APIError>
        }
        #expect(loadAll(offsetSource).map(\.id) == Array(0 ..< 45))
    }

    @Test func theSnapshotSampleLoadsEveryPostInSnapshotOrder() {
        let api = api
        let snapshotSource = IDSnapshotSource<Post, APIError>(
            batchSize: 20,
            fetchIDs: { api.postIDs() },              // Producer<[Int], APIError>, once per chain
            fetchItems: { ids in api.posts(ids: ids) } // Producer<[Post], APIError>, any order
        )
        #expect(loadAll(snapshotSource).map(\.id) == Array(0 ..< 45))
    }

    @Test func theKeyedSampleOpensAtThePageItsKeyNames() {
        let numbers = ArraySource<Int, Never>(Array(1 ... 50), pageSize: 10)
        let keyedList = PaginatedListViewModel(source: numbers, start: 2, scheduler: ImmediateScheduler())
        keyedList.loadNextPage()
        #expect(keyedList.items.value.first! == 21)   // print: 21
    }

    @Test func theArraySampleDeliversAfterItsLatencyAndFailsTheThirdPageOnce() {
        let clock = TestScheduler()
        let demo = ArraySource<Int, APIError>(Array(1 ... 50), pageSize: 10, latency: .milliseconds(300), on: clock) {
            page, attempt in page == 2 && attempt == 1 ? APIError.offline : nil   // the third page fails once
        }
        let list = PaginatedListViewModel(dependency: demo, scheduler: ImmediateScheduler())
        list.loadNextPage()
        clock.advance(by: .milliseconds(300))
        #expect(list.items.value.count == 10)   // print: 10
        list.loadNextPage()
        clock.advance(by: .milliseconds(300))
        list.loadNextPage()
        clock.advance(by: .milliseconds(300))
        #expect(list.lastError.value == .offline)
        list.loadNextPage()
        clock.advance(by: .milliseconds(300))
        #expect(list.items.value.count == 30)
    }

    // MARK: Start positions

    /// Scrolls `source` (opened where it starts) up to the top, then down to the end; the items held.
    func scrollBothWays<D: PaginatedListDependency>(_ source: D) -> (opened: [Int], all: [Int], top: Bool)
    where D.Item == Post {
        let list = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        list.loadNextPage()
        let opened = list.items.value.map(\.id)
        while !list.loadStates.value.prepend.isComplete, list.lastError.value == nil { list.loadPreviousPage() }
        while !list.exhausted.value, list.lastError.value == nil { list.loadNextPage() }
        return (opened, list.items.value.map(\.id), list.loadStates.value.prepend.isComplete)
    }

    @Test func theStartPositionSamplesOpenInTheMiddleAndReachBothEnds() {
        let api = api
        // The page that holds post 25 (posts 20-29), then the pages around it.
        let deepLink = ArraySource<Post, APIError>(api.all, pageSize: 10, start: 25)

        // Page 3, then pages 2 and 1 above it and 4, 5, … below.
        let fromPage3 = PageNumberSource<Post, APIError>(firstPageIndex: 1, startPage: 3, pageSize: 10) { page, size in
            api.posts(page: page, size: size)
        }

        // The 10 posts from position 30, then upwards 10 at a time, with the corrections of going down.
        let fromOffset = OffsetSource<Post, APIError>(limit: 10, start: 30) { offset, limit in
            api.posts(offset: offset, limit: limit)
        }

        // The page a cursor names; each response's `previousCursor` names the page above it.
        let fromCursor = CursorSource<Post, String, APIError>(start: "after:19") { cursor in
            api.posts(cursor: cursor)   // CursorResponse(items:previousCursor:nextCursor:)
        }

        let everyPost = Array(0 ..< 45)
        #expect(scrollBothWays(deepLink) == (Array(20 ..< 30), everyPost, true))
        #expect(scrollBothWays(fromPage3) == (Array(20 ..< 30), everyPost, true))
        #expect(scrollBothWays(fromOffset) == (Array(30 ..< 40), everyPost, true))
        #expect(scrollBothWays(fromCursor) == (Array(20 ..< 30), everyPost, true))

        let chat = PaginatedListViewModel(dependency: fromCursor, scheduler: ImmediateScheduler())
        chat.loadNextPage()       // posts 20-29
        chat.loadPreviousPage()   // posts 10-29
        #expect(chat.items.value.first!.id == 10)   // print: 10 idle
        #expect(chat.items.value.count == 20)
        #expect(chat.loadStates.value.prepend == .idle)
    }

    @Test func theImpactSampleOffersARefreshWhenACorrectionMayHaveCostTheUserSomething() {
        // An item shown is re-ranked into the unread part: the list shows it out of order.
        let feed = ChangingFeed(count: 30, script: .steps([[], [.move(from: 0, to: 25)]]))
        let source = OffsetSource<ChangingFeed.Item, Never>(limit: 10) { offset, limit in
            feed.request { $0.offset(offset, limit: limit) }
        }
        let list = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        let offered = MutableProperty<[PaginatedListDiagnostic.SourceCorrection]>([])
        list.diagnostics.observeValues { diagnostic in
            guard case let .sourceCorrection(correction) = diagnostic else { return }
            if correction.impact >= .orderNotGuaranteed { offered.modify { $0.append(correction) } }   // print: offer a refresh
        }
        while !list.exhausted.value { list.loadNextPage() }
        #expect(offered.value == [.shownOutOfOrder(count: 1)])
        #expect(list.items.value.map(\.id) == Array(0 ..< 30))
    }

    @Test func theChangingFeedSampleFindsNoDuplicatesNoLossAndNoDisorder() {
        let feed = ChangingFeed(count: 300, script: .random(seed: 42, churn: .reRanking))
        let source = OffsetSource<ChangingFeed.Item, Never>(limit: 10) { offset, limit in
            feed.request { $0.offset(offset, limit: limit) }
        }
        let churned = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        while !churned.exhausted.value { churned.loadNextPage() }
        let audit = feed.audit(Array(churned.items.value), reachedEnd: true)
        #expect(audit.duplicates.isEmpty && audit.lost.isEmpty && audit.misordered.isEmpty)   // print: true true true
    }
}
