/// The ids of an item store's `Identifiable` items, as hash values and positions: not generic, so that
/// all of it is compiled once, for `Int`. The operations that read an id (hash it, compare two) are in
/// `IdentityRules`, which the inlinable `ItemStore` calls with its client's `Item`.
///
/// Each held item has a handle; `positions` keeps the handles in list order. Ids are found by their hash
/// value, in a table from hash to handle: items whose ids share a hash value are chained through
/// `nextWithSameHash`, and a hit is confirmed (by the rules) by comparing the id of the item at the
/// handle's position. So a page of new ids or a lookup hashes each id once and touches only tables and
/// arrays of `Int`: no generic dictionary, no `AnyHashable`.
///
/// A reference type that one store owns alone: the store copies it before writing if it is shared.
@usableFromInline
final class ItemIdentities {
    // `@exclusivity(unchecked)`: only the store that holds these identities alone writes them, one access
    // at a time; the dynamic checks cost two calls per handle in a page of new ids (`Benchmarks itemlist`,
    // view model, Post items).
    @exclusivity(unchecked) private var positions = IDPositions()
    /// The handle most recently given to an id of each hash value.
    @exclusivity(unchecked) private var handleByHash = HandleTable()
    /// Per handle: the hash value of its id, and the next handle whose id has the same hash (-1: none).
    @exclusivity(unchecked) private var hashOfHandle: ContiguousArray<Int> = []
    @exclusivity(unchecked) private var nextWithSameHash: ContiguousArray<Int> = []
    /// Handles given back, to give again.
    @exclusivity(unchecked) private var freeHandles: [Int] = []

    @usableFromInline
    init() {}

    /// A copy to write to, sharing nothing with this one. O(n).
    @usableFromInline
    func copy() -> ItemIdentities {
        let copy = ItemIdentities()
        copy.positions = positions.copy()
        copy.handleByHash = handleByHash
        copy.hashOfHandle = hashOfHandle
        copy.nextWithSameHash = nextWithSameHash
        copy.freeHandles = freeHandles
        return copy
    }

    /// The handle most recently given to an id that hashes to `hash`; -1 if none. O(1) expected.
    @usableFromInline
    func firstHandle(hash: Int) -> Int {
        handleByHash.handle(for: hash) ?? -1
    }

    /// `firstHandle(hash:)` of each of `hashes`, and whether any is held. The lookups do not depend on
    /// each other, so in one tight loop the cache misses of a large table overlap.
    @usableFromInline
    func firstHandles(hashes: [Int]) -> (handles: [Int], anyHeld: Bool) {
        handleByHash.handles(for: hashes)
    }

    /// The next handle after `handle` whose id has the same hash value; -1 if none. O(1).
    @usableFromInline
    func handle(after handle: Int) -> Int {
        nextWithSameHash[handle]
    }

    /// The position of `handle`, which must be held. O(log n).
    @usableFromInline
    func position(of handle: Int) -> Int {
        positions.position(of: handle)
    }

    /// If no held id hashes to one of `hashes` and no two of them are equal (the common page: new ids, each
    /// once), records new items with those hashes at `position` and returns `true`; else changes nothing
    /// and returns `false` (the caller sorts the batch). A growing list looks up and records each hash in
    /// one probe of the table.
    @usableFromInline
    func insertIfNew(hashes: [Int], at position: Int) -> Bool {
        guard freeHandles.isEmpty else {
            guard !handleByHash.handles(for: hashes).anyHeld, HandleTable.distinct(hashes) else { return false }
            insert(hashes: hashes, at: position)
            return true
        }
        let first = hashOfHandle.count
        guard handleByHash.insertNew(from: first, for: hashes) else { return false }
        hashOfHandle.append(contentsOf: hashes)
        nextWithSameHash.append(contentsOf: repeatElement(-1, count: hashes.count))
        positions.insert(first ..< first + hashes.count, at: position)
        return true
    }

