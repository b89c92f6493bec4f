// The algorithms of `ItemList`'s tree: building from a buffer, joining two trees, splitting one at an
// offset. They never write a node they were given; they make new nodes for what changes and share the rest,
// so every tree they were given stays intact (that is what makes snapshots cheap).
//
// Invariants (checked by `ItemList.invariantViolations()`):
// - every leaf is at height 0, every child of a node at height h is at height h - 1;
// - a leaf other than the root holds `ItemListLeaf.minCount ... maxCount` items, the root leaf 1 ... maxCount;
// - an inner node other than the root has `ItemListInner.minCount ... maxCount` children, the root 2 ... maxCount;
// - each slot's count is the number of items under its child; an inner node's total is their sum.

/// A non-empty tree, or subtree: its top node, the node's height, and the items under it.
// Inlinable: appends and edits specialise for the client's `Item` (`Benchmarks itemlist`, append and edit rows).
@usableFromInline
struct ItemListTree<Item> {
    @usableFromInline
    typealias Leaf = ItemListLeaf<Item>
    @usableFromInline
    typealias Inner = ItemListInner
    @usableFromInline
    typealias Slot = ItemListSlot

    @usableFromInline let node: ItemListNode
    @usableFromInline let height: Int
    @usableFromInline let count: Int

    @inlinable
    init(node: ItemListNode, height: Int, count: Int) {
        self.node = node
        self.height = height
        self.count = count
    }

    @inlinable
    init(leaf: Leaf) {
        self.init(node: leaf, height: 0, count: leaf.count)
    }

    // MARK: - Nodes

    @inlinable
    static func leaf(_ node: ItemListNode) -> Leaf { unsafeDowncast(node, to: Leaf.self) }
    @inlinable
    static func inner(_ node: ItemListNode) -> Inner { unsafeDowncast(node, to: Inner.self) }

    /// The items under `node`.
    @inlinable
    static func total(_ node: ItemListNode, height: Int) -> Int {
        height == 0 ? leaf(node).count : inner(node).total
    }

    /// The entries of `node`: items of a leaf, children of an inner node.
    @inlinable
    static func entries(_ node: ItemListNode, height: Int) -> Int {
        height == 0 ? leaf(node).count : inner(node).count
    }

    @inlinable
    static func slot(_ node: ItemListNode, height: Int) -> Slot {
        Slot(node: node, count: total(node, height: height))
    }

    /// The tree made of `slots` (children at `height - 1`): none, the only child, or a new node.
    @inlinable
    static func tree(of slots: ArraySlice<Slot>, height: Int) -> ItemListTree? {
        switch slots.count {
        case 0: return nil
        case 1: return ItemListTree(node: slots.first!.node, height: height - 1, count: slots.first!.count)
        default:
            let inner = Inner.make(height: height, slots: Array(slots))
            return ItemListTree(node: inner, height: height, count: inner.total)
        }
    }

    // MARK: - Building

    /// A tree holding copies of `items`, in order, in O(`items.count`); `nil` when `items` is empty.
    /// Leaves are filled evenly, so every one but a lone root holds at least `Leaf.minCount` items.
    @inlinable
    static func build(_ items: UnsafeBufferPointer<Item>) -> ItemListTree? {
        guard !items.isEmpty else { return nil }
        // One leaf (a page, most edits): no arrays of ranges and slots.
        if items.count <= Leaf.maxCount { return ItemListTree(leaf: Leaf.make(copying: items)) }
        var level: [Slot] = []
        level.reserveCapacity(chunks(items.count, max: Leaf.maxCount))
        for range in evenRanges(items.count, max: Leaf.maxCount) {
            let leaf = Leaf.make(copying: UnsafeBufferPointer(rebasing: items[range]))
            level.append(Slot(node: leaf, count: leaf.count))
        }
        var height = 0
        while level.count > 1 {
            height += 1
            var parents: [Slot] = []
            parents.reserveCapacity(chunks(level.count, max: Inner.maxCount))
            for range in evenRanges(level.count, max: Inner.maxCount) {
                let inner = Inner.make(height: height, slots: Array(level[range]))
                parents.append(Slot(node: inner, count: inner.total))
            }
            level = parents
        }
        return ItemListTree(node: level[0].node, height: height, count: items.count)
    }

