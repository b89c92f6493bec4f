/// The list a `PaginatedListViewModel` holds: a persistent random-access collection of items, whose
/// snapshots share their structure.
///
/// An `ItemList` is a B+tree of chunks: leaves hold as many items as fit in 1 KB (but at least 16 and at
/// most 128), inner nodes up to 16 children with the number of items under each. Every leaf is
/// at the same depth and every node but the root at least half full, so the tree has O(log n) levels.
///
/// - A copy is O(1): it shares the whole tree. A mutation writes in place the nodes that only this list
///   holds and copies the nodes it shares (the ones on its path, O(log n) of them), so every earlier
///   snapshot stays intact and an observer that keeps every snapshot pays O(log n) memory per edit.
/// - Reading `list[i]` is O(log n) with a small constant (a branch-free search per level, no reference
///   counting); iterating is O(1) per item (a leaf at a time).
/// - Every edit (`append`, `insert(contentsOf:at:)`, `remove(at:)`, `removeSubrange(_:)`,
///   `replaceSubrange(_:with:)`, subscript set) is O(log n + k) for k items inserted or removed; appending
///   a page of k items is O(k) amortised plus O(log n) for the path.
///
/// Snapshots are immutable values: safe to read from any thread (`Sendable` when `Item` is).
///
/// ```swift
/// var list: ItemList = [1, 2, 3]
/// let before = list
/// list.append(contentsOf: [4, 5])
/// list.remove(at: 0)
/// print(Array(before), Array(list))   // [1, 2, 3] [2, 3, 4, 5]
/// ```
public struct ItemList<Item> {
    // Its edits and paths are inlinable: a client's appends and edits specialise for its `Item` (`Benchmarks
    // itemlist`, append, view model and edit rows).
    /// The root of the tree (a leaf when `height` is 0); `nil` when the list is empty.
    @usableFromInline private(set) var _root: ItemListNode?
    /// The height of the root: 0 for a leaf.
    @usableFromInline private(set) var _height: Int
    /// The number of items (`count`), stored here so that the inlinable edits can set it.
    @usableFromInline private(set) var _count: Int

    /// An empty list.
    @inlinable
    public init() {
        _root = nil
        _height = 0
        _count = 0
    }

    /// A list of `items`, in order. O(number of items).
    @inlinable
    public init<S: Sequence>(_ items: S) where S.Element == Item {
        self.init()
        append(contentsOf: items)
    }

    @inlinable
    init(tree: ItemListTree<Item>?) {
        _root = tree?.node
        _height = tree?.height ?? 0
        _count = tree?.count ?? 0
    }

    /// Whether `other` is this very snapshot: the same root node (every edit of a list that shares its
    /// nodes copies the root) and count. Two empty lists are identical. O(1).
    @inlinable
    func _isIdentical(to other: ItemList) -> Bool {
        _root === other._root && _count == other._count
    }

    /// The tree, for the algorithms; `nil` when the list is empty.
    @inlinable
    var tree: ItemListTree<Item>? {
        get { _root.map { ItemListTree(node: $0, height: _height, count: count) } }
        set { self = ItemList(tree: newValue) }
    }
}

// MARK: - Reading

extension ItemList: RandomAccessCollection {
    /// The number of items. O(1).
    @inlinable
    public var count: Int { _count }

    /// The position of the first item: always 0.
    @inlinable
    public var startIndex: Int { 0 }

    /// One past the position of the last item: `count`.
    @inlinable
    public var endIndex: Int { count }

    /// The item at `position`, which must be in `0 ..< count`. O(log n): one short scan per level.
    ///
    /// Setting it replaces the item in O(log n): the nodes on its path are copied if another snapshot shares
    /// them.
    @inlinable
    public subscript(position: Int) -> Item {
        get {
            precondition(position >= 0 && position < count, "ItemList index \(position) out of range 0..<\(count)")
            let (node, offset) = unretainedLeaf(at: position)
            let item = node._withUnsafeGuaranteedRef { unsafeDowncast($0, to: ItemListLeaf<Item>.self).read { $0[offset] } }
            withExtendedLifetime(self) {}
            return item
        }
        set {
            replaceItem(at: position, with: newValue)
        }
    }

    /// An iterator over the items, in order: O(1) per item, O(log n) per leaf of items.
    @inlinable
    public func makeIterator() -> Iterator {
        Iterator(list: self)
    }

    /// The number of items (the list knows it). O(1).
    @inlinable
    public var underestimatedCount: Int { count }

