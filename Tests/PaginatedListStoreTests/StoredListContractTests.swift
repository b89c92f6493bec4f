import Foundation
import PaginatedList
@testable import PaginatedListStore
import PaginatedListTesting
import Signals
import Testing

// Contract points 21, 22, 25, 27 and 28 of a store-backed list (Docs/Store.md), one suite each. Every list
// runs on an immediate scheduler over a `TestRemote` that answers synchronously.

@Suite("21. Stored rows first, then the network from the last stored key")
struct StoredRowsFirstContract {
    @Test func firstLoadOfAnEmptyFeedAsksTheRemoteForItsFirstPageAndStoresIt() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let remote = TestRemote(count: 35)
        let list = storedList(store, remote: remote)
        list.loadNextPage()
        #expect(list.ids == ids(0 ..< 10))
        #expect(remote.requests == [nil])
        #expect(store.feed("home", of: Post.self).ids == ids(0 ..< 10))
    }

    @Test func firstLoadAfterRelaunchLandsTheStoredRowsWithNoRequest() throws {
        let folder = TemporaryFolder()
        try storePages(2, in: folder)
        let remote = TestRemote(count: 35)
        let list = storedList(try openStore(folder.path()), remote: remote)
        list.loadNextPage()
        #expect(list.ids == ids(0 ..< 10))
        #expect(remote.requests.isEmpty)
    }

    @Test func pagingThroughStoredRowsMakesNoRequest() throws {
        let folder = TemporaryFolder()
        try storePages(3, in: folder)
        let remote = TestRemote(count: 35)
        let list = storedList(try openStore(folder.path()), remote: remote)
        for _ in 0 ..< 3 { list.loadNextPage() }
        #expect(list.ids == ids(0 ..< 30))
        #expect(remote.requests.isEmpty)
    }

    @Test func pagingPastTheStoredRowsAsksForTheLastStoredPagesNextKey() throws {
        let folder = TemporaryFolder()
        try storePages(2, in: folder)
        let remote = TestRemote(count: 35)
        let list = storedList(try openStore(folder.path()), remote: remote)
        for _ in 0 ..< 4 { list.loadNextPage() }
        #expect(list.ids == ids(0 ..< 35))
        #expect(remote.requests == [2, 3])
        #expect(list.exhausted.value)
    }

    @Test func aPageFetchedPastTheStoredRowsIsStoredAfterThem() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let list = storedList(store, remote: TestRemote(count: 35))
        for _ in 0 ..< 3 { list.loadNextPage() }
        #expect(store.feed("home", of: Post.self).ids == ids(0 ..< 30))
        #expect(try store.feed("home", of: Post.self).info().pageCount == 3)
    }

    @Test func offlineRelaunchShowsTheStoredRows() throws {
        let folder = TemporaryFolder()
        try storePages(2, in: folder)
        let remote = TestRemote(count: 35)
        remote.setFailing(true)
        let list = storedList(try openStore(folder.path()), remote: remote, revalidate: .always(.replace))
        list.loadNextPage()
        list.loadNextPage()
        #expect(list.ids == ids(0 ..< 20))
        #expect(list.loadStates.value.refresh == .failed(.remote(RemoteError(code: 503))))
    }
}


extension StoredRowsFirstContract {
    @Test func loadingAbovePastTheStoredRowsAsksForTheFirstStoredPagesPreviousKey() throws {
        let folder = TemporaryFolder()
        do {
            let list = storedList(try openStore(folder.path()), remote: TestRemote(count: 40, start: 2))
            list.loadNextPage()
            list.loadPreviousPage()
        }
        let remote = TestRemote(count: 40, start: 2)
        let list = storedList(try openStore(folder.path()), remote: remote)
        list.loadNextPage()
        #expect(list.ids == ids(20 ..< 30))
        list.loadPreviousPage()
        #expect(list.ids == ids(10 ..< 30))
        #expect(remote.requests.isEmpty)
        list.loadPreviousPage()
        #expect(list.ids == ids(0 ..< 30))
        #expect(remote.requests == [0])
        #expect(list.loadStates.value.prepend == .complete)
    }

