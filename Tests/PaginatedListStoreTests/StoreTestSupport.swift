import Foundation
import PaginatedList
@testable import PaginatedListStore
import PaginatedListTesting
import Signals

/// A post, as a feed of an app would store it.
struct Post: Codable, Identifiable, Hashable, Sendable {
    var id: Int
    var title: String
    var likes: Int = 0

    init(id: Int, title: String? = nil, likes: Int = 0) {
        self.id = id
        self.title = title ?? "post \(id)"
        self.likes = likes
    }
}

/// The error the test remote fails with.
struct RemoteError: Error, Equatable, Sendable {
    let code: Int
}

typealias StoredList = PaginatedListViewModel<Post, StoredListError<RemoteError>>

/// A keyed remote source over an array of posts that the test changes: page *k* holds posts
/// `k * pageSize ..< (k + 1) * pageSize`; it answers synchronously, logs every key asked for, and fails
/// while `failing` is set.
final class TestRemote: KeyedPageSource, Sendable {
    let pageSize: Int
    /// The page `page(at: nil)` loads.
    let start: Int
    private let state: Locked<State>

    private struct State {
        var validators: PageValidators?
        var posts: [Post]
        var requests: [Int?] = []
        var failing = false
        var held: [(key: Int?, observer: Signal<KeyedPage<Post, Int>, RemoteError>.Observer)] = []
        var holding = false
    }

    init(posts: [Post], pageSize: Int = 10, start: Int = 0) {
        self.pageSize = pageSize
        self.start = start
        state = Locked(State(posts: posts))
    }

    convenience init(count: Int, pageSize: Int = 10, start: Int = 0) {
        self.init(posts: (0 ..< count).map { Post(id: $0) }, pageSize: pageSize, start: start)
    }

    /// The validators every response carries.
    func setValidators(_ validators: PageValidators?) { state.withLock { $0.validators = validators } }
    /// The validators the feed has now (a server's answer to a conditional request).
    var validators: PageValidators? { state.withLock { $0.validators } }

    /// The keys asked for, in order (`nil`: the first page).
    var requests: [Int?] { state.withLock { $0.requests } }
    /// Makes every request fail (or succeed again).
    func setFailing(_ failing: Bool) { state.withLock { $0.failing = failing } }
    /// Replaces the feed the remote serves.
    func setPosts(_ posts: [Post]) { state.withLock { $0.posts = posts } }
    /// Holds every request until `release()` (to see the stored rows while a refresh loads).
    func setHolding(_ holding: Bool) { state.withLock { $0.holding = holding } }

    /// Answers the held requests.
    func release() {
        let held = state.withLock { state in
            defer { state.held = [] }
            return state.held
        }
        for request in held { answer(request.key, request.observer) }
    }

    func page(at key: Int?) -> Producer<KeyedPage<Post, Int>, RemoteError> {
        Producer { [self] observer, _ in
            let holding = state.withLock { state in
                state.requests.append(key)
                if state.holding { state.held.append((key, observer)) }
                return state.holding
            }
            if !holding { answer(key, observer) }
        }
    }

    private func answer(_ key: Int?, _ observer: Signal<KeyedPage<Post, Int>, RemoteError>.Observer) {
        let (posts, failing, validators) = state.withLock { ($0.posts, $0.failing, $0.validators) }
        if failing { return observer.send(error: RemoteError(code: 503)) }
        let index = key ?? start
        let start = min(index * pageSize, posts.count)
        let end = min(start + pageSize, posts.count)
        observer.send(value: KeyedPage(items: Array(posts[start ..< end]), previous: index > 0 ? index - 1 : nil,
                                       next: end < posts.count ? index + 1 : nil, totalCount: posts.count,
                                       validators: validators))
        observer.sendCompleted()
    }
}

/// Posts `range`, titled "`title` `id`" when a title is given (a feed that changed on the server).
func posts(_ range: Range<Int>, title: String? = nil) -> [Post] {
    range.map { id in Post(id: id, title: title.map { "\($0) \(id)" }) }
}

/// Makes the store's writer fail every write as a read-only file does (`PRAGMA query_only`), or lifts it.
func setReadOnly(_ store: PagingStore, _ readOnly: Bool) throws {
    try store.database.withWriter { connection throws(StoreError) in
        try connection.execute("PRAGMA query_only = \(readOnly ? 1 : 0)")
    }
}

