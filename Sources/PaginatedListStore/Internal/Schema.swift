import CPaginatedListSQLite

/// The store's schema, built by migrations: version *n* is what the first *n* migrations make.
///
/// ```
/// item_types(id INTEGER PRIMARY KEY, name TEXT UNIQUE)            -- one row per Swift item type
/// items(id INTEGER PRIMARY KEY, type, key TEXT, body BLOB)        -- one row per item: type + id, once
///     UNIQUE (type, key)                                          -- key: the id as JSON text
/// feeds(id INTEGER PRIMARY KEY, name, type, entry_page,           -- the Feed object: where a list opens,
///       fetched_at, head_complete, tail_complete,                 -- when its first page was fetched,
///       etag, last_modified, total_count, snapshot)               -- validators, total, ID snapshot (v2)
///     UNIQUE (name, type)
/// pages(id INTEGER PRIMARY KEY AUTOINCREMENT, feed, seq, key,    -- one row per page: its keys, in order
///       previous, next, fetched_at, gap_below, snapshot)          -- (seq sparse), a gap below it; ids never
///                                                                 -- reused (a list may hold a deleted page's)
///     UNIQUE (feed, seq)
/// members(feed, position, page, item) WITHOUT ROWID               -- which items a feed lists, in order
///     PRIMARY KEY (feed, position)                                -- keyset reads and writes by position
///     UNIQUE (item, feed)                                         -- an item once per feed; every feed of an item
///     INDEX (page, position, item)                                -- a page's rows, in order, covering
/// snapshots(id INTEGER PRIMARY KEY AUTOINCREMENT, feed, ids BLOB) -- ID snapshots, kept once per feed (v2);
///                                                                 -- ids never reused (v3: lists cache them by id)
/// pending_edits(item INTEGER PRIMARY KEY, started,                -- items with an optimistic edit not yet
///               server BLOB, shown BLOB)                          -- confirmed (v4, keyed by item since v5): the
///                                                                 -- server's last value and the value shown
///                                                                 -- (`items.body` after the store's last write
///                                                                 -- of it), in the order edits started; gone
///                                                                 -- with the item
/// ```
///
/// **Keys.** A page's `key`, `previous` and `next` are the keyed source's keys as JSON: `NULL` means "no
/// page there" (for `key`: the source's first page, `page(at: nil)`), and an empty blob means "the source's
/// first page" (a page of items inserted into an empty feed continues from there). For keys with a part
/// shared by every page of a chain (an ID snapshot), the blob holds the page's own part and `snapshot` the
/// shared part's row.
///
/// **Order.** Positions and page seqs are sparse 64-bit integers, `2^32` apart when written at an end, so
/// that a page at the top or an insertion in the middle takes numbers between its neighbours without
/// renumbering the feed (32 insertions at one spot before the feed is renumbered, in one pass).
enum Schema {
    /// The store's mark in the file header (`PRAGMA application_id`): "PLST".
    static let applicationID: Int64 = 0x504C_5354
    /// The tables the store's checks read at open, with the version that added each.
    static let tables: [(name: String, since: Int)] = [
        ("item_types", 1), ("items", 1), ("feeds", 1), ("pages", 1), ("members", 1), ("snapshots", 2), ("pending_edits", 4),
    ]

    /// The current version (`PRAGMA user_version` of a file this store wrote).
    static var version: Int { migrations.count }

