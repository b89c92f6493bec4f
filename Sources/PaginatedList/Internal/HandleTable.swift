/// A hash table from hash values to handles (non-negative integers), for `IdentifiedItems`.
///
/// Its keys are already the output of `Hasher` (an id's `hashValue`), well mixed, so the table uses their
/// low bits directly instead of hashing them again as `Dictionary<Int, Int>` would; open addressing with
/// linear probing, at most half full, backward-shift deletion (no tombstones). Not generic: compiled for
/// `Int` once.
struct HandleTable {
    /// Per slot: the key, and the handle (`-1` for an empty slot).
    private var keys: ContiguousArray<Int>
    private var handles: ContiguousArray<Int>
    private var mask: Int
    /// The number of keys held.
    private(set) var count = 0

    /// An empty table with room for `capacity` keys before it grows.
    init(capacity: Int = 8) {
        var slots = 16
        while slots < 2 * capacity { slots *= 2 }
        keys = ContiguousArray(repeating: 0, count: slots)
        handles = ContiguousArray(repeating: -1, count: slots)
        mask = slots - 1
    }

    /// The handle for `key`, if any. O(1) expected.
    func handle(for key: Int) -> Int? {
        var slot = key & mask
        while true {
            let handle = handles[slot]
            if handle < 0 { return nil }
            if keys[slot] == key { return handle }
            slot = (slot + 1) & mask
        }
    }

    /// Sets the handle for `key`; returns the handle it replaces, if any. O(1) amortised.
    @discardableResult
    mutating func updateHandle(_ handle: Int, for key: Int) -> Int? {
        precondition(handle >= 0, "HandleTable: handles are non-negative")
        var slot = key & mask
        while true {
            let held = handles[slot]
            if held < 0 { break }
            if keys[slot] == key {
                handles[slot] = handle
                return held
            }
            slot = (slot + 1) & mask
        }
        keys[slot] = key
        handles[slot] = handle
        count += 1
        if 2 * count > handles.count { grow() }
        return nil
    }

    /// Removes `key` and its handle, if held. O(1) expected.
    mutating func removeHandle(for key: Int) {
        var hole = key & mask
        while true {
            if handles[hole] < 0 { return }
            if keys[hole] == key { break }
            hole = (hole + 1) & mask
        }
        // Backward shift: move later entries of the run into the hole when their home slot allows it.
        var slot = hole
        while true {
            slot = (slot + 1) & mask
            if handles[slot] < 0 { break }
            let home = keys[slot] & mask
            // The entry may move to `hole` unless its home lies cyclically in (hole, slot].
            let staysPut = hole <= slot ? (home > hole && home <= slot) : (home > hole || home <= slot)
            if !staysPut {
                keys[hole] = keys[slot]
                handles[hole] = handles[slot]
                hole = slot
            }
        }
        handles[hole] = -1
        count -= 1
    }

    /// Every key with its handle, in no particular order.
    var entries: [(key: Int, handle: Int)] {
        handles.indices.compactMap { handles[$0] < 0 ? nil : (keys[$0], handles[$0]) }
    }

    private mutating func grow() {
        let old = entries
        self = HandleTable(capacity: handles.count)
        for (key, handle) in old { updateHandle(handle, for: key) }
    }
}