    @Test func droppedPagesAreReadBackFromTheStoreOffline() throws {
        let folder = TemporaryFolder()
        let remote = TestRemote(count: 60)
        let list = storedList(try openStore(folder.path()), remote: remote, maxPages: 2)
        for _ in 0 ..< 5 { list.loadNextPage() }
        #expect(list.ids == ids(30 ..< 50))
        remote.setFailing(true)
        for _ in 0 ..< 3 { list.loadPreviousPage() }
        #expect(list.ids == ids(0 ..< 20))
        for _ in 0 ..< 3 { list.loadNextPage() }
        #expect(list.ids == ids(30 ..< 50))
        #expect(remote.requests == [nil, 1, 2, 3, 4])
        #expect(list.lastError.value == nil)
    }
}

@Suite("22. A page lands in one transaction, then shows what was written")
struct OneTransactionContract {
    @Test func aPageWhoseWriteFailsPartwayLeavesNothingOfItAndTheListAsItWas() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let list = storedList(store, remote: TestRemote(count: 35))
        list.loadNextPage()
        try failWritesPartway(store, afterMembers: 5)   // the second page's items and row are written by then
        list.loadNextPage()
        guard case let .store(error)? = list.lastError.value else {
            Issue.record("expected a store error, got \(String(describing: list.lastError.value))")
            return
        }
        #expect(error.message.contains("a write that fails partway"), "\(error)")
        #expect(list.ids == ids(0 ..< 10))
        #expect(store.feed("home", of: Post.self).ids == ids(0 ..< 10))
        #expect(try rowCount("pages", in: store) == 1)
        #expect(try rowCount("members", in: store) == 10)
        #expect(try rowCount("items", in: store) == 10)
    }

    @Test func aPageThatRepeatsAnIdStoredAboveKeepsItAboveWithTheNewValue() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        var feed = posts(0 ..< 20)
        let remote = TestRemote(posts: feed, pageSize: 10)
        let list = storedList(store, remote: remote)
        list.loadNextPage()
        feed.insert(Post(id: 3, title: "edited"), at: 10)   // page 1 now holds post 3 again, edited
        remote.setPosts(feed)
        list.loadNextPage()
        #expect(list.ids == ids(0 ..< 10) + [10, 11, 12, 13, 14, 15, 16, 17, 18])
        let stored = try store.feed("home", of: Post.self).items()
        #expect(stored.map(\.id) == list.ids)
        #expect(stored[3].title == "edited")
    }

    @Test func theItemsShownAreTheRowsThePageWrote() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let list = storedList(store, remote: TestRemote(posts: [Post(id: 1), Post(id: 2), Post(id: 1, title: "last")]))
        list.loadNextPage()
        #expect(list.items.value.map(\.title) == ["last", "post 2"])
        #expect(try store.feed("home", of: Post.self).items() == Array(list.items.value))
    }
}

@Suite("25. Revalidation keeps the stored rows visible and writes into the store")
struct RevalidationContract {
    /// A store whose "home" feed holds posts 0 ..< 30 in three pages, written at the clock's time.
    static func storedFeed(_ folder: TemporaryFolder, clock: TestClock = TestClock()) throws {
        let list = storedList(try openStore(folder.path(), clock: clock), remote: TestRemote(count: 40))
        for _ in 0 ..< 3 { list.loadNextPage() }
    }

