// Checked after every edit with `PAGINATEDLIST_INTERNAL_CHECKS` (O(n)).
extension ItemList: InvariantChecking {
    @usableFromInline
    var invariantContext: String { "\(count) items, height \(_height)" }

    /// What is wrong with the tree's structure, if anything (empty when every invariant of
    /// `ItemListTree` holds): node sizes, heights, counts. O(n); for tests.
    @usableFromInline
    func invariantViolations() -> [String] {
        var problems: [String] = []
        guard let root = _root else {
            if count != 0 || _height != 0 { problems.append("empty list with count \(count), height \(_height)") }
            return problems
        }
        func check(_ node: ItemListNode, height: Int, isRoot: Bool, path: String) -> Int {
            if height == 0 {
                guard let leaf = node as? ItemListLeaf<Item> else {
                    problems.append("\(path): expected a leaf")
                    return 0
                }
                let minimum = isRoot ? 1 : ItemListLeaf<Item>.minCount
                let (count, room) = leaf.read { ($0.count, $0.room) }
                if count < minimum || count > ItemListLeaf<Item>.maxCount {
                    problems.append("\(path): leaf of \(count) items, expected \(minimum)...\(ItemListLeaf<Item>.maxCount)")
                }
                if count > room { problems.append("\(path): leaf of \(count) items with room for \(room)") }
                return count
            }
            guard let inner = node as? ItemListInner else {
                problems.append("\(path): expected an inner node")
                return 0
            }
            let (innerHeight, slots, innerTotal, ends) = inner.read { inner in
                (inner.height, Array(inner.slots), inner.total, inner.withEnds { Array($0) })
            }
            if innerHeight != height { problems.append("\(path): inner node of height \(innerHeight) at height \(height)") }
            let minimum = isRoot ? 2 : ItemListInner.minCount
            if slots.count < minimum || slots.count > ItemListInner.maxCount {
                problems.append("\(path): \(slots.count) children, expected \(minimum)...\(ItemListInner.maxCount)")
            }
            var total = 0
            for (index, slot) in slots.enumerated() {
                let counted = check(slot.node, height: height - 1, isRoot: false, path: "\(path)/\(index)")
                if counted != slot.count { problems.append("\(path)/\(index): slot count \(slot.count), subtree holds \(counted)") }
                total += counted
            }
            if total != innerTotal { problems.append("\(path): total \(innerTotal), children hold \(total)") }
            var end = 0
            for (index, entry) in ends.enumerated() {
                if index > 0 { end = index <= slots.count ? end + slots[index - 1].count : Int.max }
                if entry != end { problems.append("\(path): running total \(index) is \(entry), expected \(end)") }
            }
            return total
        }
        let total = check(root, height: _height, isRoot: true, path: "root")
        if total != count { problems.append("count \(count), tree holds \(total)") }
        return problems
    }

    /// The identities of the tree's nodes, for tests of structural sharing. O(n / leaf size).
    func nodeIdentifiers() -> [ObjectIdentifier] {
        var identifiers: [ObjectIdentifier] = []
        guard let root = _root else { return identifiers }
        func visit(_ node: ItemListNode, _ height: Int) {
            identifiers.append(ObjectIdentifier(node))
            guard height > 0 else { return }
            for slot in unsafeDowncast(node, to: ItemListInner.self).read({ Array($0.slots) }) { visit(slot.node, height - 1) }
        }
        visit(root, _height)
        return identifiers
    }

    /// The number of levels of the tree (0 when empty, 1 for a single leaf).
    var levels: Int { _root == nil ? 0 : _height + 1 }
}
