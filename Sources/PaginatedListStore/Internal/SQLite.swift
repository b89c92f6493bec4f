import CPaginatedListSQLite
import Foundation

/// `SQLITE_TRANSIENT`, which Swift does not import: SQLite copies a bound text or blob before `bind` returns.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One SQLite connection and its prepared statements.
///
/// **Not thread-safe.** A connection is confined: the writer to the store's writer queue, the reader to
/// its reader queue (see `Database`). It is opened in SQLite's multi-thread mode (`SQLITE_OPEN_NOMUTEX`):
/// the queues serialise every use, so SQLite's own mutexes would only cost.
final class SQLiteConnection {
    let handle: OpaquePointer
    /// The file's path, for errors.
    let path: String
    /// Prepared statements by their SQL, kept for the connection's life.
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens the file at `path` with `flags` (`SQLITE_OPEN_READONLY`, or `READWRITE | CREATE`), waiting up
    /// to `busyTimeout` milliseconds for another connection's lock before a statement fails as busy.
    init(path: String, flags: Int32, busyTimeout: Int32 = 5000) throws(StoreError) {
        self.path = path
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(opened)
            let kind: StoreError.Kind = Self.kind(of: code) == .sqlite ? .cannotOpen : Self.kind(of: code)
            throw StoreError(kind: kind, path: path, message: "cannot open the file: \(message)")
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeout)
    }

    deinit {
        close()
    }

    private var isOpen = true

    /// Finalises the statements and closes the connection (also done when it is released). The last
    /// connection to close (the writer: it closes after the reader) checkpoints the WAL into the file and
    /// removes it.
    func close() {
        guard isOpen else { return }
        isOpen = false
        statements.removeAll()   // finalises them before the connection closes
        sqlite3_close_v2(handle)
    }

    /// The error kind of an SQLite result code.
    static func kind(of code: Int32) -> StoreError.Kind {
        switch code & 0xFF {
        case SQLITE_NOTADB: .notADatabase
        case SQLITE_CORRUPT: .corrupt
        case SQLITE_FULL: .full
        case SQLITE_READONLY: .readOnly
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH: .cannotOpen
        default: .sqlite
        }
    }

    /// The error for result `code`, saying what the store was doing (`context`).
    func error(_ code: Int32, _ context: String) -> StoreError {
        let message = String(cString: sqlite3_errmsg(handle)).replacingOccurrences(of: "\n", with: " ")
        return StoreError(kind: Self.kind(of: code), path: path, message: "\(context): \(message) (SQLite code \(code))")
    }

    /// Runs one or more statements with no result rows.
    func execute(_ sql: String) throws(StoreError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code, "running \(sql.prefix(60))") }
    }

    /// The prepared statement for `sql`, reset and with no bindings; prepared on first use and kept.
    func statement(_ sql: String) throws(StoreError) -> SQLiteStatement {
        if let statement = statements[sql] {
            statement.reset()
            return statement
        }
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard code == SQLITE_OK, let prepared else { throw error(code, "preparing \(sql.prefix(60))") }
        let statement = SQLiteStatement(handle: prepared, connection: self)
        statements[sql] = statement
        return statement
    }

    /// Runs `sql` with `bindings` (one value per `?`), stepping through every row.
    func run(_ sql: String, _ bindings: SQLiteValue...) throws(StoreError) {
        let statement = try statement(sql)
        try statement.bind(bindings)
        while try statement.step() {}
    }

    /// The first column of the first row of `sql` as an integer (`nil`: no row, or NULL).
    func integer(_ sql: String, _ bindings: SQLiteValue...) throws(StoreError) -> Int64? {
        let statement = try statement(sql)
        try statement.bind(bindings)
        defer { statement.reset() }
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return statement.int64(0)
    }

    /// The first column of the first row of `sql` as text (`nil`: no row, or NULL).
    func text(_ sql: String, _ bindings: SQLiteValue...) throws(StoreError) -> String? {
        let statement = try statement(sql)
        try statement.bind(bindings)
        defer { statement.reset() }
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return statement.text(0)
    }

    /// Resets every statement stepped and not run to its end: a statement left on a row keeps its
    /// transaction open (a reader would keep its snapshot, a writer's commit would wait for it).
    func resetActiveStatements() {
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 { sqlite3_reset(current) }
            statement = sqlite3_next_stmt(handle, current)
        }
    }

    /// The tracer `trace(_:)` installed, kept alive while installed.
    private var tracer: Tracer?

    /// Calls `body` with the SQL of every statement the connection starts (`nil`: stops).
    func trace(_ body: (@Sendable (String) -> Void)?) {
        guard let body else {
            sqlite3_trace_v2(handle, 0, nil, nil)
            tracer = nil
            return
        }
        let tracer = Tracer(body)
        self.tracer = tracer
        sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT), { _, context, _, sql in
            guard let context, let sql else { return 0 }
            let text = String(cString: sql.assumingMemoryBound(to: CChar.self))
            Unmanaged<Tracer>.fromOpaque(context).takeUnretainedValue().body(text)
            return 0
        }, Unmanaged.passUnretained(tracer).toOpaque())
    }

    /// What `trace(_:)` calls.
    final class Tracer {
        let body: @Sendable (String) -> Void
        init(_ body: @escaping @Sendable (String) -> Void) { self.body = body }
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }
    /// The rowid of the last row inserted.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
}

