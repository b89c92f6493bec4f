/// A hash table from hash values to handles (non-negative integers), for `ItemIdentities`.
///
/// Its keys are already the output of `Hasher` (an id's `hashValue`), well mixed, so the table uses their
/// low bits directly instead of hashing them again as `Dictionary<Int, Int>` would; open addressing with
/// linear probing, at most half full, backward-shift deletion (no tombstones). A key and its handle sit
/// side by side, so a lookup in a large table costs one cache miss, not two. Not generic: compiled for
/// `Int` once (its methods are called, not inlined, from the inlinable `IdentityRules`).
@usableFromInline
struct HandleTable {
    private struct Entry {
        var key: Int
        /// `-1` for an empty slot.
        var handle: Int
    }

    private var slots: ContiguousArray<Entry>
    private var mask: Int
    /// The number of keys held.
    private(set) var count = 0

    /// An empty table with room for `capacity` keys before it grows.
    @usableFromInline
    init(capacity: Int = 8) {
        var size = 16
        while size < 2 * capacity { size *= 2 }
        slots = ContiguousArray(repeating: Entry(key: 0, handle: -1), count: size)
        mask = size - 1
    }

    /// Where `key` is in `slots` (a table of `mask + 1` slots): its slot and its handle, or the empty slot
    /// where it would go and -1. The probe every lookup and update shares.
    @inline(__always)
    private static func probe(_ slots: UnsafePointer<Entry>, mask: Int, for key: Int) -> (slot: Int, handle: Int) {
        var slot = key & mask
        while true {
            let entry = slots[slot]
            if entry.handle < 0 { return (slot, -1) }
            if entry.key == key { return (slot, entry.handle) }
            slot = (slot + 1) & mask
        }
    }

    /// `probe` in this table.
    @inline(__always)
    private func probe(for key: Int) -> (slot: Int, handle: Int) {
        slots.withUnsafeBufferPointer { Self.probe($0.baseAddress!, mask: mask, for: key) }
    }

    /// The handle for `key`, if any. O(1) expected.
    func handle(for key: Int) -> Int? {
        let handle = probe(for: key).handle
        return handle < 0 ? nil : handle
    }

    /// `handle(for:)` of each of `keys` (-1: none), and whether any is held. In one tight loop, the
    /// cache misses of a large table overlap instead of queueing one after another.
    func handles(for keys: [Int]) -> (handles: [Int], anyHeld: Bool) {
        // No keys, no array made: the standard library's initializer writes the count of its shared empty
        // array (0 over 0), which the thread sanitizer reports against any thread reading an empty array.
        guard !keys.isEmpty else { return ([], false) }
        var anyHeld = false
        let handles = [Int](unsafeUninitializedCapacity: keys.count) { result, initialized in
            slots.withUnsafeBufferPointer { slots in
                for index in keys.indices {
                    let found = Self.probe(slots.baseAddress!, mask: mask, for: keys[index]).handle
                    if found >= 0 { anyHeld = true }
                    result.initializeElement(at: index, to: found)
                }
            }
            initialized = keys.count
        }
        return (handles, anyHeld)
    }

    /// Gives `keys[i]` the handle `firstHandle + i`, for each `i` in order, and appends to `replaced` the
    /// handle each replaces (-1: none). O(1) amortised per key.
    mutating func updateHandles(from firstHandle: Int, for keys: [Int], replaced: inout ContiguousArray<Int>) {
        precondition(firstHandle >= 0, "HandleTable: handles are non-negative")
        reserveCapacity(count + keys.count)
        let mask = mask
        var added = 0
        slots.withUnsafeMutableBufferPointer { slots in
            for index in keys.indices {
                let key = keys[index]
                let (slot, held) = Self.probe(UnsafePointer(slots.baseAddress!), mask: mask, for: key)
                if held < 0 { added += 1 }
                slots[slot] = Entry(key: key, handle: firstHandle + index)
                replaced.append(held)
            }
        }
        count += added
    }

