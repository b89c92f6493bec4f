import CPaginatedListSQLite
import Foundation
import PaginatedList
@testable import PaginatedListStore
import PaginatedListTesting
import Testing

/// Contract point 26: a file that is not this store's is an error at open, and the file is left byte for
/// byte as it was; an older schema is migrated in place, in one transaction.
@Suite("26. Files that are not this store's, and older schemas")
struct BadFileContract {
    /// Opens `path` expecting a `StoreError` of `kind`, and checks the file's bytes did not change.
    static func expectRefused(_ path: String, as kind: StoreError.Kind, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            _ = try PagingStore(path: path)
            Issue.record("the store opened a file it should have refused", sourceLocation: sourceLocation)
        } catch {
            #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
            #expect(error.path == path, sourceLocation: sourceLocation)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file changed", sourceLocation: sourceLocation)
    }

    /// A file of a store with `pages` pages of posts, closed (checkpointed).
    static func storeFile(_ folder: TemporaryFolder, pages: Int = 3) throws -> String {
        let path = folder.path()
        let list = storedList(try openStore(path), remote: TestRemote(count: pages * 10 + 5))
        for _ in 0 ..< pages { list.loadNextPage() }
        return path
    }

    /// Runs `sql` on the file at `path` with a plain SQLite connection.
    static func execute(_ sql: String, at path: String) throws {
        let connection = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        try connection.execute(sql)
    }

    @Test func randomBytesAreNotADatabaseAndStayUnchanged() throws {
        let folder = TemporaryFolder()
        var random = SplitMix64(seed: 26)
        let bytes = (0 ..< 65536).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        try Data(bytes).write(to: URL(fileURLWithPath: folder.path()))
        try Self.expectRefused(folder.path(), as: .notADatabase)
    }

