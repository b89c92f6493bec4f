/// Where each item of a list is, in O(log n), however many items were inserted or removed above it.
///
/// Items are named by handles: small integers their owner (`ItemIdentities`) gives them, one per held
/// item. The handles are kept in list order in a B+tree whose nodes know their parent and the number of
/// handles under each child; an array gives the leaf that holds each handle. The position of a handle is
/// its offset in its leaf plus, on the way up to the root, the counts of the children left of the path.
/// Inserting or removing k handles is O(k + log n): the counts on one path change, and splits or merges
/// move at most a node's worth of handles between leaves (their leaf entries follow).
///
/// Not generic, so that all of it is compiled for its one type: no run-time generic metadata on the
/// way. A reference type that the view model's item store owns alone (it copies it before writing if it
/// is ever shared: `copy()`); it mirrors the store's `ItemList`, which is the persistent part, and is
/// never handed to another thread or snapshot.
final class IDPositions: InvariantChecking {
    final class Node {
        /// A leaf's handles, in order.
        @exclusivity(unchecked) var handles: ContiguousArray<Int> = []
        /// An inner node's children, in order, and the number of handles under each.
        @exclusivity(unchecked) var children: ContiguousArray<Node> = []
        @exclusivity(unchecked) var counts: ContiguousArray<Int> = []
        /// The node's parent; `nil` for the root. Unowned: a parent holds its children, the tree its root.
        @exclusivity(unchecked) unowned(unsafe) var parent: Node?
        let isLeaf: Bool

        init(isLeaf: Bool) {
            self.isLeaf = isLeaf
        }

        /// Handles of a leaf, children of an inner node.
        var size: Int { isLeaf ? handles.count : children.count }

        /// The handles under this node. O(1) for a leaf, O(children) for an inner node.
        var total: Int { isLeaf ? handles.count : counts.reduce(0, +) }

        /// The index of `child` among the children. O(children).
        func index(of child: Node) -> Int {
            var index = 0
            while children[index] !== child { index += 1 }
            return index
        }
    }

    /// The most handles of a leaf, and children of an inner node. Nodes other than the root hold at least
    /// a quarter of that (splits leave at least half; a node below a quarter merges with or borrows from
    /// a sibling).
    static var leafCapacity: Int { 64 }
    static var innerCapacity: Int { 32 }

    @exclusivity(unchecked) private(set) var root = Node(isLeaf: true)
    @exclusivity(unchecked) private(set) var count = 0
    /// The leaf holding each handle (`nil` for a handle not held), indexed by handle. Unretained: the tree
    /// holds every node, and a handle's entry changes whenever its handle moves to another leaf or goes;
    /// so recording a leaf for each handle of a page costs no reference counting.
    @exclusivity(unchecked) private var leaves: ContiguousArray<Unmanaged<Node>?> = []

    init() {}

    /// A copy that shares nothing with this index. O(n).
    func copy() -> IDPositions {
        let copy = IDPositions()
        copy.insert(allHandles(), at: 0)
        return copy
    }

    // MARK: - Reading

    /// Whether `handle` is held. O(1).
    func contains(_ handle: Int) -> Bool {
        handle >= 0 && handle < leaves.count && leaves[handle] != nil
    }

    /// The position of `handle`, which must be held. O(log n).
    func position(of handle: Int) -> Int {
        let leaf = leaves[handle].unsafelyUnwrapped.takeUnretainedValue()
        var position = leaf.handles.firstIndex(of: handle)!
        var node = leaf
        while let parent = node.parent {
            var index = 0
            while parent.children[index] !== node {
                position += parent.counts[index]
                index += 1
            }
            node = parent
        }
        return position
    }

    /// The handle at `position` (in `0 ..< count`). O(log n).
    func handle(at position: Int) -> Int {
        let (leaf, offset) = leaf(containing: position)
        return leaf.handles[offset]
    }

    /// The leaf holding the handle at `position` (in `0 ..< count`), and its offset there. O(log n).
    private func leaf(containing position: Int) -> (Node, Int) {
        var node = root
        var offset = position
        while !node.isLeaf {
            var index = 0
            while offset >= node.counts[index] {
                offset -= node.counts[index]
                index += 1
            }
            node = node.children[index]
        }
        return (node, offset)
    }

    /// Every handle, in order. O(n).
    func allHandles() -> ContiguousArray<Int> {
        var handles = ContiguousArray<Int>()
        handles.reserveCapacity(count)
        func visit(_ node: Node) {
            if node.isLeaf { handles.append(contentsOf: node.handles) } else { node.children.forEach(visit) }
        }
        visit(root)
        return handles
    }

    // MARK: - Editing

