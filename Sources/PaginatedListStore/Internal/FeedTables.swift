import Foundation

/// A feed's row.
struct FeedRef: Sendable, Equatable {
    let id: Int64
    /// The item type's row.
    let type: Int64
}

/// A page's keys as stored (see `Schema`, "Keys"): `nil` is no page, an empty blob the source's first page.
struct StoredLinks: Sendable, Equatable {
    /// The key the page was loaded with (`nil`: the source's first page).
    var key: Data?
    var previous: Data?
    var next: Data?
    /// The row of the snapshot the keys' shared part is in, for split keys.
    var snapshot: Int64?
}

/// A page's row.
struct PageRow: Sendable, Equatable {
    let id: Int64
    let seq: Int64
    var links: StoredLinks
    var fetchedAt: Double
    var gapBelow: Bool
}

/// Which way from a page.
enum Side: Sendable {
    case above, below
}

/// The store's SQL, on one connection (the writer's inside a write, the reader's inside a read): rows of
/// feeds, pages, members and items, in O(log n) each or O(rows touched), never by `OFFSET` on a paging path.
struct FeedTables {
    let connection: SQLiteConnection

    init(_ connection: SQLiteConnection) {
        self.connection = connection
    }

    // MARK: - Types and feeds

    /// The row of the item type `name` (made when `create`).
    func type(named name: String, create: Bool) throws(StoreError) -> Int64? {
        if let id = try connection.integer("SELECT id FROM item_types WHERE name = ?", .text(name)) { return id }
        guard create else { return nil }
        try connection.run("INSERT INTO item_types(name) VALUES (?)", .text(name))
        return connection.lastInsertRowID
    }

    /// The row of feed `name` of item type `typeName` (made when `create`).
    func feed(named name: String, typeName: String, create: Bool) throws(StoreError) -> FeedRef? {
        guard let type = try type(named: typeName, create: create) else { return nil }
        if let id = try connection.integer("SELECT id FROM feeds WHERE name = ? AND type = ?", .text(name), .integer(type)) {
            return FeedRef(id: id, type: type)
        }
        guard create else { return nil }
        try connection.run("INSERT INTO feeds(name, type) VALUES (?, ?)", .text(name), .integer(type))
        return FeedRef(id: connection.lastInsertRowID, type: type)
    }

    // MARK: - Pages

    func page(_ id: Int64) throws(StoreError) -> PageRow? {
        let statement = try connection.statement("SELECT \(Self.pageColumns) FROM pages WHERE id = ?")
        try statement.bind(.integer(id), at: 1)
        guard try statement.step() else { return nil }
        return Self.pageRow(statement)
    }

    /// The columns `pageRow(_:)` reads, in order.
    private static let pageColumns = "id, seq, key, previous, next, fetched_at, gap_below, snapshot"

    /// The page row a statement selecting `pageColumns` is on.
    private static func pageRow(_ statement: SQLiteStatement) -> PageRow {
        PageRow(id: statement.int64(0), seq: statement.int64(1),
                links: StoredLinks(key: statement.blob(2), previous: statement.blob(3), next: statement.blob(4),
                                   snapshot: statement.isNull(7) ? nil : statement.int64(7)),
                fetchedAt: statement.double(5), gapBelow: statement.int64(6) != 0)
    }

    /// The seq of the page next to the page at `seq`, on `side`.
    func neighbourSeq(of seq: Int64, in feed: Int64, on side: Side) throws(StoreError) -> Int64? {
        switch side {
        case .above:
            try connection.integer("SELECT seq FROM pages WHERE feed = ? AND seq < ? ORDER BY seq DESC LIMIT 1",
                                   .integer(feed), .integer(seq))
        case .below:
            try connection.integer("SELECT seq FROM pages WHERE feed = ? AND seq > ? ORDER BY seq LIMIT 1",
                                   .integer(feed), .integer(seq))
        }
    }

