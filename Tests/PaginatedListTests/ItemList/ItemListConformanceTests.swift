@testable import PaginatedList
import PaginatedListTesting
import Testing

/// An item 64 bytes wide: its leaves hold 16 items, so small lists already have three or four levels.
struct WideItem: Hashable, Sendable, CustomStringConvertible {
    var value: Int
    var padding: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)

    init(_ value: Int) { self.value = value }

    static func == (lhs: WideItem, rhs: WideItem) -> Bool { lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
    var description: String { "\(value)" }
}

/// One seeded case of the conformance checker: a random list, a random sequence of collection operations
/// applied to it and to an `Array` alike, and every check that both agree (contents, indices, distances,
/// slices, equality) and that the tree's invariants hold. Snapshots taken before each operation must not
/// change.
struct ConformanceCase<Item: Hashable> {
    let seed: UInt64
    let make: (Int) -> Item
    var random: SplitMix64
    var list: ItemList<Item> = []
    var array: [Item] = []
    var next = 0
    var failures: [String] = []
    var snapshots: [(ItemList<Item>, [Item])] = []

    init(seed: UInt64, make: @escaping (Int) -> Item) {
        self.seed = seed
        self.make = make
        random = SplitMix64(seed: seed)
    }

    mutating func below(_ bound: Int) -> Int { random.below(bound) }

    mutating func fresh(_ count: Int) -> [Item] {
        defer { next += count }
        return (next ..< next + count).map(make)
    }

    /// A size: mostly small, sometimes a few leaves, now and then large.
    mutating func size() -> Int {
        switch below(40) {
        case 0 ..< 20: below(6)
        case 20 ..< 32: below(40)
        case 32 ..< 39: below(300)
        default: below(2_500)
        }
    }

    mutating func index(inclusive: Bool) -> Int { below(array.count + (inclusive ? 1 : 0)) }

    mutating func range() -> Range<Int> {
        let a = index(inclusive: true), b = index(inclusive: true)
        let lower = min(a, b)
        // Often short, so that the in-leaf fast paths run.
        let upper = below(3) == 0 ? max(a, b) : min(max(a, b), lower + below(4))
        return lower ..< upper
    }

    mutating func run(operations: Int) {
        let initial = fresh(size())
        list = below(2) == 0 ? ItemList(initial) : ItemList(initial.lazy.map { $0 })   // contiguous or not
        array = initial
        check("init")
        for _ in 0 ..< operations {
            if below(3) == 0 { snapshots.append((list, array)) }
            let name = step()
            check(name)
            if !failures.isEmpty { return }
        }
        checkCollection()
        for (index, (snapshot, expected)) in snapshots.enumerated() where !snapshot.elementsEqual(expected) {
            failures.append("seed \(seed): snapshot \(index) changed")
        }
    }