/// A value bound to a statement's parameter.
enum SQLiteValue {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    case null

    /// An integer, or NULL.
    static func integer(_ value: Int64?) -> SQLiteValue { value.map { .integer($0) } ?? .null }
    /// An integer, or NULL.
    static func int(_ value: Int?) -> SQLiteValue { value.map { .integer(Int64($0)) } ?? .null }
    /// A blob, or NULL.
    static func blob(_ value: Data?) -> SQLiteValue { value.map { .blob($0) } ?? .null }
    /// Text, or NULL.
    static func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
}

/// A prepared statement of one connection (confined as the connection is).
final class SQLiteStatement {
    let handle: OpaquePointer
    unowned let connection: SQLiteConnection

    init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Makes the statement ready to run again, with no bindings.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds `values` to the parameters, in order.
    func bind(_ values: [SQLiteValue]) throws(StoreError) {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds `value` to parameter `index` (from 1).
    func bind(_ value: SQLiteValue, at index: Int32) throws(StoreError) {
        let code: Int32 = switch value {
        case let .integer(integer): sqlite3_bind_int64(handle, index, integer)
        case let .real(real): sqlite3_bind_double(handle, index, real)
        case let .text(text): sqlite3_bind_text(handle, index, text, -1, sqliteTransient)
        case let .blob(data):
            data.withUnsafeBytes { bytes in
                // An empty blob is a zero-length blob, not NULL: `bind_blob` with a nil pointer would bind NULL.
                bytes.isEmpty ? sqlite3_bind_zeroblob(handle, index, 0)
                    : sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), sqliteTransient)
            }
        case .null: sqlite3_bind_null(handle, index)
        }
        guard code == SQLITE_OK else { throw connection.error(code, "binding a value") }
    }

    /// Steps to the next row: `true` when there is one, `false` when the statement is done.
    func step() throws(StoreError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            let failure = connection.error(code, "running \(String(cString: sqlite3_sql(handle)).prefix(60))")
            sqlite3_reset(handle)
            throw failure
        }
    }

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    func double(_ column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    func text(_ column: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: text)
    }

    /// The column's bytes (`nil` for NULL; empty for a zero-length blob), copied.
    func blob(_ column: Int32) -> Data? {
        if isNull(column) { return nil }
        return withBlob(column) { Data($0) }
    }

    /// Calls `body` with the column's bytes, valid only during the call (no copy).
    func withBlob<R, E: Error>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}
