import Foundation
import PaginatedList

/// Writing what a refresh or an edit changed, before the list shows it (`PageKeeper.persist(_:)`).
///
/// **A refresh** is written as the window the list holds after it, in one transaction: the pages held before
/// (and, unless the new window still starts with the same stored page, every stored page above them; unless
/// it ends with a stored page it held that has no gap below it in the store, every stored page below them)
/// are replaced by the pages held after, with their keys, their items (a refresh's items are written; the
/// others keep their rows) and the gap, if one is open. So `.replace` leaves the feed its new first page
/// only, and deletes the old rows only in the transaction that writes it; `.mergeOnTop` keeps the stored
/// pages below the held ones it overlapped (and, behind a gap, the ones it did not; with `maxPages`, also
/// those it dropped from the list at the bottom); `.reloadAll` leaves the reloaded pages; `fillGap()` keeps
/// what lies above and below. A window that ends above a stored gap (the list goes on from the gap, what lay
/// below it dropped or gone) deletes the pages below. Other feeds' rows are never touched: an item's row
/// goes only when no feed lists it any more. A window that keeps a stored page another writer deleted is
/// not written (`gone()`).
///
/// **An edit** is written row by row: an update replaces the item's row, a removal takes it out of this feed,
/// an insertion lists the items next to their neighbour in the list, in its page (and replaces the rows of
/// the held items it repeats). An edit that cannot be written so (its neighbour is not in the feed) is
/// written as a refresh is, with the values it updated.
extension StoredListKeeper {
    func persist(_ change: KeptChange<Item>) -> Result<[Item], Failure> {
        do throws(StoreError) {
            let coding = ItemCoding<Item>(path: store.path)
            let (written, shown) = try store.database.write(by: ObjectIdentifier(self)) {
                connection, record throws(StoreError) -> ([(Origin, Int64)], [Item]) in
                let tables = FeedTables(connection)
                let feedRow = try feed.row(tables, create: true)!
                var written: [(Origin, Int64)] = []
                let editWritten = change.cause == .edit ? try writeEdit(change, tables, feedRow, coding, record) : false
                if !editWritten { written = try rewrite(change, tables, feedRow, coding, record) }
                // An item with an optimistic edit pending shows the edit on top of the value written: decoded
                // before the commit, so that a value that no longer decodes rolls the write back (the list
                // then stays as it was, as the file does).
                return (written, try shownInstead(store.database.pending.settle(connection, record), coding))
            }
            for (origin, row) in written { origin.stored(as: row) }
            return .success(shown)
        } catch {
            return .failure(storeFailure(error))
        }
    }

    /// The items of this list's type that a write settled with a value other than the one written: what
    /// the list shows instead (see `PageKeeper.persist(_:)`).
    private func shownInstead(_ settled: [ItemName: SettledItem], _ coding: ItemCoding<Item>) throws(StoreError) -> [Item] {
        var items: [Item] = []
        for (name, item) in settled where item.differs && name.type == busName.type {
            if let value = item.shown.value as? Item {
                items.append(value)
            } else {
                items.append(try coding.decode(item.shown.body))
            }
        }
        return items
    }

    // MARK: - Edits

    /// Writes an edit row by row; `false` when its changes are not an edit's (then the window is rewritten).
    private func writeEdit(
        _ change: KeptChange<Item>, _ tables: FeedTables, _ feedRow: FeedRef, _ coding: ItemCoding<Item>, _ record: ChangeRecord
    ) throws(StoreError) -> Bool {
        let editing = FeedEditing(tables: tables, feed: feedRow, name: busName, record: record)
        // The rows an edit moves (one removal or one insertion), and the items it updated, wherever their
        // `.updated` is: an update does not move rows, so the other change's offsets hold either way.
        let changes = change.changes.filter { if case .updated = $0 { false } else { true } }
        if changes.isEmpty {
            // Updates only.
        } else if changes.count == 1, case let .removed(offsets) = changes.first! {
            var keys: [String] = []
            for offset in offsets { keys.append(try coding.key(of: change.before.items[offset].id)) }
            try editing.remove(keys: keys)
        } else if changes.count == 1, case let .inserted(range) = changes.first! {
            let after = change.after.items
            let anchor: FeedEditing.Anchor
            if range.lowerBound > 0 {
                guard let above = try editing.position(ofKey: coding.key(of: after[range.lowerBound - 1].id)) else { return false }
                anchor = .after(above)
            } else if range.upperBound < after.count {
                guard let below = try editing.position(ofKey: coding.key(of: after[range.upperBound].id)) else { return false }
                // At the list's top: in its top page, as the list has it, also when that page holds no row
                // (its items removed) and the row below is in the next one.
                anchor = .before(below, page: (change.after.pages.first?.origin as? Origin)?.row)
            } else {
                anchor = .top
            }
            var encoded: [EncodedItem] = []
            for item in after[range] { encoded.append(try coding.encode(item)) }
            try editing.insert(encoded, values: Array(after[range]), at: anchor, listed: .move)
        } else {
            return false
        }
        for offset in Self.updatedOffsets(change.changes) {
            let item = change.after.items[offset]
            let encoded = try coding.encode(item)
            guard try tables.replaceBody(encoded, type: feedRow.type) else { return false }
            record.wrote(encoded, value: item, type: busName.type)
        }
        return true
    }

