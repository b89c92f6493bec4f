// `ItemStore`: the view model's items with their id index (`ItemIdentities`: positions in a B-tree of
// handles on unowned node references, a hash table of handles, chains of ids that share a hash value)
// under any sequence of edits, against an array that follows the rules of identity and a dictionary of
// positions. The input is read by `FuzzInput`: how many hash values the ids share (1: every id collides;
// up to all distinct), how many ids there are, then edits until the input ends (at most 64): append,
// prepend and insert batches (ids already held update in place; repeated ids in a batch keep one
// item, at its first position, with its last value), replace, remove one, a range, offsets, the first
// or last k, move, remove all, and copies of the store edited apart.
//
// Properties, after every edit:
// - the items are the model's, and the changes the edit returned, replayed on the items before it,
//   give the items after it;
// - the store's invariants hold (the list's tree, the handles against the items' hash values) and
//   every id is found at its position, an id not held nowhere (a store of over 512 items, which only
//   5,000 ids make, has a rotating eighth of its ids and its first and last 16 looked up after each
//   edit, and every one at the end of the input: the lookups were most of the target's time);
// - a copy taken before the edit is unchanged;
// - when everything is dropped, every item is released (none leaked, none freed twice).
import FuzzSupport
@testable import PaginatedList
import PaginatedListTesting   // Array.apply(_:from:): a view mirroring the list by its changes

/// An id whose hash value is its value modulo `buckets`: ids share hash values as often as asked.
struct Key: Hashable, CustomStringConvertible {
    let value: Int
    let buckets: Int
    static func == (lhs: Key, rhs: Key) -> Bool { lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value % buckets) }
    var description: String { "\(value)" }
}

/// An item with an id and a version that edits change; it holds a counted object.
struct Post: Identifiable, Equatable, CustomStringConvertible {
    let id: Key
    let version: Int
    let box: Tracked

    init(id: Key, version: Int) {
        self.id = id
        self.version = version
        box = Tracked(version)
    }

    static func == (lhs: Post, rhs: Post) -> Bool { lhs.id == rhs.id && lhs.version == rhs.version }
    var description: String { "\(id)v\(version)" }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    Fuzz.run(data, size) { bytes in
        do {
            var run = EditRun(input: FuzzInput(bytes))
            run.run()
        }
        Fuzz.check(Tracked.count == 0, "\(Tracked.count) items still alive after the store and the model were dropped")
    }
}

/// What is wrong with the store's structure, if anything: the invariants `ItemStore.invariantViolations()`
/// checks (its list's tree; its ids' handles, chains and free list against the items' hash values) but
/// for finding each id at its position, which the run checks itself against the model.
func structureViolations(_ store: ItemStore<Post>) -> [String] {
    let problems = store._items.invariantViolations()
    guard let identities = store._identities else { return problems + ["no identities for Identifiable items"] }
    return problems + identities.invariantViolations(hashes: store.items.map { $0.id.hashValue })
}

/// An edit's name, written out only for a message (a batch's description is long).
struct Edit: CustomStringConvertible {
    let describe: () -> String
    init(_ describe: @escaping () -> String) { self.describe = describe }
    var description: String { describe() }
}

struct EditRun {
    var input: FuzzInput
    let buckets: Int
    let ids: Int
    var store = ItemStore<Post>()
    var model: [Post] = []
    var version = 0
    var log: [Edit] = []

    init(input: FuzzInput) {
        self.input = input
        buckets = self.input.pick([1, 2, 3, 7, 64, Int.max])
        ids = self.input.pick([4, 40, 300, 5_000])
    }

    mutating func post() -> Post {
        version += 1
        return Post(id: Key(value: input.below(ids), buckets: buckets), version: version)
    }

    mutating func batch() -> [Post] {
        let count = input.below(4) == 0 ? input.int(in: 0 ... 400) : input.below(6)
        return (0 ..< count).map { _ in post() }
    }

    /// The rules of identity, on the model: held ids update in place, the others go in at `index`, a
    /// repeated id of the batch at its first position with its last value.
    ///
    /// The model's positions and the fresh items' slots are looked up by the ids' values (a dictionary
    /// keyed by `Key` would chain every id when they all share one hash value): one pass over the model
    /// per batch, not one per item of the batch.
    mutating func merge(_ batch: [Post], at index: Int) {
        var held: [Int: Int] = [:]
        for (position, post) in model.enumerated() { held[post.id.value] = position }
        var fresh: [Post] = []
        var slots: [Int: Int] = [:]
        for post in batch {
            if let position = held[post.id.value] {
                model[position] = post
            } else if let slot = slots[post.id.value] {
                fresh[slot] = post
            } else {
                slots[post.id.value] = fresh.count
                fresh.append(post)
            }
        }
        model.insert(contentsOf: fresh, at: index)
    }

