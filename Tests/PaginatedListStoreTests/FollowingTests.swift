import Foundation
import PaginatedList
@testable import PaginatedListStore
import PaginatedListTesting
import Signals
import Testing

// Contract points 23 and 24: every open list follows every write of its store, and an item edited once
// changes in every list that holds it, in one transition each, with changes that replay exactly. Every list
// runs on an immediate scheduler over a `TestRemote` that answers synchronously: a write returns after
// every list applied it (the writing thread delivers its commit).

/// A list with a replayer watching its transitions.
struct WatchedList {
    let list: StoredList
    let replayer: ChangeReplayer<Post>

    init(_ list: StoredList) {
        self.list = list
        replayer = ChangeReplayer(list)
    }

    var ids: [Int] { list.ids }
    /// Whether the changes replayed onto the items, every change fitting.
    var replays: Bool { replayer.mismatches.isEmpty && replayer.mirror == Array(list.items.value) }
}

/// Opens a list of `feed` over a remote of posts `0 ..< count` and loads `pages` pages.
func openList(
    _ store: PagingStore, feed: String = "home", count: Int = 35, start: Int = 0, pages: Int = 1, maxPages: Int? = nil
) -> WatchedList {
    let list = storedList(store, feed: feed, remote: TestRemote(count: count, start: start), maxPages: maxPages)
    for _ in 0 ..< pages { list.loadNextPage() }
    return WatchedList(list)
}

/// Holds a list until `take()`.
final class ListHolder: Sendable {
    private let slot: Locked<StoredList?>

    init(_ list: StoredList) {
        slot = Locked(list)
    }

    var list: StoredList? { slot.withLock { $0 } }

    /// Lets the list go (released when the caller drops it, outside the lock).
    func take() -> StoredList? {
        slot.withLock { list in
            defer { list = nil }
            return list
        }
    }
}