/// Makes the commit of every write transaction that inserts a pending edit's row fail (a deferred foreign
/// key, checked at `COMMIT`, as a full disk fails there), or (`false`) lifts it. In the writer's own
/// temporary schema: the file is not changed.
func failCommitsOfNewPendingRows(_ store: PagingStore, _ fail: Bool) throws {
    try store.database.withWriter { connection throws(StoreError) in
        if fail {
            try connection.execute("""
                PRAGMA foreign_keys = ON;
                CREATE TEMP TABLE IF NOT EXISTS commit_target(id INTEGER PRIMARY KEY);
                CREATE TEMP TABLE IF NOT EXISTS commit_blocker(
                  ref INTEGER REFERENCES commit_target(id) DEFERRABLE INITIALLY DEFERRED);
                CREATE TEMP TRIGGER IF NOT EXISTS block_commit AFTER INSERT ON main.pending_edits
                  BEGIN INSERT INTO commit_blocker VALUES (1); END;
                """)
        } else {
            try connection.execute("DROP TRIGGER IF EXISTS temp.block_commit; PRAGMA foreign_keys = OFF;")
        }
    }
}

/// Makes every write transaction of the store's writer fail after it inserted `members` rows of a feed (a
/// page whose write fails partway: SQLite's `RAISE(ABORT)` from a trigger, counting in a table the
/// transaction rolls back too); `nil` lifts it.
func failWritesPartway(_ store: PagingStore, afterMembers members: Int?) throws {
    try store.database.withWriter { connection throws(StoreError) in
        try connection.execute("""
            DROP TRIGGER IF EXISTS temp.count_members; DROP TRIGGER IF EXISTS temp.fail_partway;
            DROP TABLE IF EXISTS temp.members_inserted
            """)
        guard let members else { return }
        try connection.execute("""
            CREATE TEMP TABLE members_inserted(n INTEGER);
            CREATE TEMP TRIGGER count_members AFTER INSERT ON main.members BEGIN INSERT INTO members_inserted VALUES (1); END;
            CREATE TEMP TRIGGER fail_partway BEFORE INSERT ON main.members WHEN (SELECT count(*) FROM members_inserted) >= \(members)
            BEGIN SELECT RAISE(ABORT, 'a write that fails partway'); END
            """)
    }
}

/// The number of rows of `table` in the store's file.
func rowCount(_ table: String, in store: PagingStore) throws -> Int64 {
    try store.database.read { connection throws(StoreError) in try connection.integer("SELECT count(*) FROM \(table)") ?? 0 }
}

/// A folder for one test's files, removed when the test's value is released.
final class TemporaryFolder: Sendable {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("PaginatedListStoreTests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of a file in the folder.
    func path(_ name: String = "store.sqlite") -> String {
        url.appendingPathComponent(name).path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A clock the test sets.
final class TestClock: Sendable {
    private let current: Locked<Date>

    init(_ start: Date = Date(timeIntervalSinceReferenceDate: 700_000_000)) {
        current = Locked(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }
}

/// Opens the store at `path`, or fails the test.
func openStore(_ path: String, clock: TestClock? = nil) throws -> PagingStore {
    if let clock {
        return try PagingStore(path: path, now: { clock.now })
    }
    return try PagingStore(path: path)
}

/// A store-backed list of posts over `remote`, on an immediate scheduler.
func storedList(
    _ store: PagingStore, feed name: String = "home", remote: TestRemote, revalidate: Revalidation = .never,
    maxPages: Int? = nil
) -> StoredList {
    PaginatedListViewModel(feed: store.feed(name, of: Post.self), remote: remote, revalidate: revalidate,
                           scheduler: ImmediateScheduler(), maxPages: maxPages)
}

/// Opens the store in `folder`, pages a list over a remote of 35 posts `pages` pages deep into its "home"
/// feed, and closes the store (the next open is a relaunch).
func storePages(_ pages: Int, in folder: TemporaryFolder) throws {
    let list = storedList(try openStore(folder.path()), remote: TestRemote(count: 35))
    for _ in 0 ..< pages { list.loadNextPage() }
}

extension StoredList {
    /// The ids of the items held.
    var ids: [Int] { items.value.map(\.id) }
}

extension StoredFeed where Item == Post {
    /// The ids of the stored items, in order.
    var ids: [Int] { ((try? items()) ?? []).map(\.id) }
}

/// The ids `lower ..< upper`.
func ids(_ range: Range<Int>) -> [Int] { Array(range) }
