// The nodes of `ItemList`'s tree: leaves hold items, inner nodes hold children with their item counts.
// Every leaf is at the same depth. A node is written only while it is uniquely referenced (checked with
// `isKnownUniquelyReferenced` on the reference that leads to it); a shared node is copied first, so a node
// that a snapshot can reach never changes.
// Inlinable throughout: a client's appends and edits specialise for its `Item` (`Benchmarks itemlist`).

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

    /// The header, in the object's tail; valid while the node is alive.
    @inlinable
    var header: UnsafeMutablePointer<ItemListLeafHeader> {
        Storage(unsafeBufferObject: self).withUnsafeMutablePointerToHeader { $0 }
    }

    /// A leaf holding copies of `items`, with room for `capacity` (at least `items.count`).
    @inlinable
    static func make(copying items: UnsafeBufferPointer<Item>, capacity: Int? = nil) -> ItemListLeaf {
        let leaf = make(capacity: capacity ?? items.count)
        leaf.append(copying: items)
        return leaf
    }

    @inlinable
    var count: Int { header.pointee.count }

    /// How many items the leaf has room for.
    @inlinable
    var room: Int { header.pointee.capacity }

    /// The address of the first item; valid while the leaf is alive and not written.
    @inlinable
    var items: UnsafeMutablePointer<Item> {
        Storage(unsafeBufferObject: self).withUnsafeMutablePointerToElements { $0 }
    }

    /// The items, as a buffer (read only).
    @inlinable
    var buffer: UnsafeBufferPointer<Item> {
        UnsafeBufferPointer(start: items, count: count)
    }

    /// A copy of this leaf with room for `capacity` items (at least `count`).
    @inlinable
    func copy(capacity: Int) -> ItemListLeaf {
        ItemListLeaf.make(copying: buffer, capacity: Swift.max(capacity, count))
    }

    /// Appends copies of `source` (there must be room).
    @inlinable
    func append(copying source: UnsafeBufferPointer<Item>) {
        guard let base = source.baseAddress, !source.isEmpty else { return }
        precondition(count + source.count <= room)
        (items + count).initialize(from: base, count: source.count)
        header.pointee.count += source.count
    }

    /// Inserts copies of `source` at `offset` (there must be room).
    @inlinable
    func insert(copying source: UnsafeBufferPointer<Item>, at offset: Int) {
        guard let base = source.baseAddress, !source.isEmpty else { return }
        precondition(count + source.count <= room && offset >= 0 && offset <= count)
        let start = items + offset
        (start + source.count).moveInitialize(from: start, count: count - offset)
        start.initialize(from: base, count: source.count)
        header.pointee.count += source.count
    }

    /// Removes the items in `range`.
    @inlinable
    func remove(_ range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count)
        guard !range.isEmpty else { return }
        let start = items + range.lowerBound
        start.deinitialize(count: range.count)
        start.moveInitialize(from: start + range.count, count: count - range.upperBound)
        header.pointee.count -= range.count
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

/// The header of an inner node: the running totals of its children's items (`ends`), its number of
/// children, the items under it, and its height (its children are at `height - 1`; leaves are at 0).
@usableFromInline
struct ItemListInnerHeader {
    /// `ends.i` is the number of items under children `0 ..< i` (so `ends.0` is 0); `Int.max` past the
    /// last child. First in the header, so that it can be read as 17 `Int`s from the header's address (a
    /// homogeneous tuple).
    @usableFromInline var ends: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)
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
    /// The most children of an inner node (`ItemListInnerHeader.ends` has as many entries).
    @inlinable
    static var maxCount: Int { 16 }

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
        inner.append(copying: slots)
        return inner
    }

    /// An inner node of `height` holding `slots`.
    @inlinable
    static func make(height: Int, slots: [ItemListSlot]) -> ItemListInner {
        slots.withUnsafeBufferPointer { make(height: height, slots: $0) }
    }

    /// The header, in the object's tail; valid while the node is alive.
    @inlinable
    var header: UnsafeMutablePointer<ItemListInnerHeader> {
        Storage(unsafeBufferObject: self).withUnsafeMutablePointerToHeader { $0 }
    }

    @inlinable
    var count: Int { header.pointee.count }

    @inlinable
    var total: Int { header.pointee.total }

    @inlinable
    var height: Int { header.pointee.height }

    /// The address of the first slot; valid while the node is alive and not written.
    @inlinable
    var slots: UnsafeMutablePointer<ItemListSlot> {
        Storage(unsafeBufferObject: self).withUnsafeMutablePointerToElements { $0 }
    }

    /// The slots, as a buffer (read only).
    @inlinable
    var buffer: UnsafeBufferPointer<ItemListSlot> {
        UnsafeBufferPointer(start: slots, count: count)
    }

    /// The running totals of the children's items (`header.ends`), as 17 `Int`s.
    @inlinable
    var ends: UnsafeMutablePointer<Int> {
        UnsafeMutableRawPointer(header).assumingMemoryBound(to: Int.self)
    }

    /// The child holding item `offset` (which must be below `total`), and the item's offset in it.
    ///
    /// A binary search of the running totals in four steps, in arithmetic with no branch: a branch would
    /// be mispredicted on most random reads, and few instructions per level let the processor overlap the
    /// cache misses of successive reads.
    @inlinable
    func child(containing offset: Int) -> (slot: Int, offset: Int) {
        let ends = self.ends
        var slot = 0
        // Each step adds `step` when ends[slot + step] <= offset: the sign bit of ends - offset - 1, spread
        // to a mask (no overflow: both are non-negative and ends past the first are at least 1). The
        // result is the number of children wholly before `offset`; it stays below 16 since
        // `offset < total`.
        slot &+= 8 & ((ends[slot &+ 8] &- offset &- 1) &>> 63)
        slot &+= 4 & ((ends[slot &+ 4] &- offset &- 1) &>> 63)
        slot &+= 2 & ((ends[slot &+ 2] &- offset &- 1) &>> 63)
        slot &+= 1 & ((ends[slot &+ 1] &- offset &- 1) &>> 63)
        return (slot, offset &- ends[slot])
    }

    /// Recomputes `ends` from the slots' counts: after any change to the slots. O(children).
    @inlinable
    func refreshEnds() {
        let slots = self.slots, ends = self.ends
        var end = 0
        ends[0] = 0
        for index in 0 ..< 16 {
            if index < count {
                end += slots[index].count
                ends[index + 1] = end
            } else {
                ends[index + 1] = Int.max
            }
        }
    }

    /// Like `child(containing:)`, but `offset == total` gives the end of the last child.
    @inlinable
    func child(insertingAt offset: Int) -> (slot: Int, offset: Int) {
        if offset == total { return (count - 1, slots[count - 1].count) }
        return child(containing: offset)
    }

    /// A copy of this node.
    @inlinable
    func copy() -> ItemListInner {
        ItemListInner.make(height: height, slots: buffer)
    }

    /// Appends `slot` (there must be room).
    @inlinable
    func append(_ slot: ItemListSlot) {
        precondition(count < ItemListInner.maxCount)
        (slots + count).initialize(to: slot)
        header.pointee.count += 1
        header.pointee.total += slot.count
        ends[count] = total
    }

    /// Appends copies of `source` (there must be room).
    @inlinable
    func append(copying source: UnsafeBufferPointer<ItemListSlot>) {
        guard let base = source.baseAddress, !source.isEmpty else { return }
        precondition(count + source.count <= ItemListInner.maxCount)
        (slots + count).initialize(from: base, count: source.count)
        header.pointee.count += source.count
        for slot in source { header.pointee.total += slot.count }
        refreshEnds()
    }
}