@Suite("23, 24. Every list follows the store: one item, every list")
struct FollowingContract {
    @Test func storeUpdateReachesTwoListsOfTwoFeedsInOneTransitionEach() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let profile = openList(store, feed: "profile")
        try store.update(Post(id: 4, title: "liked", likes: 1))
        #expect(home.list.items.value[4] == Post(id: 4, title: "liked", likes: 1))
        #expect(profile.list.items.value[4] == Post(id: 4, title: "liked", likes: 1))
        #expect(home.replayer.transitions == 1)
        #expect(profile.replayer.transitions == 1)
        #expect(home.replays && profile.replays)
    }

    @Test func aListsEditReachesAListOfAnotherFeed() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let profile = openList(store, feed: "profile")
        home.list.update(id: 7) { $0.likes += 1 }
        #expect(profile.list.items.value[7].likes == 1)
        #expect(home.replayer.transitions == 1)
        #expect(profile.replayer.transitions == 1)
        #expect(profile.replays)
    }

    @Test func anEditReachesAnotherListOfTheSameFeed() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let first = openList(store, pages: 2)
        let second = openList(store, pages: 2)
        first.list.update(Post(id: 12, title: "edited"))
        #expect(second.list.items.value[12].title == "edited")
        #expect(second.replayer.transitions == 1)
    }

    @Test func aPageOfFeedBWithANewerVersionOfAnItemUpdatesFeedA() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let remote = TestRemote(posts: [Post(id: 3, title: "from search", likes: 9), Post(id: 100)])
        let search = storedList(store, feed: "search", remote: remote)
        search.loadNextPage()
        #expect(home.list.items.value[3] == Post(id: 3, title: "from search", likes: 9))
        #expect(home.replayer.transitions == 1)
        #expect(home.replays)
    }

    @Test func aRemoveFromOneFeedLeavesTheOtherFeedsLists() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let homeAgain = openList(store)
        let profile = openList(store, feed: "profile")
        home.list.remove(id: 5)
        #expect(homeAgain.ids == ids(0 ..< 5) + ids(6 ..< 10))
        #expect(profile.ids == ids(0 ..< 10))
        #expect(homeAgain.replays)
    }

    @Test func storeRemoveTakesTheItemOutOfEveryList() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let profile = openList(store, feed: "profile")
        try store.remove(Post.self, id: 5)
        #expect(home.ids == ids(0 ..< 5) + ids(6 ..< 10))
        #expect(profile.ids == ids(0 ..< 5) + ids(6 ..< 10))
        #expect(home.replayer.transitions == 1 && profile.replayer.transitions == 1)
        #expect(home.replays && profile.replays)
    }

    @Test func anInsertInsideTheHeldWindowShowsInTheOtherListsOfTheFeed() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let first = openList(store, pages: 2)
        let second = openList(store, pages: 2)
        first.list.insert([Post(id: 500), Post(id: 501)], at: 13)
        #expect(second.ids == ids(0 ..< 13) + [500, 501] + ids(13 ..< 20))
        #expect(second.replays)
        #expect(try store.feed("home", of: Post.self).items() == Array(second.list.items.value))
    }

    @Test func anInsertOutsideTheHeldWindowWaitsUntilTheListPagesThere() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let deep = openList(store, pages: 3)
        let shallow = openList(store, pages: 1)
        deep.list.insert([Post(id: 500)], at: 25)
        #expect(shallow.ids == ids(0 ..< 10))
        #expect(shallow.replayer.transitions == 0)
        shallow.list.loadNextPage()
        shallow.list.loadNextPage()
        #expect(shallow.ids == ids(0 ..< 25) + [500] + ids(25 ..< 30))
    }

    @Test func aRememberedPrefetchRowMovesWithRowsAnotherListInsertsAboveIt() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let remote = TestRemote(count: 45)
        let parked = storedList(store, remote: remote)
        parked.loadNextPage()
        parked.loadNextPage()
        let editor = openList(store, pages: 1)
        remote.setHolding(true)
        parked.loadPagesIfNeeded(visibleIndex: 19, prefetchDistance: 10)     // page 3 held, row 19 remembered
        #expect(remote.requests == [nil, 1, 2])
        editor.list.insert(posts(100 ..< 110), at: 0)                          // the user's row is now 29
        #expect(parked.ids == ids(100 ..< 110) + ids(0 ..< 20))
        remote.release()                                                        // 40 rows: row 29 reaches 39
        #expect(parked.ids.count == 40)
        #expect(remote.requests == [nil, 1, 2, 3], "the next page started by itself")
    }

    @Test func anInsertThroughTheFeedAtTheTopOfAHeldPageGoesIntoThatPage() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let list = openList(store, pages: 2)
        try store.feed("home", of: Post.self).insert([Post(id: 500)], at: 10)
        #expect(list.ids == ids(0 ..< 10) + [500] + ids(10 ..< 20))
        #expect(list.replays)
    }

    @Test func aWriteThatRollsBackPublishesNothing() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let other = openList(store, feed: "other")
        try failWritesPartway(store, afterMembers: 0)
        #expect(throws: StoreError.self) { try store.feed("other", of: Post.self).insert([Post(id: 3, title: "new"), Post(id: 700)], at: 0) }
        try failWritesPartway(store, afterMembers: nil)
        #expect(home.list.items.value[3] == Post(id: 3))
        #expect(home.replayer.transitions == 0 && other.replayer.transitions == 0)
    }

    @Test func aClearedFeedEmptiesItsOtherLists() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store, pages: 2)
        let profile = openList(store, feed: "profile")
        try store.feed("home", of: Post.self).clear()
        #expect(home.ids.isEmpty)
        #expect(profile.ids == ids(0 ..< 10))
        #expect(home.replays)
    }

    @Test func anotherListsRefreshOfTheFeedIsFollowedWithoutBlanking() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let remote = TestRemote(count: 35)
        let first = storedList(store, remote: remote)
        first.loadNextPage()
        first.loadNextPage()
        let second = openList(store, pages: 2)
        remote.setPosts(posts(0 ..< 35, title: "fresh"))
        first.refresh(.mergeOnTop(maxPages: 1, onGap: .keepGap))
        #expect(second.ids == ids(0 ..< 20))
        #expect(second.list.items.value[0].title == "fresh 0")
        #expect(second.replayer.transitions == 1)
        #expect(second.replays)
    }

    @Test func aRefreshWhosePageOverlapsTheHeldItemsStoresTheirNewValues() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let remote = TestRemote(count: 35)
        let list = storedList(store, remote: remote)
        list.loadNextPage()
        remote.setPosts(posts(0 ..< 35, title: "fresh"))
        list.refresh(.mergeOnTop(maxPages: 1, onGap: .keepGap))
        #expect(try store.feed("home", of: Post.self).items() == posts(0 ..< 10, title: "fresh"))
    }

    @Test func anotherListsReplaceRefreshMovesTheListToTheNewFirstPageWithoutBlanking() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let remote = TestRemote(count: 35)
        let first = storedList(store, remote: remote)
        first.loadNextPage()
        first.loadNextPage()
        let second = WatchedList(storedList(store, remote: remote))
        second.list.loadNextPage()
        second.list.loadNextPage()
        remote.setPosts([Post(id: 900)] + posts(0 ..< 34))
        first.refresh(.replace)
        #expect(second.ids == [900] + ids(0 ..< 9))
        #expect(second.replayer.transitions == 3)
        #expect(second.replays)
        second.list.loadNextPage()
        #expect(second.ids == [900] + ids(0 ..< 19))
    }

    @Test func anItemInAPageDroppedByMaxPagesIsNotHeldAndShowsItsNewValueWhenReadBack() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let list = openList(store, count: 60, pages: 4, maxPages: 2)
        #expect(list.ids == ids(20 ..< 40))
        try store.update(Post(id: 5, title: "edited"))
        #expect(list.replayer.transitions == 0)
        list.list.loadPreviousPage()
        list.list.loadPreviousPage()
        #expect(list.list.items.value.first { $0.id == 5 }?.title == "edited")
        #expect(list.replays)
    }

    // Seed 473670513566829777 of the model test: the list gave the row to its (empty) top page, the store to
    // the page of the row below, so paging down dropped the row from the list and not from its pages.
    @Test func anInsertAtTheTopOfAListWhoseTopPageIsEmptyGoesIntoThatPage() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let list = openList(store, count: 60, pages: 2, maxPages: 2)
        for id in 0 ..< 10 { list.list.remove(id: id) }
        list.list.insert([Post(id: 500)], at: 0)
        list.list.loadNextPage()
        #expect(list.ids == ids(10 ..< 30))
        list.list.loadPreviousPage()
        #expect(list.ids == [500] + ids(10 ..< 20))
        #expect(list.replays)
    }

    @Test func anInsertAtTheTopOfAnEmptiedTopPageGoesIntoThatPageInAnotherListOfTheFeed() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let list = openList(store, count: 60, pages: 2)
        let other = openList(store, count: 60, pages: 2, maxPages: 2)
        for id in 0 ..< 10 { list.list.remove(id: id) }
        list.list.insert([Post(id: 500)], at: 0)
        #expect(other.ids == [500] + ids(10 ..< 20))
        other.list.loadNextPage()
        #expect(other.ids == ids(10 ..< 30))
        other.list.loadPreviousPage()
        #expect(other.ids == [500] + ids(10 ..< 20))
        #expect(other.replays)
    }

    @Test func commitsOfTwoWriterThreadsReachEveryListInCommitOrder() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let profile = openList(store, feed: "profile")
        // Two threads write the same item, 200 times each: every list ends with the value of the last commit.
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            for round in 0 ..< 200 { try? store.update(Post(id: 4, title: "thread \(thread)", likes: round)) }
        }
        let stored = try #require(try store.feed("home", of: Post.self).items().first { $0.id == 4 })
        #expect(home.list.items.value[4] == stored)
        #expect(profile.list.items.value[4] == stored)
        #expect(home.replays && profile.replays)
    }

    @Test func aListReleasedMidDeliveryIsSkippedAndTheOthersGetTheCommit() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let doomed = ListHolder(openList(store, feed: "a").list)
        let survivor = openList(store, feed: "b")
        let leaks = LeakChecker()
        // The first list's observer releases it while the commit is delivered.
        doomed.list!.items.signal.observeValues { [doomed] _ in _ = doomed.take() }
        leaks.watch(doomed.list!)
        try store.update(Post(id: 2, title: "edited"))
        #expect(doomed.list == nil)
        #expect(survivor.list.items.value[2].title == "edited")
        try store.update(Post(id: 3, title: "edited"))
        #expect(survivor.list.items.value[3].title == "edited")
        #expect(leaks.allFreed)
    }

    @Test func aReleasedListIsFreedAndUnregisters() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let leaks = LeakChecker()
        do {
            let watched = openList(store, pages: 2)
            leaks.watch(watched.list)
            #expect(store.database.bus.listenerCount == 1)
        }
        #expect(leaks.allFreed)
        #expect(store.database.bus.listenerCount == 0)
    }

    @Test func aListsOwnEditIsOneTransitionAndNotAppliedTwice() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        home.list.insert([Post(id: 500)], at: 0)
        home.list.update(id: 500) { $0.likes += 1 }
        home.list.remove(id: 3)
        #expect(home.replayer.transitions == 3)
        #expect(home.ids == [500] + ids(0 ..< 3) + ids(4 ..< 10))
        #expect(home.list.items.value[0].likes == 1)
        #expect(home.replays)
    }

    @Test func aConfirmedMutationChangesEveryListOfEveryFeedInOneTransitionEachAndStaysAfterARelaunch() throws {
        let folder = TemporaryFolder()
        do {
            let store = try openStore(folder.path())
            let home = openList(store)
            let profile = openList(store, feed: "profile")
            _ = profile.list.mutate(id: 5, { $0.likes = 9 }, send: { Producer<Post, RemoteError>(value: $0) }).record()
            #expect(home.list.items.value[5].likes == 9 && profile.list.items.value[5].likes == 9)
            // The change, then the server's value (equal: no second transition).
            #expect(home.replayer.transitions == 1 && profile.replayer.transitions == 1)
            #expect(home.replays && profile.replays)
        }
        let store = try openStore(folder.path())
        #expect(try store.feed("home", of: Post.self).items()[5].likes == 9)
        #expect(try store.feed("profile", of: Post.self).items()[5].likes == 9)
    }

    @Test func anEditFollowedByAnotherListStaysAfterARelaunch() throws {
        let folder = TemporaryFolder()
        do {
            let store = try openStore(folder.path())
            let home = openList(store)
            let profile = openList(store, feed: "profile")
            profile.list.update(id: 6) { $0.likes = 42 }
            #expect(home.list.items.value[6].likes == 42)
        }
        let store = try openStore(folder.path())
        #expect(try store.feed("home", of: Post.self).items()[6].likes == 42)
        #expect(try store.feed("profile", of: Post.self).items()[6].likes == 42)
    }
}