    mutating func run() {
        var steps = 0
        while !input.isAtEnd, steps < 64 {
            let before = Array(store.items)
            let copy = input.below(6) == 0 ? store : nil
            let copied = copy.map { Array($0.items) }
            let (name, changes) = step()
            log.append(name)
            var replayed = before
            for change in changes { replayed.apply(change, from: store.items) }
            // Described only when a check fails: a batch's description is long, and the edits so far grow with
            // every step (described eagerly, the messages cost more than the edits and the checks).
            let edits = log
            let context = { [buckets, ids] in "after \(name); buckets \(buckets), ids \(ids); edits: \(edits)" }
            Fuzz.check(Array(store.items) == model, "the items are not the model's \(context())")
            Fuzz.check(replayed == model, "the changes \(changes) do not replay \(context())")
            let problems = structureViolations(store)
            Fuzz.check(problems.isEmpty, "\(problems.prefix(3)) \(context())")
            let sample = positionsToCheck(steps: steps, count: model.count)
            checkPositions(store, model, sample, context)
            let absent = Key(value: ids + input.below(8), buckets: buckets)
            Fuzz.check(store.position(ofKey: AnyHashable(absent)) == nil, "an id never held is found \(context())")
            if let copy, let copied {
                Fuzz.check(Array(copy.items) == copied && structureViolations(copy).isEmpty, "a copy changed \(context())")
                checkPositions(copy, copied, positionsToCheck(steps: steps, count: copied.count), context)
            }
            steps += 1
        }
        // The whole id index, whatever the store's size, once the edits are done.
        checkPositions(store, model, model.indices) { [buckets, ids, log] in "at the end; buckets \(buckets), ids \(ids); edits: \(log)" }
    }

    /// Up to `EditRun.fullCheckLimit` items, every position; above, the first and last 16 and one in 8 of
    /// the others, a different eighth each step (see `checkPositions`).
    func positionsToCheck(steps: Int, count: Int) -> [Int] {
        guard count > Self.fullCheckLimit else { return Array(0 ..< count) }
        return Array(0 ..< 16) + Array(stride(from: 16 + steps % 8, to: count - 16, by: 8)) + Array(count - 16 ..< count)
    }

    /// The store's size up to which every step looks up every id (O(n log n) a step); a larger store (only
    /// with 5,000 ids) has a rotating eighth of its ids looked up each step, and all of them at the end of
    /// the input. Finding each id is most of a step's time: the store's tree and handles are checked in
    /// full every step (`structureViolations`), and the items against the model.
    static let fullCheckLimit = 512

    /// Each id of `expected` at `positions` is found there in `store`.
    func checkPositions(_ store: ItemStore<Post>, _ expected: [Post], _ positions: some Sequence<Int>, _ context: () -> String) {
        for position in positions {
            let id = expected[position].id
            Fuzz.check(store.position(ofKey: AnyHashable(id)) == position, "\(id) is not found at \(position) \(context())")
        }
    }

    /// One edit of the store and the model; its name and the store's changes.
    mutating func step() -> (Edit, [ItemListChange]) {
        switch input.below(14) {
        case 0, 1, 2:
            let posts = batch()
            merge(posts, at: model.count)
            return (Edit { "append(\(posts))" }, store.append(posts))
        case 3:
            let posts = batch()
            merge(posts, at: 0)
            return (Edit { "prepend(\(posts))" }, store.prepend(posts))
        case 4, 5:
            let posts = batch(), at = input.below(model.count + 5) - 2
            merge(posts, at: min(max(at, 0), model.count))
            return (Edit { "insert(\(posts), at: \(at))" }, store.insert(posts, at: at))
        case 6:
            guard !model.isEmpty else { return (Edit { "nothing" }, []) }
            let at = input.below(model.count)
            version += 1
            let post = Post(id: model[at].id, version: version)
            Fuzz.check(store.position(ofIDOf: post) == at, "the id of \(post) is not found at \(at); edits: \(log)")
            model[at] = post
            return (Edit { "replace(at: \(at), with: \(post))" }, store.replace(at: at, with: post))
        case 7:
            guard !model.isEmpty else { return (Edit { "nothing" }, []) }
            let at = input.below(model.count)
            model.remove(at: at)
            return (Edit { "remove(at: \(at))" }, store.remove(at: at))
        case 8:
            let lower = input.below(model.count + 1)
            let upper = min(model.count, lower + (input.bool() ? input.below(6) : input.int(in: 0 ... 600)))
            model.removeSubrange(lower ..< upper)
            return (Edit { "removeSubrange(\(lower)..<\(upper))" }, store.removeSubrange(lower ..< upper))
        case 9:
            let offsets = model.indices.filter { _ in input.below(3) == 0 }
            for offset in offsets.reversed() { model.remove(at: offset) }
            return (Edit { "remove(offsets: \(offsets))" }, store.remove(offsets: offsets))
        case 10:
            let k = input.below(model.count + 3)
            if input.bool() {
                model.removeFirst(min(k, model.count))
                return (Edit { "removeFirst(\(k))" }, store.removeFirst(k))
            }
            model.removeLast(min(k, model.count))
            return (Edit { "removeLast(\(k))" }, store.removeLast(k))
        case 11:
            guard !model.isEmpty else { return (Edit { "nothing" }, []) }
            let from = input.below(model.count), to = input.below(model.count)
            model.insert(model.remove(at: from), at: to)
            return (Edit { "move(from: \(from), to: \(to))" }, store.move(from: from, to: to))
        case 12:
            model.removeAll()
            return (Edit { "removeAll" }, store.removeAll())
        default:
            let posts = store.deduplicated(batch())
            var seen = Set<Key>()
            let expected = posts.filter { seen.insert($0.id).inserted }
            Fuzz.check(posts.count == expected.count, "deduplicated kept a repeated id: \(posts)")
            return (Edit { "deduplicated" }, [])
        }
    }
}
