// The nodes of `ItemList`'s tree: leaves hold items, inner nodes hold children with their item counts.
// Every leaf is at the same depth. A node is written only while it is uniquely referenced (checked with
// `isKnownUniquelyReferenced` on the reference that leads to it); a shared node is copied first, so a node
// that a snapshot can reach never changes.
//
// A node's memory (its header and its entries, in the object's tail) is reached only through a handle
// that lives for one closure: `read { }` gives a read-only handle, `update { }` one that may write. No
// pointer outlives the closure, and in debug builds a handle checks that it may write before it does, and
// that every offset is in bounds. (The pattern of swift-collections' `Rope._UnsafeHandle`.)
// Inlinable throughout: a client's appends, reads and edits specialise for its `Item` (`Benchmarks
// itemlist`, every row; see Docs/Internals.md).

/// The header of a leaf: how many items it holds, and how many it has room for.
@usableFromInline
struct ItemListLeafHeader {
    @usableFromInline var count: Int
    @usableFromInline let capacity: Int

    @inlinable
    init(count: Int, capacity: Int) {
        self.count = count
        self.capacity = capacity
    }
}

/// A node of `ItemList`'s tree: an `ItemListLeaf` or an `ItemListInner`. It declares no stored
/// property: each subclass keeps a header and its entries in the object's tail, through
/// `ManagedBufferPointer`. Children are typed as this class (not `AnyObject`) so that
/// `isKnownUniquelyReferenced` reads their reference count directly.
@usableFromInline
class ItemListNode {}

/// A leaf of `ItemList`'s tree: up to `room` items, stored contiguously after the header.
@usableFromInline
final class ItemListLeaf<Item>: ItemListNode {
    @usableFromInline
    typealias Storage = ManagedBufferPointer<ItemListLeafHeader, Item>

    deinit {
        Storage(unsafeBufferObject: self).withUnsafeMutablePointers { header, items in
            _ = items.deinitialize(count: header.pointee.count)
        }
    }
}

/// Scoped access to a node's header and entries (a leaf's items, an inner node's slots), valid only
/// inside the `read { }` or `update { }` that made it. Only an `update` handle writes (checked in debug
/// builds, with the bounds of every offset).
@usableFromInline
@frozen
struct ItemListNodeHandle<Header, Entry> {
    @usableFromInline let _header: UnsafeMutablePointer<Header>
    @usableFromInline let _entries: UnsafeMutablePointer<Entry>
#if DEBUG
    @usableFromInline let _isMutable: Bool
#endif

    @inlinable @inline(__always)
    init(isMutable: Bool, header: UnsafeMutablePointer<Header>, entries: UnsafeMutablePointer<Entry>) {
        _header = header
        _entries = entries
#if DEBUG
        _isMutable = isMutable
#endif
    }

    @inlinable @inline(__always)
    func assertMutable() {
#if DEBUG
        assert(_isMutable, "ItemList node: a write through a read-only handle")
#endif
    }
}

extension ManagedBufferPointer {
    /// Runs `body` with a handle on the node's header and entries, which writes only if `isMutable`.
    @inlinable @inline(__always)
    func withHandle<R>(isMutable: Bool, _ body: (ItemListNodeHandle<Header, Element>) -> R) -> R {
        withUnsafeMutablePointers { header, entries in
            body(ItemListNodeHandle(isMutable: isMutable, header: header, entries: entries))
        }
    }
}

/// A leaf's handle: its items.
@usableFromInline
typealias ItemListLeafHandle<Item> = ItemListNodeHandle<ItemListLeafHeader, Item>

extension ItemListNodeHandle where Header == ItemListLeafHeader {
    /// How many items the leaf holds.
    @inlinable @inline(__always)
    var count: Int { _header.pointee.count }

    /// How many items the leaf has room for.
    @inlinable @inline(__always)
    var room: Int { _header.pointee.capacity }

    /// The item at `offset` (in `0 ..< count`); set only through an `update` handle.
    @inlinable @inline(__always)
    subscript(offset: Int) -> Entry {
        get {
            assert(offset >= 0 && offset < count, "ItemListLeaf: offset \(offset) out of 0..<\(count)")
            return _entries[offset]
        }
        nonmutating set {
            assertMutable()
            assert(offset >= 0 && offset < count, "ItemListLeaf: offset \(offset) out of 0..<\(count)")
            _entries[offset] = newValue
        }
    }

    /// The items, as a buffer valid inside this handle's closure.
    @inlinable @inline(__always)
    var items: UnsafeBufferPointer<Entry> { UnsafeBufferPointer(start: _entries, count: count) }