    /// One random operation on both; returns its name.
    mutating func step() -> String {
        switch below(20) {
        case 0:
            let item = fresh(1)[0]
            list.append(item); array.append(item)
            return "append"
        case 1, 2:
            let items = fresh(size())
            list.append(contentsOf: items); array.append(contentsOf: items)
            return "append(contentsOf: \(items.count))"
        case 3:
            let at = index(inclusive: true), item = fresh(1)[0]
            list.insert(item, at: at); array.insert(item, at: at)
            return "insert(at: \(at))"
        case 4, 5:
            let at = index(inclusive: true), items = fresh(size())
            if below(2) == 0 {
                list.insert(contentsOf: items, at: at)
            } else {
                list.insert(contentsOf: AnySequenceCollection(items), at: at)   // not contiguous
            }
            array.insert(contentsOf: items, at: at)
            return "insert(contentsOf: \(items.count), at: \(at))"
        case 6:
            guard !array.isEmpty else { return "nothing" }
            let at = index(inclusive: false)
            let removed = list.remove(at: at), expected = array.remove(at: at)
            if removed != expected { failures.append("seed \(seed): remove(at: \(at)) returned \(removed), expected \(expected)") }
            return "remove(at: \(at))"
        case 7, 8:
            let range = range()
            list.removeSubrange(range); array.removeSubrange(range)
            return "removeSubrange(\(range))"
        case 9, 10:
            let range = range(), items = fresh(below(2) == 0 ? range.count : size())
            list.replaceSubrange(range, with: items); array.replaceSubrange(range, with: items)
            return "replaceSubrange(\(range), with: \(items.count))"
        case 11:
            guard !array.isEmpty else { return "nothing" }
            let at = index(inclusive: false), item = fresh(1)[0]
            list[at] = item; array[at] = item
            return "subscript set \(at)"
        case 12:
            guard !array.isEmpty else { return "nothing" }
            let k = below(array.count) + 1
            if below(2) == 0 {
                list.removeFirst(k); array.removeFirst(k)
                return "removeFirst(\(k))"
            }
            list.removeLast(k); array.removeLast(k)
            return "removeLast(\(k))"
        case 13:
            guard !array.isEmpty else { return "nothing" }
            let first = list.removeFirst(), expected = array.removeFirst()
            let last = list.popLast(), expectedLast = array.popLast()
            if first != expected || last != expectedLast { failures.append("seed \(seed): removeFirst/popLast returned the wrong items") }
            return "removeFirst, popLast"
        case 14:
            let range = range(), items = fresh(below(5))
            list[range] = ItemList(items)[...]; array[range] = items[...]
            return "slice set \(range)"
        case 15:
            guard array.count > 1 else { return "nothing" }
            let i = index(inclusive: false), j = index(inclusive: false)
            list.swapAt(i, j); array.swapAt(i, j)
            return "swapAt(\(i), \(j))"
        case 16:
            let modulus = below(5) + 2
            let drop: (Item) -> Bool = { $0.hashValue % modulus == 0 }
            list.removeAll(where: drop); array.removeAll(where: drop)
            return "removeAll(where:)"
        case 17:
            if below(4) == 0 {
                list.removeAll(); array.removeAll()
                return "removeAll"
            }
            let other = fresh(size())
            list += other; array += other
            return "+="
        case 18:
            let range = range()
            list.reverse(); array.reverse()
            list[range].reverse(); array[range].reverse()
            return "reverse"
        default:
            let item = fresh(1)[0], k = below(20)
            list = ItemList(repeating: item, count: k) + list; array = Array(repeating: item, count: k) + array
            return "init(repeating:count:) + list"
        }
    }

    mutating func check(_ operation: String) {
        let context = "seed \(seed), after \(operation)"
        if list.count != array.count { failures.append("\(context): count \(list.count), expected \(array.count)") }
        if !list.elementsEqual(array) { failures.append("\(context): items differ") }
        let problems = list.invariantViolations()
        if !problems.isEmpty { failures.append("\(context): \(problems.prefix(3))") }
    }