@Suite("Another process writes the file")
struct AnotherWriterContract {
    @Test func checkForChangesShowsAnotherConnectionsWriteWithoutBlanking() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store, pages: 2)
        let other = try openStore(folder.path())
        try other.update(Post(id: 4, title: "from the widget"))
        try other.feed("home", of: Post.self).remove(id: 12)
        #expect(home.list.items.value[4].title == "post 4")
        #expect(try store.checkForChanges())
        #expect(home.list.items.value[4].title == "from the widget")
        #expect(home.ids == ids(0 ..< 12) + ids(13 ..< 20))
        #expect(home.replayer.transitions == 1)
        #expect(home.replays)
    }

    @Test func checkForChangesIsFalseWhenOnlyThisStoreWrote() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        try store.update(Post(id: 4, title: "edited"))
        #expect(try store.checkForChanges() == false)
        #expect(home.replayer.transitions == 1)
    }

    @Test func aRefreshFirstShowsAnotherConnectionsWriteAlsoWhenTheNetworkFails() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let remote = TestRemote(count: 35)
        let list = storedList(store, remote: remote)
        list.loadNextPage()
        try openStore(folder.path()).update(Post(id: 2, title: "from the extension"))
        remote.setFailing(true)
        list.refresh()
        #expect(list.items.value[2].title == "from the extension")
        #expect(list.loadStates.value.refresh == .failed(.remote(RemoteError(code: 503))))
    }

    @Test func anotherConnectionsReplaceOfTheFeedMovesTheListToTheNewFirstPage() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store, pages: 2)
        do {
            let other = try openStore(folder.path())
            let remote = TestRemote(posts: [Post(id: 900)] + posts(0 ..< 34))
            let writer = storedList(other, remote: remote)
            writer.loadNextPage()
            writer.refresh(.replace)
        }
        try store.checkForChanges()
        #expect(home.ids == [900] + ids(0 ..< 9))
        #expect(home.replays)
    }

    @Test func aCheckThatFailsLeavesTheOtherConnectionsWriteForTheNextCheck() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        try openStore(folder.path()).update(Post(id: 2, title: "from the extension"))
        // The check's second read fails once (a view in the writer's own temporary schema shadows the table).
        try store.database.withWriter { connection throws(StoreError) in
            try connection.execute("CREATE TEMP VIEW pending_edits AS SELECT abs(-9223372036854775807 - 1) AS item")
        }
        #expect(throws: StoreError.self) { try store.checkForChanges() }
        try store.database.withWriter { connection throws(StoreError) in try connection.execute("DROP VIEW temp.pending_edits") }
        #expect(try store.checkForChanges())
        #expect(home.list.items.value[2].title == "from the extension")
    }

    @Test(arguments: [true, false])
    func anEditOverPagesAnotherConnectionDeletedFailsAndKeepsItsWrite(_ inserts: Bool) throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store, pages: 2)
        let diagnostics = MutableProperty<[PaginatedListDiagnostic]>([])
        home.list.diagnostics.observeValues { diagnostic in diagnostics.modify { $0.append(diagnostic) } }
        do {
            let other = try openStore(folder.path())
            let writer = storedList(other, remote: TestRemote(posts: [Post(id: 900)] + posts(0 ..< 9)))
            writer.loadNextPage()
            writer.refresh(.replace)   // the pages home holds are deleted, items 9 ..< 20 with them
        }
        // Before `checkForChanges()` brings the other write: the edit cannot be written row by row.
        if inserts {
            home.list.insert([Post(id: 700)], at: 15)
        } else {
            home.list.update(id: 15) { $0.likes += 1 }
        }
        #expect(diagnostics.value.contains { if case .editNotStored = $0 { true } else { false } })
        #expect(store.feed("home", of: Post.self).ids == [900] + ids(0 ..< 9), "the other connection's write stays")
        try store.checkForChanges()
        #expect(home.ids == [900] + ids(0 ..< 9))
        #expect(home.replays)
    }
}