    /// Inserts `handles` at `position` (in `0 ... count`). None of them may be held, and they must be
    /// distinct.
    func insert<C: Collection>(_ handles: C, at position: Int) where C.Element == Int {
        precondition(position >= 0 && position <= count, "IDPositions: position \(position) out of 0...\(count)")
        let added = handles.count
        guard added > 0 else { return }
        count += added
        var node = root
        var offset = position
        while !node.isLeaf {
            var index = 0
            while index < node.children.count - 1 && offset > node.counts[index] {
                offset -= node.counts[index]
                index += 1
            }
            node.counts[index] += added
            node = node.children[index]
        }
        let atEnd = offset == node.handles.count
        node.handles.insert(contentsOf: handles, at: offset)
        // The leaf of every new handle: room for the largest once, then plain stores.
        var largest = -1
        for handle in handles where handle > largest { largest = handle }
        if largest >= leaves.count {
            leaves.append(contentsOf: repeatElement(nil, count: Swift.max(largest + 1 - leaves.count, leaves.count)))
        }
        let leaf = Unmanaged.passUnretained(node)
        leaves.withUnsafeMutableBufferPointer { leaves in
            for handle in handles { leaves[handle] = leaf }
        }
        if node.handles.count > Self.leafCapacity { split(node, fillingLeft: atEnd) }
        _checkInvariants()
    }

