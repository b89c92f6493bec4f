/// The identities of an item store's items. This base class is for items that are not `Identifiable`:
/// no item is found by id and nothing is de-duplicated, so it holds nothing (copies of a store share it).
/// `IdentifiedItems` is the subclass for `Identifiable` items.
// `@usableFromInline` (not inlinable: called through the class): the inlinable `ItemStore` calls it.
@usableFromInline
class ItemIdentities<Item> {
    /// The identities for `Item`: `IdentifiedItems` if `Item` is `Identifiable`, else this base class.
    @usableFromInline
    static func make() -> ItemIdentities<Item> {
        guard let type = Item.self as? any Identifiable.Type else { return ItemIdentities() }
        return identified(type)
    }

    private static func identified<Element: Identifiable>(_: Element.Type) -> ItemIdentities<Item> {
        IdentifiedItems<Item, Element>()
    }

    /// Whether items are found by identity.
    @usableFromInline
    var isIdentified: Bool { false }

    /// A copy to write to, sharing nothing with this one; this class holds nothing, so itself.
    @usableFromInline
    func copy() -> ItemIdentities<Item> { self }

    /// Identities for an empty list; this class holds nothing, so itself.
    @usableFromInline
    func emptied() -> ItemIdentities<Item> { self }

    /// The position in `items` (the list these identities describe) of the item with `item`'s id, if held.
    @usableFromInline
    func position(ofIDOf item: Item, in items: ItemList<Item>) -> Int? { nil }

    /// The position in `items` of the item whose id is `key`, if held.
    @usableFromInline
    func position(ofKey key: AnyHashable, in items: ItemList<Item>) -> Int? { nil }

    /// `item`'s id as a key, when items are found by identity.
    @usableFromInline
    func key(of item: Item) -> AnyHashable? { nil }

    /// A batch sorted by the rules of identity.
    @usableFromInline
    struct SortedBatch {
        /// The held items the batch updates: by position, the last value for each.
        @usableFromInline var updated: [Int: Item] = [:]
        /// The items to add, in batch order (a repeated id keeps its first position and its last value).
        @usableFromInline var fresh: [Item] = []
        /// The hash values of the fresh items' ids (empty without identity), so that `inserted` need not
        /// hash them again.
        @usableFromInline var freshHashes: [Int] = []
    }

    /// `batch` sorted by the rules of identity against `items`. Without identity, every item is fresh.
    @usableFromInline
    func sort(_ batch: [Item], in items: ItemList<Item>) -> SortedBatch { SortedBatch(fresh: batch) }

    /// Records that `sorted.fresh` was inserted at `position`.
    @usableFromInline
    func inserted(_ sorted: SortedBatch, at position: Int) {}

    /// Records that `fresh` (items not held, ids distinct) were inserted at `position`.
    @usableFromInline
    func inserted(_ fresh: [Item], at position: Int) {}

    /// Records that the items at `range` were removed.
    @usableFromInline
    func removed(_ range: Range<Int>) {}

    /// What is wrong with the identities against `items`, if anything; for tests.
    @usableFromInline
    func invariantViolations(against items: ItemList<Item>) -> [String] { [] }
}

/// The identities of `Identifiable` items (`Item` is `Element`, known only at run time).
///
/// Each held item has a handle; `positions` keeps the handles in list order. Ids are found by their hash
/// value, in a table from hash to handle: items whose ids share a hash value are chained through
/// `nextWithSameHash`, and a hit is confirmed by comparing the id of the item at the handle's position.
/// So the hot paths (a page of new ids, a lookup) hash each id once and touch only tables and arrays of
/// `Int`, compiled for that type: no generic dictionary, no `AnyHashable`.
final class IdentifiedItems<Item, Element: Identifiable>: ItemIdentities<Item> {
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

    override init() {
        precondition(Item.self == Element.self)
    }

    /// The id of `item`, which is an `Element` (the same type, as the initialiser checked).
    @inline(__always)
    private func id(of item: Item) -> Element.ID {
        withUnsafePointer(to: item) { UnsafeRawPointer($0).assumingMemoryBound(to: Element.self).pointee.id }
    }

    override var isIdentified: Bool { true }

    override func copy() -> ItemIdentities<Item> {
        let copy = IdentifiedItems()
        copy.positions = positions.copy()
        copy.handleByHash = handleByHash
        copy.hashOfHandle = hashOfHandle
        copy.nextWithSameHash = nextWithSameHash
        copy.freeHandles = freeHandles
        return copy
    }

    override func emptied() -> ItemIdentities<Item> { IdentifiedItems() }

    /// The position of the held item whose id is `key` (whose hash value is `hash`), if any. O(log n).
    private func find(_ key: Element.ID, hash: Int, in items: ItemList<Item>) -> Int? {
        guard let handle = handleByHash.handle(for: hash) else { return nil }
        return find(key, from: handle, in: items)
    }

