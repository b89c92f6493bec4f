import Foundation
import PaginatedList
@testable import PaginatedListStore
import PaginatedListTesting
import Signals
import Testing

/// `StoredFeed` and `PagingStore` used directly: reading, editing and clearing a feed, items stored once per
/// type and id, what the feed row knows.
@Suite("Stored feeds")
struct StoredFeedTests {
    /// A store whose "home" feed holds posts 0 ..< 30 in three pages.
    static func store(_ folder: TemporaryFolder) throws -> PagingStore {
        let store = try openStore(folder.path())
        let list = storedList(store, remote: TestRemote(count: 35))
        for _ in 0 ..< 3 { list.loadNextPage() }
        return store
    }

    @Test func aFeedNeverWrittenIsEmpty() throws {
        let folder = TemporaryFolder()
        let feed = try openStore(folder.path()).feed("nothing", of: Post.self)
        #expect(try feed.items().isEmpty)
        #expect(try feed.info().itemCount == 0)
    }

    @Test func insertPutsItemsAtTheIndexClamped() throws {
        let folder = TemporaryFolder()
        let feed = try Self.store(folder).feed("home", of: Post.self)
        try feed.insert([Post(id: 100), Post(id: 101)], at: 5)
        try feed.insert([Post(id: 102)], at: -3)
        try feed.insert([Post(id: 103)], at: 1000)
        #expect(feed.ids == [102] + ids(0 ..< 5) + [100, 101] + ids(5 ..< 30) + [103])
    }

    @Test func insertOfAnIdTheFeedListsUpdatesItWhereItIs() throws {
        let folder = TemporaryFolder()
        let feed = try Self.store(folder).feed("home", of: Post.self)
        try feed.insert([Post(id: 7, title: "again"), Post(id: 100)], at: 0)
        #expect(feed.ids == [100] + ids(0 ..< 30))
        #expect(try feed.items()[8].title == "again")
    }

    @Test func manyInsertionsAtOneSpotKeepTheirOrder() throws {
        let folder = TemporaryFolder()
        let feed = try Self.store(folder).feed("home", of: Post.self)
        for id in 100 ..< 170 { try feed.insert([Post(id: id)], at: 1) }
        #expect(feed.ids == [0] + ids(100 ..< 170).reversed() + ids(1 ..< 30))
    }

    @Test func itemsInsertedIntoAnEmptyFeedAreFollowedByTheSourcesFirstPage() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        try store.feed("home", of: Post.self).insert([Post(id: 100)], at: 0)
        let remote = TestRemote(count: 15)
        let list = storedList(store, remote: remote)
        list.loadNextPage()
        #expect(list.ids == [100])
        list.loadNextPage()
        #expect(list.ids == [100] + ids(0 ..< 10))
        #expect(remote.requests == [nil])
    }

    @Test func removeTakesTheItemOutOfThisFeedOnly() throws {
        let folder = TemporaryFolder()
        let store = try Self.store(folder)
        let other = store.feed("other", of: Post.self)
        try other.insert([Post(id: 3)], at: 0)
        try store.feed("home", of: Post.self).remove(id: 3)
        #expect(!store.feed("home", of: Post.self).ids.contains(3))
        #expect(other.ids == [3])
    }

    @Test func clearEmptiesTheFeedAndKeepsTheItemsOtherFeedsList() throws {
        let folder = TemporaryFolder()
        let store = try Self.store(folder)
        let other = store.feed("other", of: Post.self)
        try other.insert([Post(id: 3, title: "kept")], at: 0)
        try store.feed("home", of: Post.self).clear()
        #expect(store.feed("home", of: Post.self).ids.isEmpty)
        #expect(try store.feed("home", of: Post.self).info() == StoredFeedInfo(
            itemCount: 0, pageCount: 0, fetchedAt: nil, validators: nil, headComplete: false, tailComplete: false, totalCount: nil))
        #expect(try other.items() == [Post(id: 3, title: "kept")])
        #expect(try Self.rowCount("items", in: store) == 1)
    }

    @Test func anItemIsStoredOncePerTypeAndIdWhateverFeedsListIt() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        storedList(store, feed: "home", remote: TestRemote(count: 15)).loadNextPage()
        storedList(store, feed: "profile", remote: TestRemote(count: 15)).loadNextPage()
        try store.feed("notes", of: Note.self).insert([Note(id: 3, text: "same id, other type")], at: 0)
        #expect(try Self.rowCount("items", in: store) == 11)
    }

    @Test func updateReplacesTheItemInEveryFeedThatListsIt() throws {
        let folder = TemporaryFolder()
        let store = try Self.store(folder)
        try store.feed("other", of: Post.self).insert([Post(id: 3)], at: 0)
        try store.update(Post(id: 3, title: "edited"))
        #expect(try store.feed("home", of: Post.self).items()[3].title == "edited")
        #expect(try store.feed("other", of: Post.self).items()[0].title == "edited")
    }

    @Test func updateOfAnItemNoFeedListsStoresNothing() throws {
        let folder = TemporaryFolder()
        let store = try Self.store(folder)
        try store.update(Post(id: 999))
        #expect(try Self.rowCount("items", in: store) == 30)
    }

    @Test func removeFromTheStoreTakesTheItemOutOfEveryFeed() throws {
        let folder = TemporaryFolder()
        let store = try Self.store(folder)
        try store.feed("other", of: Post.self).insert([Post(id: 3)], at: 0)
        try store.remove(Post.self, id: 3)
        #expect(!store.feed("home", of: Post.self).ids.contains(3))
        #expect(store.feed("other", of: Post.self).ids.isEmpty)
        #expect(try Self.rowCount("items", in: store) == 29)
    }

    @Test func infoSaysWhatTheFeedRowKnows() throws {
        let folder = TemporaryFolder()
        let clock = TestClock()
        let store = try openStore(folder.path(), clock: clock)
        let list = storedList(store, remote: TestRemote(count: 25))
        for _ in 0 ..< 2 { list.loadNextPage() }
        let partial = try store.feed("home", of: Post.self).info()
        #expect(partial == StoredFeedInfo(itemCount: 20, pageCount: 2, fetchedAt: clock.now, validators: nil,
                                          headComplete: true, tailComplete: false, totalCount: 25))
        list.loadNextPage()
        #expect(try store.feed("home", of: Post.self).info().tailComplete)
    }

    static func rowCount(_ table: String, in store: PagingStore) throws -> Int64 {
        try store.database.read { connection throws(StoreError) in try connection.integer("SELECT count(*) FROM \(table)") ?? 0 }
    }
}

