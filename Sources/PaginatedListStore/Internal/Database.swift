import CPaginatedListSQLite
import Dispatch
import Foundation
import Signals

/// The store's file: one writer connection and one reader, each confined to its own serial queue.
///
/// **Connection rule.** Every write runs on `writer`'s queue, inside `BEGIN IMMEDIATE … COMMIT` (SQLite's
/// write lock taken at once, waiting up to the busy timeout for another process's writer): a failure rolls
/// the whole transaction back. Every read runs on `reader`'s queue, inside one read transaction, so that what
/// it reads together is one committed state. The file is in WAL mode: a reader keeps its snapshot while the
/// writer commits, so readers never block the writer, and a process killed at any instant leaves the last
/// committed transaction intact (`synchronous = NORMAL`: a power loss may lose the last commits, never
/// corrupt the file). The queues are called with `sync`: a call returns when its transaction is over, and
/// the caller's thread runs it when the queue is free. A write never starts another write (it would wait for
/// itself): checked.
///
/// **Opening.** Before anything writes to the file, a read-only connection checks that the file is this
/// store's (`validate(path:)`): an error there leaves the file as it was (once SQLite rolled back a
/// transaction a crash left unfinished in its `-journal`, if any).
final class Database: Sendable {
    let path: String
    private let writer: ConfinedConnection
    private let reader: ConfinedConnection
    /// The commits, as every open list follows them (see `StoreChanges.swift`).
    let bus = ChangeBus()
    /// The optimistic edits not settled yet (see `PendingEdits.swift`).
    let pending = PendingEdits()
    /// The writer connection's `PRAGMA data_version` at the last check: it changes when another connection
    /// (another process, another `PagingStore` on the file) commits.
    private let dataVersion = Locked<Int64>(0)

    init(path: String) throws(StoreError) {
        self.path = path
        try Self.validate(path: path)
        let writing = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        // Everything that may refuse the file first: the schema, in one transaction that a refusal rolls
        // back, in the journal mode the file has, and the read of the pending edits; only then WAL, which
        // rewrites the header. A file found damaged or foreign stays byte for byte as it was (fuzzing
        // found a rollback-journal file whose damaged `pending_edits` was read after the switch).
        try Schema.migrate(writing)
        let hasPendingRows = try Self.hasPendingRows(writing)
        try Self.configure(writing)
        writer = ConfinedConnection(writing, label: "PaginatedListStore.writer")
        reader = ConfinedConnection(try SQLiteConnection(path: path, flags: SQLITE_OPEN_READONLY), label: "PaginatedListStore.reader")
        let version = try writing.integer("PRAGMA data_version") ?? 0
        dataVersion.withLock { $0 = version }
        pending.noteRows(hasPendingRows)
    }

    /// Whether the file holds an optimistic edit not settled.
    static func hasPendingRows(_ connection: SQLiteConnection) throws(StoreError) -> Bool {
        try connection.integer("SELECT EXISTS (SELECT 1 FROM pending_edits)") == 1
    }

    /// Whether another connection committed to the file since the last check (SQLite's `data_version` of the
    /// writer connection, which its own commits do not change); when it did, every open list re-reads its
    /// window (delivered before this returns, unless another thread is delivering).
    func checkForChanges() throws(StoreError) -> Bool {
        let version = try writer.run { connection throws(StoreError) in try connection.integer("PRAGMA data_version") ?? 0 }
        guard dataVersion.withLock({ $0 != version }) else { return false }
        // The other writer may have started or settled optimistic edits. Read before the version is taken
        // as seen: a failed read leaves the change for the next check to find.
        let hasPendingRows = try writer.run { connection throws(StoreError) in try Self.hasPendingRows(connection) }
        let changed = dataVersion.withLock { last in
            defer { last = version }
            return last != version
        }
        guard changed else { return false }   // another thread's check took it
        pending.noteRows(hasPendingRows)
        bus.externalWrite()
        bus.drain()
        return true
    }

    deinit {
        // The reader first: the writer, closing last, checkpoints the WAL into the file (a read-only
        // connection cannot) and removes it.
        reader.close()
        writer.close()
    }

    /// WAL, and what a store needs of the connection that writes.
    private static func configure(_ connection: SQLiteConnection) throws(StoreError) {
        let mode = try connection.statement("PRAGMA journal_mode = WAL")
        _ = try mode.step()
        guard mode.text(0)?.lowercased() == "wal" else {
            throw StoreError(kind: .sqlite, path: connection.path, message: "the file cannot be put in WAL mode (\(mode.text(0) ?? "?"))")
        }
        mode.reset()
        try connection.execute("PRAGMA synchronous = NORMAL")
    }

