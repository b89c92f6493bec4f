import Foundation

/// Edits of one feed's rows, inside a write: inserting items next to a row, removing and updating items.
/// Each edit is recorded in `record` for the open lists (see `StoreChanges.swift`).
struct FeedEditing {
    let tables: FeedTables
    let feed: FeedRef
    let name: FeedName
    let record: ChangeRecord

    /// What to do with an inserted item the feed already lists elsewhere.
    enum Listed {
        /// Update it where it is (`StoredFeed.insert`: the rule of `insert(_:at:)` on a list).
        case updateInPlace
        /// Move it to the insertion point (a list inserted it there: the list holds it there now).
        case move
    }

    /// Where inserted items go.
    enum Anchor {
        /// Right after the row at this position, in its page.
        case after(Int64)
        /// Right before the row at this position, in page `page` when given (a list's top page, which may
        /// hold no row, above the row's page: the list's rule for an insertion at its top), else in the row's page.
        case before(Int64, page: Int64?)
        /// At the top of the feed, in its top page (a new page in an empty feed, which continues from the
        /// source's first page).
        case top
    }

    /// Inserts `items` (in order, each id once: the first position, the last value) at `anchor`; `values`
    /// are the items' Swift values, in the same order (what lists show).
    func insert(_ items: [EncodedItem], values: [any Sendable], at anchor: Anchor, listed: Listed) throws(StoreError) {
        var rows: [Int64] = []
        var keys: [String] = []
        var moved: [String] = []
        var seen: Set<Int64> = []
        for (item, value) in zip(items, values) {
            let row = try tables.upsert(item, type: feed.type)
            record.wrote(item, value: value, type: name.type)
            guard seen.insert(row).inserted else { continue }
            if try tables.member(item: row, feed: feed.id) != nil {
                guard listed == .move else { continue }
                try tables.deleteMember(item: row, feed: feed.id)
                moved.append(item.key)
            }
            rows.append(row)
            keys.append(item.key)
        }
        record.removed(moved, from: name)
        guard !rows.isEmpty else { return }
        let page: Int64
        let above: Int64?
        let below: Int64?
        switch anchor {
        case let .after(position):
            page = try pageOf(position: position)
            (above, below) = (position, try tables.position(in: feed.id, .below, of: position))
        case let .before(position, listed):
            if let listed { page = listed } else { page = try pageOf(position: position) }
            (above, below) = (try tables.position(in: feed.id, .above, of: position), position)
        case .top:
            if let top = try tables.end(of: feed.id, .above) {
                page = top
                below = try tables.position(in: feed.id, .below, of: nil)
            } else {
                page = try tables.insertPage(feed: feed.id, seq: 0, links: StoredLinks(key: nil, previous: nil, next: Data()),
                                             fetchedAt: 0, gapBelow: false)
                below = nil
            }
            above = nil
        }
        record.inserted(InsertedRows(keys: keys, page: page, above: try key(at: above), below: try key(at: below)), into: name)
        let positions = try tables.positions(rows.count, in: feed.id, after: above, before: below)
        for (row, position) in zip(rows, positions) {
            try tables.insertMember(feed: feed.id, position: position, page: page, item: row)
        }
        try tables.settleEnds(of: feed.id)
    }

    /// The key of the item of the row at `position`.
    private func key(at position: Int64?) throws(StoreError) -> String? {
        guard let position else { return nil }
        return try tables.connection.text(
            "SELECT items.key FROM members JOIN items ON items.id = members.item WHERE members.feed = ? AND members.position = ?",
            .integer(feed.id), .integer(position))
    }

    /// The page of the row at `position`.
    func pageOf(position: Int64) throws(StoreError) -> Int64 {
        guard let page = try tables.connection.integer("SELECT page FROM members WHERE feed = ? AND position = ?",
                                                       .integer(feed.id), .integer(position)) else {
            throw StoreError(kind: .sqlite, path: tables.connection.path, message: "no row at position \(position)")
        }
        return page
    }

    /// The position of the row listing the item with `key`, if the feed lists it.
    func position(ofKey key: String) throws(StoreError) -> Int64? {
        guard let item = try tables.item(key: key, type: feed.type) else { return nil }
        return try tables.member(item: item, feed: feed.id)?.position
    }

    /// Removes the items with `keys` from the feed (their rows stay while another feed lists them).
    func remove(keys: [String]) throws(StoreError) {
        var removed: [Int64] = []
        var removedKeys: [String] = []
        for key in keys {
            guard let item = try tables.item(key: key, type: feed.type) else { continue }
            try tables.deleteMember(item: item, feed: feed.id)
            removed.append(item)
            removedKeys.append(key)
        }
        record.removed(removedKeys, from: name)
        try tables.deleteOrphans(removed, type: name.type, record: record)
        try tables.settleEnds(of: feed.id)
    }
}