    /// Index validity, distance, slicing, equality and the reading APIs, against the array.
    mutating func checkCollection() {
        let context = "seed \(seed)"
        let n = array.count
        if list.startIndex != 0 || list.endIndex != n { failures.append("\(context): bounds \(list.startIndex)..<\(list.endIndex)") }
        if list.indices != array.indices { failures.append("\(context): indices") }
        if list.isEmpty != array.isEmpty || list.first != array.first || list.last != array.last {
            failures.append("\(context): first/last/isEmpty")
        }
        for _ in 0 ..< 8 {
            let i = index(inclusive: true), j = index(inclusive: true)
            if list.distance(from: i, to: j) != j - i { failures.append("\(context): distance(\(i), \(j))") }
            if list.index(i, offsetBy: j - i) != j { failures.append("\(context): index(\(i), offsetBy: \(j - i))") }
            if list.index(i, offsetBy: j - i, limitedBy: min(i, j)) != array.index(i, offsetBy: j - i, limitedBy: min(i, j)) {
                failures.append("\(context): index(_:offsetBy:limitedBy:)")
            }
            if i < n && list.index(after: i) != i + 1 { failures.append("\(context): index(after: \(i))") }
            if i > 0 && list.index(before: i) != i - 1 { failures.append("\(context): index(before: \(i))") }
            let lower = min(i, j), upper = max(i, j)
            let slice = list[lower ..< upper]
            if slice.startIndex != lower || slice.endIndex != upper || !slice.elementsEqual(array[lower ..< upper]) {
                failures.append("\(context): slice \(lower)..<\(upper)")
            }
            if !slice.reversed().elementsEqual(array[lower ..< upper].reversed()) {
                failures.append("\(context): reversed slice \(lower)..<\(upper)")
            }
            if i < n && (list[i] != array[i] || slice.first != array[lower ..< upper].first) {
                failures.append("\(context): subscript \(i)")
            }
        }
        var iterator = list.makeIterator()
        var iterated: [Item] = []
        while let item = iterator.next() { iterated.append(item) }
        if iterated != array || iterator.next() != nil { failures.append("\(context): iterator") }
        if Array(list) != array || list.map({ $0 }) != array { failures.append("\(context): Array(list)") }
        let rebuilt = ItemList(array)
        if rebuilt != list || rebuilt.hashValue != list.hashValue { failures.append("\(context): equality or hash with a rebuilt list") }
        if !array.isEmpty {
            var changed = array
            changed[index(inclusive: false)] = make(-1)
            if ItemList(changed) == list { failures.append("\(context): a changed list compares equal") }
        }
        if list.description != array.description { failures.append("\(context): description") }
    }
}

/// A collection that offers no contiguous storage, to take `ItemList`'s other path.
struct AnySequenceCollection<Element>: Collection {
    let base: [Element]
    init(_ base: [Element]) { self.base = base }
    var startIndex: Int { base.startIndex }
    var endIndex: Int { base.endIndex }
    subscript(position: Int) -> Element { base[position] }
    func index(after i: Int) -> Int { i + 1 }
}

@Suite("ItemList conformance")
struct ItemListConformanceTests {
    @Test func tenThousandSeededCasesAgreeWithArray() {
        var failures: [String] = []
        for seed in 0 ..< UInt64(seededRunCount(5_000)) {
            var ints = ConformanceCase<Int>(seed: seed) { $0 }
            ints.run(operations: 8)
            var wide = ConformanceCase<WideItem>(seed: seed &+ 1_000_000) { WideItem($0) }
            wide.run(operations: 8)
            failures += ints.failures + wide.failures
            if failures.count > 10 { break }
        }
        #expect(failures.isEmpty, "\(failures.prefix(10).joined(separator: "\n"))")
    }

    @Test func deepTreesStayBalancedThroughLongEditSequences() {
        // Wide items: leaves of 16, so 20,000 items make a tree of four or five levels.
        var random = SplitMix64(seed: 7)
        var list = ItemList((0 ..< 20_000).map(WideItem.init))
        var array = Array(list)
        var next = 20_000
        for step in 0 ..< 2_000 {
            let at = Int(random.next() % UInt64(array.count + 1))
            switch random.next() % 4 {
            case 0:
                let items = (next ..< next + 20).map(WideItem.init)
                next += 20
                list.insert(contentsOf: items, at: at); array.insert(contentsOf: items, at: at)
            case 1:
                let range = at ..< min(array.count, at + Int(random.next() % 50))
                list.removeSubrange(range); array.removeSubrange(range)
            case 2:
                guard at < array.count else { continue }
                list.remove(at: at); array.remove(at: at)
            default:
                guard at < array.count else { continue }
                list[at] = WideItem(next); array[at] = WideItem(next)
                next += 1
            }
            if step % 100 == 0 {
                #expect(list.invariantViolations().isEmpty)
                #expect(list.elementsEqual(array))
            }
        }
        #expect(list.levels >= 4)
        #expect(list.invariantViolations().isEmpty)
        #expect(list.elementsEqual(array))
    }
}