    @Test func aTextFileIsNotADatabaseAndStaysUnchanged() throws {
        let folder = TemporaryFolder()
        try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: folder.path()))
        try Self.expectRefused(folder.path(), as: .notADatabase)
    }

    @Test func anotherApplicationsDatabaseIsForeignAndStaysUnchanged() throws {
        let folder = TemporaryFolder()
        try Self.execute("CREATE TABLE contacts(name TEXT); INSERT INTO contacts VALUES ('Ada')", at: folder.path())
        try Self.expectRefused(folder.path(), as: .foreignDatabase)
    }

    @Test func anEmptyDatabaseMarkedByAnotherApplicationIsForeign() throws {
        let folder = TemporaryFolder()
        try Self.execute("PRAGMA application_id = 42", at: folder.path())
        try Self.expectRefused(folder.path(), as: .foreignDatabase)
    }

    @Test func aFileOfANewerSchemaIsRefusedAndStaysUnchanged() throws {
        let folder = TemporaryFolder()
        let path = try Self.storeFile(folder)
        try Self.execute("PRAGMA user_version = \(Schema.version + 1)", at: path)
        try Self.expectRefused(path, as: .schemaTooNew)
    }

    /// Found by the `StoreFile` fuzz target (its regression input `user-version-minus-one`): the schema
    /// check at open built the schema "up to version -1" and trapped.
    @Test func aStoreFileWithANegativeSchemaVersionIsCorruptAndStaysUnchanged() throws {
        let folder = TemporaryFolder()
        let path = try Self.storeFile(folder)
        try Self.execute("PRAGMA user_version = -1", at: path)
        try Self.expectRefused(path, as: .corrupt)
    }

    @Test func aTruncatedFileIsCorruptAndStaysUnchanged() throws {
        let folder = TemporaryFolder()
        let path = try Self.storeFile(folder, pages: 30)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try whole.prefix(whole.count / 2 / 4096 * 4096).write(to: URL(fileURLWithPath: path))
        try Self.expectRefused(path, as: .corrupt)
    }

    @Test(arguments: [99, 50, 16, 6])
    func aFileCutWithinItsHeaderIsCorruptAndStaysUnchanged(_ length: Int) throws {
        let folder = TemporaryFolder()
        let path = try Self.storeFile(folder)
        try Data(contentsOf: URL(fileURLWithPath: path)).prefix(length).write(to: URL(fileURLWithPath: path))
        try Self.expectRefused(path, as: .corrupt)
    }

    @Test func anEmptyFileBesideAWriteAheadLogIsCorruptAndTheLogIsKept() throws {
        let folder = TemporaryFolder()
        let path = folder.path()
        let log = Data((0 ..< 4096).map { UInt8(truncatingIfNeeded: $0) })
        try Data().write(to: URL(fileURLWithPath: path))
        try log.write(to: URL(fileURLWithPath: path + "-wal"))
        try Self.expectRefused(path, as: .corrupt)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")) == log)
    }

    /// A process killed while its first open wrote the schema (in rollback-journal mode, before the switch to
    /// WAL) leaves a hot journal: the file was refused as read-only on every later open.
    @Test func aFileWithTheJournalOfAnUnfinishedTransactionIsRolledBackAndOpens() throws {
        let folder = TemporaryFolder()
        let path = try Self.storeFile(folder)
        try Self.execute("PRAGMA journal_mode = DELETE", at: path)
        // A transaction in flight: its journal holds the pages it changes. A copy of the file and of the journal
        // is what a process killed before it deleted its journal leaves behind.
        let copy = folder.path("copy.sqlite")
        do {
            let writer = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READWRITE)
            // A cache of two pages spills: SQLite syncs the journal (writing its magic number, which makes it
            // "hot" for a reader that finds it without a writer) and writes pages into the file mid-transaction.
            try writer.execute("""
                PRAGMA cache_size = 2; BEGIN IMMEDIATE; PRAGMA user_version = 77; CREATE TABLE scratch(x);
                INSERT INTO scratch SELECT randomblob(2000) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50) SELECT i FROM n)
                """)
            let journal = try Data(contentsOf: URL(fileURLWithPath: path + "-journal"))
            #expect(journal.prefix(4) == Data([0xD9, 0xD5, 0x05, 0xF9]), "the journal is hot")
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            try FileManager.default.copyItem(atPath: path + "-journal", toPath: copy + "-journal")
            try writer.execute("ROLLBACK")
        }
        let store = try PagingStore(path: copy)
        #expect(store.feed("home", of: Post.self).ids == ids(0 ..< 30))
        #expect(!FileManager.default.fileExists(atPath: copy + "-journal"))
    }

    @Test func aFileCutInTheMiddleOfAPageIsCorruptAndStaysUnchanged() throws {
        let folder = TemporaryFolder()
        let path = try Self.storeFile(folder)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try whole.prefix(whole.count - 1000).write(to: URL(fileURLWithPath: path))
        try Self.expectRefused(path, as: .corrupt)
    }

    @Test func aFileWhoseSchemaPageIsOverwrittenIsCorruptAndStaysUnchanged() throws {
        let folder = TemporaryFolder()
        let path = try Self.storeFile(folder)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for index in 100 ..< 4096 { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try Self.expectRefused(path, as: .corrupt)
    }

    @Test func aMissingFolderCannotBeOpened() throws {
        let folder = TemporaryFolder()
        #expect(throws: StoreError.self) { try PagingStore(path: folder.path("missing/store.sqlite")) }
        do { _ = try PagingStore(path: folder.path("missing/store.sqlite")) } catch { #expect(error.kind == .cannotOpen) }
    }

    @Test(arguments: ["", ":memory:"])
    func aPathThatNamesNoFileCannotBeOpened(path: String) throws {
        do {
            _ = try PagingStore(path: path)
            Issue.record("the store opened \"\(path)\"")
        } catch {
            #expect(error.kind == .cannotOpen, "\(error)")
        }
    }

    @Test func aFolderCannotBeOpened() throws {
        let folder = TemporaryFolder()
        do {
            _ = try PagingStore(path: folder.url.path)
            Issue.record("the store opened a folder")
        } catch {
            #expect(error.kind == .cannotOpen, "\(error)")
        }
    }

    @Test func aStoreFileThatLacksATableIsCorruptAndStaysUnchanged() throws {
        let folder = TemporaryFolder()
        let path = try Self.storeFile(folder)
        try Self.execute("DROP TABLE snapshots", at: path)
        try Self.expectRefused(path, as: .corrupt)
    }

    @Test func aStoreFileThatLacksAnIndexIsCorruptAndStaysUnchanged() throws {
        let folder = TemporaryFolder()
        let path = try Self.storeFile(folder)
        try Self.execute("DROP INDEX members_by_page", at: path)
        try Self.expectRefused(path, as: .corrupt)
    }

    /// Makes the last member of page `page` list the page's first item again, as a damaged file can: the
    /// unique index that forbids it is made again without `UNIQUE` (SQLite finds nothing wrong in such a file).
    static func repeatFirstItem(ofPage page: Int, at path: String) throws {
        try execute("""
            DROP INDEX members_by_item;
            UPDATE members SET item = (SELECT item FROM members WHERE page = \(page) ORDER BY position LIMIT 1)
              WHERE position = (SELECT max(position) FROM members WHERE page = \(page));
            CREATE INDEX members_by_item ON members(item, feed);
            """, at: path)
    }

    /// Opens the store at `path` expecting the "home" feed's `items()` to throw `.corrupt`.
    static func expectItemsCorrupt(at path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let feed = try openStore(path).feed("home", of: Post.self)
        do {
            _ = try feed.items()
            Issue.record("the feed's items were read", sourceLocation: sourceLocation)
        } catch {
            #expect(error.kind == .corrupt, "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func aFeedThatListsAnItemRowTwiceIsCorruptWhenItsItemsAreRead() throws {
        let folder = TemporaryFolder()
        let path = try Self.storeFile(folder)
        try Self.repeatFirstItem(ofPage: 3, at: path)
        try Self.expectItemsCorrupt(at: path)
    }

    @Test func aFeedWhoseItemBodyIsAnotherItemsIsCorruptWhenItsItemsAreRead() throws {
        let folder = TemporaryFolder()
        let path = try Self.storeFile(folder)
        try Self.execute("UPDATE items SET body = (SELECT body FROM items WHERE key = '0') WHERE key = '29'", at: path)
        try Self.expectItemsCorrupt(at: path)
    }

    @Test func aStoredPageThatListsAnItemTwiceIsCorruptAndTheListKeepsWhatItHeld() throws {
        let folder = TemporaryFolder()
        let path = try Self.storeFile(folder)
        try Self.repeatFirstItem(ofPage: 2, at: path)
        let list = storedList(try openStore(path), remote: TestRemote(count: 35))
        list.loadNextPage()
        #expect(list.ids == ids(0 ..< 10))
        list.loadNextPage()
        guard case let .store(error)? = list.lastError.value else {
            Issue.record("expected a store error, got \(String(describing: list.lastError.value))")
            return
        }
        #expect(error.kind == .corrupt, "\(error)")
        #expect(list.ids == ids(0 ..< 10))
    }

    @Test func anEmptyFileBecomesANewStore() throws {
        let folder = TemporaryFolder()
        _ = FileManager.default.createFile(atPath: folder.path(), contents: Data())
        let list = storedList(try openStore(folder.path()), remote: TestRemote(count: 15))
        list.loadNextPage()
        #expect(try openStore(folder.path()).feed("home", of: Post.self).ids == ids(0 ..< 10))
    }

    // MARK: - Migrations

    /// A file at schema version 1 with a feed of posts 0 ..< 20 in two pages, written with plain SQL.
    static func versionOneFile(_ folder: TemporaryFolder) throws -> String {
        let path = folder.path()
        let connection = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        try connection.execute("PRAGMA journal_mode = WAL")
        try Schema.migrate(connection, to: 1)
        var sql = """
            INSERT INTO item_types(id, name) VALUES (1, '\(try ItemCoding<Post>.typeName(path: path))');
            INSERT INTO feeds(id, name, type, entry_page, fetched_at, head_complete, tail_complete) VALUES (1, 'home', 1, 1, 0, 1, 0);
            INSERT INTO pages(id, feed, seq, key, previous, next, fetched_at) VALUES (1, 1, 0, NULL, NULL, '1', 0), (2, 1, 4294967296, '1', '0', '2', 0);
            """
        for id in 0 ..< 20 {
            sql += "INSERT INTO items(id, type, key, body) VALUES (\(id + 1), 1, '\(id)', '{\"id\":\(id),\"likes\":0,\"title\":\"post \(id)\"}');"
            sql += "INSERT INTO members(feed, position, page, item) VALUES (1, \(Int64(id) << 32), \(id / 10 + 1), \(id + 1));"
        }
        try connection.execute(sql)
        return path
    }

    @Test func anOlderSchemaIsMigratedInPlaceKeepingEveryRow() throws {
        let folder = TemporaryFolder()
        let path = try Self.versionOneFile(folder)
        let store = try openStore(path)
        #expect(store.feed("home", of: Post.self).ids == ids(0 ..< 20))
        let version = try store.database.read { connection throws(StoreError) in try connection.integer("PRAGMA user_version") }
        #expect(version == Int64(Schema.version))
        let remote = TestRemote(count: 35)
        let list = storedList(store, remote: remote)
        for _ in 0 ..< 3 { list.loadNextPage() }
        #expect(list.ids == ids(0 ..< 30))
        #expect(remote.requests == [2])
    }

    @Test func aVersionTwoFileIsMigratedKeepingItsSnapshotsWhoseIdsAreNeverReused() throws {
        let folder = TemporaryFolder()
        let path = folder.path()
        do {
            let connection = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            try connection.execute("PRAGMA journal_mode = WAL")
            try Schema.migrate(connection, to: 2)
            try connection.execute("""
                INSERT INTO item_types(id, name) VALUES (1, 'Ranked');
                INSERT INTO feeds(id, name, type, snapshot) VALUES (1, 'ranked', 1, 2);
                INSERT INTO snapshots(id, feed, ids) VALUES (1, 1, '[1,2]'), (2, 1, '[3,4]');
                """)
        }
        let store = try openStore(path)
        let (version, snapshots, reused) = try store.database.write { connection throws(StoreError) in
            let version = try connection.integer("PRAGMA user_version")
            let snapshots = try connection.integer("SELECT count(*) FROM snapshots WHERE (id, ids) IN (VALUES (1, '[1,2]'), (2, '[3,4]'))")
            try connection.execute("DELETE FROM snapshots WHERE id = 2; INSERT INTO snapshots(feed, ids) VALUES (1, '[5]')")
            return (version, snapshots, connection.lastInsertRowID == 2)
        }
        #expect(version == Int64(Schema.version))
        #expect(snapshots == 2)
        #expect(!reused)
    }

    @Test func aMigrationThatFailsLeavesTheFileAtItsVersionWithEveryRow() throws {
        let folder = TemporaryFolder()
        let path = try Self.versionOneFile(folder)
        // Version 2 makes a `snapshots` table: a table of that name already there makes its migration fail.
        try Self.execute("CREATE TABLE snapshots(note TEXT)", at: path)
        do {
            _ = try PagingStore(path: path)
            Issue.record("the store opened a file whose migration fails")
        } catch {
            #expect(error.kind == .sqlite, "\(error)")
            #expect(error.message.contains("snapshots"), "\(error)")
        }
        let connection = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READONLY)
        #expect(try connection.integer("PRAGMA user_version") == 1)
        #expect(try connection.integer("SELECT count(*) FROM members") == 20)
        #expect(try connection.integer("SELECT count(*) FROM pragma_table_info('feeds') WHERE name = 'etag'") == 0)
    }
}

/// Store failures that are the disk's: a full disk is `.full`, and the rows held stay.
@Suite("Full disk")
struct FullDiskTests {
    @Test func aFullDiskIsFullOnLastErrorAndTheRowsStay() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        // Posts larger than a database page need new pages, which the limit refuses.
        let big = (0 ..< 30).map { Post(id: $0, title: String(repeating: "x", count: 6000)) }
        let list = storedList(store, remote: TestRemote(posts: big))
        list.loadNextPage()
        try store.database.withWriter { connection throws(StoreError) in
            try connection.execute("PRAGMA max_page_count = \(try connection.integer("PRAGMA page_count")!)")
        }
        list.loadNextPage()
        guard case let .store(error)? = list.lastError.value else {
            Issue.record("expected a store error, got \(String(describing: list.lastError.value))")
            return
        }
        #expect(error.kind == .full)
        #expect(list.ids == ids(0 ..< 10))
        #expect(store.feed("home", of: Post.self).ids == ids(0 ..< 10))
    }
}