    /// The page next to the page at `seq`, on `side`.
    func neighbour(of seq: Int64, in feed: Int64, on side: Side) throws(StoreError) -> Int64? {
        switch side {
        case .above:
            try connection.integer("SELECT id FROM pages WHERE feed = ? AND seq < ? ORDER BY seq DESC LIMIT 1",
                                   .integer(feed), .integer(seq))
        case .below:
            try connection.integer("SELECT id FROM pages WHERE feed = ? AND seq > ? ORDER BY seq LIMIT 1",
                                   .integer(feed), .integer(seq))
        }
    }

    /// The page at the top (`.above`) or the bottom (`.below`) of the feed.
    func end(of feed: Int64, _ side: Side) throws(StoreError) -> Int64? {
        switch side {
        case .above: try connection.integer("SELECT id FROM pages WHERE feed = ? ORDER BY seq LIMIT 1", .integer(feed))
        case .below: try connection.integer("SELECT id FROM pages WHERE feed = ? ORDER BY seq DESC LIMIT 1", .integer(feed))
        }
    }

    /// The page a list opens at: the source's first page as last written, else the top page.
    func entryPage(of feed: Int64) throws(StoreError) -> Int64? {
        if let entry = try connection.integer(
            "SELECT pages.id FROM feeds JOIN pages ON pages.id = feeds.entry_page WHERE feeds.id = ? AND pages.feed = ?",
            .integer(feed), .integer(feed)) {
            return entry
        }
        return try end(of: feed, .above)
    }

    /// The items of page `id`, decoded, in order (see `items(where:)`).
    func items<Item>(ofPage id: Int64, _ coding: ItemCoding<Item>) throws(StoreError) -> [Item] {
        try items(of: "page \(id)", where: "members.page = ?", id, coding)
    }

    /// The items of the feed, decoded, in order (see `items(where:)`).
    func items<Item>(ofFeed feed: Int64, _ coding: ItemCoding<Item>) throws(StoreError) -> [Item] {
        try items(of: "feed \(feed)", where: "members.feed = ?", feed, coding)
    }

    /// The items of the members `condition` selects, decoded, in order. `.corrupt` for two rows that hold
    /// one id: a file the store wrote lists an item once per feed and keeps one row per id, so only a damaged
    /// file does that (a member row or an item's body overwritten with another valid one, which SQLite
    /// cannot tell from a real one).
    private func items<Item>(of owner: String, where condition: String, _ value: Int64,
                             _ coding: ItemCoding<Item>) throws(StoreError) -> [Item] {
        let statement = try connection.statement(
            "SELECT items.body FROM members JOIN items ON items.id = members.item WHERE \(condition) ORDER BY members.position")
        try statement.bind(.integer(value), at: 1)
        var items: [Item] = []
        var ids: Set<Item.ID> = []
        while try statement.step() {
            let item = try statement.withBlob(0) { bytes throws(StoreError) in try coding.decode(bytes) }
            guard ids.insert(item.id).inserted else {
                statement.reset()
                throw StoreError(kind: .corrupt, path: connection.path, message:
                    "the file holds the \(Item.self) \(item.id) twice in \(owner): its rows are damaged")
            }
            items.append(item)
        }
        return items
    }

    /// Adds a page row; `id` re-creates a row with its old id.
    func insertPage(id: Int64? = nil, feed: Int64, seq: Int64, links: StoredLinks, fetchedAt: Double, gapBelow: Bool) throws(StoreError) -> Int64 {
        try connection.run(
            "INSERT INTO pages(id, feed, seq, key, previous, next, fetched_at, gap_below, snapshot) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            .integer(id), .integer(feed), .integer(seq), .blob(links.key), .blob(links.previous), .blob(links.next),
            .real(fetchedAt), .integer(gapBelow ? 1 : 0), .integer(links.snapshot))
        return connection.lastInsertRowID
    }

    func setGapBelow(_ gap: Bool, page: Int64) throws(StoreError) {
        try connection.run("UPDATE pages SET gap_below = ? WHERE id = ?", .integer(gap ? 1 : 0), .integer(page))
    }

