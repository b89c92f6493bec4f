// Following a store (package-level, for `PaginatedListStore`): a change a store made outside the list (another
// list's edit, a page of another feed, a write of the app) applied to the window the list holds, in one
// transition.
//
// The store describes what it changed in the list's terms: items with new values (by id), ids no longer in
// the list's feed, rows inserted next to a held item in a page the list holds, or "re-read the held pages"
// when the shape of the change is not worth describing. The machine applies the part that concerns the
// items it holds and ignores the rest (an item not held, an insert outside the window: the user finds them
// when paging there). Finding a held item by id is O(log n); a re-read costs O(window log window).
//
// **Changes.** One transition, whose changes replay exactly (contract 14) in the normal order of the
// package: `.removed` with the offsets before the transition, then `.inserted` ranges in ascending order
// (final offsets), then `.updated` with final offsets; every inserted and updated row is read from the
// transition's snapshot.

/// What a store changed that a list may hold (see the comment at the top of this file). A box: it rides
/// in the view model's inbox as one reference.
@usableFromInline
package final class FollowedChange<Item, Failure: Error> {
    /// Items with new values: each replaces the held item with its id.
    @usableFromInline package let updates: [Item]
    /// Ids (`AnyHashable` of `Item.ID`) no longer in the list's feed: each held one is removed.
    @usableFromInline package let removals: [AnyHashable]
    /// Rows inserted into a page, next to a row of it.
    @usableFromInline package let insertions: [FollowedInsertion<Item>]
    /// Re-reads the window held, given the origins of the pages held, top to bottom; `nil` when the store
    /// could not be read (the list then stays as it is). When given, the window read replaces the one held
    /// (the differences applied by id) and the other parts are not used.
    @usableFromInline package let reread: (([(any PageOrigin)?]) -> FollowedWindow<Item, Failure>?)?
    /// Whether an update is the value held already (then it is skipped, no transition for it); `nil`: every
    /// update held is applied. For a list following its own write, which its own transition showed.
    @usableFromInline package let isHeld: ((_ held: Item, _ update: Item) -> Bool)?

    package init(
        updates: [Item] = [], removals: [AnyHashable] = [], insertions: [FollowedInsertion<Item>] = [],
        reread: (([(any PageOrigin)?]) -> FollowedWindow<Item, Failure>?)? = nil,
        isHeld: ((_ held: Item, _ update: Item) -> Bool)? = nil
    ) {
        self.isHeld = isHeld
        self.updates = updates
        self.removals = removals
        self.insertions = insertions
        self.reread = reread
    }
}

/// A window a store re-read for a list.
@usableFromInline
package enum FollowedWindow<Item, Failure: Error> {
    /// The items of each page held, top to bottom (`nil`: keep what the list holds of that page: a page
    /// with no origin, or one not read again).
    case pages([[Item]?])
    /// The pages held are no longer all stored: the list holds these pages instead (a run of the stored
    /// pages where its window was; none for an empty feed).
    case reopened([Page<Item, Failure>])
}

/// Rows a store inserted into one of its pages: they go into the list when it holds that page.
@usableFromInline
package struct FollowedInsertion<Item> {
    /// The rows, in order.
    package let items: [Item]
    /// Whether a held page's origin is the page the rows went into.
    package let isPage: (any PageOrigin) -> Bool
    /// The id of the row right above them in the store (in any page), if any.
    package let after: AnyHashable?
    /// The id of the row right below them, if any.
    package let before: AnyHashable?

    package init(items: [Item], isPage: @escaping (any PageOrigin) -> Bool, after: AnyHashable?, before: AnyHashable?) {
        self.items = items
        self.isPage = isPage
        self.after = after
        self.before = before
    }
}

extension PagingStateMachine {
    /// The origins of the pages held, top to bottom (what a re-read reads).
    @usableFromInline
    var heldOrigins: [(any PageOrigin)?] {
        ledger.pages.map(\.record.origin)
    }

