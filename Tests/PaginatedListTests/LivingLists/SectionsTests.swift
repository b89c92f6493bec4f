import Foundation
import PaginatedList
import PaginatedListTesting
import Signals
import Synchronization
import Testing

/// The tens of a post's id, or -1 once it is liked: posts 10 ... 19 are one section, a like moves a post
/// to another key.
@Sendable private func tens(_ post: FeedPost) -> Int { post.likes > 0 ? -1 : post.id / 10 }

private typealias PostSection = ListSection<Int, FeedPost>

/// Each section as its key, occurrence and item ids.
private func shape(_ sections: [PostSection]) -> [String] {
    sections.map { "\($0.key)#\($0.id.occurrence):\($0.items.map(\.id))" }
}

@Suite("Sections")
struct SectionsTests {
    @Test func consecutiveItemsWithEqualKeysFormOneSection() {
        let viewModel = loadedPosts([[10, 11, 20], [21, 22, 30]])
        let sections = viewModel.sections(by: tens)
        #expect(shape(sections.value) == ["1#0:[10, 11]", "2#0:[20, 21, 22]", "3#0:[30]"])
    }

    @Test func twoRunsOfOneKeyAreTwoSectionsCountedFromTheTop() {
        let viewModel = loadedPosts([[10, 20, 11, 12]])
        let sections = viewModel.sections(by: tens)
        #expect(shape(sections.value) == ["1#0:[10]", "2#0:[20]", "1#1:[11, 12]"])
    }

    @Test func anAppendedPageExtendsTheLastSectionUnderTheSameID() {
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { postChain([[10, 11], [12, 20]]) }
        viewModel.loadNextPage()
        let sections = viewModel.sections(by: tens)
        let before = sections.value
        viewModel.loadNextPage()
        #expect(sections.value[0].id == before[0].id)
        #expect(shape(sections.value) == ["1#0:[10, 11, 12]", "2#0:[20]"])
    }

    @Test func anAppendLeavesTheSectionsAboveTheLastAsTheyWere() {
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { postChain([[10, 20], [21, 30]]) }
        viewModel.loadNextPage()
        let sections = viewModel.sections(by: tens)
        let first = sections.value[0]
        viewModel.loadNextPage()
        #expect(sections.value[0] == first)
    }

    @Test func anEditThatChangesAKeySplitsItsSectionAndTheLowerPartIsANewRun() {
        let viewModel = loadedPosts([[10, 11, 12]])
        let sections = viewModel.sections(by: tens)
        viewModel.update(id: 11) { $0.likes = 1 }
        #expect(shape(sections.value) == ["1#0:[10]", "-1#0:[11]", "1#1:[12]"])
    }

    @Test func anEditThatKeepsTheKeyKeepsTheSectionAndShowsTheNewValue() {
        let viewModel = loadedPosts([[5, 11, 12]])
        let sections = viewModel.sections(by: { $0.id / 10 })
        let id = sections.value[1].id
        viewModel.update(id: 11) { $0.likes = 3 }
        #expect(sections.value[1].id == id)
        #expect(sections.value[1].items.map(\.likes) == [3, 0])
    }

    @Test func removingTheItemBetweenTwoRunsOfAKeyMergesThemUnderTheUpperID() {
        let viewModel = loadedPosts([[10, 20, 11]])
        let sections = viewModel.sections(by: tens)
        let upper = sections.value[0].id
        viewModel.remove(id: 20)
        #expect(sections.value.map(\.id) == [upper])
        #expect(shape(sections.value) == ["1#0:[10, 11]"])
    }

    @Test func aRunPrependedAboveARunOfItsKeyIsNumberedAboveIt() {
        let feed = ScriptedFeed(ids: [10, 11, 20, 12, 13], size: 2)
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { feed.page(at: 3) }
        viewModel.loadNextPage()
        let sections = viewModel.sections(by: tens)
        viewModel.loadPreviousPage()
        viewModel.loadPreviousPage()
        #expect(shape(sections.value) == ["1#-1:[10, 11]", "2#0:[20]", "1#0:[12, 13]"])
    }

    @Test func resetEmptiesTheSectionsAndTheNextListIsNumberedFromZero() {
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { postChain([[10, 20, 11]]) }
        viewModel.loadNextPage()
        let sections = viewModel.sections(by: tens)
        viewModel.reset()
        #expect(sections.value.isEmpty)
        viewModel.loadNextPage()
        #expect(shape(sections.value) == ["1#0:[10]", "2#0:[20]", "1#1:[11]"])
    }

    @Test func aMaxPagesDropRemovesTheSectionsOfTheDroppedPage() {
        let viewModel = PostViewModel(scheduler: ImmediateScheduler(), maxPages: 2) {
            postChain([[10, 11], [20, 21], [30, 31]])
        }
        let sections = viewModel.sections(by: tens)
        for _ in 0 ..< 3 { viewModel.loadNextPage() }
        #expect(shape(sections.value) == ["2#0:[20, 21]", "3#0:[30, 31]"])
    }

