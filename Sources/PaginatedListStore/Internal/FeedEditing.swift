import Foundation

/// Edits of one feed's rows, inside a write: inserting items next to a row, removing and updating items.
struct FeedEditing {
    let tables: FeedTables
    let feed: FeedRef

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
        /// Right before the row at this position, in its page.
        case before(Int64)
        /// At the top of the feed, in its top page (a new page in an empty feed, which continues from the
        /// source's first page).
        case top
    }

    /// Inserts `items` (in order, each id once: the first position, the last value) at `anchor`.
    func insert(_ items: [EncodedItem], at anchor: Anchor, listed: Listed) throws(StoreError) {
        var rows: [Int64] = []
        var seen: Set<Int64> = []
        for item in items {
            let row = try tables.upsert(item, type: feed.type)
            guard seen.insert(row).inserted else { continue }
            if try tables.member(item: row, feed: feed.id) != nil {
                guard listed == .move else { continue }
                try tables.deleteMember(item: row, feed: feed.id)
            }
            rows.append(row)
        }
        guard !rows.isEmpty else { return }
        let page: Int64
        let above: Int64?
        let below: Int64?
        switch anchor {
        case let .after(position):
            page = try pageOf(position: position)
            (above, below) = (position, try tables.position(in: feed.id, .below, of: position))
        case let .before(position):
            page = try pageOf(position: position)
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
        let positions = try tables.positions(rows.count, in: feed.id, after: above, before: below)
        for (row, position) in zip(rows, positions) {
            try tables.insertMember(feed: feed.id, position: position, page: page, item: row)
        }
        try tables.settleEnds(of: feed.id)
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
        for key in keys {
            guard let item = try tables.item(key: key, type: feed.type) else { continue }
            try tables.deleteMember(item: item, feed: feed.id)
            removed.append(item)
        }
        try tables.deleteOrphans(removed)
        try tables.settleEnds(of: feed.id)
    }
}