    /// Gives `keys[i]` the handle `firstHandle + i`, for each `i`, if none of `keys` is held and no two
    /// are equal, and returns `true`; else changes nothing (but may grow) and returns `false`. One probe
    /// per key, which both looks it up and places it. O(1) amortised per key.
    mutating func insertNew(from firstHandle: Int, for keys: [Int]) -> Bool {
        precondition(firstHandle >= 0, "HandleTable: handles are non-negative")
        reserveCapacity(count + keys.count)
        let mask = mask
        let placed: Int = slots.withUnsafeMutableBufferPointer { slots in
            for index in keys.indices {
                let key = keys[index]
                let (slot, held) = Self.probe(UnsafePointer(slots.baseAddress!), mask: mask, for: key)
                if held >= 0 { return index }
                slots[slot] = Entry(key: key, handle: firstHandle + index)
            }
            return keys.count
        }
        count += placed
        guard placed == keys.count else {
            for key in keys[..<placed] { removeHandle(for: key) }
            return false
        }
        return true
    }

    /// Sets the handle for `key`; returns the handle it replaces, if any. O(1) amortised.
    @discardableResult @usableFromInline
    mutating func updateHandle(_ handle: Int, for key: Int) -> Int? {
        precondition(handle >= 0, "HandleTable: handles are non-negative")
        let (slot, held) = probe(for: key)
        if held >= 0 {
            slots[slot].handle = handle
            return held
        }
        slots[slot] = Entry(key: key, handle: handle)
        count += 1
        if 2 * count > slots.count { grow() }
        return nil
    }

    /// Removes `key` and its handle, if held. O(1) expected.
    mutating func removeHandle(for key: Int) {
        let found = probe(for: key)
        guard found.handle >= 0 else { return }
        var hole = found.slot
        // Backward shift: move later entries of the run into the hole when their home slot allows it.
        var slot = hole
        while true {
            slot = (slot + 1) & mask
            if slots[slot].handle < 0 { break }
            let home = slots[slot].key & mask
            // The entry may move to `hole` unless its home lies cyclically in (hole, slot].
            let staysPut = hole <= slot ? (home > hole && home <= slot) : (home > hole || home <= slot)
            if !staysPut {
                slots[hole] = slots[slot]
                hole = slot
            }
        }
        slots[hole].handle = -1
        count -= 1
    }

    /// Every key with its handle, in no particular order.
    var entries: [(key: Int, handle: Int)] {
        slots.compactMap { $0.handle < 0 ? nil : ($0.key, $0.handle) }
    }

    /// Makes room for `capacity` keys before the table grows again (at least doubling, so that reserving
    /// a page at a time stays amortised O(1) per key).
    mutating func reserveCapacity(_ capacity: Int) {
        if 2 * capacity > slots.count { rehash(capacity: Swift.max(capacity, slots.count)) }
    }

    private mutating func grow() {
        rehash(capacity: slots.count)
    }

    /// The same keys and handles in a table with room for `capacity` keys.
    private mutating func rehash(capacity: Int) {
        let old = slots
        let held = count
        self = HandleTable(capacity: capacity)
        count = held
        let mask = mask
        slots.withUnsafeMutableBufferPointer { slots in
            old.withUnsafeBufferPointer { old in
                for entry in old where entry.handle >= 0 {
                    var slot = entry.key & mask
                    while slots[slot].handle >= 0 { slot = (slot + 1) & mask }
                    slots[slot] = entry
                }
            }
        }
    }

    /// Whether no two of `keys` are equal. O(n) expected, no heap allocation for up to a few thousand keys.
    @usableFromInline
    static func distinct(_ keys: [Int]) -> Bool {
        if keys.count <= 16 {
            for i in keys.indices {
                for j in keys.indices where j > i && keys[j] == keys[i] { return false }
            }
            return true
        }
        var size = 32
        while size < 2 * keys.count { size *= 2 }
        let mask = size - 1
        // A slot holds a key; `Int.min` marks an empty slot (and a key equal to it is tracked aside).
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: size) { slots in
            slots.initialize(repeating: .min)
            var sawMin = false
            for key in keys {
                if key == .min {
                    if sawMin { return false }
                    sawMin = true
                    continue
                }
                var slot = key & mask
                while true {
                    let held = slots[slot]
                    if held == .min { slots[slot] = key; break }
                    if held == key { return false }
                    slot = (slot + 1) & mask
                }
            }
            return true
        }
    }
}