    /// Iterates over an `ItemList`'s items, in order, a leaf at a time.
    ///
    /// It keeps the list it iterates alive and unchanged: mutating the list meanwhile copies the nodes it
    /// writes, as for any other snapshot.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let _list: ItemList
        /// The leaf being read.
        @usableFromInline private(set) var _leaf: ItemListLeaf<Item>?
        @usableFromInline private(set) var _offset = 0
        @usableFromInline private(set) var _leafCount = 0
        /// The list position of the first item of the next leaf.
        @usableFromInline private(set) var _nextLeafStart = 0

        @inlinable
        init(list: ItemList) {
            _list = list
        }

        /// The next item, or `nil` after the last one. O(1) amortised.
        @inlinable
        public mutating func next() -> Item? {
            if _offset < _leafCount {
                let offset = _offset
                _offset = offset &+ 1
                return _leaf.unsafelyUnwrapped.read { $0[offset] }
            }
            return nextFromNextLeaf()
        }

        /// Moves to the next leaf and returns its first item; `nil` at the end.
        @inlinable
        mutating func nextFromNextLeaf() -> Item? {
            guard _nextLeafStart < _list.count else { return nil }
            let (found, start) = _list.leaf(at: _nextLeafStart)
            precondition(start == 0)
            let (count, first) = found.read { ($0.count, $0[0]) }
            _leaf = found
            _leafCount = count
            _nextLeafStart += count
            _offset = 1
            return first
        }
    }
}

extension ItemList: ExpressibleByArrayLiteral {
    /// A list of the literal's elements.
    @inlinable
    public init(arrayLiteral elements: Item...) {
        self.init(elements)
    }
}

// MARK: - Editing

extension ItemList: MutableCollection, RangeReplaceableCollection {
    /// Replaces the items in `range` by `newElements`. O(log n + k), k = `range.count + newElements.count`.
    ///
    /// Small edits inside one leaf write that leaf (copied first if shared) and the counts on its path;
    /// other edits split the tree at the range's ends and join the pieces around a tree built from
    /// `newElements`, making O(log n) new nodes and sharing all the others.
    @inlinable
    public mutating func replaceSubrange<C: Collection>(_ range: Range<Int>, with newElements: C) where C.Element == Item {
        precondition(range.lowerBound >= 0 && range.upperBound <= count,
                     "ItemList range \(range) out of bounds 0..<\(count)")
        if let done = newElements.withContiguousStorageIfAvailable({ replace(range, with: $0) }) {
            _ = done
        } else {
            let buffer = ContiguousArray(newElements)
            buffer.withUnsafeBufferPointer { replace(range, with: $0) }
        }
    }

    /// The items in `bounds`, as a slice that shares this list's tree. O(1).
    ///
    /// Setting it replaces those items by the slice's, which may be fewer or more (as with `Array`):
    /// O(log n + k), like `replaceSubrange(_:with:)`.
    @inlinable
    public subscript(bounds: Range<Int>) -> Slice<ItemList> {
        get {
            precondition(bounds.lowerBound >= 0 && bounds.upperBound <= count,
                         "ItemList range \(bounds) out of bounds 0..<\(count)")
            return Slice(base: self, bounds: bounds)
        }
        set {
            replaceSubrange(bounds, with: newValue)
        }
    }

    /// The subscript's setter.
    @inlinable
    mutating func replaceItem(at position: Int, with item: Item) {
        defer { _checkInvariants() }
        precondition(position >= 0 && position < count, "ItemList index \(position) out of range 0..<\(count)")
        modifyLeaf(at: position, delta: 0) { leaf, offset in leaf[offset] = item }
    }

    /// Appends `items` at the end. O(k + log n) for k items; O(k) amortised when the list is not shared.
    @inlinable
    public mutating func append<S: Sequence>(contentsOf items: S) where S.Element == Item {
        if let done = items.withContiguousStorageIfAvailable({ replace(count ..< count, with: $0) }) {
            _ = done
        } else {
            let buffer = ContiguousArray(items)
            buffer.withUnsafeBufferPointer { replace(count ..< count, with: $0) }
        }
    }

    /// Appends one item. O(log n); O(1) amortised for the leaf's part when the list is not shared.
    @inlinable
    public mutating func append(_ item: Item) {
        withUnsafePointer(to: item) { replace(count ..< count, with: UnsafeBufferPointer(start: $0, count: 1)) }
    }

