import Dispatch
@testable import PaginatedList
import PaginatedListTesting
import Synchronization
import Testing

@Suite("ItemList")
struct ItemListTests {
    @Test func indexingReturnsTheItemsInOrder() {
        let list: ItemList = [10, 20, 30]
        #expect(list[0] == 10)
        #expect(list[1] == 20)
        #expect(list[2] == 30)
        #expect(list.startIndex == 0)
        #expect(list.endIndex == 3)
        #expect(list.count == 3)
    }

    @Test func arrayOfAListHoldsItsItems() {
        let list = ItemList(1 ... 5)
        #expect(Array(list) == [1, 2, 3, 4, 5])
        #expect(list.description == "[1, 2, 3, 4, 5]")
        #expect(list.reversed() == [5, 4, 3, 2, 1])
        #expect(list[1 ..< 3].elementsEqual([2, 3]))
    }

    @Test func listsWithTheSameItemsInOrderAreEqual() {
        var built = ItemList<Int>()
        built.append(contentsOf: [1, 2])
        built.append(3)
        #expect(built == [1, 2, 3])
        #expect(built != [1, 2])
        #expect(built != [1, 2, 4])
        #expect(built != [3, 2, 1])
        #expect(ItemList<Int>() == [])
    }

    @Test func emptyListHasNoItems() {
        let list = ItemList<String>()
        #expect(list.isEmpty)
        #expect(list.count == 0)
        #expect(list.startIndex == list.endIndex)
        #expect(Array(list) == [])
        #expect(list.first == nil)
        #expect(list._root == nil)
    }

    @Test func appendingAnEmptySequenceChangesNothing() {
        var empty = ItemList<Int>()
        empty.append(contentsOf: [])
        #expect(empty.isEmpty)
        #expect(empty._root == nil)

        var list: ItemList = [1, 2]
        let root = list._root
        list.append(contentsOf: [])
        #expect(list == [1, 2])
        #expect(list._root === root)
    }

    @Test func editingAListNobodySharesWritesInPlace() {
        var list = ItemList(0 ..< 10_000)
        let nodes = list.nodeIdentifiers()
        list[5_000] = -1
        list.remove(at: 20)
        list.removeSubrange(300 ..< 305)
        #expect(list.nodeIdentifiers() == nodes)
        var expected = Array(0 ..< 10_000)
        expected[5_000] = -1
        expected.remove(at: 20)
        expected.removeSubrange(300 ..< 305)
        #expect(list.elementsEqual(expected))
        // A leaf grows by doubling its room: appending one at a time reallocates it O(log) times.
        var growing = ItemList<Int>()
        var roots = Set<ObjectIdentifier>()
        for item in 0 ..< 100 {
            growing.append(item)
            roots.insert(ObjectIdentifier(growing._root!))
        }
        #expect(roots.count <= 8)
        #expect(growing.elementsEqual(0 ..< 100))
    }

    @Test func editingASharedListCopiesOnlyItsPathAndLeavesEarlierSnapshotsIntact() {
        var list = ItemList(0 ..< 10_000)
        let before = list
        let nodesBefore = Set(before.nodeIdentifiers())
        list[5_000] = -1
        list.insert(-2, at: 100)
        list.remove(at: 9_000)
        let nodesAfter = Set(list.nodeIdentifiers())
        #expect(before.elementsEqual(0 ..< 10_000))
        #expect(list[5_001] == -1 && list[100] == -2 && list.count == 10_000)
        // Three edits, each on a path of `levels` nodes: everything else is shared.
        #expect(nodesAfter.subtracting(nodesBefore).count <= 3 * list.levels + 2)
        #expect(nodesAfter.intersection(nodesBefore).count >= nodesBefore.count - 3 * list.levels - 2)
        #expect(list.invariantViolations().isEmpty && before.invariantViolations().isEmpty)
    }