    /// Runs `body` in a write transaction on the writer's queue; commits if it returns, rolls back if it throws.
    /// Records nothing for the lists (tests' and the schema's writes).
    func write<T>(_ body: (SQLiteConnection) throws(StoreError) -> T) throws(StoreError) -> T {
        try write(by: nil) { connection, _ throws(StoreError) in try body(connection) }
    }

    /// Runs `body` in a write transaction on the writer's queue, with the record of what it changes; commits
    /// if it returns (then publishes the record to the open lists, in commit order, once the queue is
    /// released), rolls back if it throws (and publishes nothing). `writer`: the keeper whose own transition
    /// shows the write.
    func write<T>(by writer: ObjectIdentifier?, _ body: (SQLiteConnection, ChangeRecord) throws(StoreError) -> T) throws(StoreError) -> T {
        defer { bus.drain() }
        return try self.writer.run { connection throws(StoreError) in
            try connection.run("BEGIN IMMEDIATE")
            let record = ChangeRecord()
            record.writer = writer
            // Chains are added on this queue only: none now, none during this transaction.
            record.tracksOrphans = !pending.hasNoChains
            do throws(StoreError) {
                let value = try body(connection, record)
                try pending.settle(connection, record)
                connection.resetActiveStatements()
                try connection.run("COMMIT")
                bus.committed(record)
                return value
            } catch {
                connection.resetActiveStatements()
                try? connection.run("ROLLBACK")
                for action in record.rollbackActions.reversed() { action() }
                throw error
            }
        }
    }

    /// Runs `body` in a read transaction on the reader's queue.
    func read<T>(_ body: (SQLiteConnection) throws(StoreError) -> T) throws(StoreError) -> T {
        try reader.run { connection throws(StoreError) in
            try connection.run("BEGIN")
            defer {
                connection.resetActiveStatements()
                try? connection.run("COMMIT")
            }
            return try body(connection)
        }
    }

    /// Calls `body` with the SQL of every statement either connection runs from now on (`nil`: stops). For
    /// the tests that check the paging path's statements (keyset, never `OFFSET`).
    func trace(_ body: (@Sendable (String) -> Void)?) throws(StoreError) {
        try writer.run { connection throws(StoreError) in connection.trace(body) }
        try reader.run { connection throws(StoreError) in connection.trace(body) }
    }

    /// Runs `body` with the writer's connection outside a transaction (configuration for tests).
    func withWriter<T>(_ body: (SQLiteConnection) throws(StoreError) -> T) throws(StoreError) -> T {
        try writer.run(body)
    }

    // MARK: - Validation at open

