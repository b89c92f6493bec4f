import Foundation
import PaginatedList

/// Where a remote page is written.
enum Place: Sendable, Equatable {
    /// As the only page of an empty feed, where lists open (the source's first page).
    case entry
    /// Right below page `id` (past the last stored page, or into the gap below it).
    case after(Int64)
    /// Right above page `id` (before the first stored page).
    case before(Int64)
}

/// What writing a remote page did.
enum PageWriteOutcome {
    /// The page was written.
    case written(WrittenPage)
    /// The place was taken meanwhile (another list wrote a page there): this stored page is there.
    case filled(Int64)
}

/// A page written.
struct WrittenPage {
    /// Its row.
    let page: Int64
    /// The indices, in the page's items, of the items that became its rows, in order: an item the feed
    /// already lists elsewhere stays there (its row takes the page's value); an id the page repeats keeps its
    /// first position with its last value (the index of that last occurrence).
    let rows: [Int]
    /// Whether anything lies above it (a stored page or a key), and below it.
    let above: Bool
    let below: Bool
}

/// Writing one remote page into a feed, inside a write transaction: its items, its keys, its place. The
/// page's items are recorded for the open lists (a list that holds one elsewhere shows the page's value);
/// the page itself is new, so no open list holds it, unless it fills a gap (then the feed is recorded as
/// restructured: the rows it joins with may go).
struct PageWriting {
    let tables: FeedTables
    let feed: FeedRef
    let name: FeedName
    let record: ChangeRecord

    /// Writes the page; `values` are its items' Swift values, in the same order.
    func write(
        _ items: [EncodedItem], values: [any Sendable], links: StoredLinks, at place: Place, fetchedAt: Double, validators: PageValidators?,
        totalCount: Int?, ends: Bool
    ) throws(StoreError) -> PageWriteOutcome {
        // Where the page goes: its neighbours' seqs, and whether it fills a gap.
        let above: Int64?
        let below: Int64?
        var fillsGap = false
        var gapAbove: Int64?
        switch place {
        case .entry:
            if let existing = try tables.entryPage(of: feed.id) { return .filled(existing) }
            (above, below) = (nil, nil)
        case let .after(id):
            guard let row = try tables.page(id) else { throw gone() }
            let next = try seq(of: tables.neighbour(of: row.seq, in: feed.id, on: .below))
            if !row.gapBelow, let next { return .filled(next.id) }
            fillsGap = row.gapBelow
            if fillsGap { gapAbove = id }
            (above, below) = (row.seq, next?.seq)
        case let .before(id):
            guard let row = try tables.page(id) else { throw gone() }
            if let previous = try tables.neighbour(of: row.seq, in: feed.id, on: .above) { return .filled(previous) }
            (above, below) = (nil, row.seq)
        }
        let (low, high) = try tables.rowBounds(in: feed.id, afterPagesUpTo: above, beforePagesFrom: below)

        // The items: written (a stored row takes the page's value), listed here unless listed already.
        var unique: [(row: Int64, index: Int)] = []
        var firstIndex: [Int64: Int] = [:]
        var lastIndex: [Int64: Int] = [:]
        for (index, item) in items.enumerated() {
            let (row, write) = try tables.write(item, type: feed.type)
            // A new row is in no list; a row that kept its body changes none.
            if write == .updated { record.wrote(item, value: values[index], type: name.type) }
            // The server's value all the same, for an item with an optimistic edit pending.
            if write == .unchanged { record.rewrote(item.key, type: name.type) }
            lastIndex[row] = index
            guard firstIndex[row] == nil else { continue }
            firstIndex[row] = index
            unique.append((row, index))
        }
        // Into a gap, the rows the feed lists already are found first: one below the gap closes it (the
        // page's rows go above it). Elsewhere a row listed already is skipped as it is inserted.
        var overlap: (position: Int64, page: Int64)?
        var candidates = unique
        if fillsGap, let above {
            candidates = []
            for entry in unique {
                guard let listed = try tables.member(item: entry.row, feed: feed.id) else {
                    candidates.append(entry)
                    continue
                }
                if let pageRow = try tables.page(listed.page), pageRow.seq > above, listed.position < overlap?.position ?? .max {
                    overlap = listed
                }
            }
        }
        var gapBelow = fillsGap
        if fillsGap { record.restructured(name) }
        var removed: [Int64] = []
        // The rows between the gap and the first one the page lists again are gone from the feed: deleted
        // before the page's rows are placed there (placed first, a new row could take the position of one of
        // them, and the stale rows would stay among the new ones).
        if let overlap { removed += try tables.deleteMembers(of: feed.id, between: low ?? Int64.min, and: overlap.position) }
        let seq = try tables.seq(in: feed.id, after: above, before: below)
        let page = try tables.insertPage(feed: feed.id, seq: seq, links: links, fetchedAt: fetchedAt, gapBelow: false)
        let positions = try tables.positions(candidates.count, in: feed.id, after: low, before: overlap?.position ?? high)
        var fresh: [(row: Int64, index: Int)] = []
        for (entry, position) in zip(candidates, positions)
        where try tables.insertMemberIfNew(feed: feed.id, position: position, page: page, item: entry.row) {
            fresh.append(entry)
        }
        if let gapAbove { try tables.setGapBelow(false, page: gapAbove) }
        if fillsGap {
            if let overlap {
                // (By the overlap's page, not its position: placing the rows may have renumbered the feed.)
                try deleteEmptyPages(between: seq, and: try tables.page(overlap.page)?.seq ?? Int64.max)
                gapBelow = false
            } else if ends {
                removed += try tables.deletePages(of: feed.id, seqs: seq + 1 ... Int64.max)
                gapBelow = false
            }
        }
        if gapBelow { try tables.setGapBelow(true, page: page) }
        if place == .entry {
            try tables.setEntry(page, of: feed.id, fetchedAt: fetchedAt, validators: validators.map { ($0.etag, $0.lastModified) })
        }
        if let totalCount { try tables.setTotalCount(totalCount, of: feed.id) }
        try tables.deleteOrphans(removed, type: name.type, record: record)
        try tables.settleEnds(of: feed.id)

        let hasAbove = try tables.neighbour(of: seq, in: feed.id, on: .above) != nil || links.previous != nil
        let hasBelow = gapBelow ? links.next != nil
            : try tables.neighbour(of: seq, in: feed.id, on: .below) != nil || links.next != nil
        return .written(WrittenPage(page: page, rows: fresh.map { lastIndex[$0.row]! }, above: hasAbove, below: hasBelow))
    }

    /// The page `id` with its seq.
    private func seq(of id: Int64?) throws(StoreError) -> (id: Int64, seq: Int64)? {
        guard let id, let row = try tables.page(id) else { return nil }
        return (id, row.seq)
    }

    /// Deletes the pages strictly between two seqs that list no item any more.
    private func deleteEmptyPages(between low: Int64, and high: Int64) throws(StoreError) {
        try tables.connection.run(
            "DELETE FROM pages WHERE feed = ? AND seq > ? AND seq < ? AND NOT EXISTS (SELECT 1 FROM members WHERE page = pages.id)",
            .integer(feed.id), .integer(low), .integer(high))
    }

    private func gone() -> StoreError {
        StoreError(kind: .sqlite, path: tables.connection.path, message:
            "the page a list continues from is no longer in the store (the feed was refreshed or cleared elsewhere): refresh the list")
    }
}
