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
        // The path to the node being checked, as child indexes from the root: written out (`root/0/3`) only
        // for a problem, not for every node. Slots and running totals are read in place, not copied.
        var path: [Int] = []
        func at(_ child: Int? = nil) -> String {
            (["root"] + path.map(String.init) + (child.map { [String($0)] } ?? [])).joined(separator: "/")
        }
        func check(_ node: ItemListNode, height: Int, isRoot: Bool) -> Int {
            if height == 0 {
                guard let leaf = node as? ItemListLeaf<Item> else {
                    problems.append("\(at()): expected a leaf")
                    return 0
                }
                let minimum = isRoot ? 1 : ItemListLeaf<Item>.minCount
                let (count, room) = leaf.read { ($0.count, $0.room) }
                if count < minimum || count > ItemListLeaf<Item>.maxCount {
                    problems.append("\(at()): leaf of \(count) items, expected \(minimum)...\(ItemListLeaf<Item>.maxCount)")
                }
                if count > room { problems.append("\(at()): leaf of \(count) items with room for \(room)") }
                return count
            }
            guard let inner = node as? ItemListInner else {
                problems.append("\(at()): expected an inner node")
                return 0
            }
            return inner.read { inner in
                let slots = inner.slots
                if inner.height != height { problems.append("\(at()): inner node of height \(inner.height) at height \(height)") }
                let minimum = isRoot ? 2 : ItemListInner.minCount
                if slots.count < minimum || slots.count > ItemListInner.maxCount {
                    problems.append("\(at()): \(slots.count) children, expected \(minimum)...\(ItemListInner.maxCount)")
                }
                var total = 0
                for (index, slot) in slots.enumerated() {
                    path.append(index)
                    let counted = check(slot.node, height: height - 1, isRoot: false)
                    path.removeLast()
                    if counted != slot.count { problems.append("\(at(index)): slot count \(slot.count), subtree holds \(counted)") }
                    total += counted
                }
                if total != inner.total { problems.append("\(at()): total \(inner.total), children hold \(total)") }
                inner.withEnds { ends in
                    var end = 0
                    for (index, entry) in ends.enumerated() {
                        if index > 0 { end = index <= slots.count ? end + slots[index - 1].count : Int.max }
                        if entry != end { problems.append("\(at()): running total \(index) is \(entry), expected \(end)") }
                    }
                }
                return total
            }
        }
        let total = check(root, height: _height, isRoot: true)
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