    @inlinable
    static func chunks(_ count: Int, max: Int) -> Int { (count + max - 1) / max }

    /// `count` entries cut into the fewest ranges of at most `max`, their sizes differing by at most one
    /// (so each holds at least `max / 2` when there are two or more).
    @inlinable
    static func evenRanges(_ count: Int, max: Int) -> [Range<Int>] {
        let pieces = chunks(count, max: max)
        guard pieces > 0 else { return [] }
        let size = count / pieces, extra = count % pieces
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(pieces)
        var start = 0
        for piece in 0 ..< pieces {
            let end = start + size + (piece < extra ? 1 : 0)
            ranges.append(start ..< end)
            start = end
        }
        return ranges
    }

    // MARK: - Joining

    /// The tree holding `a`'s items then `b`'s. O(|height difference| + 1) new nodes on the seam.
    @inlinable
    static func join(_ a: ItemListTree?, _ b: ItemListTree?) -> ItemListTree? {
        guard let a else { return b }
        guard let b else { return a }
        let count = a.count + b.count
        let height = Swift.max(a.height, b.height)
        let joined: (ItemListNode, ItemListNode?)
        if a.height == b.height {
            joined = mergeOrBalance(a.node, b.node, height: height)
        } else if a.height > b.height {
            joined = joinRight(a.node, height: a.height, b)
        } else {
            joined = joinLeft(a, b.node, height: b.height)
        }
        guard let second = joined.1 else { return ItemListTree(node: joined.0, height: height, count: count) }
        let root = Inner.make(height: height + 1, slots: [slot(joined.0, height: height), slot(second, height: height)])
        return ItemListTree(node: root, height: height + 1, count: count)
    }

    /// `b` (shorter) joined after the last child of `node` (at `height`): one or two nodes at `height`.
    @inlinable
    static func joinRight(_ node: ItemListNode, height: Int, _ b: ItemListTree) -> (ItemListNode, ItemListNode?) {
        let parent = inner(node)
        let last = parent.read { $0[$0.count - 1] }
        let (x, y) = height - 1 == b.height
            ? mergeOrBalance(last.node, b.node, height: b.height)
            : joinRight(last.node, height: height - 1, b)
        return parent.read { parent in
            let kept = UnsafeBufferPointer(rebasing: parent.slots.dropLast())
            guard kept.count + (y == nil ? 1 : 2) <= Inner.maxCount else {
                var slots = Array(kept)
                slots.append(slot(x, height: height - 1))
                if let y { slots.append(slot(y, height: height - 1)) }
                return pack(slots, height: height)
            }
            // Built in place when it fits (most appends): an array of the slots first cost a retain and a
            // release per child on every level (`Benchmarks itemlist`, append and view model rows), and so
            // would a slot made before it is stored.
            let joined = Inner.make(height: height, slots: kept)
            joined.update { joined in
                joined.append(slot(x, height: height - 1))
                if let y { joined.append(slot(y, height: height - 1)) }
            }
            return (joined, nil)
        }
    }

    /// `a` (shorter) joined before the first child of `node` (at `height`): one or two nodes at `height`.
    @inlinable
    static func joinLeft(_ a: ItemListTree, _ node: ItemListNode, height: Int) -> (ItemListNode, ItemListNode?) {
        let parent = inner(node)
        let first = parent.read { $0[0] }
        let (x, y) = height - 1 == a.height
            ? mergeOrBalance(a.node, first.node, height: a.height)
            : joinLeft(a, first.node, height: height - 1)
        return parent.read { parent in
            let kept = UnsafeBufferPointer(rebasing: parent.slots.dropFirst())
            guard kept.count + (y == nil ? 1 : 2) <= Inner.maxCount else {
                var slots = [slot(x, height: height - 1)]
                if let y { slots.append(slot(y, height: height - 1)) }
                slots.append(contentsOf: kept)
                return pack(slots, height: height)
            }
            // Built in place when it fits, as in `joinRight`.
            let joined = Inner.make(height: height, slots: UnsafeBufferPointer(start: nil, count: 0))
            joined.update { joined in
                joined.append(slot(x, height: height - 1))
                if let y { joined.append(slot(y, height: height - 1)) }
                joined.append(copying: kept)
            }
            return (joined, nil)
        }
    }