    @Test func alwaysLandsTheStoredRowsThenRefreshes() throws {
        let folder = TemporaryFolder()
        try Self.storedFeed(folder)
        let remote = TestRemote(posts: posts(100 ..< 105) + posts(0 ..< 40))
        remote.setHolding(true)
        let list = storedList(try openStore(folder.path()), remote: remote, revalidate: .always(.replace))
        list.loadNextPage()
        #expect(list.ids == ids(0 ..< 10))
        #expect(list.loadStates.value.refresh == .loading)
        #expect(remote.requests == [nil])
        remote.release()
        #expect(list.ids == ids(100 ..< 105) + ids(0 ..< 5))
    }

    @Test func replaceDeletesTheOldRowsInTheTransactionThatWritesTheNewFirstPage() throws {
        let folder = TemporaryFolder()
        try Self.storedFeed(folder)
        let store = try openStore(folder.path())
        let remote = TestRemote(posts: posts(100 ..< 105) + posts(0 ..< 40))
        remote.setFailing(true)
        let list = storedList(store, remote: remote, revalidate: .always(.replace))
        list.loadNextPage()
        #expect(store.feed("home", of: Post.self).ids == ids(0 ..< 30))
        remote.setFailing(false)
        // The new page's write fails at its last row, after the old rows were deleted: they are all back.
        try failWritesPartway(store, afterMembers: 9)
        list.refresh()
        guard case let .failed(.store(error)) = list.loadStates.value.refresh else {
            Issue.record("expected the refresh to fail with a store error, got \(list.loadStates.value.refresh)")
            return
        }
        #expect(error.message.contains("a write that fails partway"), "\(error)")
        #expect(store.feed("home", of: Post.self).ids == ids(0 ..< 30))
        #expect(try rowCount("pages", in: store) == 3)
        try failWritesPartway(store, afterMembers: nil)
        list.refresh()
        #expect(store.feed("home", of: Post.self).ids == ids(100 ..< 105) + ids(0 ..< 5))
        #expect(list.ids == store.feed("home", of: Post.self).ids)
    }

    @Test func ifOlderThanRefreshesOnlyAStoredFirstPageOlderThanTheLimit() throws {
        let folder = TemporaryFolder()
        let clock = TestClock()
        try Self.storedFeed(folder, clock: clock)
        clock.advance(by: 30)
        let fresh = TestRemote(count: 40)
        storedList(try openStore(folder.path(), clock: clock), remote: fresh,
                   revalidate: .ifOlderThan(.seconds(60), .replace)).loadNextPage()
        #expect(fresh.requests.isEmpty)
        clock.advance(by: 60)
        let stale = TestRemote(count: 40)
        storedList(try openStore(folder.path(), clock: clock), remote: stale,
                   revalidate: .ifOlderThan(.seconds(60), .replace)).loadNextPage()
        #expect(stale.requests == [nil])
    }

    @Test func neverMakesNoRequestUntilRefresh() throws {
        let folder = TemporaryFolder()
        try Self.storedFeed(folder)
        let remote = TestRemote(count: 40)
        let list = storedList(try openStore(folder.path()), remote: remote, revalidate: .never)
        list.loadNextPage()
        #expect(remote.requests.isEmpty)
        list.refresh()
        #expect(remote.requests == [nil])
    }

    @Test func mergeOnTopStoresTheNewItemsAboveAndKeepsTheStoredPagesBelow() throws {
        let folder = TemporaryFolder()
        try Self.storedFeed(folder)
        let store = try openStore(folder.path())
        let remote = TestRemote(posts: posts(100 ..< 102) + posts(0 ..< 40))
        let list = storedList(store, remote: remote, revalidate: .always(.mergeOnTop(maxPages: 3, onGap: .keepGap)))
        list.loadNextPage()
        #expect(list.ids == [100, 101] + ids(0 ..< 10))
        #expect(store.feed("home", of: Post.self).ids == [100, 101] + ids(0 ..< 30))
        list.loadNextPage()
        #expect(list.ids == [100, 101] + ids(0 ..< 20))
        #expect(remote.requests == [nil])
    }

