import Foundation
import PaginatedList
@testable import PaginatedListStore
import PaginatedListTesting
import Signals
import Testing

// A commit that changes an item of a page after the list read (or wrote) that page, and is delivered to the
// list before the page lands, is applied while the page is not held yet: the list then reads its window
// again behind the landing, so the page shows the stored value, not the one it was read with. The commit is
// made at the worst moment on purpose: while the page's rows are decoded (a stored page), or by another
// list following the page's own write (a remote page). Every list runs on an immediate scheduler.

/// A memo whose decoding runs `Memo.decoding` (the test's hook), if set.
struct Memo: Codable, Identifiable, Hashable, Sendable {
    let id: Int
    var text: String

    init(id: Int, text: String) {
        self.id = id
        self.text = text
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        text = try container.decode(String.self, forKey: .text)
        Memo.decoding.withLock { $0 }?(id)
    }

    static let decoding = Locked<(@Sendable (Int) -> Void)?>(nil)
}

/// Memos `0 ..< count` with `text`, in pages of 10 keyed by their first id.
struct MemoRemote: KeyedPageSource {
    let count: Int
    let text: String

    func page(at key: Int?) -> Producer<KeyedPage<Memo, Int>, Never> {
        let first = key ?? 0
        let notes = (first ..< min(first + 10, count)).map { Memo(id: $0, text: text) }
        return Producer(value: KeyedPage(items: notes, previous: nil, next: first + 10 < count ? first + 10 : nil))
    }
}

typealias MemoList = PaginatedListViewModel<Memo, StoredListError<Never>>

private func memoList(_ store: PagingStore, feed: String = "notes", remote: MemoRemote = MemoRemote(count: 40, text: "server")) -> MemoList {
    MemoList(feed: store.feed(feed, of: Memo.self), remote: remote, revalidate: .never, scheduler: ImmediateScheduler())
}

private func text(of id: Int, in list: MemoList) -> String? {
    list.items.value.first { $0.id == id }?.text
}

@Suite("A commit made while a page is on its way", .serialized)
struct LandingTests {
    /// A list of a store that holds the feed's first two pages, with the first one loaded from it.
    private func listOverTwoStoredPages(_ store: PagingStore) -> MemoList {
        do {
            let writer = memoList(store)
            writer.loadNextPage()
            writer.loadNextPage()
        }
        let list = memoList(store)
        list.loadNextPage()
        #expect(list.items.value.map(\.id) == Array(0 ..< 10), "the first stored page")
        return list
    }

    /// Loads the list's next page, running `commit` the first time the memo `id` is decoded (while the page
    /// is read); returns whether it ran.
    private func loadNextPage(of list: MemoList, committingWhile id: Int, _ commit: @escaping @Sendable () -> Void) -> Bool {
        let fired = Locked(false)
        Memo.decoding.withLock {
            $0 = { decoded in
                guard decoded == id, !fired.withLock({ $0 }) else { return }
                fired.withLock { $0 = true }
                commit()
            }
        }
        defer { Memo.decoding.withLock { $0 = nil } }
        list.loadNextPage()
        return fired.withLock { $0 }
    }