    /// Inserts one item at `index` (in `0 ... count`). O(log n).
    @inlinable
    public mutating func insert(_ item: Item, at index: Int) {
        precondition(index >= 0 && index <= count, "ItemList index \(index) out of bounds 0...\(count)")
        withUnsafePointer(to: item) { replace(index ..< index, with: UnsafeBufferPointer(start: $0, count: 1)) }
    }

    /// Removes and returns the item at `index` (in `0 ..< count`). O(log n).
    @discardableResult
    @inlinable
    public mutating func remove(at index: Int) -> Item {
        let item = self[index]
        replace(index ..< index + 1, with: UnsafeBufferPointer(start: nil, count: 0))
        return item
    }

    /// Removes every item. O(1) (the nodes are freed when no snapshot holds them any more).
    ///
    /// A list keeps no spare capacity, so `keepingCapacity` changes nothing.
    @inlinable
    public mutating func removeAll(keepingCapacity: Bool = false) {
        self = ItemList()
    }

    /// Does nothing: the tree allocates a leaf at a time, so there is nothing to reserve.
    @inlinable
    public mutating func reserveCapacity(_ n: Int) {}

    /// The edit behind every other: `range` replaced by copies of `items`.
    @inlinable
    mutating func replace(_ range: Range<Int>, with items: UnsafeBufferPointer<Item>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count,
                     "ItemList range \(range) out of bounds 0..<\(count)")
        defer { _checkInvariants() }
        if range.isEmpty && items.isEmpty { return }
        if range.count == items.count, items.count <= 4 {
            for (offset, item) in items.enumerated() {
                modifyLeaf(at: range.lowerBound + offset, delta: 0) { leaf, at in leaf[at] = item }
            }
            return
        }
        if _root != nil, range.isEmpty || items.isEmpty {
            // Fast paths inside one leaf.
            // Only the leaf's count is kept: a reference to the leaf would make it look shared.
            let (leafCount, offset) = leafCount(at: range.lowerBound, inserting: range.isEmpty)
            if range.isEmpty, leafCount + items.count <= ItemListLeaf<Item>.maxCount {
                modifyLeaf(insertingAt: range.lowerBound, delta: items.count) { leaf, at in
                    leaf.insert(copying: items, at: at)
                }
                return
            }
            // A few items inside the list: split the leaf and, if need be, its ancestors (an append that
            // does not fit joins a new leaf instead, leaving the full one as it is).
            if range.isEmpty, items.count <= ItemListLeaf<Item>.maxCount, range.lowerBound < count {
                insertSplittingPath(items, at: range.lowerBound)
                return
            }
            if items.isEmpty, offset + range.count <= leafCount,
               _height == 0 ? range.count < leafCount : leafCount - range.count >= ItemListLeaf<Item>.minCount {
                modifyLeaf(at: range.lowerBound, delta: -range.count) { leaf, at in
                    leaf.remove(at ..< at + range.count)
                }
                return
            }
        }
        let (left, rest) = tree.map { ItemListTree.split($0, at: range.lowerBound) } ?? (nil, nil)
        let right = rest.flatMap { ItemListTree.split($0, at: range.count).1 }
        tree = ItemListTree.join(ItemListTree.join(left, ItemListTree.build(items)), right)
    }
}

// MARK: - Paths

extension ItemList {
    /// The leaf holding item `position` (in `0 ..< count`), or with `inserting` the leaf where an insertion
    /// at `position` (in `0 ... count`) goes, unretained, and the offset in it. O(log n).
    ///
    /// The descent takes no reference count: the caller keeps the list, and so the whole tree, alive.
    @inlinable
    func unretainedLeaf(at position: Int, inserting: Bool = false) -> (Unmanaged<ItemListNode>, Int) {
        var node = Unmanaged.passUnretained(_root.unsafelyUnwrapped)
        var offset = position
        for _ in 0 ..< _height {
            node = node._withUnsafeGuaranteedRef { node in
                unsafeDowncast(node, to: ItemListInner.self).read { inner in
                    let found = inserting ? inner.child(insertingAt: offset) : inner.child(containing: offset)
                    offset = found.offset
                    return Unmanaged.passUnretained(inner[found.slot].node)
                }
            }
        }
        return (node, offset)
    }

    /// The leaf holding item `position` (in `0 ..< count`), or with `inserting` the leaf where an insertion
    /// at `position` (in `0 ... count`) goes, and the offset in it. O(log n).
    @inlinable
    func leaf(at position: Int, inserting: Bool = false) -> (ItemListLeaf<Item>, Int) {
        let (node, offset) = unretainedLeaf(at: position, inserting: inserting)
        return (unsafeDowncast(node.takeUnretainedValue(), to: ItemListLeaf<Item>.self), offset)
    }