    @Test func snapshotsOfAGrowingListShareTheirNodes() {
        var list = ItemList<Int>()
        var snapshots: [ItemList<Int>] = []
        for page in 0 ..< 1_000 {
            list.append(contentsOf: page * 100 ..< page * 100 + 100)
            snapshots.append(list)
        }
        // Each page adds its leaf and copies the nodes on the right edge (one per level above the leaves):
        // far fewer nodes than the sum over all snapshots.
        let distinct = Set(snapshots.flatMap { $0.nodeIdentifiers() })
        #expect(distinct.count <= 1_000 * list.levels)
        for page in stride(from: 0, to: 1_000, by: 97) {
            #expect(snapshots[page].elementsEqual(0 ..< (page + 1) * 100))
        }
    }

    @Test func appendToAnOlderSnapshotDoesNotDisturbTheNewerOne() {
        var newer: ItemList = [1, 2, 3]
        var older = newer
        newer.append(contentsOf: [4, 5])
        older.append(contentsOf: [9])
        #expect(Array(newer) == [1, 2, 3, 4, 5])
        #expect(Array(older) == [1, 2, 3, 9])
        // Both go on growing independently.
        newer.append(6)
        older.append(10)
        #expect(Array(newer) == [1, 2, 3, 4, 5, 6])
        #expect(Array(older) == [1, 2, 3, 9, 10])
    }

    @Test func twoCopiesOfTheNewestSnapshotAppendIndependently() {
        let base: ItemList = [1, 2]
        var a = base
        var b = base
        a.append(3)
        b.append(4)
        #expect(Array(base) == [1, 2])
        #expect(Array(a) == [1, 2, 3])
        #expect(Array(b) == [1, 2, 4])
    }

    @Test func removeAllEmptiesOnlyThisSnapshot() {
        var list: ItemList = [1, 2, 3]
        let kept = list
        list.removeAll()
        #expect(list.isEmpty)
        #expect(Array(kept) == [1, 2, 3])
        list.append(7)
        #expect(Array(list) == [7])
    }

    @Test func largeListAcrossManySegmentsKeepsEveryItem() {
        var list = ItemList<Int>()
        var snapshots: [ItemList<Int>] = []
        var next = 0
        while next < 200_000 {
            let size = 1 + next % 97
            list.append(contentsOf: next ..< next + size)
            next += size
            snapshots.append(list)
        }
        #expect(list.count == next)
        #expect(list.elementsEqual(0 ..< next))
        #expect(snapshots.allSatisfy { $0.isEmpty || $0[$0.count - 1] == $0.count - 1 })
        #expect(snapshots[snapshots.count / 2].elementsEqual(0 ..< snapshots[snapshots.count / 2].count))
    }

    @Test func itemsAreReleasedWithTheLastSnapshotThatHoldsThem() {
        final class Item {}
        weak var weakItem: Item?
        do {
            var list = ItemList<Item>()
            let item = Item()
            weakItem = item
            list.append(contentsOf: (0 ..< 100).map { _ in Item() })
            list.append(item)
            var older = list
            older.append(Item())   // a copy also holds `item`
            #expect(weakItem != nil)
        }
        #expect(weakItem == nil)
    }

