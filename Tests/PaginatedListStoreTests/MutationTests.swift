import Dispatch
import CPaginatedListSQLite
import Foundation
import PaginatedList
@testable import PaginatedListStore
import PaginatedListTesting
import Signals
import Testing

// Optimistic edits (`StoredFeed.mutate`): the change is stored at once and every open list follows; the send's
// answer settles it. Lists run on an immediate scheduler over a `TestRemote` that answers synchronously; the
// sends are held by `HeldSend` until the test answers them.

/// A send the test answers: each call is held with the item it was given.
final class HeldSend: Sendable {
    private struct Request {
        let item: Post
        let observer: Signal<Post, RemoteError>.Observer
    }

    private let requests = Locked<[Request]>([])
    private let ended = Locked(0)

    /// The send to pass to `mutate`.
    var send: @Sendable (Post) -> Producer<Post, RemoteError> {
        { [self] item in
            Producer { [self] observer, lifetime in
                requests.withLock { $0.append(Request(item: item, observer: observer)) }
                lifetime.observeEnded { [self] in ended.withLock { $0 += 1 } }
            }
        }
    }

    /// The items the sends were given, in order.
    var sent: [Post] { requests.withLock { $0.map(\.item) } }
    /// How many sends' runs ended (answered, or disposed).
    var endedRuns: Int { ended.withLock { $0 } }

    /// Answers send `index` with `item` (the item it was given when `nil`).
    func succeed(_ index: Int = 0, with item: Post? = nil) {
        let request = requests.withLock { $0[index] }
        request.observer.send(value: item ?? request.item)
        request.observer.sendCompleted()
    }

    /// Fails send `index`.
    func fail(_ index: Int = 0) {
        requests.withLock { $0[index] }.observer.send(error: RemoteError(code: 500))
    }

    /// Completes send `index` with no value.
    func complete(_ index: Int = 0) {
        requests.withLock { $0[index] }.observer.sendCompleted()
    }
}

/// A send that answers at once with the item it was given.
let immediateSend: @Sendable (Post) -> Producer<Post, RemoteError> = { Producer(value: $0) }

typealias MutationRecorder = EventRecorder<Post, MutationError<RemoteError>>

extension StoredFeed where Item == Post {
    /// The stored post `id` (`nil` when the feed does not list it).
    func post(_ id: Int) -> Post? {
        ((try? items()) ?? []).first { $0.id == id }
    }
}

/// Adds a like (`liked` is not a field of `Post`: a like is one more).
let like: @Sendable (inout Post) -> Void = { $0.likes += 1 }

/// The home feed's first page held by a list, a like of post 3 pending with its send held, and the remote's
/// posts retitled "fresh": what a refresh of the list then brings is post 3's newer server value.
struct LikePendingBeforeARefresh {
    let folder = TemporaryFolder()
    let store: PagingStore
    let home: WatchedList
    let feed: StoredFeed<Post>
    let send = HeldSend()

    init() throws {
        store = try openStore(folder.path())
        let remote = TestRemote(count: 35)
        home = WatchedList(storedList(store, remote: remote))
        home.list.loadNextPage()
        feed = store.feed("home", of: Post.self)
        _ = feed.mutate(id: 3, like, send: send.send).record()
        remote.setPosts(posts(0 ..< 35, title: "fresh"))
    }
}

/// The value of one item in each transition of a list from now on (`nil`: not held then).
final class ShownItem: Sendable {
    private let shown = Locked<[Post?]>([])

    init(_ id: Int, in list: StoredList) {
        list.items.signal.observeValues { [self] items in
            shown.withLock { $0.append(items.first { $0.id == id }) }
        }
    }

    /// One entry per transition.
    var values: [Post?] { shown.withLock { $0 } }
}

