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
//   every id is found at its position, an id not held nowhere;
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

struct EditRun {
    var input: FuzzInput
    let buckets: Int
    let ids: Int
    var store = ItemStore<Post>()
    var model: [Post] = []
    var version = 0
    var log: [String] = []

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
    mutating func merge(_ batch: [Post], at index: Int) {
        var fresh: [Post] = []
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
            let context = "after \(name); buckets \(buckets), ids \(ids); edits: \(log)"
            Fuzz.check(Array(store.items) == model, "the items are not the model's \(context)")
            Fuzz.check(replayed == model, "the changes \(changes) do not replay \(context)")
            let problems = store.invariantViolations()
            Fuzz.check(problems.isEmpty, "\(problems.prefix(3)) \(context)")
            for (position, post) in model.enumerated() {
                Fuzz.check(store.position(ofKey: AnyHashable(post.id)) == position, "\(post.id) is not found at \(position) \(context)")
            }
            let absent = Key(value: ids + input.below(8), buckets: buckets)
            Fuzz.check(store.position(ofKey: AnyHashable(absent)) == nil, "an id never held is found \(context)")
            if let copy, let copied {
                Fuzz.check(Array(copy.items) == copied && copy.invariantViolations().isEmpty, "a copy changed \(context)")
                for (position, post) in copied.enumerated() {
                    Fuzz.check(copy.position(ofKey: AnyHashable(post.id)) == position, "the copy lost \(post.id) \(context)")
                }
            }
            steps += 1
        }
    }

    /// One edit of the store and the model; its name and the store's changes.
    mutating func step() -> (String, [ItemListChange]) {
        switch input.below(14) {
        case 0, 1, 2:
            let posts = batch()
            merge(posts, at: model.count)
            return ("append(\(posts))", store.append(posts))
        case 3:
            let posts = batch()
            merge(posts, at: 0)
            return ("prepend(\(posts))", store.prepend(posts))
        case 4, 5:
            let posts = batch(), at = input.below(model.count + 5) - 2
            merge(posts, at: min(max(at, 0), model.count))
            return ("insert(\(posts), at: \(at))", store.insert(posts, at: at))
        case 6:
            guard !model.isEmpty else { return ("nothing", []) }
            let at = input.below(model.count)
            version += 1
            let post = Post(id: model[at].id, version: version)
            Fuzz.check(store.position(ofIDOf: post) == at, "the id of \(post) is not found at \(at); edits: \(log)")
            model[at] = post
            return ("replace(at: \(at), with: \(post))", store.replace(at: at, with: post))
        case 7:
            guard !model.isEmpty else { return ("nothing", []) }
            let at = input.below(model.count)
            model.remove(at: at)
            return ("remove(at: \(at))", store.remove(at: at))
        case 8:
            let lower = input.below(model.count + 1)
            let upper = min(model.count, lower + (input.bool() ? input.below(6) : input.int(in: 0 ... 600)))
            model.removeSubrange(lower ..< upper)
            return ("removeSubrange(\(lower)..<\(upper))", store.removeSubrange(lower ..< upper))
        case 9:
            let offsets = model.indices.filter { _ in input.below(3) == 0 }
            for offset in offsets.reversed() { model.remove(at: offset) }
            return ("remove(offsets: \(offsets))", store.remove(offsets: offsets))
        case 10:
            let k = input.below(model.count + 3)
            if input.bool() {
                model.removeFirst(min(k, model.count))
                return ("removeFirst(\(k))", store.removeFirst(k))
            }
            model.removeLast(min(k, model.count))
            return ("removeLast(\(k))", store.removeLast(k))
        case 11:
            guard !model.isEmpty else { return ("nothing", []) }
            let from = input.below(model.count), to = input.below(model.count)
            model.insert(model.remove(at: from), at: to)
            return ("move(from: \(from), to: \(to))", store.move(from: from, to: to))
        case 12:
            model.removeAll()
            return ("removeAll", store.removeAll())
        default:
            let posts = store.deduplicated(batch())
            var seen = Set<Key>()
            let expected = posts.filter { seen.insert($0.id).inserted }
            Fuzz.check(posts.count == expected.count, "deduplicated kept a repeated id: \(posts)")
            return ("deduplicated", [])
        }
    }
}