    /// Checks, without writing (except SQLite's rollback of a transaction a crash left unfinished in the
    /// file's `-journal`), that the file at `path` is missing, empty (with no write-ahead log beside it), or
    /// this store's at this version or an older one, and whole as far as a cheap check can tell: the header
    /// (all of its 100 bytes), the header's page count against the
    /// file's size (a truncated file; only without a WAL, which may hold the pages a killed checkpoint had
    /// not copied yet), then SQLite's reading of the header and of the catalogue, the catalogue against the
    /// schema of the file's version (every table, column and index), then each table's first and last
    /// rows (a damaged b-tree edge). A path that names no file (`""`, `":memory:"`) or a folder cannot be
    /// opened. Damage inside a table is found when it is read
    /// (`StoreError.Kind.corrupt` then).
    static func validate(path: String) throws(StoreError) {
        // "" and ":memory:" are SQLite's temporary and in-memory databases, which a store cannot keep.
        guard !path.isEmpty, path != ":memory:" else {
            throw StoreError(kind: .cannotOpen, path: path, message: "not the path of a file (\"\" and \":memory:\" are SQLite's temporary and in-memory databases)")
        }
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT != S_IFDIR else {
            throw StoreError(kind: .cannotOpen, path: path, message: "a folder, not a file")
        }
        // First: a commit killed part-way may have left the file shorter (or longer) than its header says.
        try rollBackHotJournal(path: path)
        guard stat(path, &status) == 0 else { return }
        let size = Int(status.st_size)
        guard size > 0 else {
            // An empty file is a new store, unless a write-ahead log lies beside it: then the file lost its
            // pages (a failed copy), and opening it would let SQLite delete the log, with the rows it holds.
            if let log = fileSize(path + "-wal"), log > 0 {
                throw StoreError(kind: .corrupt, path: path, message: "truncated: the file is empty but its write-ahead log holds \(log) bytes")
            }
            return
        }
        try checkHeader(path: path, size: size)
        let connection = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READONLY)
        let header = try Schema.Header.read(connection)
        if header.isEmpty { return }
        try header.check(path: path)
        try Schema.checkObjects(connection, version: header.version)
        for table in Schema.tables where table.since <= header.version {
            let probe = table.name == "members"
                ? "SELECT (SELECT position FROM members ORDER BY feed, position LIMIT 1), (SELECT position FROM members ORDER BY feed DESC, position DESC LIMIT 1)"
                : "SELECT (SELECT rowid FROM \(table.name) ORDER BY rowid LIMIT 1), (SELECT rowid FROM \(table.name) ORDER BY rowid DESC LIMIT 1)"
            try connection.run(probe)
        }
    }

    /// Lets SQLite roll back a transaction a process left unfinished in rollback-journal mode (the store's
    /// first open writes its schema in that mode before it switches to WAL): a read-only connection, which
    /// the checks use, refuses a file with such a journal (as if it were read-only), on every open. SQLite's
    /// own recovery, as any connection that may write does it: the file goes back to its last commit.
    private static func rollBackHotJournal(path: String) throws(StoreError) {
        guard let journal = fileSize(path + "-journal"), journal > 0 else { return }
        let connection = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READWRITE)
        try connection.run("SELECT count(*) FROM sqlite_master")
    }

    /// The file's size, or `nil` if it does not exist.
    static func fileSize(_ path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int(status.st_size)
    }

    /// Reads the 100-byte SQLite header: the magic string, the page size, and the page count, which a
    /// truncated file falls short of.
    private static func checkHeader(path: String, size: Int) throws(StoreError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreError(kind: .cannotOpen, path: path, message: "cannot read the file")
        }
        defer { try? handle.close() }
        let header = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())
        let magic = Array("SQLite format 3\0".utf8)
        guard !header.isEmpty, header.starts(with: magic.prefix(header.count)) else {
            throw StoreError(kind: .notADatabase, path: path, message: "not an SQLite database (\(size) bytes without the SQLite header)")
        }
        // The start of an SQLite header, cut short: a truncated store.
        guard header.count == 100 else {
            throw StoreError(kind: .corrupt, path: path, message: "truncated: \(size) bytes, shorter than SQLite's 100-byte header")
        }
        func word(_ offset: Int) -> Int {
            header[offset ..< offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        let rawPageSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else {
            throw StoreError(kind: .corrupt, path: path, message: "the header's page size (\(rawPageSize)) is not valid")
        }
        guard size % pageSize == 0 else {
            throw StoreError(kind: .corrupt, path: path, message: "truncated: \(size) bytes is not a whole number of \(pageSize)-byte pages")
        }
        // The page count is valid when the "version valid for" number matches the change counter. A
        // checkpoint writes page 1 (the new count) before the pages that grow the file: a process killed in
        // between leaves the file shorter than its header says while the WAL still holds every page, and
        // SQLite reads it whole (its own check counts the WAL's pages). So the count is checked only
        // when there is no WAL to read.
        if fileSize(path + "-wal") ?? 0 == 0, word(92) == word(24), word(28) > 0, size < word(28) * pageSize {
            throw StoreError(kind: .corrupt, path: path,
                             message: "truncated: \(size) bytes, the header says \(word(28)) pages of \(pageSize) bytes")
        }
    }
}

/// A connection and the serial queue it is confined to.
final class ConfinedConnection: @unchecked Sendable {
    // `@unchecked`: `queue` is the lock. `connection` (not thread-safe, opened without SQLite's mutexes) is
    // used only inside `queue.sync` blocks, in `run` and `close`: `queue` is serial, so one thread at a time
    // uses it, and `sync` orders each use after the one before. `run` refuses to be called from the queue
    // itself (a store operation started inside another would wait for itself). `onQueue` and `queue` are
    // immutable and thread-safe.
    private let connection: SQLiteConnection
    private let queue: DispatchQueue
    private let onQueue = DispatchSpecificKey<Bool>()

    init(_ connection: SQLiteConnection, label: String) {
        self.connection = connection
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: onQueue, value: true)
    }

    /// Closes the connection, on the queue.
    func close() {
        queue.sync { connection.close() }
    }

    /// Runs `body` with the connection on the queue, and returns what it returned.
    func run<T>(_ body: (SQLiteConnection) throws(StoreError) -> T) throws(StoreError) -> T {
        precondition(DispatchQueue.getSpecific(key: onQueue) == nil,
                     "PaginatedListStore: a store operation was started from inside another one on the same connection")
        let result: Result<T, StoreError> = queue.sync {
            do throws(StoreError) { return .success(try body(connection)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