    /// Gives a handle to each of the new items whose ids hash to `hashes` (ids distinct, none held), and
    /// puts them at `position`.
    @usableFromInline
    func insert(hashes: [Int], at position: Int) {
        if freeHandles.isEmpty {
            // No handle to give again (a growing list): the next ones in a row, in batches.
            let first = hashOfHandle.count
            hashOfHandle.append(contentsOf: hashes)
            handleByHash.updateHandles(from: first, for: hashes, replaced: &nextWithSameHash)
            positions.insert(first ..< first + hashes.count, at: position)
            return
        }
        var handles = ContiguousArray<Int>()
        handles.reserveCapacity(hashes.count)
        // Room in the table for the whole batch at once (it doubles when it grows). Not for the arrays:
        // their `reserveCapacity` would reallocate to the exact size, every page.
        handleByHash.reserveCapacity(handleByHash.count + hashes.count)
        for hash in hashes {
            let handle: Int
            if let free = freeHandles.popLast() {
                handle = free
                hashOfHandle[handle] = hash
                nextWithSameHash[handle] = handleByHash.updateHandle(handle, for: hash) ?? -1
            } else {
                handle = hashOfHandle.count
                hashOfHandle.append(hash)
                nextWithSameHash.append(handleByHash.updateHandle(handle, for: hash) ?? -1)
            }
            handles.append(handle)
        }
        positions.insert(handles, at: position)
    }

    /// Records that the items at `range` were removed.
    @usableFromInline
    func removed(_ range: Range<Int>) {
        for handle in positions.removeSubrange(range) {
            let hash = hashOfHandle[handle]
            let next = nextWithSameHash[handle]
            if handleByHash.handle(for: hash) == handle {
                if next >= 0 { handleByHash.updateHandle(next, for: hash) } else { handleByHash.removeHandle(for: hash) }
            } else {
                var previous = handleByHash.handle(for: hash)!
                while nextWithSameHash[previous] != handle { previous = nextWithSameHash[previous] }
                nextWithSameHash[previous] = next
            }
            freeHandles.append(handle)
        }
    }

    /// What is wrong with these identities against a list whose ids hash to `hashes`, in order, if
    /// anything; for tests. (The rules check that each id is found at its position.)
    func invariantViolations(hashes: [Int]) -> [String] {
        var problems = positions.invariantViolations()
        if positions.count != hashes.count { problems.append("\(positions.count) handles for \(hashes.count) items") }
        guard problems.isEmpty else { return problems }
        var chained = 0
        for (hash, first) in handleByHash.entries {
            var handle = first
            while handle >= 0 {
                if hashOfHandle[handle] != hash { problems.append("handle \(handle) chained under another hash") }
                if !positions.contains(handle) { problems.append("handle \(handle) chained but not held") }
                chained += 1
                handle = nextWithSameHash[handle]
            }
        }
        if chained != hashes.count { problems.append("\(chained) handles chained for \(hashes.count) items") }
        for (position, hash) in hashes.enumerated() where hashOfHandle[positions.handle(at: position)] != hash {
            problems.append("position \(position): hash differs from the item's id")
        }
        for handle in freeHandles where positions.contains(handle) { problems.append("handle \(handle) is free and held") }
        return problems
    }
}

/// A batch sorted by the rules of identity against the items held.
@usableFromInline
struct SortedBatch<Item> {
    /// The held items the batch updates: by position, the last value for each.
    @usableFromInline var updated: [Int: Item] = [:]
    /// The items to add, in batch order (a repeated id keeps its first position and its last value).
    @usableFromInline var fresh: [Item] = []
    /// The hash values of the fresh items' ids, so that recording them need not hash them again.
    @usableFromInline var freshHashes: [Int] = []

    @inlinable
    init(updated: [Int: Item] = [:], fresh: [Item] = [], freshHashes: [Int] = []) {
        self.updated = updated
        self.fresh = fresh
        self.freshHashes = freshHashes
    }
}