    /// Applies `change` to the window held, in one transition; `window` is what the change's re-read read.
    // Inlinable, the updates-only case in it (an item edited elsewhere: what every list holding it does
    // on each `PagingStore.update`), so that a store-backed list built in the app's module runs it
    // specialised (`Benchmarks store`, one item, every list: 10 lists cost 40k instructions each
    // unspecialised). The rest is `followReshaping`, called.
    @inlinable
    mutating func follow(_ change: FollowedChange<Item, Failure>, window: FollowedWindow<Item, Failure>?) -> [Action] {
        guard window == nil, change.removals.isEmpty, change.insertions.isEmpty else {
            return followReshaping(change, window: window)
        }
        defer { _checkInvariants() }
        // Updates only: no row moves, one `.updated`.
        var offsets: [Int] = []
        for item in change.updates {
            guard let index = store.position(ofIDOf: item) else { continue }
            if let isHeld = change.isHeld, isHeld(store.items[index], item) { continue }
            _ = store.replace(at: index, with: item)
            offsets.append(index)
        }
        guard !offsets.isEmpty else { return [] }
        if offsets.count > 1 { offsets = Array(Set(offsets)).sorted() }
        return [transition([.updated(offsets)])]
    }

    /// `follow(_:window:)` for a change that re-reads the window, removes or inserts rows.
    @usableFromInline
    mutating func followReshaping(_ change: FollowedChange<Item, Failure>, window: FollowedWindow<Item, Failure>?) -> [Action] {
        defer { _checkInvariants() }
        switch window {
        case let .pages(pages)?: return resync(pages)
        case let .reopened(pages)?: return reopen(pages)
        case nil: break
        }
        var updated: Set<AnyHashable> = []
        for item in change.updates {
            guard let index = store.position(ofIDOf: item), let key = store.key(of: item) else { continue }
            _ = store.replace(at: index, with: item)
            updated.insert(key)
        }
        var removedOffsets: [Int] = []
        for key in change.removals {
            if let index = store.position(ofKey: key) { removedOffsets.append(index) }
        }
        removedOffsets = Array(Set(removedOffsets)).sorted()
        for index in removedOffsets.reversed() {
            if let page = ledger.page(holding: index) { ledger.adjust(page: page, by: -1) }
            updated.remove(store.key(of: store.items[index])!)
            _ = store.remove(at: index)
        }
        var inserted: Set<AnyHashable> = []
        for insertion in change.insertions {
            guard let (index, page) = place(of: insertion) else { continue }
            var fresh = 0
            for item in store.deduplicated(insertion.items) {
                let key = store.key(of: item)!
                if store.position(ofKey: key) != nil {
                    // Held already (before this change, or inserted by an earlier insertion of it): updated in place.
                    if !inserted.contains(key) { updated.insert(key) }
                } else if inserted.insert(key).inserted {
                    fresh += 1
                }
            }
            _ = store.insert(insertion.items, at: index)
            ledger.adjust(page: page, by: fresh)
        }
        var changes: [ItemListChange] = []
        if !removedOffsets.isEmpty { changes.append(.removed(removedOffsets)) }
        changes += Self.ranges(inserted.compactMap { store.position(ofKey: $0) })
        let updatedOffsets = updated.subtracting(inserted).compactMap { store.position(ofKey: $0) }.sorted()
        if !updatedOffsets.isEmpty { changes.append(.updated(updatedOffsets)) }
        guard !changes.isEmpty else { return [] }
        let closed = noteGap(after: changes)
        shiftPrefetch(after: changes)
        let actions = continueFromGap(closed)
        return [transition(changes)] + actions
    }