    /// The offsets, in the window after the change, of the items its changes updated: each `.updated`
    /// offset carried through the changes after it (an insertion updates the held items it repeats, before
    /// or after inserting the others).
    /// `withInserted`: also the offsets of the items they inserted or appended.
    static func updatedOffsets(_ changes: [ItemListChange], withInserted: Bool = false) -> Set<Int> {
        var offsets: [Int] = []
        for change in changes {
            offsets = offsets.compactMap { change.position(ofRow: $0) }
            switch change {
            case let .updated(updated): offsets += updated
            case let .inserted(range) where withInserted, let .appended(range) where withInserted: offsets += range
            default: break
            }
        }
        return Set(offsets)
    }

    // MARK: - Refreshes

    /// Replaces the stored pages the list held (and those around them the change leaves no longer joined)
    /// with the pages it holds now; returns the origins of the pages written for the first time, with their rows.
    private func rewrite(
        _ change: KeptChange<Item>, _ tables: FeedTables, _ feedRow: FeedRef, _ coding: ItemCoding<Item>, _ record: ChangeRecord
    ) throws(StoreError) -> [(Origin, Int64)] {
        let feedID = feedRow.id
        record.restructured(busName)
        let before = try rows(of: change.before, tables, feedRow, coding)
        let after = try rows(of: change.after, tables, feedRow, coding)
        var beforeSeqs: [Int64] = []
        for row in before {
            if let row, let page = try tables.page(row) { beforeSeqs.append(page.seq) }
        }
        // The rows of the stored pages the list keeps, read before their pages are deleted and written again.
        // A stored page the list keeps that is no longer in the store was deleted by another writer (a
        // `.replace` or `clear()` of the feed, committed, its change still on its way to this list): writing
        // the window would wipe that writer's pages and bring the deleted ones back with no links. The
        // change fails instead; the list catches up when the other writer's change reaches it.
        var kept: [Int64: PageRow] = [:]
        for (index, row) in after.enumerated() {
            guard let row else { continue }
            if let page = try tables.page(row) {
                kept[row] = page
            } else if change.after.pages[index].origin is Origin {
                throw gone()
            }
        }
        let sameFirst = !beforeSeqs.isEmpty && before.first! != nil && before.first == after.first
        // The window still ends with a stored page it held, and the stored pages below it follow it (no gap
        // below it in the store: else what lies below is no longer the list's, which goes on from the gap):
        // they stay, those the list held below it before (dropped by `maxPages` as the refresh put pages on
        // top) included.
        let lastKept = after.last.flatMap { $0 }.flatMap { row -> Int64? in
            guard before.contains(row), let page = kept[row], !page.gapBelow else { return nil }
            return page.seq
        }
        let sameLast = lastKept != nil
        let low = sameFirst ? beforeSeqs.min()! : Int64.min
        let high = lastKept ?? Int64.max
        let aboveSeq = sameFirst ? try tables.neighbourSeq(of: low, in: feedID, on: .above) : nil
        let belowSeq = sameLast ? try tables.neighbourSeq(of: high, in: feedID, on: .below) : nil
        let removed = try tables.deletePages(of: feedID, seqs: low ... high)
        let (lowPosition, highPosition) = try tables.rowBounds(in: feedID, afterPagesUpTo: aboveSeq, beforePagesFrom: belowSeq)
        let positions = try tables.positions(change.after.items.count, in: feedID, after: lowPosition, before: highPosition)
        let seqs = try tables.seqs(change.after.pages.count, in: feedID, after: aboveSeq, before: belowSeq)

        // Every item a refresh page brought, by key: written with the page's value, and every item the
        // change updated (the other items keep their rows).
        var newValues: [String: EncodedItem] = [:]
        for page in change.after.pages {
            for item in (page.origin as? Origin)?.fresh?.items ?? [] { newValues[item.key] = item }
        }
        // Every item the change brought or updated (an edit's; a refresh's, also those of a page that joined
        // the held ones, which the list shows in the held page): the list shows its value.
        for offset in Self.updatedOffsets(change.changes, withInserted: true) {
            let encoded = try coding.encode(change.after.items[offset])
            newValues[encoded.key] = encoded
        }
        var written: [(Origin, Int64)] = []
        var entry: (page: Int64, fetchedAt: Double, validators: PageValidators?)?
        var total: Int?
        var index = 0
        for (pageIndex, page) in change.after.pages.enumerated() {
            let end = index + page.count
            let gapBelow = change.after.gap == end && end > 0
            let pageRow: Int64
            if let origin = page.origin as? Origin, let fresh = origin.fresh {
                let links = try keys.links(key: fresh.key, previous: fresh.previous, next: fresh.next, feed: feedID, tables: tables)
                pageRow = try tables.insertPage(feed: feedID, seq: seqs[pageIndex], links: links, fetchedAt: fresh.fetchedAt, gapBelow: gapBelow)
                written.append((origin, pageRow))
                if let count = fresh.totalCount { total = count }
                if pageIndex == 0 { entry = (pageRow, fresh.fetchedAt, fresh.validators) }
            } else if let id = after[pageIndex], let row = kept[id] {
                pageRow = try tables.insertPage(id: id, feed: feedID, seq: seqs[pageIndex], links: row.links,
                                                fetchedAt: row.fetchedAt, gapBelow: gapBelow)
            } else {
                // Items an edit put into an empty list: a page that continues from the source's first page.
                pageRow = try tables.insertPage(feed: feedID, seq: seqs[pageIndex], links: StoredLinks(key: nil, previous: nil, next: Data()),
                                                fetchedAt: store.now().timeIntervalSinceReferenceDate, gapBelow: gapBelow)
            }
            for item in change.after.items[index ..< end] {
                let key = try coding.key(of: item.id)
                let itemRow: Int64
                if let encoded = newValues[key] {
                    itemRow = try tables.upsert(encoded, type: feedRow.type)
                    record.wrote(encoded, value: item, type: busName.type)
                } else if let stored = try tables.item(key: key, type: feedRow.type) {
                    itemRow = stored
                } else {
                    let encoded = try coding.encode(item)
                    itemRow = try tables.upsert(encoded, type: feedRow.type)
                    record.wrote(encoded, value: item, type: busName.type)
                }
                // An item the feed lists outside the window moves into it: the list holds it here.
                try tables.deleteMember(item: itemRow, feed: feedID)
                try tables.insertMember(feed: feedID, position: positions[index], page: pageRow, item: itemRow)
                index += 1
            }
        }
        if !sameFirst, let entry {
            try tables.setEntry(entry.page, of: feedID, fetchedAt: entry.fetchedAt,
                                validators: entry.validators.map { ($0.etag, $0.lastModified) })
        }
        if let total { try tables.setTotalCount(total, of: feedID) }
        try tables.deleteOrphans(removed, type: busName.type, record: record)
        try tables.connection.run(
            "DELETE FROM snapshots WHERE feed = ?1 AND id NOT IN (SELECT snapshot FROM pages WHERE feed = ?1 AND snapshot IS NOT NULL)",
            .integer(feedID))
        try tables.settleEnds(of: feedID)
        return written
    }

    /// The stored row of each page of a window: its origin's, or, for a page no producer delivered (items an
    /// edit inserted into an empty list), the page its first item is listed in; `nil` for a refresh's page
    /// not written yet and for an empty page with no row.
    private func rows(of window: KeptWindow<Item>, _ tables: FeedTables, _ feedRow: FeedRef, _ coding: ItemCoding<Item>) throws(StoreError) -> [Int64?] {
        var rows: [Int64?] = []
        var start = 0
        for page in window.pages {
            defer { start += page.count }
            if let origin = page.origin as? Origin {
                rows.append(origin.row)
                continue
            }
            guard page.count > 0, let item = try tables.item(key: coding.key(of: window.items[start].id), type: feedRow.type) else {
                rows.append(nil)
                continue
            }
            rows.append(try tables.member(item: item, feed: feedRow.id)?.page)
        }
        return rows
    }
}