/// The operations of identity that read ids, for an `Item` that is `Identifiable` (`Element`, the same
/// type). `ItemStore` calls them with `Item.self as? any Identifiable.Type`: in a client that knows its
/// `Item`, that cast folds and each entry point is specialised for the concrete type, so ids are read and
/// hashed in code compiled for it (a class chosen at run time would call the library's generic bodies
/// through its vtable, with witness-table calls for every id: `Benchmarks itemlist`, view model, Post
/// items). The entry points are not inlined, so that the optimiser sees a call with the concrete type
/// (inlined, the cast's opened type would stay abstract); what they call is.
@usableFromInline
enum IdentityRules<Item> {
    /// `batch` (whose ids hash to `hashes`) sorted against the held items (`items`, whose ids are
    /// `identities`).
    @inlinable @inline(never)
    static func sort<Element: Identifiable>(
        _ batch: [Item], hashes: [Int], _ identities: ItemIdentities, _ items: ItemList<Item>, as _: Element.Type
    ) -> SortedBatch<Item> {
        // Every lookup in one loop: see `ItemIdentities.firstHandles(hashes:)`.
        let (candidates, anyHeld) = identities.firstHandles(hashes: hashes)
        // The common page: no id held and none twice, so the batch goes in as it is.
        if !anyHeld && HandleTable.distinct(hashes) { return SortedBatch(fresh: batch, freshHashes: hashes) }
        var sorted = SortedBatch<Item>()
        sorted.fresh.reserveCapacity(batch.count)
        sorted.freshHashes.reserveCapacity(batch.count)
        // The fresh items by hash value (for a long batch): the last slot with each hash, and per slot the
        // previous slot with the same hash. A short batch is scanned instead.
        let indexed = batch.count > 16
        var slotByHash = HandleTable(capacity: indexed ? batch.count : 0)
        var previousWithSameHash: [Int] = []
        previousWithSameHash.reserveCapacity(indexed ? batch.count : 0)
        for index in batch.indices {
            let item = batch[index]
            let key = id(of: item, as: Element.self)
            let hash = hashes[index]
            if candidates[index] >= 0, let held = find(key, from: candidates[index], identities, items, as: Element.self) {
                sorted.updated[held] = item
                continue
            }
            var slot = -1
            if indexed {
                let newest = slotByHash.updateHandle(sorted.fresh.count, for: hash)
                slot = newest ?? -1
                while slot >= 0 && id(of: sorted.fresh[slot], as: Element.self) != key { slot = previousWithSameHash[slot] }
                if slot >= 0 {
                    if let newest { slotByHash.updateHandle(newest, for: hash) }
                } else {
                    previousWithSameHash.append(newest ?? -1)
                }
            } else {
                slot = sorted.freshHashes.indices.firstIndex {
                    sorted.freshHashes[$0] == hash && id(of: sorted.fresh[$0], as: Element.self) == key
                } ?? -1
            }
            if slot >= 0 {
                // Already in the batch: keep its first position, take this value.
                sorted.fresh[slot] = item
            } else {
                sorted.fresh.append(item)
                sorted.freshHashes.append(hash)
            }
        }
        return sorted
    }

    /// The position of the held item with `item`'s id, if any. O(log n).
    @inlinable @inline(never)
    static func position<Element: Identifiable>(
        ofIDOf item: Item, _ identities: ItemIdentities, _ items: ItemList<Item>, as _: Element.Type
    ) -> Int? {
        let key = id(of: item, as: Element.self)
        return find(key, from: identities.firstHandle(hash: key.hashValue), identities, items, as: Element.self)
    }

    /// The position of the held item whose id is `key`, if any. O(log n).
    @inlinable @inline(never)
    static func position<Element: Identifiable>(
        ofKey key: AnyHashable, _ identities: ItemIdentities, _ items: ItemList<Item>, as _: Element.Type
    ) -> Int? {
        guard let id = key.base as? Element.ID else { return nil }
        return find(id, from: identities.firstHandle(hash: id.hashValue), identities, items, as: Element.self)
    }

    /// `item`'s id as a key.
    @inlinable @inline(never)
    static func key<Element: Identifiable>(of item: Item, as _: Element.Type) -> AnyHashable {
        AnyHashable(id(of: item, as: Element.self))
    }

    /// The hash values of the items' ids, in order.
    @inlinable @inline(never)
    static func hashes<Element: Identifiable>(_ items: [Item], as _: Element.Type) -> [Int] {
        var hashes: [Int] = []
        hashes.reserveCapacity(items.count)
        for index in items.indices { hashes.append(id(of: items[index], as: Element.self).hashValue) }
        return hashes
    }

    /// The id of `item`, read as an `Element`: `Element` must be `Item` itself, as opened from
    /// `Item.self as? any Identifiable.Type` (`ItemStore.identifiable`), the only way the rules are
    /// called (checked in debug builds; in a specialised client the two are the same type statically).
    @inlinable @inline(__always)
    static func id<Element: Identifiable>(of item: Item, as _: Element.Type) -> Element.ID {
        assert(Element.self == Item.self, "IdentityRules: \(Element.self) read as the id of an \(Item.self)")
        return withUnsafePointer(to: item) { UnsafeRawPointer($0).assumingMemoryBound(to: Element.self).pointee.id }
    }

    /// The position of the held item whose id is `key`, among `first` and the handles chained after it
    /// (-1: none). O(log n) per handle tried.
    @inlinable
    static func find<Element: Identifiable>(
        _ key: Element.ID, from first: Int, _ identities: ItemIdentities, _ items: ItemList<Item>, as _: Element.Type
    ) -> Int? {
        var handle = first
        while handle >= 0 {
            let position = identities.position(of: handle)
            if id(of: items[position], as: Element.self) == key { return position }
            handle = identities.handle(after: handle)
        }
        return nil
    }
}
