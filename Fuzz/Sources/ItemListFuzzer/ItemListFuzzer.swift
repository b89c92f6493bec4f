// `ItemList` (the persistent B-tree of the view model's items, on raw node memory with manual
// retain/release) under any sequence of collection operations, against `Array`. The input is read by
// `FuzzInput`: the item kind (8-byte integers; 64-byte items holding a counted object, so that leaves hold
// 16 items and small lists are deep), a first list, then operations until the input ends (at most 96).
//
// Properties:
// - after every operation the list equals the array and the tree's invariants hold (node sizes,
//   heights, counts, running totals);
// - snapshots taken before operations never change (structural sharing copies only what it writes);
// - at the end, indices, distances, slices, iteration, equality and hashing agree with the array;
// - when everything is dropped, every item the list held is released (none leaked, none freed twice:
//   the address sanitizer stops at a use after free).
import FuzzSupport
import Glibc
@testable import PaginatedList

/// Whether `list` holds `array`'s items bit for bit, in order: for `Int` the same numbers, for `Wide` the
/// same objects (stronger than `==`, which compares their numbers). One `memcmp` per leaf: comparing item by
/// item with `elementsEqual` (each `Wide` copied, retained and released, in code instrumented for coverage)
/// after every operation was a third of the target's time. Both item types are all stored bits (`Int`; a
/// reference and seven `Int`s), with no padding whose bytes could differ. The list's iterator is still
/// checked against the array at the end of each input (`checkCollection`).
func holdsExactly<Item>(_ list: ItemList<Item>, _ array: [Item]) -> Bool {
    guard list.count == array.count else { return false }
    var same = true
    var start = 0
    array.withUnsafeBytes { expected in
        list.forEachLeaf { leaf in
            let bytes = UnsafeRawBufferPointer(leaf)
            guard same, let base = bytes.baseAddress else { return }
            same = start + bytes.count <= expected.count && memcmp(base, expected.baseAddress! + start, bytes.count) == 0
            start += bytes.count
        }
    }
    return same && start == array.count * MemoryLayout<Item>.stride
}

/// A 64-byte item holding a counted object.
struct Wide: Hashable, CustomStringConvertible {
    let box: Tracked
    var padding: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)

    init(_ value: Int) { box = Tracked(value) }

    static func == (lhs: Wide, rhs: Wide) -> Bool { lhs.box == rhs.box }
    func hash(into hasher: inout Hasher) { hasher.combine(box) }
    var description: String { box.description }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    Fuzz.run(data, size) { bytes in
        var input = FuzzInput(bytes)
        if input.bool() {
            var run = Run<Int>(input: input, make: { $0 }, value: { $0 })
            run.run()
        } else {
            do {
                var run = Run<Wide>(input: input, make: Wide.init, value: \.box.value)
                run.run()
            }
            Fuzz.check(Tracked.count == 0, "\(Tracked.count) items still alive after the list and the array were dropped")
        }
    }
}

struct Run<Item: Hashable> {
    var input: FuzzInput
    let make: (Int) -> Item
    let value: (Item) -> Int
    var list: ItemList<Item> = []
    var array: [Item] = []
    var next = 0
    var snapshots: [(ItemList<Item>, [Item])] = []
    var log: [String] = []

    init(input: FuzzInput, make: @escaping (Int) -> Item, value: @escaping (Item) -> Int) {
        self.input = input
        self.make = make
        self.value = value
    }

    mutating func fresh(_ count: Int) -> [Item] {
        defer { next += count }
        return (next ..< next + count).map(make)
    }

    /// A size: mostly small, sometimes a few leaves, now and then several levels.
    mutating func size() -> Int {
        switch input.below(8) {
        case 0 ..< 4: input.below(6)
        case 4 ..< 7: input.below(60)
        default: input.int(in: 0 ... 1_500)
        }
    }

    mutating func index(inclusive: Bool) -> Int { input.below(array.count + (inclusive ? 1 : 0)) }

    mutating func range() -> Range<Int> {
        let a = index(inclusive: true), b = index(inclusive: true)
        return min(a, b) ..< max(a, b)
    }

    mutating func run() {
        let initial = fresh(size())
        list = input.bool() ? ItemList(initial) : ItemList(initial.lazy.map { $0 })   // contiguous or not
        array = initial
        check("init(\(initial.count))")
        var steps = 0
        while !input.isAtEnd, steps < 96 {
            if input.below(4) == 0 { snapshots.append((list, array)) }
            let name = step()
            log.append(name)
            check(name)
            steps += 1
        }
        checkCollection()
        for (index, (snapshot, expected)) in snapshots.enumerated() {
            Fuzz.check(holdsExactly(snapshot, expected), "snapshot \(index) changed; operations: \(log)")
        }
    }

