import Foundation
import PaginatedList

/// One feed of a `PagingStore`: an ordered list of items, with the keys of the pages they came in.
///
/// A store-backed view model shows a feed and fills it from the network; these methods read and edit it
/// directly (a feed filled by a background fetch, a widget's snapshot, tests). `Sendable`; every method
/// runs one transaction and returns after it (see `PagingStore`); the open lists of the feed follow every
/// write (an insertion shows in the lists that hold the page it went into, next to the row above or below).
public final class StoredFeed<Item>: Sendable
where Item: Codable & Identifiable & Sendable, Item.ID: Codable & Sendable {
    /// The feed's name in its store.
    public let name: String
    /// The store the feed is in.
    public let store: PagingStore

    init(name: String, store: PagingStore) {
        self.name = name
        self.store = store
    }

    /// The feed as the change bus names it.
    func busName() throws(StoreError) -> FeedName {
        FeedName(type: try ItemCoding<Item>.typeName(path: store.path), name: name)
    }

    /// The feed's row, if it has one (made when `create`).
    func row(_ tables: FeedTables, create: Bool) throws(StoreError) -> FeedRef? {
        try tables.feed(named: name, typeName: ItemCoding<Item>.typeName(path: store.path), create: create)
    }

    /// Every stored item of this feed, in order.
    ///
    /// - Throws: `StoreError` (`.decoding` when a stored item no longer decodes as `Item`, `.corrupt` when a
    ///   damaged file holds an id twice).
    public func items() throws(StoreError) -> [Item] {
        let coding = ItemCoding<Item>(path: store.path)
        return try store.database.read { connection throws(StoreError) in
            let tables = FeedTables(connection)
            guard let feed = try row(tables, create: false) else { return [] }
            return try tables.items(ofFeed: feed.id, coding)
        }
    }

    /// Inserts `items` at `index` (clamped to `0...count`), into the page of the item above them (the first
    /// page at the top). An id the feed already lists is updated where it is; an id given twice keeps its
    /// first position and its last value (the rules of a list's `insert(_:at:)`).
    ///
    /// Finding `index` counts the rows above it: O(index). Lists insert next to an item they hold instead.
    public func insert(_ items: [Item], at index: Int) throws(StoreError) {
        guard !items.isEmpty else { return }
        let coding = ItemCoding<Item>(path: store.path)
        var encoded: [EncodedItem] = []
        for item in items { encoded.append(try coding.encode(item)) }
        let busName = try busName()
        try store.database.write(by: nil) { connection, record throws(StoreError) in
            let tables = FeedTables(connection)
            let feed = try row(tables, create: true)!
            var above: Int64?
            if index > 0 {
                above = try connection.integer("SELECT position FROM members WHERE feed = ? ORDER BY position LIMIT 1 OFFSET ?",
                                               .integer(feed.id), .int(index - 1))
                if above == nil { above = try tables.position(in: feed.id, .above, of: nil) }
            }
            try FeedEditing(tables: tables, feed: feed, name: busName, record: record)
                .insert(encoded, values: items, at: above.map { .after($0) } ?? .top, listed: .updateInPlace)
        }
    }

    /// Removes the item with `id` from this feed only (the row the user swiped away); other feeds keep it.
    public func remove(id: Item.ID) throws(StoreError) {
        let key = try ItemCoding<Item>(path: store.path).key(of: id)
        let busName = try busName()
        try store.database.write(by: nil) { connection, record throws(StoreError) in
            let tables = FeedTables(connection)
            guard let feed = try row(tables, create: false) else { return }
            try FeedEditing(tables: tables, feed: feed, name: busName, record: record).remove(keys: [key])
        }
    }

    /// Removes every item and page of this feed, and what the feed row knew (fetch date, validators,
    /// total); items other feeds list stay.
    public func clear() throws(StoreError) {
        let busName = try busName()
        try store.database.write(by: nil) { connection, record throws(StoreError) in
            let tables = FeedTables(connection)
            guard let feed = try row(tables, create: false) else { return }
            record.restructured(busName)
            let removed = try tables.deletePages(of: feed.id, seqs: Int64.min ... Int64.max)
            try tables.deleteOrphans(removed, type: busName.type, record: record)
            try connection.run("DELETE FROM members WHERE feed = ?", .integer(feed.id))
            try connection.run("DELETE FROM snapshots WHERE feed = ?", .integer(feed.id))
            try connection.run("""
                UPDATE feeds SET entry_page = NULL, fetched_at = NULL, head_complete = 0, tail_complete = 0, etag = NULL,
                  last_modified = NULL, total_count = NULL, snapshot = NULL WHERE id = ?
                """, .integer(feed.id))
        }
    }

    /// What the store knows about the feed as a whole.
    ///
    /// Counts the feed's rows and pages: O(rows) (about 40 ms at 1,000,000 rows); the rest is the feed row.
    public func info() throws(StoreError) -> StoredFeedInfo {
        try store.database.read { connection throws(StoreError) in
            let tables = FeedTables(connection)
            guard let feed = try row(tables, create: false) else {
                return StoredFeedInfo(itemCount: 0, pageCount: 0, fetchedAt: nil, validators: nil, headComplete: false,
                                      tailComplete: false, totalCount: nil)
            }
            let statement = try connection.statement("""
                SELECT (SELECT count(*) FROM members WHERE feed = ?1), (SELECT count(*) FROM pages WHERE feed = ?1),
                  fetched_at, etag, last_modified, head_complete, tail_complete, total_count FROM feeds WHERE id = ?1
                """)
            try statement.bind(.integer(feed.id), at: 1)
            _ = try statement.step()
            let validators = PageValidators(etag: statement.text(3), lastModified: statement.text(4))
            return StoredFeedInfo(
                itemCount: Int(statement.int64(0)), pageCount: Int(statement.int64(1)),
                fetchedAt: statement.isNull(2) ? nil : Date(timeIntervalSinceReferenceDate: statement.double(2)),
                validators: validators.isEmpty ? nil : validators, headComplete: statement.int64(5) != 0,
                tailComplete: statement.int64(6) != 0, totalCount: statement.isNull(7) ? nil : Int(statement.int64(7)))
        }
    }
}