    /// Where `insertion` goes in the list, and which held page takes it: next to its row above or below
    /// when that row is held in the page the rows went into (or in a page with no origin: items an edit
    /// inserted into an empty list, which the store keeps in a page of their own), at the start of that
    /// page when it is held empty; `nil` when the list does not hold that page.
    private func place(of insertion: FollowedInsertion<Item>) -> (index: Int, page: Int)? {
        func isTarget(_ page: Int) -> Bool {
            ledger[page].record.origin.map(insertion.isPage) ?? true
        }
        if let after = insertion.after, let index = store.position(ofKey: after), let page = ledger.page(holding: index),
           isTarget(page) {
            return (index + 1, page)
        }
        if let before = insertion.before, let index = store.position(ofKey: before), let page = ledger.page(holding: index),
           isTarget(page) {
            return (index, page)
        }
        for page in 0 ..< ledger.pageCount where ledger[page].count == 0 {
            if ledger[page].record.origin.map(insertion.isPage) == true { return (ledger.start(ofPage: page), page) }
        }
        return nil
    }

    /// Makes the window the re-read pages' items (one entry per page held; `nil`: the page keeps what it
    /// holds, a page with no origin or one not read again), applying the differences by id
    /// (`become(_:isRead:)`): only the rows of pages read again take new values and are reported updated.
    /// A page read again may list an id a kept page still holds (the item moved into it, and the change
    /// that takes it out of the kept page is queued behind the re-read): the page read again has it, read
    /// from the store last. No page read again: nothing changes. O(window log window).
    private mutating func resync(_ pages: [[Item]?]) -> [Action] {
        precondition(pages.count == ledger.pageCount, "a re-read gave \(pages.count) pages for \(ledger.pageCount) held")
        guard pages.contains(where: { $0 != nil }) else { return [] }
        var readKeys: Set<AnyHashable> = []
        for page in pages { for item in page ?? [] { readKeys.insert(store.key(of: item)!) } }
        var target: [Item] = []
        var isRead: [Bool] = []
        var taken: Set<AnyHashable> = []
        var counts: [Int] = []
        var start = 0
        for (index, page) in pages.enumerated() {
            let held = ledger[index].count
            let before = target.count
            if let page {
                for item in page where taken.insert(store.key(of: item)!).inserted {
                    target.append(item)
                    isRead.append(true)
                }
            } else {
                for offset in start ..< start + held {
                    let item = store.items[offset]
                    let key = store.key(of: item)!
                    guard !readKeys.contains(key), taken.insert(key).inserted else { continue }
                    target.append(item)
                    isRead.append(false)
                }
            }
            start += held
            counts.append(target.count - before)
        }
        let changes = become(target, isRead: isRead)
        for (page, count) in counts.enumerated() { ledger.adjust(page: page, by: count - ledger[page].count) }
        guard !changes.isEmpty else { return [] }
        let closed = noteGap(after: changes)
        shiftPrefetch(after: changes)
        let actions = continueFromGap(closed)
        return [transition(changes)] + actions
    }

    /// Holds `pages` instead of the pages held (the store no longer has some of those): the items become
    /// theirs (`become(_:isRead:)`), the ledger is theirs (each joined to the one above), and each end loads
    /// from them, a load in flight there cut off; the gap and the pages remembered past the ends are
    /// forgotten. No page: the list is empty and its next load is a first page.
    private mutating func reopen(_ pages: [Page<Item, Failure>]) -> [Action] {
        var target: [Item] = []
        for page in pages { target += page.items }
        let changes = become(target)
        ledger.removeAll()
        joinEpoch += 1
        var index = 0
        for page in pages {
            let count = store.deduplicated(page.items).count
            defer { index += count }
            guard count > 0 || ledger.isEmpty else { continue }
            var record = PageRecord(loadedBy: nil, previous: page.previous, next: page.next, origin: page.origin)
            if !ledger.isEmpty { record.joinedAbove = joinEpoch }
            ledger.append(count: count, record: record)
        }
        gap = nil
        droppedAbove = []
        gapAbove = nil
        droppedBelow = []
        var actions: [Action] = [transition(changes)]
        if ledger.isEmpty {
            actions += replaceEdge(.append, with: .firstPage)
            actions += replaceEdge(.prepend, with: nil)
            prepend = .waiting
        } else {
            actions += replaceEdge(.append, with: ledger.last!.record.next.map { .producer($0) })
            actions += replaceEdge(.prepend, with: ledger.first!.record.previous.map { .producer($0) })
        }
        return actions
    }