    /// Migration *n* takes a file from version *n* to *n + 1*.
    static let migrations: [String] = [
        // 1: items, feeds, pages, members.
        """
        CREATE TABLE item_types(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE items(id INTEGER PRIMARY KEY, type INTEGER NOT NULL, key TEXT NOT NULL, body BLOB NOT NULL);
        CREATE UNIQUE INDEX items_by_key ON items(type, key);
        CREATE TABLE feeds(id INTEGER PRIMARY KEY, name TEXT NOT NULL, type INTEGER NOT NULL, entry_page INTEGER,
                           fetched_at REAL, head_complete INTEGER NOT NULL DEFAULT 0,
                           tail_complete INTEGER NOT NULL DEFAULT 0);
        CREATE UNIQUE INDEX feeds_by_name ON feeds(name, type);
        CREATE TABLE pages(id INTEGER PRIMARY KEY AUTOINCREMENT, feed INTEGER NOT NULL, seq INTEGER NOT NULL, key BLOB,
                           previous BLOB, next BLOB, fetched_at REAL NOT NULL, gap_below INTEGER NOT NULL DEFAULT 0);
        CREATE UNIQUE INDEX pages_in_order ON pages(feed, seq);
        CREATE TABLE members(feed INTEGER NOT NULL, position INTEGER NOT NULL, page INTEGER NOT NULL,
                             item INTEGER NOT NULL, PRIMARY KEY(feed, position)) WITHOUT ROWID;
        CREATE UNIQUE INDEX members_by_item ON members(item, feed);
        CREATE INDEX members_by_page ON members(page, position, item);
        """,
        // 2: the rest of the Feed object: the first page's validators, the total count, the ID snapshot.
        """
        ALTER TABLE feeds ADD COLUMN etag TEXT;
        ALTER TABLE feeds ADD COLUMN last_modified TEXT;
        ALTER TABLE feeds ADD COLUMN total_count INTEGER;
        ALTER TABLE feeds ADD COLUMN snapshot INTEGER;
        ALTER TABLE pages ADD COLUMN snapshot INTEGER;
        CREATE TABLE snapshots(id INTEGER PRIMARY KEY, feed INTEGER NOT NULL, ids BLOB NOT NULL);
        CREATE INDEX snapshots_by_feed ON snapshots(feed);
        """,
        // 3: snapshot ids are never reused (a list remembers the last snapshot it read by its id: a cleared
        // feed's snapshot id taken again by a new snapshot read as the old one). SQLite cannot add
        // AUTOINCREMENT to a table: the table is made again, with its rows and their ids.
        """
        CREATE TABLE snapshots_v3(id INTEGER PRIMARY KEY AUTOINCREMENT, feed INTEGER NOT NULL, ids BLOB NOT NULL);
        INSERT INTO snapshots_v3(id, feed, ids) SELECT id, feed, ids FROM snapshots;
        DROP TABLE snapshots;
        ALTER TABLE snapshots_v3 RENAME TO snapshots;
        CREATE INDEX snapshots_by_feed ON snapshots(feed);
        """,
        // 4: optimistic edits (`StoredFeed.mutate`): the server's last value of an item edited and not yet
        // confirmed, and the value the store last showed; the row goes with its item (the trigger).
        """
        CREATE TABLE pending_edits(id INTEGER PRIMARY KEY AUTOINCREMENT, item INTEGER NOT NULL UNIQUE,
                                   server BLOB NOT NULL, shown BLOB NOT NULL);
        CREATE TRIGGER pending_edits_of_deleted_items AFTER DELETE ON items
          BEGIN DELETE FROM pending_edits WHERE item = old.id; END;
        """,
        // 5: pending edits keyed by their item's row: an edit and its answer write one b-tree page of them
        // each, where the rowid, the unique index on `item` and AUTOINCREMENT's `sqlite_sequence` made three
        // pages and two. `started` keeps the order edits started in (the old ids). The trigger is made again
        // around the swap (a rename checks the triggers that name the table).
        """
        DROP TRIGGER pending_edits_of_deleted_items;
        CREATE TABLE pending_edits_v5(item INTEGER PRIMARY KEY, started INTEGER NOT NULL,
                                      server BLOB NOT NULL, shown BLOB NOT NULL);
        INSERT INTO pending_edits_v5(item, started, server, shown) SELECT item, id, server, shown FROM pending_edits;
        DROP TABLE pending_edits;
        ALTER TABLE pending_edits_v5 RENAME TO pending_edits;
        CREATE TRIGGER pending_edits_of_deleted_items AFTER DELETE ON items
          BEGIN DELETE FROM pending_edits WHERE item = old.id; END;
        """,
    ]