    /// The item count of that leaf, and the offset in it (a reference to the leaf would make it look
    /// shared to a mutation that follows).
    @inlinable
    func leafCount(at position: Int, inserting: Bool = false) -> (count: Int, offset: Int) {
        let (node, offset) = unretainedLeaf(at: position, inserting: inserting)
        return (node._withUnsafeGuaranteedRef { unsafeDowncast($0, to: ItemListLeaf<Item>.self).count }, offset)
    }

    /// Runs `body` on the leaf holding item `position`, made unique (every shared node on the path is
    /// copied), after adding `delta` to the counts on the path. The leaf has room for `delta` more items.
    @inlinable
    mutating func modifyLeaf(at position: Int, delta: Int, _ body: (ItemListLeafHandle<Item>, Int) -> Void) {
        _count += delta
        Self.modify(&_root!, height: _height, position: position, inserting: false, delta: delta, body)
    }

    /// `modifyLeaf(at:delta:_:)` for an insertion at `position` (in `0 ... count`).
    @inlinable
    mutating func modifyLeaf(insertingAt position: Int, delta: Int, _ body: (ItemListLeafHandle<Item>, Int) -> Void) {
        _count += delta
        Self.modify(&_root!, height: _height, position: position, inserting: true, delta: delta, body)
    }

    @inlinable
    static func modify(
        _ node: inout ItemListNode, height: Int, position: Int, inserting: Bool, delta: Int,
        _ body: (ItemListLeafHandle<Item>, Int) -> Void
    ) {
        if height == 0 {
            let unique = isKnownUniquelyReferenced(&node)
            var leaf = unsafeDowncast(node, to: ItemListLeaf<Item>.self)
            let (count, room) = leaf.read { ($0.count, $0.room) }
            let needed = count + Swift.max(delta, 0)
            if !unique || room < needed {
                // A private copy is sized to grow (doubling); a copy made because of a snapshot, exactly.
                let capacity = unique ? Swift.min(ItemListLeaf<Item>.maxCount, Swift.max(needed, 2 * room)) : needed
                leaf = leaf.copy(capacity: capacity)
                node = leaf
            }
            leaf.update { body($0, position) }
            return
        }
        if !isKnownUniquelyReferenced(&node) {
            node = unsafeDowncast(node, to: ItemListInner.self).copy()
        }
        unsafeDowncast(node, to: ItemListInner.self).update { inner in
            let found = inserting ? inner.child(insertingAt: position) : inner.child(containing: position)
            inner.adjust(slot: found.slot, by: delta)
            if delta != 0 { inner.refreshEnds() }
            inner.withChild(found.slot) { child in
                modify(&child, height: height - 1, position: found.offset, inserting: inserting, delta: delta, body)
            }
        }
    }

    /// Inserts `items` (at most a leaf's worth) at `position`, where the leaf has no room for them,
    /// copying the shared nodes on the path: the leaf splits in two, and so on up while a parent overflows
    /// (a B-tree insertion).
    @inlinable
    mutating func insertSplittingPath(_ items: UnsafeBufferPointer<Item>, at position: Int) {
        _count += items.count
        guard let sibling = Self.insert(items, at: position, into: &_root!, height: _height) else { return }
        let old = _root.unsafelyUnwrapped
        _root = ItemListInner.make(height: _height + 1, slots: [
            ItemListTree<Item>.slot(old, height: _height), ItemListTree<Item>.slot(sibling, height: _height),
        ])
        _height += 1
    }