    /// `slots` (at most twice the maximum) as one inner node at `height`, or two balanced ones.
    @inlinable
    static func pack(_ slots: [Slot], height: Int) -> (ItemListNode, ItemListNode?) {
        guard slots.count > Inner.maxCount else { return (Inner.make(height: height, slots: slots), nil) }
        let half = slots.count / 2
        return (Inner.make(height: height, slots: Array(slots[..<half])),
                Inner.make(height: height, slots: Array(slots[half...])))
    }

    /// Two adjacent nodes at `height` whose children (if any) are valid: left as they are when both are full
    /// enough, else merged into one node or rebalanced into two that both are.
    @inlinable
    static func mergeOrBalance(_ a: ItemListNode, _ b: ItemListNode, height: Int) -> (ItemListNode, ItemListNode?) {
        if height > 0 {
            let x = inner(a), y = inner(b)
            if x.count >= Inner.minCount && y.count >= Inner.minCount { return (a, b) }
            return pack(x.read { Array($0.slots) } + y.read { Array($0.slots) }, height: height)
        }
        let x = leaf(a), y = leaf(b)
        return x.read { x in
            y.read { y in
                if x.count >= Leaf.minCount && y.count >= Leaf.minCount { return (a, b) }
                let total = x.count + y.count
                if total <= Leaf.maxCount { return (concatenation(x, y, 0 ..< total), nil) }
                let half = total / 2
                return (concatenation(x, y, 0 ..< half), concatenation(x, y, half ..< total))
            }
        }
    }

    /// A new leaf holding the items `range` of `x`'s items followed by `y`'s.
    @inlinable
    static func concatenation(_ x: ItemListLeafHandle<Item>, _ y: ItemListLeafHandle<Item>, _ range: Range<Int>) -> Leaf {
        let leaf = Leaf.make(capacity: range.count)
        leaf.update { leaf in
            let inX = range.clamped(to: 0 ..< x.count)
            if !inX.isEmpty { leaf.append(copying: UnsafeBufferPointer(rebasing: x.items[inX])) }
            let inY = range.clamped(to: x.count ..< x.count + y.count)
            if !inY.isEmpty {
                leaf.append(copying: UnsafeBufferPointer(rebasing: y.items[(inY.lowerBound - x.count) ..< (inY.upperBound - x.count)]))
            }
        }
        return leaf
    }

    // MARK: - Splitting

    /// The items before `offset` and the items from `offset` on, as two trees. O(log n) new nodes.
    @inlinable
    static func split(_ tree: ItemListTree, at offset: Int) -> (ItemListTree?, ItemListTree?) {
        precondition(offset >= 0 && offset <= tree.count)
        if offset == 0 { return (nil, tree) }
        if offset == tree.count { return (tree, nil) }
        return split(tree.node, height: tree.height, at: offset)
    }

    /// `node` split at `offset` (strictly inside it).
    @inlinable
    static func split(_ node: ItemListNode, height: Int, at offset: Int) -> (ItemListTree?, ItemListTree?) {
        if height == 0 {
            return leaf(node).read { leaf in
                let left = Leaf.make(copying: UnsafeBufferPointer(rebasing: leaf.items[..<offset]))
                let right = Leaf.make(copying: UnsafeBufferPointer(rebasing: leaf.items[offset...]))
                return (ItemListTree(leaf: left), ItemListTree(leaf: right))
            }
        }
        let (slots, found) = inner(node).read { (Array($0.slots), $0.child(containing: offset)) }
        let (index, inChild) = found
        if inChild == 0 {
            return (tree(of: slots[..<index], height: height), tree(of: slots[index...], height: height))
        }
        let (childLeft, childRight) = split(slots[index].node, height: height - 1, at: inChild)
        return (join(tree(of: slots[..<index], height: height), childLeft),
                join(childRight, tree(of: slots[(index + 1)...], height: height)))
    }
}
