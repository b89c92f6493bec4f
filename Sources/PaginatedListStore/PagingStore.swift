import Foundation
import PaginatedList

/// An offline-first store of paginated feeds, in one SQLite file: the pages a list loaded are there at the
/// next launch, offline, and after a crash.
///
/// Items are `Codable & Identifiable & Sendable` and stored once per type and id, whichever feeds list them;
/// a feed (`feed(_:of:)`) is a named, ordered list of items with the keys of the pages they came in. A
/// store-backed view model (`PaginatedListViewModel(feed:remote:revalidate:scheduler:retry:maxPages:)`)
/// shows a feed and fills it from a keyed source.
///
/// **Every list follows the store** (contract 23, 24). Each write is published once it committed, in commit
/// order, and every open store-backed list applies the part in the pages it holds as one transition: an
/// item edited once (by this store, a list, a page of another feed) changes in every list that holds it.
/// Writes of another process to the file are followed at `checkForChanges()`.
///
/// **Opening.** `init(path:now:)` creates the file, or opens it after checking it is this store's (its
/// `application_id`) at this schema version or an older one (its `user_version`; an older file is migrated
/// in place, in one transaction). Any other file is a `StoreError` and is left byte for byte as it was, once
/// SQLite has rolled back a transaction a crash left unfinished in the file's `-journal` (if any).
///
/// **Threading.** `Sendable`: use it from any thread. One connection writes, on a serial queue, in
/// `BEGIN IMMEDIATE` transactions; one connection reads, on another; the file is in WAL mode, so reads
/// never wait for a write. Every method returns when its transaction is over: a method that writes returns
/// after the commit. The store stays open while it, a feed or a list of it is alive.
public final class PagingStore: Sendable {
    let database: Database
    /// The clock that stamps fetched pages.
    let now: @Sendable () -> Date

    /// Opens the store at `path`, creating the file if there is none; `now` stamps what is fetched (for
    /// `Revalidation.ifOlderThan`).
    ///
    /// - Throws: `StoreError` `.cannotOpen` (also for a folder, `""` and `":memory:"`), `.notADatabase`
    ///   (random bytes), `.foreignDatabase` (another application's SQLite file), `.schemaTooNew` (a newer
    ///   version of this store wrote it), `.corrupt` (a truncated or damaged file, or one missing a table or
    ///   index of its schema). The file is then left unchanged.
    public init(path: String, now: @escaping @Sendable () -> Date = { Date() }) throws(StoreError) {
        database = try Database(path: path)
        self.now = now
    }

    /// The path of the store's file.
    public var path: String { database.path }

    /// The feed named `name` of items of type `Item`: made on its first write; empty until then.
    ///
    /// Feeds are told apart by name and item type. Taking a feed costs nothing and writes nothing; the
    /// feed keeps the store open.
    public func feed<Item>(_ name: String, of type: Item.Type) -> StoredFeed<Item>
        where Item: Codable & Identifiable & Sendable, Item.ID: Codable & Sendable {
        StoredFeed(name: name, store: self)
    }

    /// Makes every open list of the store show what the file holds now, when another process (an app
    /// extension, a widget, a background task) or another `PagingStore` on the same file wrote to it since
    /// the last check: each list re-reads the pages it holds and applies the differences by id, in one
    /// transition, without blanking (a list whose pages the other writer deleted holds the stored pages
    /// where its window was). A store-backed list also checks when it refreshes.
    ///
    /// Costs one `PRAGMA data_version` (microseconds) when nothing changed; the writes of this store never
    /// count (its lists follow them as they commit).
    ///
    /// - Returns: whether another connection had written.
    @discardableResult
    public func checkForChanges() throws(StoreError) -> Bool {
        try database.checkForChanges()
    }

    /// Replaces the stored item with this item's id in every feed that holds it (nothing when none does).
    ///
    /// Every open list that holds the item shows the new value, in one transition each, once the write
    /// committed (contract 24).
    public func update<Item>(_ item: Item) throws(StoreError)
        where Item: Codable & Identifiable & Sendable, Item.ID: Codable & Sendable {
        let encoded = try ItemCoding<Item>(path: path).encode(item)
        let typeName = try ItemCoding<Item>.typeName(path: path)
        try database.write(by: nil) { connection, record throws(StoreError) in
            let tables = FeedTables(connection)
            guard let type = try tables.type(named: typeName, create: false) else { return }
            if try tables.replaceBody(encoded, type: type) { record.wrote(encoded, value: item, type: typeName) }
        }
    }

    /// Removes the item with `id` from every feed, and its row (it was deleted at the source); every open
    /// list that holds it removes it, in one transition each.
    public func remove<Item>(_ type: Item.Type, id: Item.ID) throws(StoreError)
        where Item: Codable & Identifiable & Sendable, Item.ID: Codable & Sendable {
        let key = try ItemCoding<Item>(path: path).key(of: id)
        let typeName = try ItemCoding<Item>.typeName(path: path)
        try database.write(by: nil) { connection, record throws(StoreError) in
            let tables = FeedTables(connection)
            guard let type = try tables.type(named: typeName, create: false),
                  let item = try tables.item(key: key, type: type) else { return }
            record.deleted(key, type: typeName)
            let statement = try connection.statement("DELETE FROM members WHERE item = ? RETURNING feed")
            try statement.bind(.integer(item), at: 1)
            var feeds: [Int64] = []
            while try statement.step() { feeds.append(statement.int64(0)) }
            try connection.run("DELETE FROM items WHERE id = ?", .integer(item))
            for feed in Set(feeds) { try tables.settleEnds(of: feed) }
        }
    }
}