    @Test func aMergeOnTopRefreshThatDropsPagesByMaxPagesKeepsTheStoredPagesBelow() throws {
        let folder = TemporaryFolder()
        try Self.storedFeed(folder)                                            // pages of 0 ..< 30 stored
        let store = try openStore(folder.path())
        let remote = TestRemote(posts: posts(100 ..< 101) + posts(0 ..< 40))
        let list = storedList(store, remote: remote, maxPages: 2)
        list.loadNextPage()
        list.loadNextPage()
        #expect(list.ids == ids(0 ..< 20))
        list.refresh(.mergeOnTop(maxPages: 2, onGap: .keepGap))              // [100] on top, a page dropped below
        #expect(list.ids == [100] + ids(0 ..< 10))
        #expect(store.feed("home", of: Post.self).ids == [100] + ids(0 ..< 30), "the pages below stay stored")
        remote.setFailing(true)
        list.loadNextPage()                                                    // offline: read back from the store
        #expect(list.lastError.value == nil)
        #expect(list.ids.suffix(10) == ids(10 ..< 20))
    }

    @Test func aSecondGapRefreshDeletesTheStoredPagesBelowTheOldGap() throws {
        let folder = TemporaryFolder()
        try Self.storedFeed(folder)                                            // pages of 0 ..< 30 stored
        let store = try openStore(folder.path())
        let remote = TestRemote(posts: posts(100 ..< 125) + posts(0 ..< 40))
        let list = storedList(store, remote: remote, revalidate: .always(.mergeOnTop(maxPages: 2, onGap: .keepGap)))
        list.loadNextPage()
        #expect(list.ids == ids(100 ..< 120) + ids(0 ..< 10))
        #expect(list.gap.value == 20)
        remote.setPosts(posts(200 ..< 225) + posts(100 ..< 125) + posts(0 ..< 40))
        list.refresh(.mergeOnTop(maxPages: 2, onGap: .keepGap))              // a gap above the old one
        #expect(list.ids == ids(200 ..< 220) + ids(100 ..< 120))
        // What lay below the old gap is no longer the list's: page 110's next is the network's page, not
        // the stored rows of 0 ..< 30 (which would skip 120 ..< 125).
        #expect(store.feed("home", of: Post.self).ids == ids(200 ..< 220) + ids(100 ..< 120))
    }

    @Test func mergeOnTopOverAFeedOfOnePageWritesTheNewItemsAboveIt() throws {
        let folder = TemporaryFolder()
        storedList(try openStore(folder.path()), remote: TestRemote(count: 40)).loadNextPage()
        let store = try openStore(folder.path())
        let list = storedList(store, remote: TestRemote(posts: posts(100 ..< 101) + posts(0 ..< 40)),
                              revalidate: .always(.mergeOnTop(maxPages: 3, onGap: .keepGap)))
        list.loadNextPage()
        #expect(list.loadStates.value.refresh == .idle)
        #expect(list.ids == [100] + ids(0 ..< 10))
        #expect(store.feed("home", of: Post.self).ids == [100] + ids(0 ..< 10))
    }

    @Test func aGapARefreshLeftIsStoredAndFilledFromItsKeyAfterARelaunch() throws {
        let folder = TemporaryFolder()
        try Self.storedFeed(folder)
        let feed = posts(100 ..< 125) + posts(0 ..< 40)
        do {
            let list = storedList(try openStore(folder.path()), remote: TestRemote(posts: feed),
                                  revalidate: .always(.mergeOnTop(maxPages: 2, onGap: .keepGap)))
            list.loadNextPage()
            #expect(list.ids == ids(100 ..< 120) + ids(0 ..< 10))
            #expect(list.gap.value == 20)
        }
        let remote = TestRemote(posts: feed)
        let list = storedList(try openStore(folder.path()), remote: remote)
        for _ in 0 ..< 6 { list.loadNextPage() }
        #expect(list.ids == ids(100 ..< 125) + ids(0 ..< 30))
        #expect(remote.requests == [2])
        #expect(try openStore(folder.path()).feed("home", of: Post.self).ids == ids(100 ..< 125) + ids(0 ..< 30))
    }