    @Test func concurrentReadersOfOldSnapshotsWhileAppending() {
        // One thread appends to the newest snapshot and publishes each one; the others read every published
        // snapshot in full while the storage keeps growing behind them. Run under the thread sanitizer in CI.
        let published = Locked<[ItemList<Int>]>([])
        let done = Atomic<Bool>(false)
        let mismatches = Atomic<Int>(0)
        let reads = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            if worker == 0 {
                var list = ItemList<Int>()
                for page in 0 ..< 300 {
                    list.append(contentsOf: page * 10 ..< page * 10 + 10)
                    let snapshot = list
                    published.withLock { $0.append(snapshot) }
                }
                done.store(true, ordering: .releasing)
            } else {
                var round = 0
                while !done.load(ordering: .acquiring) || round < 2 {
                    round += 1
                    let snapshots = published.withLock { $0 }
                    for snapshot in snapshots.suffix(20) {
                        if !snapshot.elementsEqual(0 ..< snapshot.count) { mismatches.add(1, ordering: .relaxed) }
                        reads.add(1, ordering: .relaxed)
                    }
                }
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
        #expect(reads.load(ordering: .relaxed) > 0)
        #expect(published.withLock { $0.last?.count } == 3_000)
    }

    @Test func concurrentReadersOfSnapshotsWhileTheWriterEditsEverywhere() {
        // One thread edits its list in every way (sets, inserts, removals, appends: each copies the nodes it
        // shares with the snapshots already published) and publishes each snapshot with the array it must
        // equal; three others read published snapshots in full, by iteration and by index, meanwhile. Run
        // under the thread sanitizer: no snapshot may change, and no node a reader can reach is written.
        let published = Locked<[(ItemList<Int>, [Int])]>([])
        let done = Atomic<Bool>(false)
        let mismatches = Atomic<Int>(0)
        let reads = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            if worker == 0 {
                var random = SplitMix64(seed: 11)
                var list = ItemList(0 ..< 2_000)
                var mirror = Array(0 ..< 2_000)
                for step in 0 ..< 400 {
                    let at = Int(random.next() % UInt64(mirror.count))
                    switch step % 4 {
                    case 0:
                        list[at] = -step; mirror[at] = -step
                    case 1:
                        list.insert(contentsOf: [step, step], at: at); mirror.insert(contentsOf: [step, step], at: at)
                    case 2:
                        list.removeSubrange(at ..< min(at + 3, mirror.count)); mirror.removeSubrange(at ..< min(at + 3, mirror.count))
                    default:
                        list.append(contentsOf: 0 ..< 5); mirror.append(contentsOf: 0 ..< 5)
                    }
                    let snapshot = (list, mirror)
                    published.withLock { $0.append(snapshot) }
                }
                done.store(true, ordering: .releasing)
            } else {
                var round = 0
                while !done.load(ordering: .acquiring) || round < 2 {
                    round += 1
                    let snapshots = published.withLock { $0 }
                    for (snapshot, expected) in snapshots.suffix(10) {
                        if !snapshot.elementsEqual(expected) { mismatches.add(1, ordering: .relaxed) }
                        if snapshot.indices.contains(where: { snapshot[$0] != expected[$0] }) { mismatches.add(1, ordering: .relaxed) }
                        reads.add(1, ordering: .relaxed)
                    }
                }
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
        #expect(reads.load(ordering: .relaxed) > 0)
        #expect(published.withLock { $0.allSatisfy { $0.0.elementsEqual($0.1) } })
    }
}

@Suite("ItemList nodes")
struct ItemListNodeTests {
    @Test func anUpdateHandleWritesTheLeafAndAReadHandleSeesIt() {
        let leaf = [1, 2, 3].withUnsafeBufferPointer { ItemListLeaf<Int>.make(copying: $0) }
        leaf.update { $0[1] = 20 }
        #expect(leaf.read { Array($0.items) } == [1, 20, 3])
    }

    @Test func theRunningTotalsAreOneMoreThanTheChildrenAnInnerNodeHolds() {
        #expect(ItemListInner.endsCount == ItemListInner.maxCount + 1)
        #expect(MemoryLayout<ItemListEnds>.size == ItemListInner.endsCount * MemoryLayout<Int>.stride)
    }

#if DEBUG
    @Test func aWriteThroughAReadHandleStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            let leaf = [1, 2, 3].withUnsafeBufferPointer { ItemListLeaf<Int>.make(copying: $0) }
            leaf.read { $0[0] = 9 }
        }
    }

    @Test func aReadPastTheLeafsItemsStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            let leaf = [1, 2, 3].withUnsafeBufferPointer { ItemListLeaf<Int>.make(copying: $0, capacity: 8) }
            _ = leaf.read { $0[3] }
        }
    }
#endif
}