@Suite("Optimistic edits: mutate, pendingEdits, rollback")
struct MutationTests {
    @Test func theChangeShowsInEveryOpenListAtOnceInOneTransitionEach() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let profile = openList(store, feed: "profile")
        let send = HeldSend()
        let recorder = store.feed("home", of: Post.self).mutate(id: 3, like, send: send.send).record()
        #expect(home.list.items.value[3].likes == 1)
        #expect(profile.list.items.value[3].likes == 1)
        #expect(home.replayer.transitions == 1 && profile.replayer.transitions == 1)
        #expect(home.replays && profile.replays)
        #expect(recorder.events.isEmpty)
    }

    @Test func sendGetsTheChangedItem() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        _ = openList(store)
        let send = HeldSend()
        _ = store.feed("home", of: Post.self).mutate(id: 3, like, send: send.send).record()
        #expect(send.sent == [Post(id: 3, likes: 1)])
    }

    @Test func theSendsValueIsStoredAsTheServersShownAndSent() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let send = HeldSend()
        let feed = store.feed("home", of: Post.self)
        let recorder = feed.mutate(id: 3, like, send: send.send).record()
        send.succeed(with: Post(id: 3, title: "post 3", likes: 7))
        #expect(home.list.items.value[3].likes == 7)
        #expect(feed.post(3)?.likes == 7)
        #expect(recorder.values == [Post(id: 3, likes: 7)])
        #expect(recorder.terminal.map { if case .completed = $0 { true } else { false } } == true)
        #expect(try feed.pendingEdits().isEmpty)
        #expect(home.replays)
    }

    @Test func aFailedSendRestoresTheServersValueInEveryListAndIsRemote() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let profile = openList(store, feed: "profile")
        let send = HeldSend()
        let feed = store.feed("home", of: Post.self)
        let recorder = feed.mutate(id: 3, like, send: send.send).record()
        send.fail()
        #expect(home.list.items.value[3] == Post(id: 3))
        #expect(profile.list.items.value[3] == Post(id: 3))
        #expect(feed.post(3) == Post(id: 3))
        #expect(recorder.terminal.flatMap { $0.error } == .remote(RemoteError(code: 500)))
        #expect(home.replayer.transitions == 2 && profile.replayer.transitions == 2)
        #expect(home.replays && profile.replays)
    }

    @Test func anIdTheFeedDoesNotListIsNotFoundAndSendDoesNotRun() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        _ = openList(store)
        _ = openList(store, feed: "profile", start: 2)
        let send = HeldSend()
        // Post 25 is stored (in "profile"), not listed by "home".
        let recorder = store.feed("home", of: Post.self).mutate(id: 25, like, send: send.send).record()
        #expect(recorder.terminal.flatMap { $0.error } == .notFound)
        #expect(send.sent.isEmpty)
        #expect(store.feed("profile", of: Post.self).post(25) == Post(id: 25))
    }

    @Test func anEditThatCannotBeStoredIsStoreAndChangesNothing() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        try setReadOnly(store, true)
        let send = HeldSend()
        let recorder = store.feed("home", of: Post.self).mutate(id: 3, like, send: send.send).record()
        guard case .store(let error)? = recorder.terminal?.error else {
            Issue.record("expected .store, got \(String(describing: recorder.terminal))")
            return
        }
        #expect(error.kind == .readOnly)
        #expect(send.sent.isEmpty)
        #expect(home.list.items.value[3] == Post(id: 3))
    }

    @Test func anEditWhoseCommitFailsLeavesNothingPendingInMemory() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let send = HeldSend()
        let feed = store.feed("home", of: Post.self)
        try failCommitsOfNewPendingRows(store, true)
        let failed = feed.mutate(id: 3, like, send: send.send).record()
        guard case .store? = failed.terminal?.error else {
            Issue.record("expected .store, got \(String(describing: failed.terminal))")
            return
        }
        #expect(store.database.pending.chains.isEmpty, "an edit the file does not hold is not kept in memory either")
        #expect(send.sent.isEmpty)
        #expect(home.list.items.value[3] == Post(id: 3))
        try failCommitsOfNewPendingRows(store, false)
        _ = feed.mutate(id: 3, like, send: send.send).record()
        send.succeed(0, with: Post(id: 3, likes: 1))
        #expect(home.list.items.value[3].likes == 1)
        #expect(store.database.pending.chains.isEmpty)
        #expect(try feed.pendingEdits().isEmpty)
    }

    @Test func anItemDeletedWhileItsEditIsPendingEndsTheEdit() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let send = HeldSend()
        let feed = store.feed("home", of: Post.self)
        _ = feed.mutate(id: 3, like, send: send.send).record()
        try store.remove(Post.self, id: 3)
        #expect(store.database.pending.chains.isEmpty, "its answer settles nothing any more")
        #expect(try feed.pendingEdits().isEmpty)
        send.succeed(0, with: Post(id: 3, likes: 1))
        #expect(!home.list.items.value.contains { $0.id == 3 }, "the answer does not bring the item back")
        #expect(home.replays)
    }

    @Test(arguments: ["remove", "clear", "delete"])
    func anItemNoFeedListsAnyMoreWhileItsEditIsPendingEndsTheEdit(_ how: String) throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let feed = store.feed("home", of: Post.self)
        _ = openList(store)
        let send = HeldSend()
        _ = feed.mutate(id: 3, like, send: send.send).record()
        switch how {   // its row goes: no feed lists it
        case "remove": try feed.remove(id: 3)
        case "clear": try feed.clear()
        default: try store.remove(Post.self, id: 3)
        }
        #expect(store.database.pending.chains.isEmpty, "its answer settles nothing any more")
        try feed.insert([Post(id: 3, title: "stored again")], at: 0)
        send.succeed(0, with: Post(id: 3, title: "the answer", likes: 1))
        #expect(feed.post(3) == Post(id: 3, title: "stored again"), "the answer is sent on, not stored")
        #expect(!store.database.pending.mayHaveRows, "no pending row left to look up")
    }

    @Test func pendingEditsListsTheEditUntilItsSendAnswers() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        _ = openList(store)
        let send = HeldSend()
        let feed = store.feed("home", of: Post.self)
        let first = feed.mutate(id: 3, like, send: send.send).record()
        let second = feed.mutate(id: 1, like, send: send.send).record()
        #expect(try feed.pendingEdits() == [3, 1])
        send.succeed(0)
        #expect(try feed.pendingEdits() == [1])
        send.fail(1)
        #expect(try feed.pendingEdits().isEmpty)
        #expect(first.isTerminated && second.isTerminated)
    }

    @Test func anUnansweredEditIsPendingAfterARelaunchAndShownUntilRollback() throws {
        let folder = TemporaryFolder()
        let send = HeldSend()
        do {
            let store = try openStore(folder.path())
            _ = openList(store)
            // The process ends before the send answers (the run is never disposed: a crash).
            let run = store.feed("home", of: Post.self).mutate(id: 3, like, send: send.send).start()
            _ = Unmanaged.passRetained(run as AnyObject)
        }
        let store = try openStore(folder.path())
        let feed = store.feed("home", of: Post.self)
        #expect(try feed.pendingEdits() == [3])
        #expect(feed.post(3)?.likes == 1)
    }

    /// A store whose post 3 has an edit pending since an earlier launch whose shown value no longer decodes
    /// (the app's `Post` changed since).
    private func storeWithAnUndecodablePendingEdit(_ folder: TemporaryFolder) throws -> PagingStore {
        let send = HeldSend()
        do {
            let store = try openStore(folder.path())
            _ = openList(store)
            let run = store.feed("home", of: Post.self).mutate(id: 3, like, send: send.send).start()
            _ = Unmanaged.passRetained(run as AnyObject)   // the process ends before the send answers
        }
        do {
            let connection = try SQLiteConnection(path: folder.path(), flags: SQLITE_OPEN_READWRITE)
            try connection.execute(#"UPDATE pending_edits SET shown = CAST('{"broken": true}' AS BLOB)"#)
        }
        return try openStore(folder.path())
    }

    @Test func aPageWhosePendingItemNoLongerDecodesIsNotWritten() throws {
        let folder = TemporaryFolder()
        let store = try storeWithAnUndecodablePendingEdit(folder)
        let profile = storedList(store, feed: "profile", remote: TestRemote(count: 35))
        profile.loadNextPage()                                  // brings post 3 into another feed
        guard case .failed(.store) = profile.loadStates.value.append else {
            Issue.record("the page did not fail with a store error: \(profile.loadStates.value.append)")
            return
        }
        #expect(profile.items.value.isEmpty)
        let stored = try store.database.read { connection throws(StoreError) in
            try connection.integer("SELECT count(*) FROM members m JOIN feeds f ON f.id = m.feed WHERE f.name = 'profile'")
        }
        #expect(stored == 0, "the write rolled back")
    }

    @Test func aRefreshWhosePendingItemNoLongerDecodesIsNotWrittenAndTheListStaysAsTheFileDoes() throws {
        let folder = TemporaryFolder()
        let store = try storeWithAnUndecodablePendingEdit(folder)
        let list = storedList(store, remote: TestRemote(posts: posts(0 ..< 35, title: "new")))
        list.loadNextPage()
        list.refresh(.replace)
        guard case .failed(.store) = list.loadStates.value.refresh else {
            Issue.record("the refresh did not fail with a store error: \(list.loadStates.value.refresh)")
            return
        }
        #expect(list.items.value[0] == Post(id: 0), "the list stays as it was")
        #expect(store.feed("home", of: Post.self).post(0) == Post(id: 0), "and so does the file: the write rolled back")
    }

    @Test func rollbackRestoresTheServersValueInEveryOpenListAfterARelaunch() throws {
        let folder = TemporaryFolder()
        do {
            let store = try openStore(folder.path())
            _ = openList(store)
            let run = store.feed("home", of: Post.self).mutate(id: 3, like, send: HeldSend().send).start()
            _ = Unmanaged.passRetained(run as AnyObject)
        }
        let store = try openStore(folder.path())
        let home = WatchedList(storedList(store, remote: TestRemote(count: 35)))
        home.list.loadNextPage()
        let profile = openList(store, feed: "profile")
        #expect(home.list.items.value[3].likes == 1)
        let feed = store.feed("home", of: Post.self)
        try feed.rollback(id: 3)
        #expect(home.list.items.value[3] == Post(id: 3))
        #expect(profile.list.items.value[3] == Post(id: 3))
        #expect(try feed.pendingEdits().isEmpty)
        #expect(home.replays && profile.replays)
    }

    @Test func rollbackOfAnItemWithNoPendingEditChangesNothing() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        try store.update(Post(id: 3, title: "edited"))
        try store.feed("home", of: Post.self).rollback(id: 3)
        #expect(home.list.items.value[3].title == "edited")
        #expect(home.replayer.transitions == 1)
    }

    @Test func aPageThatBringsThePendingItemUpdatesTheServersValueAndKeepsTheEditOnTop() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let send = HeldSend()
        let feed = store.feed("home", of: Post.self)
        _ = feed.mutate(id: 3, like, send: send.send).record()
        // Another feed pages in post 3 with a new title from the server.
        let remote = TestRemote(posts: posts(0 ..< 10, title: "new"))
        let profile = WatchedList(storedList(store, feed: "profile", remote: remote))
        profile.list.loadNextPage()
        #expect(home.list.items.value[3] == Post(id: 3, title: "new 3", likes: 1))
        #expect(profile.list.items.value[3] == Post(id: 3, title: "new 3", likes: 1))
        send.fail()
        #expect(home.list.items.value[3] == Post(id: 3, title: "new 3"))
        #expect(profile.list.items.value[3] == Post(id: 3, title: "new 3"))
        #expect(home.replays && profile.replays)
    }

    @Test func aRefreshThatLandsWhileAnEditIsPendingKeepsTheEditOnTop() throws {
        let pending = try LikePendingBeforeARefresh()
        let (home, feed, send) = (pending.home, pending.feed, pending.send)
        home.list.refresh()
        #expect(home.list.items.value[3] == Post(id: 3, title: "fresh 3", likes: 1))
        #expect(feed.post(3) == Post(id: 3, title: "fresh 3", likes: 1))
        #expect(home.replays)
        send.succeed(with: Post(id: 3, title: "fresh 3", likes: 1))
        #expect(try feed.pendingEdits().isEmpty)
    }

    @Test func aRefreshThatLandsWhileAnEditIsPendingIsOneTransitionPerListEachShowingTheEdit() throws {
        let pending = try LikePendingBeforeARefresh()
        let home = pending.home
        let other = openList(pending.store)
        let profile = openList(pending.store, feed: "profile")
        let shown = [home, other, profile].map { ShownItem(3, in: $0.list) }
        home.list.refresh()
        let edited = Post(id: 3, title: "fresh 3", likes: 1)
        #expect(shown.map(\.values) == [[edited], [edited], [edited]])
        #expect(home.replays && other.replays && profile.replays)
    }

    @Test func aRefreshThatLandsWhileAnEditIsPendingLeavesItsValueUnderneathForAFailedSendToRestore() throws {
        let pending = try LikePendingBeforeARefresh()
        let (home, feed, send) = (pending.home, pending.feed, pending.send)
        home.list.refresh()
        send.fail()
        #expect(home.list.items.value[3] == Post(id: 3, title: "fresh 3"))
        #expect(feed.post(3) == Post(id: 3, title: "fresh 3"))
        #expect(home.replays)
    }

    @Test func aPageOfAnotherFeedThatBringsAPendingItemIsOneTransitionPerListEachShowingTheEdit() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let send = HeldSend()
        _ = store.feed("home", of: Post.self).mutate(id: 3, like, send: send.send).record()
        let profile = WatchedList(storedList(store, feed: "profile", remote: TestRemote(posts: posts(0 ..< 10, title: "new"))))
        let shown = [home, profile].map { ShownItem(3, in: $0.list) }
        profile.list.loadNextPage()
        let edited = Post(id: 3, title: "new 3", likes: 1)
        #expect(shown.map(\.values) == [[edited], [edited]])
        #expect(home.replays && profile.replays)
    }

    @Test func aListsUpdateOfAnItemWithAnEditPendingIsOneTransitionShowingTheEditOnTopOfTheUpdate() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let send = HeldSend()
        _ = store.feed("home", of: Post.self).mutate(id: 3, like, send: send.send).record()
        let shown = ShownItem(3, in: home.list)
        home.list.update(Post(id: 3, title: "renamed", likes: 10))
        #expect(shown.values == [Post(id: 3, title: "renamed", likes: 11)])
        send.fail()
        #expect(home.list.items.value[3] == Post(id: 3, title: "renamed", likes: 10))
        #expect(home.replays)
    }

    @Test func anUpdateWhileAnEditIsPendingIsTheServersNewValueWithTheEditOnTop() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let send = HeldSend()
        _ = store.feed("home", of: Post.self).mutate(id: 3, like, send: send.send).record()
        try store.update(Post(id: 3, title: "renamed", likes: 10))
        #expect(home.list.items.value[3] == Post(id: 3, title: "renamed", likes: 11))
        send.fail()
        #expect(home.list.items.value[3] == Post(id: 3, title: "renamed", likes: 10))
        #expect(home.replays)
    }

    @Test func aSecondEditStartsFromTheFirstsResult() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let send = HeldSend()
        let feed = store.feed("home", of: Post.self)
        _ = feed.mutate(id: 3, like, send: send.send).record()
        _ = feed.mutate(id: 3, { $0.title = "renamed" }, send: send.send).record()
        #expect(send.sent == [Post(id: 3, likes: 1), Post(id: 3, title: "renamed", likes: 1)])
        #expect(home.list.items.value[3] == Post(id: 3, title: "renamed", likes: 1))
    }

    @Test func aFailureOfTheFirstOfTwoEditsTakesOutOnlyItsChange() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let send = HeldSend()
        let feed = store.feed("home", of: Post.self)
        _ = feed.mutate(id: 3, like, send: send.send).record()
        _ = feed.mutate(id: 3, { $0.title = "renamed" }, send: send.send).record()
        send.fail(0)
        #expect(home.list.items.value[3] == Post(id: 3, title: "renamed"))
        #expect(try feed.pendingEdits() == [3])
        send.fail(1)
        #expect(home.list.items.value[3] == Post(id: 3))
        #expect(home.replays)
    }

    @Test func theFirstOfTwoEditsConfirmedIsTheBaseTheSecondAppliesTo() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let send = HeldSend()
        let feed = store.feed("home", of: Post.self)
        _ = feed.mutate(id: 3, like, send: send.send).record()
        _ = feed.mutate(id: 3, { $0.title = "renamed" }, send: send.send).record()
        // The server counted another user's like too.
        send.succeed(0, with: Post(id: 3, likes: 2))
        #expect(home.list.items.value[3] == Post(id: 3, title: "renamed", likes: 2))
        send.fail(1)
        #expect(home.list.items.value[3] == Post(id: 3, likes: 2))
        #expect(try feed.pendingEdits().isEmpty)
    }

    @Test func anEarlierEditsAnswerAfterALaterOnesDoesNotReplaceTheNewerValue() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let send = HeldSend()
        let feed = store.feed("home", of: Post.self)
        _ = feed.mutate(id: 3, like, send: send.send).record()
        _ = feed.mutate(id: 3, like, send: send.send).record()
        send.succeed(1, with: Post(id: 3, likes: 2))
        send.succeed(0, with: Post(id: 3, likes: 1))
        #expect(home.list.items.value[3].likes == 2)
        #expect(feed.post(3)?.likes == 2)
    }

    @Test func aLaterEditsAnswerHoldsTheEarlierPendingEditItWasSentWith() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let send = HeldSend()
        let feed = store.feed("home", of: Post.self)
        _ = feed.mutate(id: 3, like, send: send.send).record()
        _ = feed.mutate(id: 3, like, send: send.send).record()
        #expect(home.list.items.value[3].likes == 2)
        send.succeed(1, with: Post(id: 3, likes: 2))
        #expect(home.list.items.value[3].likes == 2, "the first like went with the second one's item: not applied again")
        #expect(feed.post(3)?.likes == 2)
        send.fail(0)
        #expect(home.list.items.value[3].likes == 2, "the server took the first like with the second's item")
        #expect(try feed.pendingEdits().isEmpty)
        #expect(home.replays)
    }

    @Test func disposingTheRunBeforeTheSendAnswersRollsTheEditBackAndDisposesTheSend() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let send = HeldSend()
        let feed = store.feed("home", of: Post.self)
        let run = feed.mutate(id: 3, like, send: send.send).start()
        run.dispose()
        #expect(home.list.items.value[3] == Post(id: 3))
        #expect(try feed.pendingEdits().isEmpty)
        #expect(send.endedRuns == 1)
        #expect(home.replays)
    }

    @Test func aSendThatCompletesWithNoValueConfirmsTheChangedItem() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let send = HeldSend()
        let feed = store.feed("home", of: Post.self)
        let recorder = feed.mutate(id: 3, like, send: send.send).record()
        send.complete()
        #expect(recorder.values == [Post(id: 3, likes: 1)])
        #expect(home.list.items.value[3].likes == 1)
        #expect(try feed.pendingEdits().isEmpty)
    }

    @Test func anImmediateSendLeavesTheServersValueAndNothingPending() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let feed = store.feed("home", of: Post.self)
        let recorder = feed.mutate(id: 3, like, send: immediateSend).record()
        #expect(recorder.values == [Post(id: 3, likes: 1)])
        #expect(home.list.items.value[3].likes == 1)
        #expect(try feed.pendingEdits().isEmpty)
        #expect(try rowCount("pending_edits", in: store) == 0)
    }

    @Test func anAnswerIsTakenForTheItemSentOnlyWhenItIsThatValueBitForBit() {
        let sent = Post(id: 3, title: String(repeating: "a long title ", count: 4))
        let echoed = sent
        #expect(isBitwiseIdentical(sent, echoed))
        #expect(!isBitwiseIdentical(sent, Post(id: 3, title: sent.title, likes: 1)))
        // Equal, but its title in storage of its own (as a server's answer decoded from JSON): encoded again.
        #expect(!isBitwiseIdentical(sent, Post(id: 3, title: String(repeating: "a long title ", count: 4))))
    }

    @Test func aMutationOfAnItemPendingSinceAnEarlierLaunchSettlesItWithItsOutcome() throws {
        let folder = TemporaryFolder()
        do {
            let store = try openStore(folder.path())
            _ = openList(store)
            let run = store.feed("home", of: Post.self).mutate(id: 3, like, send: HeldSend().send).start()
            _ = Unmanaged.passRetained(run as AnyObject)
        }
        let store = try openStore(folder.path())
        let feed = store.feed("home", of: Post.self)
        let send = HeldSend()
        _ = feed.mutate(id: 3, like, send: send.send).record()
        #expect(send.sent == [Post(id: 3, likes: 2)])
        send.fail()
        #expect(feed.post(3) == Post(id: 3))
        #expect(try feed.pendingEdits().isEmpty)
    }

    @Test func aSendThatAnswersAfterRollbackStoresItsValue() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let send = HeldSend()
        let feed = store.feed("home", of: Post.self)
        _ = feed.mutate(id: 3, like, send: send.send).record()
        try feed.rollback(id: 3)
        #expect(home.list.items.value[3] == Post(id: 3))
        send.succeed()
        #expect(home.list.items.value[3] == Post(id: 3, likes: 1))
        #expect(try feed.pendingEdits().isEmpty)
    }

    @Test func aSendThatFailsAfterRollbackChangesNothing() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let send = HeldSend()
        let feed = store.feed("home", of: Post.self)
        _ = feed.mutate(id: 3, like, send: send.send).record()
        try feed.rollback(id: 3)
        try store.update(Post(id: 3, title: "edited"))
        send.fail()
        #expect(home.list.items.value[3] == Post(id: 3, title: "edited"))
    }

    @Test func theValueOfASendWhoseItemWasDeletedIsSentNotStored() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let send = HeldSend()
        let feed = store.feed("home", of: Post.self)
        let recorder = feed.mutate(id: 3, like, send: send.send).record()
        try store.remove(Post.self, id: 3)
        send.succeed()
        #expect(recorder.values == [Post(id: 3, likes: 1)])
        #expect(feed.post(3) == nil)
        #expect(!home.ids.contains(3))
        #expect(try rowCount("pending_edits", in: store) == 0)
    }

    @Test func aStoreBackedListsMutateRunsOnItsFeed() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let profile = openList(store, feed: "profile")
        let send = HeldSend()
        _ = home.list.mutate(id: 3, like, send: send.send).record()
        #expect(profile.list.items.value[3].likes == 1)
        send.fail()
        #expect(home.list.items.value[3] == Post(id: 3))
        #expect(profile.list.items.value[3] == Post(id: 3))
    }

    @Test func mutateOnAListThatIsNotStoreBackedIsAStoreError() {
        let list = PaginatedListViewModel<Post, RemoteError>(
            dependency: ArraySource<Post, RemoteError>([Post(id: 1)], pageSize: 10), scheduler: ImmediateScheduler())
        let recorder = list.mutate(id: 1, like, send: immediateSend).record()
        guard case .store(let error)? = recorder.terminal?.error else {
            Issue.record("expected .store, got \(String(describing: recorder.terminal))")
            return
        }
        #expect(error.kind == .cannotOpen)
    }

    @Test func aVersionThreeFileIsMigratedKeepingEveryRowAndTakesEdits() throws {
        let folder = TemporaryFolder()
        let path = try BadFileContract.versionOneFile(folder)
        do {
            let connection = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READWRITE)
            try Schema.migrate(connection, to: 3)
        }
        let store = try openStore(path)
        let feed = store.feed("home", of: Post.self)
        #expect(feed.ids == ids(0 ..< 20))
        #expect(try store.database.read { connection throws(StoreError) in try connection.integer("PRAGMA user_version") } == Int64(Schema.version))
        let send = HeldSend()
        _ = feed.mutate(id: 3, like, send: send.send).record()
        #expect(try feed.pendingEdits() == [3])
    }

    @Test func aVersionFourFilesPendingEditsAreMigratedInTheOrderTheyStartedAndRollBack() throws {
        let folder = TemporaryFolder()
        let path = try BadFileContract.versionOneFile(folder)
        do {
            // Version 4 kept pending edits by an id of their own: post 7's edit (row 8) started before post 2's (row 3).
            let connection = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READWRITE)
            try Schema.migrate(connection, to: 4)
            try connection.execute("""
                INSERT INTO pending_edits(id, item, server, shown) SELECT 1, id, body, json_set(body, '$.likes', 1) FROM items WHERE key = '7';
                INSERT INTO pending_edits(id, item, server, shown) SELECT 2, id, body, json_set(body, '$.likes', 1) FROM items WHERE key = '2';
                UPDATE items SET body = (SELECT shown FROM pending_edits WHERE item = items.id) WHERE id IN (SELECT item FROM pending_edits);
                """)
        }
        let store = try openStore(path)
        let feed = store.feed("home", of: Post.self)
        #expect(try feed.pendingEdits() == [7, 2])
        #expect(feed.post(7)?.likes == 1)
        try feed.rollback(id: 7)
        #expect(feed.post(7) == Post(id: 7))
        #expect(try feed.pendingEdits() == [2])
        #expect(feed.ids == ids(0 ..< 20))
    }

    @Test func aSendAnsweringAfterItsItemWasRemovedSettlesNothingOfAnItemStoredInItsRowSince() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let feed = store.feed("home", of: Post.self)
        let send = HeldSend()
        _ = feed.mutate(id: 9, like, send: send.send).record()
        try store.remove(Post.self, id: 9)
        try feed.insert([Post(id: 100)], at: 0)
        let rows = try store.database.read { connection throws(StoreError) in
            (try connection.integer("SELECT max(id) FROM items WHERE key = '9'"), try connection.integer("SELECT id FROM items WHERE key = '100'"))
        }
        #expect(rows.0 == nil && rows.1 == 10, "post 100 takes the row post 9 had (the highest): \(rows)")
        _ = feed.mutate(id: 100, like, send: send.send).record()
        send.succeed(0)
        #expect(try feed.pendingEdits() == [100])
        #expect(home.list.items.value.first == Post(id: 100, likes: 1))
        #expect(feed.post(100) == Post(id: 100, likes: 1))
        send.fail(1)
        #expect(home.list.items.value.first == Post(id: 100))
        #expect(try feed.pendingEdits().isEmpty)
    }
}