    @Test func aCommitMadeWhileAStoredPageIsReadIsShownOnceThePageLands() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let list = listOverTwoStoredPages(store)
        let fired = loadNextPage(of: list, committingWhile: 15) { try? store.update(Memo(id: 15, text: "edited")) }
        #expect(fired, "the hook committed while the second stored page was read")
        #expect(list.items.value.map(\.id) == Array(0 ..< 20))
        #expect(text(of: 15, in: list) == "edited")
        #expect(try store.feed("notes", of: Memo.self).items().first { $0.id == 15 }?.text == "edited")
        #expect(list.lastError.value == nil)
    }

    /// Removed from every feed (`PagingStore.remove`), or from this feed by another of its lists.
    @Test(arguments: [true, false])
    func anItemRemovedWhileAStoredPageIsReadIsGoneOnceThePageLands(fromEveryFeed: Bool) throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let list = listOverTwoStoredPages(store)
        let other = memoList(store)
        other.loadNextPage()
        other.loadNextPage()
        let fired = loadNextPage(of: list, committingWhile: 12) {
            if fromEveryFeed { try? store.remove(Memo.self, id: 12) } else { other.remove(id: 12) }
        }
        #expect(fired, "the hook removed the item while the second stored page was read")
        #expect(list.items.value.map(\.id) == Array(0 ..< 12) + Array(13 ..< 20))
        #expect(try store.feed("notes", of: Memo.self).items().map(\.id) == Array(0 ..< 12) + Array(13 ..< 20))
    }

    @Test func aCommitMadeWhileARemotePageIsWrittenIsShownOnceThePageLands() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        // Another feed lists notes 20 ..< 30 as "old": writing the page of "notes" that brings them changes
        // their rows, which the other list follows, and, on seeing note 25 change, edits it.
        let other = memoList(store, feed: "other", remote: MemoRemote(count: 40, text: "old"))
        other.loadNextPage()
        other.loadNextPage()
        other.loadNextPage()
        #expect(text(of: 25, in: other) == "old")
        let fired = Locked(false)
        let observation = other.items.signal.observeValues { items in
            guard items.contains(Memo(id: 25, text: "server")), !fired.withLock({ $0 }) else { return }
            fired.withLock { $0 = true }
            try? store.update(Memo(id: 25, text: "edited"))
        }
        defer { observation?.dispose() }
        let list = memoList(store)
        for _ in 0 ..< 3 { list.loadNextPage() }
        #expect(fired.withLock { $0 }, "the other list edited note 25 while the page that brings it was written")
        #expect(list.items.value.map(\.id) == Array(0 ..< 30))
        #expect(text(of: 25, in: list) == "edited")
        #expect(text(of: 25, in: other) == "edited")
        #expect(try store.feed("notes", of: Memo.self).items().first { $0.id == 25 }?.text == "edited")
    }

    @Test func theWatchReportsTheCommitsAfterAPagesReadButNotThePagesOwn() {
        var watch = LandingWatch()
        let first = watch.begin(lastSequence: 1)
        watch.record(.init(sequence: 2, keys: ["b"], pages: [], reshaped: false))
        let second = watch.begin(lastSequence: 2)
        watch.record(.init(sequence: 3, keys: ["c"], pages: [7], reshaped: true))
        #expect(watch.end(second, ownCommit: nil).map(\.sequence) == [3], "only what came after its read")
        #expect(watch.end(first, ownCommit: 2).map(\.sequence) == [3], "the page's own commit is left out")
    }

    // A ticket begun after the commit 0 would be shown every commit the watch still keeps.
    @Test func theWatchKeepsNoCommitDeliveredWhileNoPageIsOnItsWay() {
        var watch = LandingWatch()
        watch.record(.init(sequence: 1, keys: ["a"], pages: [], reshaped: false))
        let ticket = watch.begin(lastSequence: 0)
        #expect(watch.end(ticket, ownCommit: nil).isEmpty)
    }

    @Test func theWatchForgetsTheCommitsNoPageOnItsWayCanHaveMissed() {
        var watch = LandingWatch()
        let first = watch.begin(lastSequence: 1)
        watch.record(.init(sequence: 2, keys: ["b"], pages: [], reshaped: false))
        let second = watch.begin(lastSequence: 2)
        watch.record(.init(sequence: 3, keys: ["c"], pages: [], reshaped: false))
        _ = watch.end(first, ownCommit: nil)
        let probe = watch.begin(lastSequence: 0)
        #expect(watch.end(probe, ownCommit: nil).map(\.sequence) == [3], "commit 2 is forgotten: the second page read after it")
        _ = watch.end(second, ownCommit: nil)
        let last = watch.begin(lastSequence: 0)
        #expect(watch.end(last, ownCommit: nil).isEmpty, "nothing is kept once no page is on its way")
    }
}