    @Test func aGapFilledByAPageThatOverlapsLosesNoNewItemAndDropsTheRowsTheServerDeleted() throws {
        let folder = TemporaryFolder()
        try Self.storedFeed(folder)
        // 25 new posts on top, and the first two stored ones deleted: the page that closes the gap holds five
        // new posts, then 2...6; the stored rows 0 and 1 lie where the new ones go.
        let feed = posts(100 ..< 125) + posts(2 ..< 40)
        do {
            let list = storedList(try openStore(folder.path()), remote: TestRemote(posts: feed),
                                  revalidate: .always(.mergeOnTop(maxPages: 2, onGap: .keepGap)))
            list.loadNextPage()
            #expect(list.gap.value == 20)
        }
        let remote = TestRemote(posts: feed)
        let list = storedList(try openStore(folder.path()), remote: remote)
        for _ in 0 ..< 6 { list.loadNextPage() }
        #expect(list.ids == ids(100 ..< 125) + ids(2 ..< 30))
        #expect(remote.requests == [2])
        #expect(try openStore(folder.path()).feed("home", of: Post.self).ids == ids(100 ..< 125) + ids(2 ..< 30))
    }

    @Test func fillGapWritesThePagesIntoTheGap() throws {
        let folder = TemporaryFolder()
        try Self.storedFeed(folder)
        let store = try openStore(folder.path())
        let list = storedList(store, remote: TestRemote(posts: posts(100 ..< 125) + posts(0 ..< 40)),
                              revalidate: .always(.mergeOnTop(maxPages: 2, onGap: .keepGap)))
        list.loadNextPage()
        list.fillGap()
        #expect(list.gap.value == nil)
        #expect(list.ids == ids(100 ..< 125) + ids(0 ..< 10))
        #expect(store.feed("home", of: Post.self).ids == ids(100 ..< 125) + ids(0 ..< 30))
    }

    @Test func reloadAllStoresExactlyTheReloadedPages() throws {
        let folder = TemporaryFolder()
        try Self.storedFeed(folder)
        let store = try openStore(folder.path())
        let changed = posts(0 ..< 40).filter { $0.id % 3 != 0 }
        let list = storedList(store, remote: TestRemote(posts: changed), revalidate: .never)
        list.loadNextPage()
        list.loadNextPage()
        list.refresh(.reloadAll)
        #expect(list.ids == Array(changed.prefix(20).map(\.id)))
        #expect(store.feed("home", of: Post.self).ids == list.ids)
        list.loadNextPage()
        #expect(list.ids == Array(changed.prefix(26).map(\.id)))
    }