    /// Brings the file of `connection` to the current version in one transaction: a new file gets the whole
    /// schema and the store's mark; an older one the migrations it lacks, keeping every row. Anything else
    /// (another application's database, a newer version) is an error and the transaction writes nothing.
    static func migrate(_ connection: SQLiteConnection, to target: Int = Schema.version) throws(StoreError) {
        try connection.execute("BEGIN IMMEDIATE")
        do throws(StoreError) {
            let found = try Header.read(connection)
            if found.isEmpty {
                try connection.execute("PRAGMA application_id = \(applicationID)")
            } else {
                try found.check(path: connection.path)
            }
            if found.version < target {
                for migration in migrations[found.version ..< target] {
                    try connection.execute(migration)
                }
                try connection.execute("PRAGMA user_version = \(target)")
            }
            connection.resetActiveStatements()
            try connection.execute("COMMIT")
        } catch {
            connection.resetActiveStatements()
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Throws `.corrupt` unless the catalogue of the file of `connection` has every table, column and index
    /// of the schema at `version` (objects of its own are allowed).
    static func checkObjects(_ connection: SQLiteConnection, version: Int) throws(StoreError) {
        let expected = try catalogues.get()[min(max(version, 0), migrations.count)]
        let found = try objects(of: connection)
        let missing = expected.subtracting(found).sorted()
        guard missing.isEmpty else {
            throw StoreError(kind: .corrupt, path: connection.path, message:
                "the file is this store's at schema version \(version) but lacks \(missing.joined(separator: ", "))")
        }
    }

    /// The tables, columns and indexes the migrations up to each version make: element *n* is version *n*'s
    /// (element 0 is empty). Made once per process, in a database in memory, the first time a store's file is
    /// checked (it was made again at every open: most of the time of opening a small store).
    private static let catalogues: Result<[Set<String>], StoreError> = {
        do throws(StoreError) {
            let memory = try SQLiteConnection(path: ":memory:", flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            var catalogues: [Set<String>] = [try objects(of: memory)]
            for migration in migrations {
                try memory.execute(migration)
                catalogues.append(try objects(of: memory))
            }
            return .success(catalogues)
        } catch {
            return .failure(error)
        }
    }()

    /// The tables (`table items`), columns (`column items.body`) and indexes (`index items_by_key`) of a
    /// database, without SQLite's own.
    private static func objects(of connection: SQLiteConnection) throws(StoreError) -> Set<String> {
        let statement = try connection.statement("""
            SELECT m.type || ' ' || m.name FROM sqlite_master m WHERE m.name NOT LIKE 'sqlite_%'
            UNION ALL SELECT 'column ' || m.name || '.' || c.name FROM sqlite_master m, pragma_table_info(m.name) c
              WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
            """)
        var objects: Set<String> = []
        while try statement.step() { objects.insert(statement.text(0) ?? "") }
        statement.reset()
        return objects
    }

    /// What a file's header and catalogue say about it.
    struct Header {
        var applicationID: Int64
        var version: Int
        /// How many schema objects (tables, indexes) the file has.
        var objects: Int64

        /// A file with nothing in it yet (SQLite's empty database): a new store.
        var isEmpty: Bool { applicationID == 0 && version == 0 && objects == 0 }

        static func read(_ connection: SQLiteConnection) throws(StoreError) -> Header {
            let id = try connection.integer("PRAGMA application_id") ?? 0
            let version = try connection.integer("PRAGMA user_version") ?? 0
            let objects = try connection.integer("SELECT count(*) FROM sqlite_master") ?? 0
            return Header(applicationID: id, version: Int(version), objects: objects)
        }

        /// Throws unless the file is this store's, at this version or an older one (a negative version,
        /// which no version of the store writes, is `.corrupt`).
        func check(path: String) throws(StoreError) {
            guard applicationID == Schema.applicationID else {
                throw StoreError(kind: .foreignDatabase, path: path, message: String(
                    format: "an SQLite database of another application (application_id 0x%08llX, %lld schema objects), not a PaginatedListStore file",
                    applicationID, objects))
            }
            guard version >= 0 else {
                throw StoreError(kind: .corrupt, path: path, message:
                    "this store's file with schema version \(version), which no PaginatedListStore writes")
            }
            guard version <= Schema.version else {
                throw StoreError(kind: .schemaTooNew, path: path, message:
                    "written by a newer PaginatedListStore (schema version \(version); this version reads up to \(Schema.version))")
            }
        }
    }
}