    /// Appends copies of `source` (there must be room).
    @inlinable
    func append(copying source: UnsafeBufferPointer<Entry>) {
        assertMutable()
        guard let base = source.baseAddress, !source.isEmpty else { return }
        precondition(count + source.count <= room)
        (_entries + count).initialize(from: base, count: source.count)
        _header.pointee.count += source.count
    }

    /// Inserts copies of `source` at `offset` (there must be room).
    @inlinable
    func insert(copying source: UnsafeBufferPointer<Entry>, at offset: Int) {
        assertMutable()
        guard let base = source.baseAddress, !source.isEmpty else { return }
        precondition(count + source.count <= room && offset >= 0 && offset <= count)
        let start = _entries + offset
        (start + source.count).moveInitialize(from: start, count: count - offset)
        start.initialize(from: base, count: source.count)
        _header.pointee.count += source.count
    }

    /// Removes the items in `range`.
    @inlinable
    func remove(_ range: Range<Int>) {
        assertMutable()
        precondition(range.lowerBound >= 0 && range.upperBound <= count)
        guard !range.isEmpty else { return }
        let start = _entries + range.lowerBound
        start.deinitialize(count: range.count)
        start.moveInitialize(from: start + range.count, count: count - range.upperBound)
        _header.pointee.count -= range.count
    }
}

extension ItemListLeaf {
    /// The most items a leaf holds: 1 KB of items, but at least 16 and at most 128.
    @inlinable
    static var maxCount: Int { Swift.max(16, Swift.min(128, 1024 / Swift.max(1, MemoryLayout<Item>.stride))) }

    /// The fewest items a leaf other than the root holds.
    @inlinable
    static var minCount: Int { maxCount / 2 }

    /// An empty leaf with room for `capacity` items.
    @inlinable
    static func make(capacity: Int) -> ItemListLeaf {
        let storage = Storage(bufferClass: ItemListLeaf.self, minimumCapacity: capacity) { _, _ in
            ItemListLeafHeader(count: 0, capacity: capacity)
        }
        return unsafeDowncast(storage.buffer, to: ItemListLeaf.self)
    }

    /// A leaf holding copies of `items`, with room for `capacity` (at least `items.count`).
    @inlinable
    static func make(copying items: UnsafeBufferPointer<Item>, capacity: Int? = nil) -> ItemListLeaf {
        let leaf = make(capacity: capacity ?? items.count)
        leaf.update { $0.append(copying: items) }
        return leaf
    }

    /// Runs `body` with a read-only handle on the leaf's memory.
    @inlinable @inline(__always)
    func read<R>(_ body: (ItemListLeafHandle<Item>) -> R) -> R {
        Storage(unsafeBufferObject: self).withHandle(isMutable: false, body)
    }

    /// Runs `body` with a handle that writes the leaf's memory. Only for a leaf no snapshot can reach
    /// (uniquely referenced, or just made).
    @inlinable @inline(__always)
    func update<R>(_ body: (ItemListLeafHandle<Item>) -> R) -> R {
        Storage(unsafeBufferObject: self).withHandle(isMutable: true, body)
    }

    /// How many items the leaf holds.
    @inlinable
    var count: Int { read { $0.count } }

    /// A copy of this leaf with room for `capacity` items (at least `count`).
    @inlinable
    func copy(capacity: Int) -> ItemListLeaf {
        read { ItemListLeaf.make(copying: $0.items, capacity: Swift.max(capacity, $0.count)) }
    }
}

/// One child of an inner node: the child (a leaf or an inner node, by the parent's height) and how many
/// items its subtree holds.
@usableFromInline
struct ItemListSlot {
    @usableFromInline var node: ItemListNode
    @usableFromInline var count: Int

    @inlinable
    init(node: ItemListNode, count: Int) {
        self.node = node
        self.count = count
    }
}

/// The running totals of an inner node's children: one more entry than it has room for children.
@usableFromInline
typealias ItemListEnds = (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)

/// The header of an inner node: the running totals of its children's items (`ends`), its number of
/// children, the items under it, and its height (its children are at `height - 1`; leaves are at 0).
@usableFromInline
struct ItemListInnerHeader {
    /// `ends.i` is the number of items under children `0 ..< i` (so `ends.0` is 0); `Int.max` past the
    /// last child. A homogeneous tuple, read as `Int`s through `ItemListInnerHandle.withEnds`.
    @usableFromInline var ends: ItemListEnds
    @usableFromInline var count: Int
    @usableFromInline var total: Int
    @usableFromInline let height: Int

    @inlinable
    init(count: Int, total: Int, height: Int) {
        let none = Int.max
        ends = (0, none, none, none, none, none, none, none, none, none, none, none, none, none, none, none, none)
        self.count = count
        self.total = total
        self.height = height
    }
}

