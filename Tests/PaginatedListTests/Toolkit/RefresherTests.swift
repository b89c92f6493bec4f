import PaginatedList
import Signals
import Testing

@Suite("Refresher")
struct RefresherTests {
    @Test func refreshCallsTheActionEveryTime() {
        let log = Log()
        let refresher = Refresher { log.append("refresh") }
        refresher.refresh()
        refresher.refresh()
        #expect(log.value == ["refresh", "refresh"])
    }
}

@Suite("RefresherGroup")
struct RefresherGroupTests {
    @Test func refreshRefreshesEveryMemberInTheOrderAdded() {
        let log = Log()
        let a = LoggingRefreshable("a", log: log), b = LoggingRefreshable("b", log: log)
        let group = RefresherGroup([a, b])
        group.add { log.append("closure") }
        group.refresh()
        #expect(log.value == ["a", "b", "closure"])
    }

    @Test func membersAreHeldWeakly() {
        let log = Log()
        let group = RefresherGroup()
        weak var released: LoggingRefreshable?
        do {
            let member = LoggingRefreshable("gone", log: log)
            released = member
            group.add(member)
            #expect(group.count == 1)
        }
        #expect(released == nil)
        #expect(group.count == 0)
    }

    @Test func aReleasedMemberIsSkipped() {
        let log = Log()
        let kept = LoggingRefreshable("kept", log: log)
        let group = RefresherGroup([kept])
        do { group.add(LoggingRefreshable("gone", log: log)) }
        group.refresh()
        #expect(log.value == ["kept"])
    }

    @Test func closuresAddedAsActionsAreRetained() {
        let log = Log()
        let group = RefresherGroup()
        do { group.add { log.append("action") } }
        group.refresh()
        #expect(log.value == ["action"])
        #expect(group.count == 1)
    }

    @Test func addingAMemberTwiceRefreshesItOnce() {
        let log = Log()
        let member = LoggingRefreshable("a", log: log)
        let group = RefresherGroup()
        group.add(member)
        group.add(member)
        group.refresh()
        #expect(log.value == ["a"])
    }

    @Test func aRemovedMemberIsNotRefreshed() {
        let log = Log()
        let a = LoggingRefreshable("a", log: log), b = LoggingRefreshable("b", log: log)
        let group = RefresherGroup([a, b])
        group.remove(a)
        group.refresh()
        #expect(log.value == ["b"])
    }

    @Test func aMemberMayChangeTheGroupWhileItRefreshes() {
        let log = Log()
        let late = LoggingRefreshable("late", log: log)
        let group = RefresherGroup()
        group.add { [weak group] in
            log.append("first")
            group?.add(late)   // no deadlock; refreshed from the next refresh() on
        }
        group.refresh()
        group.refresh()
        #expect(log.value == ["first", "first", "late"])
    }

    @Test func groupsNest() {
        let log = Log()
        let leaf = LoggingRefreshable("leaf", log: log)
        let inner = RefresherGroup([leaf])
        let outer = RefresherGroup([inner])
        outer.refresh()
        #expect(log.value == ["leaf"])
    }
}

@Suite("PaginatedListViewModel: Refreshable")
struct ViewModelRefreshableTests {
    @Test func refreshReloadsFromTheFirstPage() {
        let numbers = CountingNumbers(pages: 3)
        let list = PaginatedListViewModel(dependency: numbers, scheduler: ImmediateScheduler())
        list.loadNextPage()
        list.loadNextPage()
        #expect(Array(list.items.value) == Array(0 ..< 6))
        list.refresh()
        #expect(Array(list.items.value) == [0, 1, 2])
        #expect(numbers.firstPageRequests == 2)
        #expect(!list.exhausted.value)
    }

    @Test func refreshOfAnExhaustedListLoadsItAgain() {
        let list = PaginatedListViewModel(dependency: CountingNumbers(pages: 1), scheduler: ImmediateScheduler())
        list.loadNextPage()
        #expect(list.exhausted.value)
        list.refresh()
        #expect(Array(list.items.value) == [0, 1, 2])
        #expect(list.exhausted.value)
    }

    @Test func aGroupRefreshesViewModels() {
        let first = PaginatedListViewModel(dependency: CountingNumbers(pages: 2), scheduler: ImmediateScheduler())
        let second = PaginatedListViewModel(dependency: CountingNumbers(pages: 2), scheduler: ImmediateScheduler())
        RefresherGroup([first, second]).refresh()
        #expect(first.items.value.count == 3)
        #expect(second.items.value.count == 3)
    }
}