    /// The position of the held item whose id is `key`, among `first` and the handles chained after it.
    private func find(_ key: Element.ID, from first: Int, in items: ItemList<Item>) -> Int? {
        var handle = first
        while true {
            let position = positions.position(of: handle)
            if id(of: items[position]) == key { return position }
            handle = nextWithSameHash[handle]
            if handle < 0 { return nil }
        }
    }

    override func position(ofIDOf item: Item, in items: ItemList<Item>) -> Int? {
        let key = id(of: item)
        return find(key, hash: key.hashValue, in: items)
    }

    override func key(of item: Item) -> AnyHashable? {
        AnyHashable(id(of: item))
    }

    override func position(ofKey key: AnyHashable, in items: ItemList<Item>) -> Int? {
        guard let id = key.base as? Element.ID else { return nil }
        return find(id, hash: id.hashValue, in: items)
    }

    override func sort(_ batch: [Item], in items: ItemList<Item>) -> SortedBatch {
        var sorted = SortedBatch()
        sorted.fresh.reserveCapacity(batch.count)
        sorted.freshHashes.reserveCapacity(batch.count)
        // The fresh items by hash value (for a long batch): the last slot with each hash, and per slot the
        // previous slot with the same hash. A short batch is scanned instead.
        let indexed = batch.count > 16
        var slotByHash = HandleTable(capacity: indexed ? batch.count : 0)
        var previousWithSameHash: [Int] = []
        previousWithSameHash.reserveCapacity(indexed ? batch.count : 0)
        // Every id's hash, then every lookup, in two tight loops: the lookups do not depend on each other,
        // so the cache misses of a large table overlap instead of queueing one after another.
        // Loops over indices, not `map` or `enumerated()`: this code is generic over `Item`, unspecialised,
        // and those call the standard library's unspecialised iterators, which look up generic metadata
        // for every item (`Benchmarks itemlist`, view model, Post items).
        var hashes: [Int] = []
        hashes.reserveCapacity(batch.count)
        for index in batch.indices { hashes.append(id(of: batch[index]).hashValue) }
        let candidates = hashes.map { handleByHash.handle(for: $0) ?? -1 }
        for index in batch.indices {
            let item = batch[index]
            let key = id(of: item)
            let hash = hashes[index]
            if candidates[index] >= 0, let held = find(key, from: candidates[index], in: items) {
                sorted.updated[held] = item
                continue
            }
            var slot = -1
            if indexed {
                let newest = slotByHash.updateHandle(sorted.fresh.count, for: hash)
                slot = newest ?? -1
                while slot >= 0 && id(of: sorted.fresh[slot]) != key { slot = previousWithSameHash[slot] }
                if slot >= 0 {
                    if let newest { slotByHash.updateHandle(newest, for: hash) }
                } else {
                    previousWithSameHash.append(newest ?? -1)
                }
            } else {
                slot = sorted.freshHashes.indices.firstIndex {
                    sorted.freshHashes[$0] == hash && id(of: sorted.fresh[$0]) == key
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

    override func inserted(_ sorted: SortedBatch, at position: Int) {
        precondition(sorted.fresh.count == sorted.freshHashes.count)
        insert(hashes: sorted.freshHashes, at: position)
    }

    override func inserted(_ fresh: [Item], at position: Int) {
        var hashes: [Int] = []
        hashes.reserveCapacity(fresh.count)
        for index in fresh.indices { hashes.append(id(of: fresh[index]).hashValue) }
        insert(hashes: hashes, at: position)
    }

    /// Gives a handle to each of the new items whose ids hash to `hashes`, and puts them at `position`.
    private func insert(hashes: [Int], at position: Int) {
        var handles = ContiguousArray<Int>()
        handles.reserveCapacity(hashes.count)
        for hash in hashes {
            let handle: Int
            if let reused = freeHandles.popLast() {
                handle = reused
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

    override func removed(_ range: Range<Int>) {
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

    override func invariantViolations(against items: ItemList<Item>) -> [String] {
        var problems = positions.invariantViolations()
        if positions.count != items.count { problems.append("\(positions.count) handles for \(items.count) items") }
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
        if chained != items.count { problems.append("\(chained) handles chained for \(items.count) items") }
        for (position, item) in items.enumerated() {
            let handle = positions.handle(at: position)
            if hashOfHandle[handle] != id(of: item).hashValue { problems.append("position \(position): hash differs from the item's id") }
            if self.position(ofIDOf: item, in: items) != position { problems.append("position \(position): its id is found elsewhere") }
        }
        for handle in freeHandles where positions.contains(handle) { problems.append("handle \(handle) is free and held") }
        return problems
    }
}
