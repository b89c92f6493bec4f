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
        do {
            let list = storedList(try openStore(folder.path()), remote: TestRemote(count: 35))
            list.loadNextPage()
            list.loadNextPage()
        }
        let remote = TestRemote(count: 35)
        let list = storedList(try openStore(folder.path()), remote: remote)
        list.loadNextPage()
        #expect(list.ids == ids(0 ..< 10))
        #expect(remote.requests.isEmpty)
    }

    @Test func pagingThroughStoredRowsMakesNoRequest() throws {
        let folder = TemporaryFolder()
        do {
            let list = storedList(try openStore(folder.path()), remote: TestRemote(count: 35))
            for _ in 0 ..< 3 { list.loadNextPage() }
        }
        let remote = TestRemote(count: 35)
        let list = storedList(try openStore(folder.path()), remote: remote)
        for _ in 0 ..< 3 { list.loadNextPage() }
        #expect(list.ids == ids(0 ..< 30))
        #expect(remote.requests.isEmpty)
    }

    @Test func pagingPastTheStoredRowsAsksForTheLastStoredPagesNextKey() throws {
        let folder = TemporaryFolder()
        do {
            let list = storedList(try openStore(folder.path()), remote: TestRemote(count: 35))
            for _ in 0 ..< 2 { list.loadNextPage() }
        }
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
        do {
            let list = storedList(try openStore(folder.path()), remote: TestRemote(count: 35))
            for _ in 0 ..< 2 { list.loadNextPage() }
        }
        let remote = TestRemote(count: 35)
        remote.setFailing(true)
        let list = storedList(try openStore(folder.path()), remote: remote, revalidate: .always(.replace))
        list.loadNextPage()
        list.loadNextPage()
        #expect(list.ids == ids(0 ..< 20))
        #expect(list.loadStates.value.refresh == .failed(.remote(RemoteError(code: 503))))
    }
}