/// An inner node's handle: its slots and running totals.
@usableFromInline
typealias ItemListInnerHandle = ItemListNodeHandle<ItemListInnerHeader, ItemListSlot>

extension ItemListNodeHandle where Header == ItemListInnerHeader, Entry == ItemListSlot {
    /// How many children the node has.
    @inlinable @inline(__always)
    var count: Int { _header.pointee.count }

    /// How many items its children hold.
    @inlinable @inline(__always)
    var total: Int { _header.pointee.total }

    @inlinable @inline(__always)
    var height: Int { _header.pointee.height }

    /// The slot of child `slot` (in `0 ..< count`).
    @inlinable @inline(__always)
    subscript(slot: Int) -> ItemListSlot {
        assert(slot >= 0 && slot < count, "ItemListInner: slot \(slot) out of 0..<\(count)")
        return _entries[slot]
    }

    /// The slots, as a buffer valid inside this handle's closure.
    @inlinable @inline(__always)
    var slots: UnsafeBufferPointer<ItemListSlot> { UnsafeBufferPointer(start: _entries, count: count) }

    /// Runs `body` with the running totals (`ItemListInnerHeader.ends`) as `Int`s: all of them, one more
    /// than the children the node has room for.
    @inlinable @inline(__always)
    func withEnds<R>(_ body: (UnsafeMutableBufferPointer<Int>) -> R) -> R {
        // A homogeneous tuple is laid out as its elements in a row, so its memory may be viewed as `Int`s.
        // The tuple's address is found by arithmetic on the header's, not through an `inout` access to
        // `_header.pointee.ends`: readers on several threads search the same shared node, and an `inout`
        // access is a write (to the exclusivity checks and the thread sanitizer) even when nothing is written.
        let ends = _header.pointer(to: \.ends)!
        return ends.withMemoryRebound(to: Int.self, capacity: ItemListInner.endsCount) { first in
            body(UnsafeMutableBufferPointer(start: first, count: ItemListInner.endsCount))
        }
    }

    /// The child holding item `offset` (which must be below `total`), and the item's offset in it.
    ///
    /// A binary search of the running totals in four steps (16 children), in arithmetic with no branch: a
    /// branch would be mispredicted on most random reads, and few instructions per level let the
    /// processor overlap the cache misses of successive reads.
    @inlinable @inline(__always)
    func child(containing offset: Int) -> (slot: Int, offset: Int) {
        assert(ItemListInner.maxCount == 16, "the search takes one step per bit of 16 children")
        assert(offset >= 0 && offset < total, "ItemListInner: offset \(offset) out of 0..<\(total)")
        return withEnds { ends in
            var slot = 0
            // Each step adds `step` when ends[slot + step] <= offset: the sign bit of ends - offset - 1,
            // spread to a mask (no overflow: both are non-negative and ends past the first are at least
            // 1). The result is the number of children wholly before `offset`; it stays below 16 since
            // `offset < total`.
            slot &+= 8 & ((ends[slot &+ 8] &- offset &- 1) &>> 63)
            slot &+= 4 & ((ends[slot &+ 4] &- offset &- 1) &>> 63)
            slot &+= 2 & ((ends[slot &+ 2] &- offset &- 1) &>> 63)
            slot &+= 1 & ((ends[slot &+ 1] &- offset &- 1) &>> 63)
            return (slot, offset &- ends[slot])
        }
    }

    /// Like `child(containing:)`, but `offset == total` gives the end of the last child.
    @inlinable
    func child(insertingAt offset: Int) -> (slot: Int, offset: Int) {
        if offset == total { return (count - 1, self[count - 1].count) }
        return child(containing: offset)
    }

    /// Recomputes the running totals from the slots' counts: after any change to the slots. O(children).
    @inlinable
    func refreshEnds() {
        assertMutable()
        let count = self.count
        withEnds { ends in
            var end = 0
            ends[0] = 0
            for index in 0 ..< ItemListInner.maxCount {
                if index < count {
                    end += _entries[index].count
                    ends[index + 1] = end
                } else {
                    ends[index + 1] = Int.max
                }
            }
        }
    }

    /// Adds `delta` to the item count of child `slot` and to the node's total (the running totals are
    /// left to `refreshEnds()`).
    @inlinable @inline(__always)
    func adjust(slot: Int, by delta: Int) {
        assertMutable()
        assert(slot >= 0 && slot < count, "ItemListInner: slot \(slot) out of 0..<\(count)")
        _entries[slot].count += delta
        _header.pointee.total += delta
    }

