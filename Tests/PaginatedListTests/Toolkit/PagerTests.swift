import Foundation
import PaginatedList
import Signals
import Testing

/// The pages a pager called back with, in order.
private final class PageLog: Sendable {
    private let pages = Locked<[Int]>([])
    func append(_ page: Int) { pages.withLock { $0.append(page) } }
    var value: [Int] { pages.withLock { $0 } }
}

@Suite("Pager")
struct PagerTests {
    @Test func theFirstPageIsOneByDefault() {
        #expect(Pager().currentPage == 1)
    }

    @Test func aZeroBasedPagerStartsAtZeroAndMovesToOne() {
        let pager = Pager(firstPage: 0)
        #expect(pager.currentPage == 0)
        #expect(pager.next() == 1)
    }

    @Test func nextMovesToTheNextPageAndReturnsIt() {
        let pager = Pager(firstPage: 1)
        #expect(pager.next() == 2)
        #expect(pager.next() == 3)
        #expect(pager.currentPage == 3)
    }

    @Test func resetReturnsToTheFirstPage() {
        let pager = Pager(firstPage: 0)
        pager.next()
        pager.next()
        pager.reset()
        #expect(pager.currentPage == 0)
    }

    @Test func aNewPagerDoesNotCallBack() {
        let log = PageLog()
        _ = Pager { log.append($0) }
        #expect(log.value == [])
    }

    @Test func everyChangeCallsBackWithTheNewPage() {
        let log = PageLog()
        let pager = Pager(firstPage: 1) { log.append($0) }
        pager.next()
        pager.next()
        pager.reset()
        pager.reset()   // already at the first page: still a change, so a refresh fetches it again
        #expect(log.value == [2, 3, 1, 1])
    }

    @Test func fetchPageCallsBackWithTheCurrentPageWithoutMoving() {
        let log = PageLog()
        let pager = Pager(firstPage: 1) { log.append($0) }
        pager.fetchPage()
        pager.next()
        pager.fetchPage()
        #expect(log.value == [1, 2, 2])
        #expect(pager.currentPage == 2)
    }

    @Test func nextPageAndRefreshAreNextAndReset() {
        let log = PageLog()
        let pager = Pager(firstPage: 0) { log.append($0) }
        pager.nextPage()
        pager.nextPage()
        pager.refresh()
        #expect(log.value == [1, 2, 0])
    }

    @Test func pageSendsTheCurrentPageThenEveryChange() {
        let pager = Pager(firstPage: 1)
        let log = PageLog()
        pager.page.producer.startWithValues { log.append($0) }
        pager.next()
        pager.reset()
        #expect(log.value == [1, 2, 1])
    }

    @Test func aChangeMadeInsideTheCallbackIsDeliveredAfterIt() {
        let selfDriving = SelfDrivingPager()   // its callback calls next() when it sees page 2
        selfDriving.pager.next()
        #expect(selfDriving.log.value == [2, 3])
        #expect(selfDriving.pager.currentPage == 3)
    }

    @Test func concurrentNextFromEightThreadsLosesNoIncrement() {
        let log = PageLog()
        let pager = Pager(firstPage: 1) { log.append($0) }
        let threads = 8, perThread = 1_000
        let group = DispatchGroup()
        for _ in 0 ..< threads {
            group.enter()
            let thread = Thread {
                for _ in 0 ..< perThread { pager.next() }
                group.leave()
            }
            thread.start()
        }
        group.wait()
        #expect(pager.currentPage == 1 + threads * perThread)
        // One callback per change, delivered in the order the changes were made.
        #expect(log.value == Array(2 ... 1 + threads * perThread))
    }

    @Test func concurrentNextReturnsEveryPageOnce() {
        let pager = Pager(firstPage: 0)
        let returned = PageLog()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0 ..< 500 { returned.append(pager.next()) }
        }
        #expect(returned.value.sorted() == Array(1 ... 4_000))
    }

    @Test func aReleasedPagerNoLongerCallsBack() {
        let log = PageLog()
        var pager: Pager? = Pager(firstPage: 1) { log.append($0) }
        let page = pager!.page
        pager?.next()
        pager = nil
        #expect(page.value == 2)
        #expect(log.value == [2])
    }
}

/// A pager whose callback moves it on once, from inside the callback.
private final class SelfDrivingPager: Sendable {
    let log = PageLog()
    let pager: Pager

    init() {
        let log = log
        let box = WeakPagerBox()
        pager = Pager(firstPage: 1) { page in
            log.append(page)
            if page == 2 { box.pager?.next() }
        }
        box.pager = pager
    }
}

private final class WeakPagerBox: Sendable {
    private let storage = Locked<WeakReference?>(nil)
    private struct WeakReference { weak var pager: Pager? }

    var pager: Pager? {
        get { storage.withLock { $0?.pager } }
        set { storage.withLock { $0 = WeakReference(pager: newValue) } }
    }
}

@Suite("PaginatedListViewModel: Pageable")
struct ViewModelPageableTests {
    @Test func nextPageLoadsTheNextPage() {
        let list = PaginatedListViewModel(dependency: CountingNumbers(pages: 3), scheduler: ImmediateScheduler())
        list.nextPage()
        list.nextPage()
        #expect(Array(list.items.value) == Array(0 ..< 6))
    }

    @Test func fetchPageRetriesThePageThatFailed() {
        struct Offline: Error {}
        let attempts = Locked(0)
        let list = PaginatedListViewModel<Int, Offline>(scheduler: ImmediateScheduler()) {
            Producer { observer, _ in
                let attempt = attempts.withLock { $0 += 1; return $0 }
                if attempt == 1 {
                    observer.send(error: Offline())
                } else {
                    observer.send(value: Page(items: [1, 2], next: nil))
                    observer.sendCompleted()
                }
            }
        }
        list.fetchPage()
        #expect(list.lastError.value != nil)
        list.fetchPage()
        #expect(Array(list.items.value) == [1, 2])
        #expect(attempts.withLock { $0 } == 2)
    }
}