    func setLinks(_ links: StoredLinks, page: Int64) throws(StoreError) {
        try connection.run("UPDATE pages SET key = ?, previous = ?, next = ?, snapshot = ? WHERE id = ?",
                           .blob(links.key), .blob(links.previous), .blob(links.next), .integer(links.snapshot), .integer(page))
    }

    /// A seq for a new page between the pages at seqs `low` and `high` (`nil`: an end).
    func seq(in feed: Int64, after low: Int64?, before high: Int64?) throws(StoreError) -> Int64 {
        try seqs(1, in: feed, after: low, before: high)[0]
    }

    /// `count` seqs for new pages between the pages at seqs `low` and `high` (`nil`: an end), renumbering the
    /// feed's pages when there is no room.
    func seqs(_ count: Int, in feed: Int64, after low: Int64?, before high: Int64?) throws(StoreError) -> [Int64] {
        try allocate(count, after: low, before: high, of: "pages") { low, high throws(StoreError) in
            let statement = try connection.statement("SELECT \(Self.pageColumns) FROM pages WHERE feed = ? ORDER BY seq")
            try statement.bind(.integer(feed), at: 1)
            var rows: [PageRow] = []
            while try statement.step() { rows.append(Self.pageRow(statement)) }
            try connection.run("DELETE FROM pages WHERE feed = ?", .integer(feed))
            return try Self.renumber(rows, at: \.seq, keeping: low, high) { row, seq throws(StoreError) in
                _ = try insertPage(id: row.id, feed: feed, seq: seq, links: row.links, fetchedAt: row.fetchedAt, gapBelow: row.gapBelow)
            }
        }
    }

    /// `count` numbers between `low` and `high`; when there is none, `renumber` spreads the numbers in use and
    /// returns where `low` and `high` are now, and the numbers are taken from there.
    private func allocate(
        _ count: Int, after low: Int64?, before high: Int64?, of what: String,
        renumber: (Int64?, Int64?) throws(StoreError) -> (Int64?, Int64?)
    ) throws(StoreError) -> [Int64] {
        if let numbers = Positions.allocate(count, after: low, before: high) { return numbers }
        let (newLow, newHigh) = try renumber(low, high)
        guard let numbers = Positions.allocate(count, after: newLow, before: newHigh) else {
            throw StoreError(kind: .sqlite, path: connection.path, message: "no room for \(count) \(what) in a feed of 64-bit numbers")
        }
        return numbers
    }

    /// Writes `rows` (read in order, then deleted) again `Positions.step` apart with `insert`; returns the new
    /// numbers of the rows that had `low` and `high`.
    private static func renumber<Row>(
        _ rows: [Row], at number: KeyPath<Row, Int64>, keeping low: Int64?, _ high: Int64?,
        insert: (Row, Int64) throws(StoreError) -> Void
    ) throws(StoreError) -> (Int64?, Int64?) {
        var movedLow: Int64?
        var movedHigh: Int64?
        for (index, row) in rows.enumerated() {
            let new = Int64(index) * Positions.step
            if row[keyPath: number] == low { movedLow = new }
            if row[keyPath: number] == high { movedHigh = new }
            try insert(row, new)
        }
        return (low == nil ? nil : movedLow, high == nil ? nil : movedHigh)
    }

    /// Deletes the pages whose seq is in `range`, and their members; returns the items they listed.
    func deletePages(of feed: Int64, seqs range: ClosedRange<Int64>) throws(StoreError) -> [Int64] {
        let statement = try connection.statement(
            "DELETE FROM members WHERE page IN (SELECT id FROM pages WHERE feed = ? AND seq BETWEEN ? AND ?) RETURNING item")
        try statement.bind([.integer(feed), .integer(range.lowerBound), .integer(range.upperBound)])
        var items: [Int64] = []
        while try statement.step() { items.append(statement.int64(0)) }
        try connection.run("DELETE FROM pages WHERE feed = ? AND seq BETWEEN ? AND ?",
                           .integer(feed), .integer(range.lowerBound), .integer(range.upperBound))
        return items
    }