    @Test func aRefreshThatReplacesTheListGroupsTheNewItems() {
        let pages = Locked<[[Int]]>([[10, 11]])
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { postChain(pages.withLock { $0 }) }
        viewModel.loadNextPage()
        let sections = viewModel.sections(by: tens)
        pages.withLock { $0 = [[30, 10]] }
        viewModel.refresh()
        #expect(shape(sections.value).map { $0.split(separator: "#")[0] } == ["3", "1"])
        #expect(sections.value.flatMap { Array($0.items) }.map(\.id) == [30, 10])
    }

    @Test func sectionsSendOncePerTransitionThatChangesTheItems() {
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { postChain([[10, 20], [30]]) }
        let sections = viewModel.sections(by: tens)
        let sends = Counter()
        sections.signal.observeValues { _ in sends.increment() }
        viewModel.loadNextPage()
        viewModel.loadNextPage()
        viewModel.update(id: 20) { $0.likes = 1 }
        #expect(sends.count == 3)
    }

    @Test func sectionsOfAListAlreadyHoldingItemsStartFromThem() {
        let viewModel = loadedPosts([[10, 20]])
        #expect(shape(viewModel.sections(by: tens).value) == ["1#0:[10]", "2#0:[20]"])
    }

    @Test func aSectionsItemsAreTheListsItemsInItsRange() {
        let ids = Array(0 ..< 1_000)
        let viewModel = loadedPosts([ids])
        let sections = viewModel.sections(by: { $0.id / 300 })
        #expect(sections.value.map { $0.items.count } == [300, 300, 300, 100])
        #expect(Array(sections.value[2].items).map(\.id) == Array(600 ..< 900))
    }

    @Test func droppingThePropertyStopsTheGrouping() {
        let calls = Counter()
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { postChain([[10], [11]]) }
        viewModel.loadNextPage()
        var sections: Property<[PostSection]>? = viewModel.sections(by: { post in
            calls.increment()
            return post.id / 10
        })
        #expect(sections?.value.count == 1)
        sections = nil
        let before = calls.count
        viewModel.loadNextPage()
        #expect(calls.count == before)
    }

    @Test func aPageLandedOnAnotherThreadWhileTheSectionsAreFirstGroupedIsGroupedToo() {
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { postChain([[10, 11], [20, 21]]) }
        viewModel.loadNextPage()
        let landed = Locked(false)
        // The first key read lands the next page on another thread, and waits for it: its transition is
        // delivered there while this thread groups the first page.
        let sections = viewModel.sections(by: { post in
            if !landed.withLock({ $0 }) {
                landed.withLock { $0 = true }
                DispatchQueue.global().sync { viewModel.loadNextPage() }
            }
            return tens(post)
        })
        #expect(ids(viewModel) == [10, 11, 20, 21])
        #expect(shape(sections.value) == ["1#0:[10, 11]", "2#0:[20, 21]"])
    }

    /// An observer of `items` started on another thread is given the held items there, and every later list
    /// there too, after it returns: the `items` of the transitions meanwhile reach the sections late, while
    /// their changes come at once (the follower once grouped the late list with the new changes, and trapped).
    @Test func sectionsFollowEveryTransitionWhileAnObserverOfItemsOnAnotherThreadHoldsItsDeliveries() {
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { postChain([[10, 11], [20, 21], [30], [40]]) }
        viewModel.loadNextPage()
        let sections = viewModel.sections(by: tens)
        let delivered = DispatchSemaphore(value: 0), proceed = DispatchSemaphore(value: 0)
        let done = Locked(false)
        DispatchQueue.global().async {
            viewModel.items.producer.startWithValues { _ in
                guard !done.withLock({ $0 }) else { return }
                delivered.signal()
                proceed.wait()
            }
        }
        delivered.wait()   // the other thread holds the delivery of `items`: [10, 11]
        viewModel.loadNextPage()
        #expect(shape(sections.value) == ["1#0:[10, 11]", "2#0:[20, 21]"])
        proceed.signal()
        delivered.wait()   // it delivered [10, 11, 20, 21] and holds again
        viewModel.loadNextPage()
        #expect(shape(sections.value) == ["1#0:[10, 11]", "2#0:[20, 21]", "3#0:[30]"])
        viewModel.loadNextPage()
        #expect(shape(sections.value) == ["1#0:[10, 11]", "2#0:[20, 21]", "3#0:[30]", "4#0:[40]"])
        done.withLock { $0 = true }
        proceed.signal()
    }

    @Test func theKeyIsCalledOnlyForTheItemsAChangeBrings() {
        let calls = Counter()
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { postChain([Array(0 ..< 50), Array(50 ..< 60)]) }
        viewModel.loadNextPage()
        let sections = viewModel.sections(by: { post in
            calls.increment()
            return post.id / 10
        })
        let before = calls.count
        viewModel.loadNextPage()
        #expect(calls.count - before == 10)
        #expect(sections.value.count == 6)
    }
}