    /// One operation on both; returns its name.
    mutating func step() -> String {
        switch input.below(20) {
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
            if input.bool() {
                list.insert(contentsOf: items, at: at)
            } else {
                list.insert(contentsOf: items.lazy.map { $0 }, at: at)
            }
            array.insert(contentsOf: items, at: at)
            return "insert(contentsOf: \(items.count), at: \(at))"
        case 6:
            guard !array.isEmpty else { return "nothing" }
            let at = index(inclusive: false)
            let removed = list.remove(at: at), expected = array.remove(at: at)
            Fuzz.check(removed == expected, "remove(at: \(at)) returned \(removed), expected \(expected); operations: \(log)")
            return "remove(at: \(at))"
        case 7, 8:
            let range = range()
            list.removeSubrange(range); array.removeSubrange(range)
            return "removeSubrange(\(range))"
        case 9, 10:
            let range = range(), items = fresh(input.bool() ? range.count : size())
            list.replaceSubrange(range, with: items); array.replaceSubrange(range, with: items)
            return "replaceSubrange(\(range), with: \(items.count))"
        case 11:
            guard !array.isEmpty else { return "nothing" }
            let at = index(inclusive: false), item = fresh(1)[0]
            list[at] = item; array[at] = item
            return "subscript set \(at)"
        case 12:
            guard !array.isEmpty else { return "nothing" }
            let k = input.below(array.count) + 1
            if input.bool() {
                list.removeFirst(k); array.removeFirst(k)
                return "removeFirst(\(k))"
            }
            list.removeLast(k); array.removeLast(k)
            return "removeLast(\(k))"
        case 13:
            guard !array.isEmpty else { return "nothing" }
            let first = list.removeFirst(), expected = array.removeFirst()
            let last = list.popLast(), expectedLast = array.popLast()
            Fuzz.check(first == expected && last == expectedLast, "removeFirst/popLast returned the wrong items; operations: \(log)")
            return "removeFirst, popLast"
        case 14:
            let range = range(), items = fresh(input.below(5))
            list[range] = ItemList(items)[...]; array[range] = items[...]
            return "slice set \(range)"
        case 15:
            guard array.count > 1 else { return "nothing" }
            let i = index(inclusive: false), j = index(inclusive: false)
            list.swapAt(i, j); array.swapAt(i, j)
            return "swapAt(\(i), \(j))"
        case 16:
            let modulus = input.below(5) + 2
            let drop: (Item) -> Bool = { [value] in value($0) % modulus == 0 }
            list.removeAll(where: drop); array.removeAll(where: drop)
            return "removeAll(where:)"
        case 17:
            if input.below(4) == 0 {
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
            return "reverse, then reverse \(range)"
        default:
            let item = fresh(1)[0], k = input.below(20)
            list = ItemList(repeating: item, count: k) + list; array = Array(repeating: item, count: k) + array
            return "init(repeating:count: \(k)) + list"
        }
    }

    func check(_ operation: String) {
        Fuzz.check(list.count == array.count, "count \(list.count), expected \(array.count) after \(operation); operations: \(log)")
        Fuzz.check(holdsExactly(list, array), "items differ after \(operation); operations: \(log)")
        let problems = list.invariantViolations()
        Fuzz.check(problems.isEmpty, "after \(operation): \(problems.prefix(3)); operations: \(log)")
    }

    /// Index validity, distance, slicing, iteration, equality and hashing, against the array.
    mutating func checkCollection() {
        let n = array.count
        Fuzz.check(list.startIndex == 0 && list.endIndex == n && list.indices == array.indices, "bounds; operations: \(log)")
        Fuzz.check(list.isEmpty == array.isEmpty && list.first == array.first && list.last == array.last, "first/last; operations: \(log)")
        for _ in 0 ..< 4 {
            let i = index(inclusive: true), j = index(inclusive: true)
            Fuzz.check(list.distance(from: i, to: j) == j - i && list.index(i, offsetBy: j - i) == j, "distance(\(i), \(j))")
            let lower = min(i, j), upper = max(i, j)
            let slice = list[lower ..< upper]
            Fuzz.check(slice.startIndex == lower && slice.endIndex == upper && slice.elementsEqual(array[lower ..< upper]),
                       "slice \(lower)..<\(upper); operations: \(log)")
            Fuzz.check(slice.reversed().elementsEqual(array[lower ..< upper].reversed()), "reversed slice; operations: \(log)")
            if i < n { Fuzz.check(list[i] == array[i], "subscript \(i); operations: \(log)") }
        }
        var iterator = list.makeIterator()
        var iterated: [Item] = []
        while let item = iterator.next() { iterated.append(item) }
        Fuzz.check(iterated == array && iterator.next() == nil, "iterator; operations: \(log)")
        let rebuilt = ItemList(array)
        Fuzz.check(rebuilt == list && rebuilt.hashValue == list.hashValue, "equality or hash with a rebuilt list; operations: \(log)")
        if !array.isEmpty {
            var changed = array
            changed[index(inclusive: false)] = make(-1)
            Fuzz.check(ItemList(changed) != list, "a changed list compares equal; operations: \(log)")
        }
    }
}