    @Test func aRefreshOfOneFeedNeverTouchesAnotherFeedsRows() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let profile = storedList(store, feed: "profile", remote: TestRemote(count: 40))
        for _ in 0 ..< 2 { profile.loadNextPage() }
        let home = storedList(store, feed: "home", remote: TestRemote(count: 40))
        for _ in 0 ..< 3 { home.loadNextPage() }
        home.refresh()
        #expect(store.feed("home", of: Post.self).ids == ids(0 ..< 10))
        #expect(store.feed("profile", of: Post.self).ids == ids(0 ..< 20))
    }

    @Test func aReplaceDeletesTheItemsNoFeedListsAnyMoreInOneStatement() throws {
        let folder = TemporaryFolder()
        try Self.storedFeed(folder)
        let store = try openStore(folder.path())
        let list = storedList(store, remote: TestRemote(posts: posts(100 ..< 140)))
        list.loadNextPage()
        let statements = Locked<[String]>([])
        try store.database.trace { sql in statements.withLock { $0.append(sql) } }
        list.refresh()
        try store.database.trace(nil)
        #expect(list.ids == ids(100 ..< 110))
        #expect(statements.withLock { $0 }.filter { $0.hasPrefix("DELETE FROM items") }.count == 1)
        #expect(try rowCount("items", in: store) == 10)
    }

    @Test func theFirstPagesValidatorsAreStoredForConditionalRefreshes() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let remote = TestRemote(count: 40)
        remote.setValidators(PageValidators(etag: "\"v1\""))
        storedList(store, remote: remote).loadNextPage()
        #expect(try store.feed("home", of: Post.self).info().validators == PageValidators(etag: "\"v1\""))
        let feed = try openStore(folder.path()).feed("home", of: Post.self)
        let list = PaginatedListViewModel(feed: feed, remote: remote, revalidate: .never, scheduler: ImmediateScheduler())
        list.loadNextPage()
        // The check a conditional refresh asks first, as an app builds it: the stored validators against the
        // server's (an HTTP 304 when they match).
        let changed = Producer<Bool, StoredListError<RemoteError>> { observer, _ in
            do throws(StoreError) {
                observer.send(value: try feed.info().validators != remote.validators)
                observer.sendCompleted()
            } catch {
                observer.send(error: .store(error))
            }
        }
        list.refresh(ifChanged: changed)
        #expect(remote.requests == [nil])
        remote.setValidators(PageValidators(etag: "\"v2\""))
        list.refresh(ifChanged: changed)
        #expect(remote.requests == [nil, nil])
        #expect(try feed.info().validators == PageValidators(etag: "\"v2\""))
    }
}

@Suite("27. A store failure is .store on lastError; the rows held stay")
struct StoreFailureContract {
    @Test func aStoreFailureWhilePagingIsStoreOnLastErrorAndTheRowsStay() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let list = storedList(store, remote: TestRemote(count: 35))
        list.loadNextPage()
        try setReadOnly(store, true)
        list.loadNextPage()
        guard case let .store(error)? = list.lastError.value else {
            Issue.record("expected a store error, got \(String(describing: list.lastError.value))")
            return
        }
        #expect(error.kind == .readOnly)
        #expect(list.ids == ids(0 ..< 10))
    }

    @Test func theFailedPageIsRetriedOnceTheStoreWritesAgain() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let list = storedList(store, remote: TestRemote(count: 35))
        list.loadNextPage()
        try setReadOnly(store, true)
        list.loadNextPage()
        try setReadOnly(store, false)
        list.loadNextPage()
        #expect(list.ids == ids(0 ..< 20))
        #expect(list.lastError.value == nil)
    }

    @Test func aRemoteFailureIsRemote() throws {
        let folder = TemporaryFolder()
        let remote = TestRemote(count: 35)
        remote.setFailing(true)
        let list = storedList(try openStore(folder.path()), remote: remote)
        list.loadNextPage()
        #expect(list.lastError.value == .remote(RemoteError(code: 503)))
    }

    @Test func aRefreshWhoseWriteFailsPartwayFailsAndKeepsTheRows() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let remote = TestRemote(count: 35)
        let list = storedList(store, remote: remote)
        list.loadNextPage()
        list.loadNextPage()
        remote.setPosts(posts(100 ..< 110) + posts(0 ..< 35))
        try failWritesPartway(store, afterMembers: 5)
        list.refresh()
        guard case let .failed(.store(error)) = list.loadStates.value.refresh else {
            Issue.record("expected the refresh to fail with a store error, got \(list.loadStates.value.refresh)")
            return
        }
        #expect(error.message.contains("a write that fails partway"), "\(error)")
        #expect(list.ids == ids(0 ..< 20))
        #expect(store.feed("home", of: Post.self).ids == ids(0 ..< 20))
    }

    @Test func aStoredItemThatNoLongerDecodesIsADecodingError() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        storedList(store, remote: TestRemote(count: 35)).loadNextPage()
        try store.database.withWriter { connection throws(StoreError) in
            try connection.execute("UPDATE items SET body = '{\"id\": \"not a number\"}' WHERE key = '3'")
        }
        let list = storedList(try openStore(folder.path()), remote: TestRemote(count: 35))
        list.loadNextPage()
        guard case let .store(error)? = list.lastError.value else {
            Issue.record("expected a store error, got \(String(describing: list.lastError.value))")
            return
        }
        #expect(error.kind == .decoding)
    }
}