    /// Removes the handles at positions `range`; returns them, in order.
    @discardableResult
    func removeSubrange(_ range: Range<Int>) -> ContiguousArray<Int> {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "IDPositions: range \(range) out of 0..<\(count)")
        var removedHandles = ContiguousArray<Int>()
        removedHandles.reserveCapacity(range.count)
        var remaining = range.count
        while remaining > 0 {
            let (node, offset) = leaf(containing: range.lowerBound)
            let removed = Swift.min(remaining, node.handles.count - offset)
            for handle in node.handles[offset ..< offset + removed] {
                leaves[handle] = nil
                removedHandles.append(handle)
            }
            node.handles.removeSubrange(offset ..< offset + removed)
            var child = node
            while let parent = child.parent {
                parent.counts[parent.index(of: child)] -= removed
                child = parent
            }
            count -= removed
            remaining -= removed
            rebalance(node)
            while !root.isLeaf && root.children.count == 1 {
                root = root.children[0]
                root.parent = nil
            }
        }
        _checkInvariants()
        return removedHandles
    }

    /// Removes every handle. O(1) (plus freeing the nodes).
    func removeAll() {
        root = Node(isLeaf: true)
        count = 0
        leaves = []
    }

    // MARK: - Balance

    /// Splits an overfull `node` into as few nodes as fit, the first staying `node`: evenly, or (after an
    /// insertion at its end, as when pages are appended) as full as possible from the left, so that a
    /// growing list leaves full leaves behind and moves no handle twice.
    private func split(_ node: Node, fillingLeft: Bool) {
        let capacity = node.isLeaf ? Self.leafCapacity : Self.innerCapacity
        let size = node.size
        let sizes = fillingLeft ? Self.leftFilledSizes(size, capacity: capacity) : Self.evenSizes(size, capacity: capacity)
        var siblings: [Node] = []
        siblings.reserveCapacity(sizes.count - 1)
        var start = sizes[0]
        for piece in sizes.dropFirst() {
            let sibling = Node(isLeaf: node.isLeaf)
            if node.isLeaf {
                sibling.handles.append(contentsOf: node.handles[start ..< start + piece])
                for handle in sibling.handles { leaves[handle] = Unmanaged.passUnretained(sibling) }
            } else {
                sibling.children.append(contentsOf: node.children[start ..< start + piece])
                sibling.counts.append(contentsOf: node.counts[start ..< start + piece])
                for child in sibling.children { child.parent = sibling }
            }
            siblings.append(sibling)
            start += piece
        }
        if node.isLeaf {
            node.handles.removeSubrange(sizes[0]...)
        } else {
            node.children.removeSubrange(sizes[0]...)
            node.counts.removeSubrange(sizes[0]...)
        }
        let parent: Node
        let index: Int
        if let existing = node.parent {
            parent = existing
            index = parent.index(of: node)
            parent.counts[index] = node.total
        } else {
            parent = Node(isLeaf: false)
            parent.children = [node]
            parent.counts = [node.total]
            node.parent = parent
            root = parent
            index = 0
        }
        for sibling in siblings { sibling.parent = parent }
        parent.children.insert(contentsOf: siblings, at: index + 1)
        parent.counts.insert(contentsOf: siblings.map(\.total), at: index + 1)
        if parent.children.count > Self.innerCapacity {
            split(parent, fillingLeft: fillingLeft && index + siblings.count == parent.children.count - 1)
        }
    }

    /// After a removal from `node`: while a node other than the root holds fewer than a quarter of its
    /// capacity, merges it with a sibling, or moves entries over from the sibling.
    private func rebalance(_ node: Node) {
        var node = node
        while let parent = node.parent {
            let capacity = node.isLeaf ? Self.leafCapacity : Self.innerCapacity
            guard node.size < capacity / 4 else { return }
            let index = parent.index(of: node)
            let left = index > 0 ? index - 1 : index
            let a = parent.children[left], b = parent.children[left + 1]
            if a.size + b.size <= capacity {
                move(b.size, from: b, toEndOf: a)
                parent.counts[left] += parent.counts[left + 1]
                parent.children.remove(at: left + 1)
                parent.counts.remove(at: left + 1)
                node = parent
                continue
            }
            let half = (a.size + b.size) / 2
            if a.size < half {
                let moved = move(half - a.size, from: b, toEndOf: a)
                parent.counts[left] += moved
                parent.counts[left + 1] -= moved
            } else {
                let moved = move(a.size - half, fromEndOf: a, toStartOf: b)
                parent.counts[left] -= moved
                parent.counts[left + 1] += moved
            }
            return
        }
    }

    /// Moves the first `entries` entries of `source` to the end of `target` (its right-hand neighbour);
    /// returns the number of handles moved.
    @discardableResult
    private func move(_ entries: Int, from source: Node, toEndOf target: Node) -> Int {
        if source.isLeaf {
            target.handles.append(contentsOf: source.handles[..<entries])
            for handle in source.handles[..<entries] { leaves[handle] = Unmanaged.passUnretained(target) }
            source.handles.removeSubrange(..<entries)
            return entries
        }
        let moved = source.counts[..<entries].reduce(0, +)
        for child in source.children[..<entries] { child.parent = target }
        target.children.append(contentsOf: source.children[..<entries])
        target.counts.append(contentsOf: source.counts[..<entries])
        source.children.removeSubrange(..<entries)
        source.counts.removeSubrange(..<entries)
        return moved
    }

    /// Moves the last `entries` entries of `source` to the start of `target` (its left-hand neighbour);
    /// returns the number of handles moved.
    private func move(_ entries: Int, fromEndOf source: Node, toStartOf target: Node) -> Int {
        if source.isLeaf {
            let range = (source.handles.count - entries)...
            target.handles.insert(contentsOf: source.handles[range], at: 0)
            for handle in source.handles[range] { leaves[handle] = Unmanaged.passUnretained(target) }
            source.handles.removeSubrange(range)
            return entries
        }
        let range = (source.children.count - entries)...
        let moved = source.counts[range].reduce(0, +)
        for child in source.children[range] { child.parent = target }
        target.children.insert(contentsOf: source.children[range], at: 0)
        target.counts.insert(contentsOf: source.counts[range], at: 0)
        source.children.removeSubrange(range)
        source.counts.removeSubrange(range)
        return moved
    }

    /// `size` cut into the fewest pieces of at most `capacity`, evenly.
    static func evenSizes(_ size: Int, capacity: Int) -> [Int] {
        let pieces = (size + capacity - 1) / capacity
        return (0 ..< pieces).map { size / pieces + ($0 < size % pieces ? 1 : 0) }
    }

    /// `size` cut into full pieces of `capacity` and a last one, which takes from the one before it what
    /// it needs to hold the minimum (a quarter).
    static func leftFilledSizes(_ size: Int, capacity: Int) -> [Int] {
        var sizes = Array(repeating: capacity, count: size / capacity)
        let rest = size % capacity
        if rest > 0 { sizes.append(rest) }
        if sizes.count >= 2, sizes[sizes.count - 1] < capacity / 4 {
            let needed = capacity / 4 - sizes[sizes.count - 1]
            sizes[sizes.count - 2] -= needed
            sizes[sizes.count - 1] += needed
        }
        return sizes
    }

    // MARK: - Checking

    /// The index in a few words, for the message of a violation (`InvariantChecking`).
    var invariantContext: String { "\(count) handles" }

    /// What is wrong with the index, if anything: parent links, counts, node sizes, and the leaf of each
    /// handle. O(n); for tests.
    func invariantViolations() -> [String] {
        var problems: [String] = []
        var seen = 0
        func check(_ node: Node, path: String) -> Int {
            let capacity = node.isLeaf ? Self.leafCapacity : Self.innerCapacity
            let minimum = node === root ? (node.isLeaf ? 0 : 2) : capacity / 4
            if node.size < minimum || node.size > capacity {
                problems.append("\(path): size \(node.size), expected \(minimum)...\(capacity)")
            }
            if node.isLeaf {
                for handle in node.handles where handle >= leaves.count || leaves[handle]?.takeUnretainedValue() !== node {
                    problems.append("\(path): handle \(handle) maps to another leaf")
                }
                seen += node.handles.count
                return node.handles.count
            }
            if node.children.count != node.counts.count { problems.append("\(path): children and counts differ in number") }
            var total = 0
            for (index, child) in node.children.enumerated() {
                if child.parent !== node { problems.append("\(path)/\(index): wrong parent") }
                if child.isLeaf != node.children[0].isLeaf { problems.append("\(path)/\(index): leaves at different depths") }
                let counted = check(child, path: "\(path)/\(index)")
                if index < node.counts.count, counted != node.counts[index] {
                    problems.append("\(path)/\(index): count \(node.counts[index]), holds \(counted)")
                }
                total += counted
            }
            return total
        }
        if root.parent != nil { problems.append("the root has a parent") }
        let total = check(root, path: "root")
        if total != count { problems.append("count \(count), tree holds \(total)") }
        let mapped = leaves.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
        if mapped != seen { problems.append("\(mapped) handles mapped, \(seen) held") }
        return problems
    }
}