    // MARK: - Items and members

    /// Writes the item (its body replaces a stored one with its key) and returns its row.
    func upsert(_ item: EncodedItem, type: Int64) throws(StoreError) -> Int64 {
        try write(item, type: type).row
    }

    /// What writing an item did.
    enum ItemWrite {
        /// A new row.
        case inserted
        /// A stored row took a new body.
        case updated
        /// A stored row had that body already.
        case unchanged
    }

    /// Writes the item (its body replaces a stored one with its key, when it differs); returns its row and
    /// what the write did.
    func write(_ item: EncodedItem, type: Int64) throws(StoreError) -> (row: Int64, write: ItemWrite) {
        let statement = try connection.statement(
            "INSERT INTO items(type, key, body) VALUES (?, ?, ?) "
                + "ON CONFLICT(type, key) DO UPDATE SET body = excluded.body WHERE items.body IS NOT excluded.body RETURNING id")
        let lastInserted = connection.lastInsertRowID
        try statement.bind([.integer(type), .text(item.key), .blob(item.body)])
        guard try statement.step() else {
            statement.reset()
            guard let row = try self.item(key: item.key, type: type) else {
                throw StoreError(kind: .sqlite, path: connection.path, message: "writing an item returned no row")
            }
            return (row, .unchanged)
        }
        let id = statement.int64(0)
        statement.reset()
        return (id, id == connection.lastInsertRowID && id != lastInserted ? .inserted : .updated)
    }

    /// The row of the item with `key`, if stored.
    func item(key: String, type: Int64) throws(StoreError) -> Int64? {
        try connection.integer("SELECT id FROM items WHERE type = ? AND key = ?", .integer(type), .text(key))
    }

    /// Replaces the body of the stored item with the same key; `false` when none is stored.
    func replaceBody(_ item: EncodedItem, type: Int64) throws(StoreError) -> Bool {
        try connection.run("UPDATE items SET body = ? WHERE type = ? AND key = ?", .blob(item.body), .integer(type), .text(item.key))
        return connection.changes > 0
    }

    /// Where the item is in the feed, if the feed lists it.
    func member(item: Int64, feed: Int64) throws(StoreError) -> (position: Int64, page: Int64)? {
        let statement = try connection.statement("SELECT position, page FROM members WHERE item = ? AND feed = ?")
        try statement.bind([.integer(item), .integer(feed)])
        guard try statement.step() else { return nil }
        return (statement.int64(0), statement.int64(1))
    }

    func insertMember(feed: Int64, position: Int64, page: Int64, item: Int64) throws(StoreError) {
        try connection.run("INSERT INTO members(feed, position, page, item) VALUES (?, ?, ?, ?)",
                           .integer(feed), .integer(position), .integer(page), .integer(item))
    }

    /// Lists the item at `position` unless the feed lists it already; whether it did. A position another
    /// row holds is an error (never ignored: the item would silently not be listed).
    func insertMemberIfNew(feed: Int64, position: Int64, page: Int64, item: Int64) throws(StoreError) -> Bool {
        try connection.run("INSERT INTO members(feed, position, page, item) VALUES (?, ?, ?, ?) ON CONFLICT(item, feed) DO NOTHING",
                           .integer(feed), .integer(position), .integer(page), .integer(item))
        return connection.changes > 0
    }

    func deleteMember(item: Int64, feed: Int64) throws(StoreError) {
        try connection.run("DELETE FROM members WHERE item = ? AND feed = ?", .integer(item), .integer(feed))
    }

    /// Deletes the feed's members with positions strictly between `low` and `high`; returns their items.
    func deleteMembers(of feed: Int64, between low: Int64, and high: Int64?) throws(StoreError) -> [Int64] {
        let statement = try connection.statement(
            "DELETE FROM members WHERE feed = ? AND position > ? AND position < ? RETURNING item")
        try statement.bind([.integer(feed), .integer(low), .integer(high ?? Int64.max)])
        var items: [Int64] = []
        while try statement.step() { items.append(statement.int64(0)) }
        return items
    }