// The races of an optimistic edit, on two threads at once (run under the thread sanitizer too): each ends in
// the same state whichever thread's write commits first.
@Suite("Optimistic edits: races")
struct MutationRaceTests {
    @Test func aSendThatFailsWhileAPageBringingTheSameItemLandsLeavesThePagesValueEverywhere() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let home = openList(store)
        let feed = store.feed("home", of: Post.self)
        for round in 0 ..< 20 {
            let send = HeldSend()
            _ = feed.mutate(id: 3, like, send: send.send).record()
            let other = WatchedList(storedList(store, feed: "other \(round)", remote: TestRemote(posts: posts(0 ..< 10, title: "round \(round)"))))
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 { send.fail() } else { other.list.loadNextPage() }
            }
            #expect(home.list.items.value[3] == Post(id: 3, title: "round \(round) 3"))
            #expect(other.list.items.value[3] == Post(id: 3, title: "round \(round) 3"))
            #expect(other.replays)
        }
        #expect(try feed.pendingEdits().isEmpty)
        #expect(home.replays)
    }

    @Test func anEditInListAWhileListBRefreshesTheSameFeedStaysOnTopOfTheRefreshedValue() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let a = openList(store)
        for round in 0 ..< 20 {
            let remote = TestRemote(posts: posts(0 ..< 35, title: "round \(round)"))
            let b = WatchedList(storedList(store, remote: remote))
            b.list.loadNextPage()
            let send = HeldSend()
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 { _ = a.list.mutate(id: 3, like, send: send.send).record() } else { b.list.refresh() }
            }
            #expect(a.list.items.value[3] == Post(id: 3, title: "round \(round) 3", likes: 1))
            #expect(b.list.items.value[3] == Post(id: 3, title: "round \(round) 3", likes: 1))
            send.fail()
            #expect(a.list.items.value[3] == Post(id: 3, title: "round \(round) 3"))
            #expect(b.list.items.value[3] == Post(id: 3, title: "round \(round) 3"))
            #expect(Array(a.list.items.value) == Array(b.list.items.value))
            #expect(b.replays)
        }
        #expect(a.replays)
    }

    @Test func aListReleasedMidMutationIsFreedAndTheMutationStillSettles() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let survivor = openList(store, feed: "profile")
        let feed = store.feed("home", of: Post.self)
        let leaks = LeakChecker()
        for round in 0 ..< 20 {
            let holder = ListHolder(openList(store).list)
            leaks.watch(holder.list!)
            let send = HeldSend()
            let recorder = holder.list!.mutate(id: 3, like, send: send.send).record()
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 { _ = holder.take() } else { send.succeed(with: Post(id: 3, likes: round + 1)) }
            }
            #expect(recorder.values == [Post(id: 3, likes: round + 1)])
            #expect(survivor.list.items.value[3].likes == round + 1)
            #expect(feed.post(3)?.likes == round + 1)
        }
        #expect(leaks.allFreed)
        #expect(try feed.pendingEdits().isEmpty)
    }

    @Test func anotherProcessesMutationIsFollowedAtCheckForChangesAndItsRollbackKeepsThisProcessesPage() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let remote = TestRemote(count: 35)
        let home = WatchedList(storedList(store, remote: remote))
        home.list.loadNextPage()
        // Another process (a widget) opens the file and likes post 3; its send is held.
        let widget = try openStore(folder.path())
        let send = HeldSend()
        _ = widget.feed("home", of: Post.self).mutate(id: 3, like, send: send.send).record()
        #expect(try store.checkForChanges())
        #expect(home.list.items.value[3].likes == 1)
        #expect(try store.feed("home", of: Post.self).pendingEdits() == [3])
        // The widget's send fails while this process refreshes the feed from the server.
        remote.setPosts(posts(0 ..< 35, title: "fresh"))
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            if thread == 0 { send.fail() } else { home.list.refresh() }
        }
        try store.checkForChanges()
        #expect(home.list.items.value[3] == Post(id: 3, title: "fresh 3"))
        #expect(try store.feed("home", of: Post.self).pendingEdits().isEmpty)
        #expect(home.replays)
    }
}