/// Another item type, to tell types apart.
struct Note: Codable, Identifiable, Equatable, Sendable {
    var id: Int
    var text: String
}

/// ID-snapshot feeds: the snapshot is kept once in the feed (the seed's Feed object), each page's key holds
/// only its index, and a list goes on over the stored snapshot after a relaunch.
@Suite("ID-snapshot feeds")
struct IDSnapshotFeedTests {
    typealias Item = ChangingFeed.Item

    static func source(_ feed: ChangingFeed) -> IDSnapshotSource<Item, Never> {
        IDSnapshotSource(batchSize: 10) { feed.request { $0.ids() } } fetchItems: { ids in feed.request { $0.items(ids: ids) } }
    }

    static func list(_ store: PagingStore, _ feed: ChangingFeed) -> PaginatedListViewModel<Item, StoredListError<Never>> {
        PaginatedListViewModel(feed: store.feed("ranked", of: Item.self), remote: source(feed), revalidate: .never,
                               scheduler: ImmediateScheduler())
    }

    @Test func theSnapshotIsStoredOnceAndThePagesKeysHoldTheirIndex() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let list = Self.list(store, ChangingFeed(count: 45))
        for _ in 0 ..< 3 { list.loadNextPage() }
        #expect(try StoredFeedTests.rowCount("snapshots", in: store) == 1)
        let keys = try store.database.read { connection throws(StoreError) -> [String] in
            let statement = try connection.statement("SELECT next FROM pages ORDER BY seq")
            var keys: [String] = []
            while try statement.step() { keys.append(String(decoding: statement.blob(0) ?? Data(), as: UTF8.self)) }
            return keys
        }
        #expect(keys == ["10", "20", "30"])
    }

    @Test func aRelaunchedListGoesOnOverTheStoredSnapshot() throws {
        let folder = TemporaryFolder()
        let feed = ChangingFeed(count: 45)
        do {
            let list = Self.list(try openStore(folder.path()), feed)
            for _ in 0 ..< 2 { list.loadNextPage() }
        }
        feed.apply([.insert(count: 5, at: 0)])   // the server's order moved: the snapshot holds
        let list = Self.list(try openStore(folder.path()), feed)
        for _ in 0 ..< 3 { list.loadNextPage() }
        #expect(list.items.value.map(\.id) == Array(0 ..< 30))
    }
}

/// Sparse positions: numbers between two bounds, or none when there is no room.
@Suite("Sparse positions")
struct PositionsTests {
    @Test func numbersAtTheEndsAreAStepApart() {
        #expect(Positions.allocate(3, after: 10, before: nil) == [10 + Positions.step, 10 + 2 * Positions.step, 10 + 3 * Positions.step])
        #expect(Positions.allocate(2, after: nil, before: 0) == [-2 * Positions.step, -Positions.step])
    }

    @Test func numbersBetweenBoundsAreStrictlyBetweenAndIncreasing() throws {
        let numbers = try #require(Positions.allocate(5, after: 100, before: 107))
        #expect(numbers == numbers.sorted())
        #expect(Set(numbers).count == 5)
        #expect(numbers.allSatisfy { $0 > 100 && $0 < 107 })
    }

    @Test func noRoomBetweenNeighboursIsNil() {
        #expect(Positions.allocate(2, after: 5, before: 7) == nil)
    }

    @Test func farApartBoundsDoNotOverflow() throws {
        let numbers = try #require(Positions.allocate(2, after: Int64.min + 1, before: Int64.max - 1))
        #expect(numbers[0] < numbers[1])
    }
}

/// Renumbering when two neighbours leave no number between them: pages keep their order.
@Suite("Renumbering")
struct RenumberingTests {
    @Test func pagesWithNoRoomBetweenThemAreRenumberedInOrder() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let (first, second, seqs) = try store.database.write { connection throws(StoreError) -> (Int64, Int64, [Int64]) in
            let tables = FeedTables(connection)
            let feed = try tables.feed(named: "home", typeName: "Post", create: true)!
            let links = StoredLinks(key: nil, previous: nil, next: nil)
            let first = try tables.insertPage(feed: feed.id, seq: 10, links: links, fetchedAt: 0, gapBelow: false)
            let second = try tables.insertPage(feed: feed.id, seq: 11, links: links, fetchedAt: 0, gapBelow: false)
            return (first, second, try tables.seqs(3, in: feed.id, after: 10, before: 11))
        }
        let order = try store.database.read { connection throws(StoreError) -> [Int64] in
            let tables = FeedTables(connection)
            return [try tables.page(first)!.seq, try tables.page(second)!.seq]
        }
        #expect(seqs.count == 3)
        #expect(([order[0]] + seqs + [order[1]]) == ([order[0]] + seqs + [order[1]]).sorted())
        #expect(Set(seqs + order).count == 5)
    }
}
