@testable import PaginatedList
import PaginatedListTesting
import Testing

@Suite("IDPositions")
struct IDPositionsTests {
    @Test func positionsFollowSeededInsertsAndRemovalsAgainstAnArray() {
        var failures: [String] = []
        for seed in 0 ..< UInt64(seededRunCount(300)) {
            var random = SplitMix64(seed: seed)
            let index = IDPositions()
            var model: [Int] = []
            var removedSoFar: [Int] = []
            var next = 0
            for step in 0 ..< 60 {
                switch random.below(5) {
                case 0, 1:
                    // Pages at the end, or batches anywhere; sometimes many leaves' worth at once.
                    let size = random.below(4) == 0 ? random.below(700) : random.below(30)
                    let at = random.below(2) == 0 ? model.count : random.below(model.count + 1)
                    let ids = Array(next ..< next + size)
                    next += size
                    index.insert(ids, at: at)
                    model.insert(contentsOf: ids, at: at)
                case 2, 3:
                    let lower = random.below(model.count + 1)
                    let upper = min(model.count, lower + (random.below(3) == 0 ? random.below(400) : random.below(5)))
                    let removed = index.removeSubrange(lower ..< upper)
                    if Array(removed) != Array(model[lower ..< upper]) { failures.append("seed \(seed): removeSubrange returned other handles") }
                    removedSoFar.append(contentsOf: removed)
                    model.removeSubrange(lower ..< upper)
                default:
                    if random.below(8) == 0 {
                        index.removeAll()
                        removedSoFar.append(contentsOf: model)
                        model.removeAll()
                    }
                }
                let problems = index.invariantViolations()
                if !problems.isEmpty { failures.append("seed \(seed) step \(step): \(problems.prefix(3))") }
                if index.count != model.count || !index.allHandles().elementsEqual(model) {
                    failures.append("seed \(seed) step \(step): ids differ")
                }
                for _ in 0 ..< 5 where !model.isEmpty {
                    let at = random.below(model.count)
                    if index.position(of: model[at]) != at || index.handle(at: at) != model[at] {
                        failures.append("seed \(seed) step \(step): position of \(model[at])")
                    }
                }
                if index.contains(-1) || index.contains(next) { failures.append("seed \(seed): found a handle never held") }
                if let gone = removedSoFar.first(where: index.contains) { failures.append("seed \(seed): removed handle \(gone) still held") }
                if !failures.isEmpty { break }
            }
            if !failures.isEmpty { break }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
    }

    @Test func aCopySharesNothing() {
        let index = IDPositions()
        index.insert(Array(0 ..< 1_000), at: 0)
        let copy = index.copy()
        index.removeSubrange(0 ..< 500)
        copy.insert([5_000], at: 0)
        #expect(index.position(of: 500) == 0)
        #expect(copy.position(of: 500) == 501)
        #expect(copy.position(of: 5_000) == 0 && !index.contains(5_000))
        #expect(index.invariantViolations().isEmpty && copy.invariantViolations().isEmpty)
    }

    @Test func aListGrownPageByPageFillsItsLeaves() {
        let index = IDPositions()
        for page in 0 ..< 100 { index.insert(Array(page * 100 ..< page * 100 + 100), at: index.count) }
        #expect(index.invariantViolations().isEmpty)
        // Leaves filled from the left: on average more than 90% full.
        func leafCount(_ node: IDPositions.Node) -> Int { node.isLeaf ? 1 : node.children.map(leafCount).reduce(0, +) }
        #expect(leafCount(index.root) * IDPositions.leafCapacity * 9 / 10 <= 10_000)
        #expect(index.position(of: 9_999) == 9_999)
    }
}

/// A post of the store tests: made from a number, with a version that edits change.
protocol TestPost: Identifiable, Equatable {
    init(number: Int, version: Int)
    func with(version: Int) -> Self
}

@Suite("ItemStore")
struct ItemStoreTests {
    struct Post: TestPost {
        let id: Int
        var version = 0
        init(id: Int, version: Int = 0) { self.id = id; self.version = version }
        init(number: Int, version: Int) { self.init(id: number, version: version) }
        func with(version: Int) -> Post { Post(id: id, version: version) }
    }

    /// An id whose hash values collide often (seven values for all ids), to exercise the chains of ids
    /// that share a hash value.
    struct CollidingID: Hashable, CustomStringConvertible {
        let value: Int
        func hash(into hasher: inout Hasher) { hasher.combine(value % 7) }
        var description: String { "\(value)" }
    }

    struct CollidingPost: TestPost {
        let id: CollidingID
        var version = 0
        init(id: CollidingID, version: Int) { self.id = id; self.version = version }
        init(number: Int, version: Int) { self.init(id: CollidingID(value: number), version: version) }
        func with(version: Int) -> CollidingPost { CollidingPost(id: id, version: version) }
    }

    @Test func seededEditsKeepIdsUniqueAndPositionsExact() {
        let failures = seededEdits(Post.self, seeds: 0 ..< UInt64(seededRunCount(300)))
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
    }