    /// Inserts `items` at `position` in the subtree of `node` (made unique first); returns the node's new
    /// right sibling when it split.
    @inlinable
    static func insert(
        _ items: UnsafeBufferPointer<Item>, at position: Int, into node: inout ItemListNode, height: Int
    ) -> ItemListNode? {
        if height == 0 {
            let (left, right) = split(unsafeDowncast(node, to: ItemListLeaf<Item>.self), inserting: items, at: position)
            node = left
            return right
        }
        if !isKnownUniquelyReferenced(&node) {
            node = unsafeDowncast(node, to: ItemListInner.self).copy()
        }
        // When this node splits: the node that takes its place, and its new right sibling.
        let split = unsafeDowncast(node, to: ItemListInner.self).update { inner -> (ItemListNode, ItemListNode)? in
            let found = inner.child(insertingAt: position)
            let sibling = inner.withChild(found.slot) { child in
                insert(items, at: found.offset, into: &child, height: height - 1)
            }
            guard let sibling else {
                inner.adjust(slot: found.slot, by: items.count)
                inner.refreshEnds()
                return nil
            }
            // The child split: its slot counts what it kept, the new slot after it the rest.
            let added = ItemListTree<Item>.slot(sibling, height: height - 1)
            inner.adjust(slot: found.slot, by: items.count - added.count)
            if inner.count < ItemListInner.maxCount {
                inner.insert(added, at: found.slot + 1)
                return nil
            }
            var all = Array(inner.slots)
            all.insert(added, at: found.slot + 1)
            let half = all.count / 2
            return (ItemListInner.make(height: height, slots: Array(all[..<half])),
                    ItemListInner.make(height: height, slots: Array(all[half...])))
        }
        guard let (left, right) = split else { return nil }
        node = left
        return right
    }

    /// `leaf`'s items with `items` inserted at `position`, as two new leaves, the first holding half (the
    /// leaf has no room for them, and together they fit in two).
    @inlinable
    static func split(
        _ leaf: ItemListLeaf<Item>, inserting items: UnsafeBufferPointer<Item>, at position: Int
    ) -> (ItemListLeaf<Item>, ItemListLeaf<Item>) {
        typealias Leaf = ItemListLeaf<Item>
        return leaf.read { leaf in
            let total = leaf.count + items.count
            precondition(total > Leaf.maxCount && total <= 2 * Leaf.maxCount)
            let before = UnsafeBufferPointer(rebasing: leaf.items[..<position])
            let after = UnsafeBufferPointer(rebasing: leaf.items[position...])
            let left = Leaf.make(capacity: total / 2), right = Leaf.make(capacity: total - total / 2)
            left.update { left in
                right.update { right in
                    var filled = 0
                    for piece in [before, items, after] {
                        let intoLeft = Swift.max(0, Swift.min(piece.count, total / 2 - filled))
                        left.append(copying: UnsafeBufferPointer(rebasing: piece[..<intoLeft]))
                        right.append(copying: UnsafeBufferPointer(rebasing: piece[intoLeft...]))
                        filled += piece.count
                    }
                }
            }
            return (left, right)
        }
    }

    /// Calls `body` with each item in `range`, in order: O(log n) per leaf, O(1) per item.
    @inlinable
    func forEach(in range: Range<Int>, _ body: (Item) -> Void) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count,
                     "ItemList range \(range) out of bounds 0..<\(count)")
        var position = range.lowerBound
        while position < range.upperBound {
            let (leaf, offset) = leaf(at: position)
            position += leaf.read { leaf in
                let end = Swift.min(leaf.count, offset + range.upperBound - position)
                for index in offset ..< end { body(leaf[index]) }
                return end - offset
            }
        }
    }

    /// Calls `body` with each leaf's items, in order. O(n).
    @inlinable
    func forEachLeaf(_ body: (UnsafeBufferPointer<Item>) -> Void) {
        guard let root = _root else { return }
        func visit(_ node: ItemListNode, _ height: Int) {
            if height == 0 {
                unsafeDowncast(node, to: ItemListLeaf<Item>.self).read { body($0.items) }
            } else {
                unsafeDowncast(node, to: ItemListInner.self).read { inner in
                    for slot in inner.slots { visit(slot.node, height - 1) }
                }
            }
        }
        visit(root, _height)
    }
}

// MARK: - Conformances

extension ItemList: Equatable where Item: Equatable {
    /// Whether both lists hold equal items in the same order. O(1) when both are the same snapshot, else O(n).
    @inlinable
    public static func == (lhs: ItemList, rhs: ItemList) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs._root === rhs._root { return true }
        return lhs.elementsEqual(rhs)
    }
}

extension ItemList: Hashable where Item: Hashable {
    /// Hashes the number of items and every item, in order (as `Array` does). O(n).
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for item in self { hasher.combine(item) }
    }
}

// A node is written only while the reference that leads to it is unique (`isKnownUniquelyReferenced`), and
// a list never writes a node another list can reach: it copies it first. So a list handed to another
// thread reads nodes that nobody writes any more, as with `Array`'s storage; no lock is needed.
extension ItemList: @unchecked Sendable where Item: Sendable {}

extension ItemList: CustomStringConvertible {
    /// The items, like an array's description.
    public var description: String { Array(self).description }
}