    /// Deletes the rows of `items` that no feed lists any more, in one statement (the ids as a JSON array:
    /// each found by its row id, its members by `members_by_item`), and records their keys (`type`: the
    /// items' type): their pending edits end with them.
    func deleteOrphans(_ items: [Int64], type: String, record: ChangeRecord) throws(StoreError) {
        guard !items.isEmpty else { return }
        let ids = "[" + items.map { String($0) }.joined(separator: ",") + "]"
        let delete = "DELETE FROM items WHERE id IN (SELECT value FROM json_each(?)) AND NOT EXISTS (SELECT 1 FROM members WHERE item = items.id)"
        guard record.tracksOrphans else { return try connection.run(delete, .text(ids)) }
        let statement = try connection.statement(delete + " RETURNING key")
        try statement.bind([.text(ids)])
        var keys: [String] = []
        while try statement.step() { if let key = statement.text(0) { keys.append(key) } }
        record.orphaned(keys, type: type)
    }

    /// The position of the feed's last row before `position` (`nil`: before the end), and of its first row
    /// after (`nil`: after the start): the keyset neighbours, by the primary key.
    func position(in feed: Int64, _ side: Side, of position: Int64?) throws(StoreError) -> Int64? {
        switch (side, position) {
        case let (.above, position?):
            try connection.integer("SELECT position FROM members WHERE feed = ? AND position < ? ORDER BY position DESC LIMIT 1",
                                   .integer(feed), .integer(position))
        case (.above, nil):
            try connection.integer("SELECT position FROM members WHERE feed = ? ORDER BY position DESC LIMIT 1", .integer(feed))
        case let (.below, position?):
            try connection.integer("SELECT position FROM members WHERE feed = ? AND position > ? ORDER BY position LIMIT 1",
                                   .integer(feed), .integer(position))
        case (.below, nil):
            try connection.integer("SELECT position FROM members WHERE feed = ? ORDER BY position LIMIT 1", .integer(feed))
        }
    }

    /// The first (`.above`) or last (`.below`) row position of page `id`, if it has rows.
    func edgePosition(ofPage id: Int64, _ side: Side) throws(StoreError) -> Int64? {
        switch side {
        case .above: try connection.integer("SELECT position FROM members WHERE page = ? ORDER BY position LIMIT 1", .integer(id))
        case .below: try connection.integer("SELECT position FROM members WHERE page = ? ORDER BY position DESC LIMIT 1", .integer(id))
        }
    }

    /// The positions between which rows go that come after the rows of the pages up to seq `low` and before
    /// those of the pages from seq `high` (`nil`: an end), where no page between `low` and `high` has rows:
    /// each bound is found on the nearest of its side's pages with rows, up to 8 pages away. A side whose 8
    /// nearest pages have no rows (rows removed from the store) takes its bound from the other side's, by
    /// the position next to it: no row lies between the two. O(log n) unless both sides have 8 empty pages
    /// (then O(pages on each side)).
    func rowBounds(in feed: Int64, afterPagesUpTo low: Int64?, beforePagesFrom high: Int64?) throws(StoreError) -> (Int64?, Int64?) {
        let lower = try low.map { low throws(StoreError) in try nearestRowEdge(in: feed, from: low, .above) } ?? .found(nil)
        let upper = try high.map { high throws(StoreError) in try nearestRowEdge(in: feed, from: high, .below) } ?? .found(nil)
        switch (lower, upper) {
        case let (.found(lower), .found(upper)):
            return (lower, upper)
        case let (.found(lower), .unknown):
            return (lower, try position(in: feed, .below, of: lower))
        case let (.unknown, .found(upper)):
            return (try position(in: feed, .above, of: upper), upper)
        case (.unknown, .unknown):
            return (try connection.integer(
                        "SELECT max(m.position) FROM members m JOIN pages p ON p.id = m.page WHERE p.feed = ? AND p.seq <= ?",
                        .integer(feed), .integer(low!)),
                    try connection.integer(
                        "SELECT min(m.position) FROM members m JOIN pages p ON p.id = m.page WHERE p.feed = ? AND p.seq >= ?",
                        .integer(feed), .integer(high!)))
        }
    }