    /// Runs `body` on the reference to child `slot`, which it may replace (by a copy, or a node that took
    /// its place); the counts are the caller's to adjust.
    @inlinable @inline(__always)
    func withChild<R>(_ slot: Int, _ body: (inout ItemListNode) -> R) -> R {
        assertMutable()
        assert(slot >= 0 && slot < count, "ItemListInner: slot \(slot) out of 0..<\(count)")
        return body(&_entries[slot].node)
    }

    /// Appends `slot` (there must be room).
    @inlinable
    func append(_ slot: ItemListSlot) {
        assertMutable()
        precondition(count < ItemListInner.maxCount)
        (_entries + count).initialize(to: slot)
        _header.pointee.count += 1
        _header.pointee.total += slot.count
        let (count, total) = (self.count, self.total)
        withEnds { $0[count] = total }
    }

    /// Appends copies of `source` (there must be room).
    @inlinable
    func append(copying source: UnsafeBufferPointer<ItemListSlot>) {
        assertMutable()
        guard let base = source.baseAddress, !source.isEmpty else { return }
        let start = count, end = start + source.count
        precondition(end <= ItemListInner.maxCount)
        (_entries + start).initialize(from: base, count: source.count)
        // The running totals after `start` were `Int.max` (no child there): only the new ones change.
        var total = self.total
        withEnds { ends in
            for slot in start ..< end {
                total += _entries[slot].count
                ends[slot + 1] = total
            }
        }
        _header.pointee.count = end
        _header.pointee.total = total
    }

    /// Inserts `slot` at `index` (there must be room), and refreshes the running totals.
    @inlinable
    func insert(_ slot: ItemListSlot, at index: Int) {
        assertMutable()
        precondition(count < ItemListInner.maxCount && index >= 0 && index <= count)
        (_entries + index + 1).moveInitialize(from: _entries + index, count: count - index)
        (_entries + index).initialize(to: slot)
        _header.pointee.count += 1
        _header.pointee.total += slot.count
        refreshEnds()
    }
}

/// An inner node of `ItemList`'s tree: up to `maxCount` children, with their item counts.
@usableFromInline
final class ItemListInner: ItemListNode {
    @usableFromInline
    typealias Storage = ManagedBufferPointer<ItemListInnerHeader, ItemListSlot>

    deinit {
        Storage(unsafeBufferObject: self).withUnsafeMutablePointers { header, slots in
            _ = slots.deinitialize(count: header.pointee.count)
        }
    }
}

extension ItemListInner {
    /// The number of running totals in a header (`ItemListEnds`): 17.
    @inlinable
    static var endsCount: Int { MemoryLayout<ItemListEnds>.size / MemoryLayout<Int>.stride }

    /// The most children of an inner node: one fewer than the running totals.
    @inlinable
    static var maxCount: Int { endsCount - 1 }

    /// The fewest children of an inner node other than the root.
    @inlinable
    static var minCount: Int { maxCount / 2 }

    /// An inner node of `height` holding `slots`.
    @inlinable
    static func make(height: Int, slots: UnsafeBufferPointer<ItemListSlot>) -> ItemListInner {
        precondition(height > 0 && slots.count <= maxCount)
        let storage = Storage(bufferClass: ItemListInner.self, minimumCapacity: maxCount) { _, _ in
            ItemListInnerHeader(count: 0, total: 0, height: height)
        }
        let inner = unsafeDowncast(storage.buffer, to: ItemListInner.self)
        inner.update { $0.append(copying: slots) }
        return inner
    }

    /// An inner node of `height` holding `slots`.
    @inlinable
    static func make(height: Int, slots: [ItemListSlot]) -> ItemListInner {
        slots.withUnsafeBufferPointer { make(height: height, slots: $0) }
    }

    /// Runs `body` with a read-only handle on the node's memory.
    @inlinable @inline(__always)
    func read<R>(_ body: (ItemListInnerHandle) -> R) -> R {
        Storage(unsafeBufferObject: self).withHandle(isMutable: false, body)
    }

    /// Runs `body` with a handle that writes the node's memory. Only for a node no snapshot can reach
    /// (uniquely referenced, or just made).
    @inlinable @inline(__always)
    func update<R>(_ body: (ItemListInnerHandle) -> R) -> R {
        Storage(unsafeBufferObject: self).withHandle(isMutable: true, body)
    }

    /// How many children the node has.
    @inlinable
    var count: Int { read { $0.count } }

    /// How many items its children hold.
    @inlinable
    var total: Int { read { $0.total } }

    /// A copy of this node.
    @inlinable
    func copy() -> ItemListInner {
        read { ItemListInner.make(height: $0.height, slots: $0.slots) }
    }
}