@Suite("Edits of a store-backed list are stored")
struct StoredEditTests {
    @Test func updateIsStored() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let list = storedList(store, remote: TestRemote(count: 35))
        list.loadNextPage()
        list.update(Post(id: 4, title: "liked", likes: 1))
        #expect(list.items.value[4].likes == 1)
        #expect(try store.feed("home", of: Post.self).items()[4] == Post(id: 4, title: "liked", likes: 1))
    }

    @Test func removeTakesTheItemOutOfThisFeedOnly() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = storedList(store, feed: "home", remote: TestRemote(count: 35))
        let profile = storedList(store, feed: "profile", remote: TestRemote(count: 35))
        home.loadNextPage()
        profile.loadNextPage()
        home.remove(id: 4)
        #expect(!home.ids.contains(4))
        #expect(store.feed("home", of: Post.self).ids == home.ids)
        #expect(store.feed("profile", of: Post.self).ids == ids(0 ..< 10))
    }

    @Test func insertIsStoredNextToTheItemAboveIt() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let list = storedList(store, remote: TestRemote(count: 35))
        list.loadNextPage()
        list.loadNextPage()
        list.insert([Post(id: 500), Post(id: 501)], at: 10)
        list.insert([Post(id: 502)], at: 0)
        #expect(store.feed("home", of: Post.self).ids == list.ids)
        let relaunched = storedList(try openStore(folder.path()), remote: TestRemote(count: 35))
        relaunched.loadNextPage()
        relaunched.loadNextPage()
        #expect(relaunched.ids == list.ids)
    }

    @Test func insertOfAnIdTheListHoldsStoresItsNewValue() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let list = storedList(store, remote: TestRemote(count: 35))
        list.loadNextPage()
        list.insert([Post(id: 500), Post(id: 4, title: "edited")], at: 0)
        #expect(list.ids == [500] + ids(0 ..< 10))
        #expect(try store.feed("home", of: Post.self).items() == Array(list.items.value))
    }

    @Test func insertOfAnIdTheListHoldsStoresItsNewValueAlsoWhenTheWindowIsRewritten() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let list = storedList(store, remote: TestRemote(count: 35))
        list.loadNextPage()
        // Another connection (another process) takes the row above the insertion point out of the feed; the
        // list, not told (`checkForChanges()`), still holds it: the edit cannot be written next to it, and the
        // list's window is written as a whole.
        try openStore(folder.path()).feed("home", of: Post.self).remove(id: 3)
        list.insert([Post(id: 500), Post(id: 5, title: "edited")], at: 4)
        #expect(list.ids == ids(0 ..< 4) + [500] + ids(4 ..< 10))
        #expect(try store.feed("home", of: Post.self).items() == Array(list.items.value))
    }

    @Test func anEditThatCannotBeStoredLeavesTheListUnchangedAndIsReported() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let list = storedList(store, remote: TestRemote(count: 35))
        list.loadNextPage()
        let diagnostics = Locked<[PaginatedListDiagnostic]>([])
        list.diagnostics.observeValues { diagnostic in diagnostics.withLock { $0.append(diagnostic) } }
        try setReadOnly(store, true)
        list.update(Post(id: 4, title: "liked", likes: 1))
        #expect(list.items.value[4] == Post(id: 4))
        #expect(diagnostics.withLock { $0.count } == 1)
        if case .editNotStored = diagnostics.withLock({ $0.first }) {} else { Issue.record("expected .editNotStored") }
    }
}
