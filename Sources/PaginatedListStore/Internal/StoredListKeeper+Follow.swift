import Foundation
import PaginatedList

/// Following the store's commits (see `StoreChanges.swift`): each commit that names the list's item type or
/// its feed becomes one `FollowedChange` queued on the view model, which applies the part that concerns
/// the window it holds as one transition.
extension StoredListKeeper: StoreListener {
    func receive(_ commit: StoreCommit) {
        let ownWrite = commit.writer == ObjectIdentifier(self)
        guard !ownWrite || commit.writerFollowsItems else { return }
        recordLanding(commit)
        let feedChanges = ownWrite ? nil : commit.feeds[busName]
        let typeChanges = commit.types[busName.type]
        guard commit.external || feedChanges != nil || typeChanges != nil,
              let viewModel = list.withLock({ $0.value }) else { return }
        if commit.external || feedChanges?.restructured == true {
            return follow(viewModel, FollowedChange(reread: { [self] origins in reread(origins) }))
        }
        if feedChanges == nil, let typeChanges, typeChanges.deleted.isEmpty {
            // Items written only (an edit elsewhere, a page of another feed): their values, by id.
            var updates: [Item] = []
            updates.reserveCapacity(typeChanges.written.count)
            var coding: ItemCoding<Item>?
            for item in typeChanges.written.values {
                if let value = item.value as? Item {
                    updates.append(value)
                    continue
                }
                let decoder = coding ?? ItemCoding<Item>(path: store.path)
                coding = decoder
                if let value = try? item.body.withUnsafeBytes({ bytes throws(StoreError) in try decoder.decode(bytes) }) {
                    updates.append(value)
                }
            }
            // Its own write: its transition showed these values; a commit delivered since may have replaced them.
            let isHeld: ((Item, Item) -> Bool)? = ownWrite ? { [path = store.path] held, update in
                let coding = ItemCoding<Item>(path: path)
                return (try? coding.encode(held).body) == (try? coding.encode(update).body)
            } : nil
            return follow(viewModel, FollowedChange(updates: updates, isHeld: isHeld))
        }
        var coding: ItemCoding<Item>?
        func decoder() -> ItemCoding<Item> {
            if let coding { return coding }
            let made = ItemCoding<Item>(path: store.path)
            coding = made
            return made
        }
        // The items written, by key: the writer's values (a body is decoded only when a writer had none).
        var written: [String: Item] = [:]
        for (key, item) in typeChanges?.written ?? [:] {
            if let value = item.value as? Item {
                written[key] = value
            } else if let value = try? item.body.withUnsafeBytes({ bytes throws(StoreError) in try decoder().decode(bytes) }) {
                written[key] = value
            }
        }
        func id(_ key: String?) -> AnyHashable? {
            guard let key else { return nil }
            if let item = written[key] { return AnyHashable(item.id) }
            return decoder().id(ofKey: key).map { AnyHashable($0) }
        }
        var removals: [AnyHashable] = []
        for key in typeChanges?.deleted ?? [] { if let id = id(key) { removals.append(id) } }
        for key in feedChanges?.removed ?? [] { if let id = id(key) { removals.append(id) } }
        let insertions = (feedChanges?.inserted ?? []).map { rows in
            let page = rows.page
            return FollowedInsertion<Item>(items: rows.keys.compactMap { written[$0] },
                                           isPage: { ($0 as? Origin)?.row == page }, after: id(rows.above), before: id(rows.below))
        }
        follow(viewModel, FollowedChange(updates: Array(written.values), removals: removals, insertions: insertions))
    }

    /// The window held, read again: the items of each page held when the store still has every one of
    /// them (a page with no row keeps its items); else a run of as many stored pages as held where the
    /// window was: from the first page held that is still stored, going up as many pages as were held
    /// above it, or from the page the feed opens at when none is, down to the first gap. `nil` when the
    /// store cannot be read.
    ///
    /// `only`: the row of the one page to read again, the others keeping their items (nothing changes when
    /// the list does not hold that page); when the store no longer has it, the whole window is read again.
    func reread(_ origins: [(any PageOrigin)?], only: Int64? = nil) -> FollowedWindow<Item, Failure>? {
        let coding = ItemCoding<Item>(path: store.path)
        return try? store.database.read { connection throws(StoreError) -> FollowedWindow<Item, Failure> in
            let tables = FeedTables(connection)
            if let only {
                let holds = origins.map { ($0 as? Origin)?.row == only }
                guard holds.contains(true) else { return .pages(holds.map { _ in nil }) }
                if try tables.page(only) != nil {
                    var pages: [[Item]?] = []
                    for held in holds { pages.append(held ? try tables.items(ofPage: only, coding) : nil) }
                    return .pages(pages)
                }
            }
            var pages: [[Item]?] = []
            var firstStored: (index: Int, row: PageRow)?
            var allStored = true
            for (index, origin) in origins.enumerated() {
                guard let id = (origin as? Origin)?.row else {
                    pages.append(nil)
                    continue
                }
                guard let row = try tables.page(id) else {
                    allStored = false
                    continue
                }
                if firstStored == nil { firstStored = (index, row) }
                pages.append(try tables.items(ofPage: id, coding))
            }
            if allStored { return .pages(pages) }
            guard let feedRow = try feed.row(tables, create: false) else { return .reopened([]) }
            var top: Int64
            if let (index, row) = firstStored {
                top = row.id
                var seq = row.seq
                for _ in 0 ..< index {
                    guard let above = try tables.neighbour(of: seq, in: feedRow.id, on: .above), let page = try tables.page(above),
                          !page.gapBelow else { break }
                    top = above
                    seq = page.seq
                }
            } else {
                guard let entry = try tables.entryPage(of: feedRow.id) else { return .reopened([]) }
                top = entry
            }
            var window: [ListPage] = []
            var current: Int64? = top
            while let id = current, window.count < max(origins.count, 1), let row = try tables.page(id) {
                window.append(try read(id, feed: feedRow, tables).page)
                current = row.gapBelow ? nil : try tables.neighbour(of: row.seq, in: feedRow.id, on: .below)
            }
            return .reopened(window)
        }
    }
}