    @Test func idsWhoseHashValuesCollideAreStillTold() {
        let failures = seededEdits(CollidingPost.self, seeds: 1_000 ..< 1_000 + UInt64(seededRunCount(100)))
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
    }

    /// Seeded appends, inserts, removals, replacements and resets on a store and on a model of the rules of
    /// identity; after each: the items, the replayed changes, the store's invariants and some positions.
    func seededEdits<P: TestPost>(_: P.Type, seeds: Range<UInt64>) -> [String] {
        var failures: [String] = []
        for seed in seeds {
            var random = SplitMix64(seed: seed)
            var store = ItemStore<P>()
            var model: [P] = []
            let idRange = random.below(2) == 0 ? 40 : 2_000
            func batch() -> [P] {
                (0 ..< (random.below(4) == 0 ? random.below(150) : random.below(6))).map { _ in P(number: random.below(idRange), version: random.below(100)) }
            }
            func merge(_ batch: [P], at index: Int) {
                var fresh: [P] = []
                for post in batch {
                    if let held = model.firstIndex(where: { $0.id == post.id }) {
                        model[held] = post
                    } else if let slot = fresh.firstIndex(where: { $0.id == post.id }) {
                        fresh[slot] = post
                    } else {
                        fresh.append(post)
                    }
                }
                model.insert(contentsOf: fresh, at: index)
            }
            for step in 0 ..< 40 {
                var snapshot = Array(store.items)
                var changes: [ItemListChange] = []
                switch random.below(7) {
                case 0, 1:
                    let posts = batch()
                    changes = store.append(posts)
                    merge(posts, at: model.count)
                case 2:
                    let posts = batch(), at = random.below(model.count + 5) - 2
                    changes = store.insert(posts, at: at)
                    merge(posts, at: min(max(at, 0), model.count))
                case 3:
                    guard !model.isEmpty else { continue }
                    let at = random.below(model.count)
                    let id = model[at].id
                    #expect(store.position(ofKey: AnyHashable(id)) == at)
                    changes = store.remove(at: at)
                    model.remove(at: at)
                case 4:
                    guard !model.isEmpty else { continue }
                    let at = random.below(model.count)
                    let post = model[at].with(version: random.below(100))
                    #expect(store.position(ofIDOf: post) == at)
                    changes = store.replace(at: at, with: post)
                    model[at] = post
                case 5:
                    let lower = random.below(model.count + 1), upper = min(model.count, lower + random.below(60))
                    changes = store.removeSubrange(lower ..< upper)
                    model.removeSubrange(lower ..< upper)
                default:
                    if random.below(5) == 0 {
                        changes = store.removeAll()
                        model.removeAll()
                    } else {
                        let posts = batch()
                        changes = store.prepend(posts)
                        merge(posts, at: 0)
                    }
                }
                for change in changes { snapshot.apply(change, from: store.items) }
                let context = "seed \(seed) step \(step)"
                if Array(store.items) != model { failures.append("\(context): items differ from the rules") }
                if snapshot != model { failures.append("\(context): the changes do not replay") }
                let problems = store.invariantViolations()
                if !problems.isEmpty { failures.append("\(context): \(problems.prefix(3))") }
                for _ in 0 ..< 4 where !model.isEmpty {
                    let at = random.below(model.count)
                    if store.position(ofKey: AnyHashable(model[at].id)) != at { failures.append("\(context): position of \(model[at].id)") }
                }
                if !failures.isEmpty { break }
            }
            if !failures.isEmpty { break }
        }
        return failures
    }

    @Test func aCopiedStoreKeepsItsOwnIdentities() {
        var store = ItemStore<Post>()
        _ = store.append((0 ..< 300).map { Post(id: $0) })
        var copy = store
        _ = copy.remove(at: 0)
        _ = store.insert([Post(id: 1_000)], at: 0)
        #expect(store.position(ofKey: AnyHashable(0)) == 1)
        #expect(copy.position(ofKey: AnyHashable(0)) == nil)
        #expect(copy.position(ofKey: AnyHashable(1)) == 0)
        #expect(copy.position(ofKey: AnyHashable(1_000)) == nil)
        #expect(store.invariantViolations().isEmpty && copy.invariantViolations().isEmpty)
    }

    @Test func itemsWithoutIdentityAreNeverDeduplicated() {
        var store = ItemStore<Int>()
        #expect(!store.isIdentified)
        #expect(store.append([1, 1, 2]) == [.appended(0 ..< 3)])
        #expect(store.insert([1], at: 1) == [.inserted(1 ..< 2)])
        #expect(store.position(ofIDOf: 1) == nil && store.position(ofKey: AnyHashable(1)) == nil)
        #expect(Array(store.items) == [1, 1, 1, 2])
        #expect(store.removeSubrange(1 ..< 3) == [.removed([1, 2])])
        #expect(Array(store.items) == [1, 2])
    }