    /// Makes the items `target` (ids once each), applying the differences by id; returns the changes. The
    /// held items `target` no longer lists, or lists in another order, are removed (those on a longest run
    /// in `target`'s order stay), the others are inserted where `target` lists them, and every item kept
    /// takes `target`'s value and is reported updated, unless `isRead` (one flag per item of `target`;
    /// `nil`: all read) says that value is the one held. The ledger is left to the caller.
    /// O((n + m) log(n + m)).
    private mutating func become(_ target: [Item], isRead: [Bool]? = nil) -> [ItemListChange] {
        var targetIndex: [AnyHashable: Int] = [:]
        for (index, item) in target.enumerated() { targetIndex[store.key(of: item)!] = index }
        let current = Array(store.items)
        var candidates: [(held: Int, place: Int)] = []
        for (offset, item) in current.enumerated() {
            if let place = targetIndex[store.key(of: item)!] { candidates.append((offset, place)) }
        }
        let kept = Set(Self.longestIncreasingRun(candidates.map(\.place)).map { candidates[$0].held })
        let removed = (0 ..< current.count).filter { !kept.contains($0) }
        for index in removed.reversed() { _ = store.remove(at: index) }
        var changes: [ItemListChange] = []
        if !removed.isEmpty { changes.append(.removed(removed)) }
        // Insert what is missing, top to bottom: every row above an insertion is in place by then.
        var index = 0
        var updatedOffsets: [Int] = []
        while index < target.count {
            if index < store.count, store.key(of: store.items[index]) == store.key(of: target[index]) {
                if isRead?[index] ?? true {
                    _ = store.replace(at: index, with: target[index])
                    updatedOffsets.append(index)
                }
                index += 1
                continue
            }
            var end = index + 1
            while end < target.count, store.position(ofKey: store.key(of: target[end])!) == nil { end += 1 }
            _ = store.insert(Array(target[index ..< end]), at: index)
            changes.append(.inserted(index ..< end))
            index = end
        }
        if !updatedOffsets.isEmpty { changes.append(.updated(updatedOffsets)) }
        return changes
    }

    /// Ascending offsets as `.inserted` ranges, one per run of consecutive offsets.
    static func ranges(_ offsets: [Int]) -> [ItemListChange] {
        var changes: [ItemListChange] = []
        var start: Int?
        var end = 0
        for offset in offsets.sorted() {
            if let low = start, offset == end {
                end += 1
                start = low
            } else {
                if let low = start { changes.append(.inserted(low ..< end)) }
                start = offset
                end = offset + 1
            }
        }
        if let low = start { changes.append(.inserted(low ..< end)) }
        return changes
    }

    /// The indices into `values` of a longest strictly increasing subsequence, in order. O(n log n).
    /// Among the longest, the one that ends with the smallest value, or with `endingFirst` the one that
    /// ends first in `values`.
    static func longestIncreasingRun(_ values: [Int], endingFirst: Bool = false) -> [Int] {
        var tails: [Int] = []  // indices into values: the smallest tail of a run of each length
        var previous = [Int](repeating: -1, count: values.count)
        var lengths = [Int](repeating: 0, count: values.count)   // of the longest run ending at each index
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
            lengths[index] = low + 1
        }
        var run: [Int] = []
        var index = (endingFirst ? lengths.firstIndex(of: tails.count) : tails.last) ?? -1
        while index >= 0 {
            run.append(index)
            index = previous[index]
        }
        return run.reversed()
    }
}