    /// What the nearest pages say about a bound.
    private enum RowEdge {
        /// The position of the row next to the bound (`nil`: those pages, all of that side, have none).
        case found(Int64?)
        /// The 8 nearest pages have no rows.
        case unknown
    }

    /// The last row position of the pages up to seq `seq` (`.above`), or the first of the pages from it
    /// (`.below`), looked for in the 8 pages nearest to it.
    private func nearestRowEdge(in feed: Int64, from seq: Int64, _ side: Side) throws(StoreError) -> RowEdge {
        let pages = try connection.statement(side == .above
            ? "SELECT id FROM pages WHERE feed = ? AND seq <= ? ORDER BY seq DESC"
            : "SELECT id FROM pages WHERE feed = ? AND seq >= ? ORDER BY seq")
        try pages.bind([.integer(feed), .integer(seq)])
        var candidates: [Int64] = []
        while try pages.step() { candidates.append(pages.int64(0)); if candidates.count == 8 { break } }
        pages.reset()
        for page in candidates {
            if let found = try edgePosition(ofPage: page, side == .above ? .below : .above) { return .found(found) }
        }
        return candidates.count == 8 ? .unknown : .found(nil)
    }

    /// `count` positions strictly between `low` and `high`, renumbering the feed's rows when there is no room
    /// (then `low` and `high`, which are row positions, move with their rows).
    func positions(_ count: Int, in feed: Int64, after low: Int64?, before high: Int64?) throws(StoreError) -> [Int64] {
        try allocate(count, after: low, before: high, of: "rows") { low, high throws(StoreError) in
            let statement = try connection.statement("SELECT position, page, item FROM members WHERE feed = ? ORDER BY position")
            try statement.bind(.integer(feed), at: 1)
            var rows: [(position: Int64, page: Int64, item: Int64)] = []
            while try statement.step() { rows.append((statement.int64(0), statement.int64(1), statement.int64(2))) }
            try connection.run("DELETE FROM members WHERE feed = ?", .integer(feed))
            return try Self.renumber(rows, at: \.position, keeping: low, high) { row, position throws(StoreError) in
                try insertMember(feed: feed, position: position, page: row.page, item: row.item)
            }
        }
    }

    // MARK: - The feed row

    /// Records what the page a list opens at says about the feed.
    func setEntry(_ page: Int64, of feed: Int64, fetchedAt: Double, validators: (etag: String?, lastModified: String?)?) throws(StoreError) {
        try connection.run("UPDATE feeds SET entry_page = ?, fetched_at = ?, etag = ?, last_modified = ? WHERE id = ?",
                           .integer(page), .real(fetchedAt), .text(validators?.etag), .text(validators?.lastModified), .integer(feed))
    }

    /// The feed's total as the remote source last said (`KeyedPage.totalCount`); `nil` when it never did.
    func totalCount(of feed: Int64) throws(StoreError) -> Int? {
        try connection.integer("SELECT total_count FROM feeds WHERE id = ?", .integer(feed)).map { Int($0) }
    }

    func setTotalCount(_ total: Int, of feed: Int64) throws(StoreError) {
        try connection.run("UPDATE feeds SET total_count = ? WHERE id = ?", .int(total), .integer(feed))
    }

    /// Updates the feed row's `head_complete` and `tail_complete` from its top and bottom pages.
    func settleEnds(of feed: Int64) throws(StoreError) {
        try connection.run("""
            UPDATE feeds SET
              head_complete = coalesce((SELECT previous IS NULL FROM pages WHERE feed = ?1 ORDER BY seq LIMIT 1), 0),
              tail_complete = coalesce((SELECT next IS NULL AND gap_below = 0 FROM pages WHERE feed = ?1 ORDER BY seq DESC LIMIT 1), 0)
            WHERE id = ?1
            """, .integer(feed))
    }
}