    @Test func aKeyOfAnotherTypeFindsNothing() {
        var store = ItemStore<Post>()
        _ = store.append([Post(id: 1)])
        #expect(store.position(ofKey: AnyHashable("1")) == nil)
        #expect(store.position(ofKey: AnyHashable(1)) == 0)
    }
}

@Suite("HandleTable")
struct HandleTableTests {
    /// `count` seeded keys, a third of them multiples of 64 (they share their low bits, so that runs form
    /// and wrap in the table), the rest random.
    private static func keys(_ count: Int, _ random: inout SplitMix64) -> [Int] {
        (0 ..< count).map { $0 % 3 == 0 ? $0 * 64 : Int(bitPattern: UInt(random.next())) }
    }

    @Test func agreesWithADictionaryThroughSeededUpdatesAndRemovals() {
        for seed in 0 ..< UInt64(50) {
            var random = SplitMix64(seed: seed)
            var table = HandleTable()
            var model: [Int: Int] = [:]
            let keys = Self.keys(300, &random)
            for _ in 0 ..< 2_000 {
                let key = keys[random.below(keys.count)]
                if random.below(3) == 0 {
                    table.removeHandle(for: key)
                    model[key] = nil
                } else {
                    let handle = random.below(1_000)
                    #expect(table.updateHandle(handle, for: key) == model.updateValue(handle, forKey: key))
                }
            }
            #expect(table.count == model.count)
            for key in keys { #expect(table.handle(for: key) == model[key]) }
            #expect(Dictionary(uniqueKeysWithValues: table.entries.map { ($0.key, $0.handle) }) == model)
        }
    }

    @Test func batchLookupsAndUpdatesAgreeWithADictionary() {
        for seed in 0 ..< UInt64(50) {
            var random = SplitMix64(seed: seed)
            var table = HandleTable()
            var model: [Int: Int] = [:]
            // Batches repeat keys sometimes.
            let keys = Self.keys(400, &random)
            var nextHandle = 0
            for _ in 0 ..< 40 {
                let batch = (0 ..< random.below(120)).map { _ in keys[random.below(keys.count)] }
                let (found, anyHeld) = table.handles(for: batch)
                #expect(found == batch.map { model[$0] ?? -1 })
                #expect(anyHeld == batch.contains { model[$0] != nil })
                var replaced = ContiguousArray<Int>()
                table.updateHandles(from: nextHandle, for: batch, replaced: &replaced)
                var expected: [Int] = []
                for (offset, key) in batch.enumerated() {
                    expected.append(model.updateValue(nextHandle + offset, forKey: key) ?? -1)
                }
                #expect(Array(replaced) == expected)
                nextHandle += batch.count
                #expect(table.count == model.count)
            }
            for key in keys { #expect(table.handle(for: key) == model[key]) }
        }
    }

    @Test func insertNewRecordsABatchOnlyIfNoKeyIsHeldOrRepeated() {
        for seed in 0 ..< UInt64(50) {
            var random = SplitMix64(seed: seed)
            var table = HandleTable()
            var model: [Int: Int] = [:]
            let keys = Self.keys(600, &random)
            var nextHandle = 0
            for _ in 0 ..< 40 {
                let batch = (0 ..< random.below(60)).map { _ in keys[random.below(keys.count)] }
                let fresh = Set(batch).count == batch.count && !batch.contains { model[$0] != nil }
                #expect(table.insertNew(from: nextHandle, for: batch) == fresh)
                if fresh {
                    for (offset, key) in batch.enumerated() { model[key] = nextHandle + offset }
                    nextHandle += batch.count
                }
                #expect(table.count == model.count)
                #expect(Dictionary(uniqueKeysWithValues: table.entries.map { ($0.key, $0.handle) }) == model)
            }
        }
    }

    @Test func distinctTellsRepeatedKeys() {
        var random = SplitMix64(seed: 7)
        for length in [0, 1, 2, 16, 17, 100, 1_000] {
            for _ in 0 ..< 20 {
                var keys = (0 ..< length).map { _ in Int(bitPattern: UInt(random.next())) & ~0x3f }
                if length > 0 && random.next() % 3 == 0 { keys[Int(random.next() % UInt64(length))] = .min }
                #expect(HandleTable.distinct(keys) == (Set(keys).count == keys.count))
                if length >= 2 {
                    keys[Int(random.next() % UInt64(length))] = keys[Int(random.next() % UInt64(length))]
                    #expect(HandleTable.distinct(keys) == (Set(keys).count == keys.count))
                    keys[0] = .min
                    keys[length - 1] = .min
                    #expect(!HandleTable.distinct(keys))
                }
            }
        }
    }
}

@Suite("IdentityRules")
struct IdentityRulesTests {
    private struct Tagged: Identifiable {
        let id: Int
    }

    @Test func theIDOfAnItemIsReadWhenItIsTheTypeGiven() {
        #expect(IdentityRules<Tagged>.id(of: Tagged(id: 7), as: Tagged.self) == 7)
    }

#if DEBUG
    @Test func readingAnItemAsAnotherIdentifiableTypeStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            struct Other: Identifiable { let id: Int }
            _ = IdentityRules<Int>.id(of: 7, as: Other.self)
        }
    }
#endif
}
