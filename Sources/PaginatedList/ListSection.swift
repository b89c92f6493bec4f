import Signals

/// A run of consecutive items with equal keys (a date header and the rows under it), as
/// `PaginatedListViewModel.sections(by:)` groups them.
///
/// Two runs may share a key (`[A, B, A]`): `id` tells them apart and stays the same while the run lives,
/// so a view keeps its section (and its scroll position, its expanded state) while rows land in it or
/// leave it. `items` shares its storage with the view model's list: a section longer than a leaf of the
/// list (16 to 128 items, by size) costs O(log n) memory, not a copy of its rows; a shorter one is one leaf
/// of its own.
public struct ListSection<Key: Hashable & Sendable, Item>: Identifiable {
    /// What tells a section apart from every other section of the same list: its key, and which run of
    /// that key it is.
    ///
    /// `occurrence` counts the runs of `key` from the top: 0 for the first run of a key in a list grown
    /// downwards, 1 for the next run of the same key, and so on. It is given when the run appears and kept
    /// while the run lives, so it is unique among the sections held but is not renumbered: a run that
    /// appears at the top of the list (a prepended page) gets one less than the lowest given to its key,
    /// which may be negative; any other new run (an inserted item splitting a run, a run inserted between
    /// rows) gets one more than the largest given so far. A list that empties, or is replaced whole
    /// (`.reset`), numbers afresh from 0.
    public struct ID: Hashable, Sendable {
        /// The key every item of the section has.
        public let key: Key
        /// Which run of `key` the section is, counted from the top (see `ID`).
        public let occurrence: Int

        /// The identity of the `occurrence`th run of `key`.
        public init(key: Key, occurrence: Int) {
            self.key = key
            self.occurrence = occurrence
        }
    }

    /// The section's identity: its key and which run of that key it is.
    public let id: ID
    /// The key every item of the section has.
    public var key: Key { id.key }
    /// The section's items, in list order: never empty in a list `sections(by:)` publishes.
    public let items: ItemList<Item>

    /// A section `id` holding `items` (for tests and previews: `sections(by:)` makes its own).
    public init(id: ID, items: ItemList<Item>) {
        self.id = id
        self.items = items
    }
}

extension ListSection: Sendable where Item: Sendable {}

extension ListSection: Equatable where Item: Equatable {
    /// Whether both sections have the same id and equal items.
    public static func == (lhs: ListSection, rhs: ListSection) -> Bool {
        lhs.id == rhs.id && lhs.items == rhs.items
    }
}

extension PaginatedListViewModel {
    /// The items grouped into consecutive sections by `key` (a date header, a letter): updated per change,
    /// not recomputed from the whole list.
    ///
    /// A section is a run of consecutive items whose keys are equal; two runs of one key are two sections
    /// (`ListSection.ID` tells them apart, and stays the same while the run lives). The property follows
    /// every change the view model publishes (pages appended and prepended, edits, refreshes, `maxPages`
    /// drops, `reset()`), in the same transition: it sends once per transition that changes `items`,
    /// after `changes`, and holds the sections of the `items` snapshot of that transition.
    ///
    /// Cost: grouping the items held when called is O(n). After that, a transition costs O(k) calls of
    /// `key` for the k items it inserts or updates, O(log n) per section it touches (a touched section's
    /// `items` is cut from the list, sharing its nodes), and moving the sections below the change in the
    /// array (a prepend moves every section; an append, none). `key` is called only for inserted and updated
    /// items (and every item after a `.reset` change), on the view model's scheduler, except while the first
    /// grouping runs: that grouping, and a transition delivered meanwhile, call it on the thread that called
    /// `sections(by:)`. It must be a pure function of the item.
    ///
    /// The property starts from the items held at the call. Call it on the view model's scheduler (the main
    /// thread by default) to have them at once; from another thread, a transition delivered meanwhile is
    /// grouped too, right after. It keeps working while both the view model and the returned property are
    /// held; dropping the property stops the grouping.
    @inlinable
    public func sections<Key: Hashable & Sendable>(
        by key: @escaping @Sendable (Item) -> Key
    ) -> Property<[ListSection<Key, Item>]> {
        let sections = MutableProperty<[ListSection<Key, Item>]>([])
        // The follower lives as long as its observations of the view model; it holds `sections` weakly.
        _ = SectionsFollower(viewModel: self, key: key, output: sections)
        return Property(sections)
    }
}

/// Keeps the sections of a view model's list up to date from its `changes` (see `Docs/Internals.md`,
/// "Sections").
// Inlinable, with `SectionGrouping`: a client's `sections(by:)` specialises the follower for its `Item` and
// `Key` (unspecialised, each transition looked up generic metadata dozens of times: `Benchmarks sections`).
@usableFromInline
final class SectionsFollower<Key: Hashable & Sendable, Item, Failure: Error> {
    @usableFromInline typealias Section = ListSection<Key, Item>

    /// The grouping and the list it groups: owned by the one thread running jobs (`submit(_:)`).
    @usableFromInline
    struct Grouped {
        @usableFromInline var grouping = SectionGrouping<Key>()
        /// The items the grouping (and the published sections) stand for; `nil` before the first job.
        @usableFromInline var basis: ItemList<Item>?

        @inlinable
        init() {}
    }

    /// Work on the grouping, run one at a time, in the order submitted.
    @usableFromInline
    enum Job {
        /// Group the items the view model holds when the job runs (read then: a job queued behind others
        /// must not group an older list than theirs).
        case group(@Sendable () -> ItemList<Item>?)
        /// Apply a transition's changes: the list before it (`nil`: not seen) and after it.
        case transition([ItemListChange], before: ItemList<Item>?, after: ItemList<Item>)
    }

    /// What the follower keeps between transitions.
    @usableFromInline
    struct State {
        /// The changes of the transition being delivered, in order.
        @usableFromInline var pending: [ItemListChange] = []
        /// The list after the last transition the follower finished (or, before the first, the list the
        /// first grouping read): the list the next transition starts from.
        @usableFromInline var snapshot: ItemList<Item>?
        /// Whether the first grouping has read its list. Until then a transition is not taken to start from
        /// `snapshot`: the follower may have been attached to `changes` in the middle of it (after some of
        /// its changes were queued), so its job groups its list afresh.
        @usableFromInline var firstGroupingRead = false
        /// The jobs not run yet.
        @usableFromInline var jobs: [Job] = []
        /// The grouping, while no thread is running jobs; `nil` while one is (it holds the grouping).
        @usableFromInline var grouped: Grouped? = Grouped()

        @inlinable
        init() {}
    }

    /// Guards `state`.
    @usableFromInline let lock = Lock()
    /// Guarded by `lock`.
    @usableFromInline var state = State()
    @usableFromInline let key: @Sendable (Item) -> Key
    /// The published sections; the follower stops when nobody holds them any more.
    @usableFromInline weak var output: MutableProperty<[Section]>?
    /// The observations of the view model, disposed when the follower stops.
    @usableFromInline let observations = CompositeDisposable()

    /// Follows `viewModel`'s items grouped by `key` into `output`, until nobody holds `output`.
    @inlinable
    init(viewModel: PaginatedListViewModel<Item, Failure>, key: @escaping @Sendable (Item) -> Key,
         output mutable: MutableProperty<[Section]>) {
        self.key = key
        output = mutable
        let core = viewModel.core
        // Observed before the items held are grouped, so that no transition is lost (see `Docs/Internals.md`,
        // "Sections", races). The transition's end first, then its changes: the storage stages them in the
        // other order, so every change the follower is given is followed by its transition's end. The list
        // comes with that end, not from `items`: an observer of `items` started on another thread delivers
        // `items` there, possibly after the transition's changes and end.
        if let observation = core.mirrorChanged.output.observeValues({ [self] items in finishTransition(items) }) {
            observations.add(observation)
        }
        if let observation = core.changes.output.observeValues({ [self] change in
            lock.locked { state.pending.append(change) }
        }) { observations.add(observation) }
        submit(.group({ [weak core] in core?.items.value }))
    }

    /// The consecutive runs of equal keys of the items of `list` in `range`. O(k) for k items, a leaf at a time.
    @inlinable
    static func runs(of list: ItemList<Item>, in range: Range<Int>, key: (Item) -> Key) -> [SectionGrouping<Key>.Run] {
        var runs: [SectionGrouping<Key>.Run] = []
        list.forEach(in: range) { item in
            let itemKey = key(item)
            if let last = runs.last, last.key == itemKey {
                runs[runs.count - 1].count += 1
            } else {
                runs.append(.init(key: itemKey, count: 1))
            }
        }
        return runs
    }

    /// The transition's last delivery, with its list (`nil`: the transition left the items as they were):
    /// queues its changes on the grouping.
    @inlinable
    func finishTransition(_ items: ItemList<Item>?) {
        guard output != nil else {
            observations.dispose()
            return
        }
        let job = lock.locked { () -> Job? in
            defer { state.pending = [] }
            guard let items else { return nil }
            defer { state.snapshot = items }
            return .transition(state.pending, before: state.firstGroupingRead ? state.snapshot : nil, after: items)
        }
        if let job { submit(job) }
    }

    /// Queues `job`; if no thread is running jobs, runs it and every job queued meanwhile, in order, on
    /// this thread (a transition delivered on another thread while the first grouping is made, or by an
    /// observer of the sections while they are published, waits its turn instead of racing).
    @inlinable
    func submit(_ job: Job) {
        guard var work = lock.locked({ () -> Grouped? in
            guard let grouped = state.grouped else {
                state.jobs.append(job)
                return nil
            }
            state.grouped = nil
            return grouped
        }) else { return }
        var next: Job? = job
        while let job = next {
            run(job, on: &work)
            next = lock.locked { () -> Job? in
                guard !state.jobs.isEmpty else {
                    state.grouped = work
                    return nil
                }
                return state.jobs.removeFirst()
            }
        }
    }

    /// Runs one job on the grouping. The keys are read here, outside every lock (`key` is the user's).
    @inlinable
    func run(_ job: Job, on work: inout Grouped) {
        guard let output else {
            observations.dispose()
            return
        }
        let items: ItemList<Item>
        switch job {
        case let .group(read):
            // The list read is the one the next transition delivered starts from, unless one was delivered
            // already (its job, queued, finds the grouping at or past its list).
            guard let held = lock.locked({ () -> ItemList<Item>? in
                let held = read()
                state.firstGroupingRead = true
                if let held, state.snapshot == nil { state.snapshot = held }
                return held
            }) else { return }
            items = held
        case let .transition(changes, before, after):
            // The first grouping may have read this transition's list already (a property's value is set
            // before its transition is delivered): nothing to apply.
            if let basis = work.basis, basis._isIdentical(to: after) { return }
            // Applied only when the changes lead from the grouping's list to `after` (checked before a key is
            // read or a section edited, so that a misfit cannot trap, nor publish a half-edited array).
            if let before, let basis = work.basis, basis._isIdentical(to: before),
               Self.changes(changes, lead: before.count, to: after.count) {
                let steps = Self.steps(of: changes, in: after, key: key)
                if output.modify({ sections in work.grouping.apply(steps, to: &sections, from: after) }) {
                    work.basis = after
                    return
                }
            }
            // A transition the grouping does not stand before (one that raced the first grouping, or whose
            // changes were not all seen): group its list instead.
            items = after
        }
        let runs = Self.runs(of: items, in: 0 ..< items.count, key: key)
        output.modify { sections in work.grouping.rebuild(&sections, runs: runs, from: items) }
        work.basis = items
    }

    /// Whether `changes`, applied in order to a list of `count` items, are each within the list as the
    /// changes before them leave it, read their keys within the list after them (`steps(of:in:key:)` reads
    /// the keys of inserted and updated items there), and leave `finalCount` items. O(changes + offsets).
    @inlinable
    static func changes(_ changes: [ItemListChange], lead count: Int, to finalCount: Int) -> Bool {
        guard !changes.isEmpty else { return false }
        var count = count
        for change in changes {
            switch change {
            case let .appended(range), let .inserted(range):
                guard range.lowerBound >= 0, range.lowerBound <= count, range.upperBound <= finalCount else { return false }
                count += range.count
            case let .removed(offsets):
                var previous = -1
                for offset in offsets {
                    guard offset > previous, offset < count else { return false }
                    previous = offset
                }
                count -= offsets.count
            case let .updated(offsets):
                guard offsets.allSatisfy({ $0 >= 0 && $0 < count && $0 < finalCount }) else { return false }
            case let .moved(from, to):
                guard from >= 0, from < count, to >= 0, to < count else { return false }
            case .reset:
                count = finalCount
            }
        }
        return count == finalCount
    }

    /// A transition's changes as grouping steps, their keys read from `snapshot`, the list after them.
    @inlinable
    static func steps(of changes: [ItemListChange], in snapshot: ItemList<Item>, key: (Item) -> Key) -> [SectionGrouping<Key>.Step] {
        changes.map { change -> SectionGrouping<Key>.Step in
            switch change {
            case let .appended(range), let .inserted(range):
                .insert(at: range.lowerBound, runs(of: snapshot, in: range, key: key))
            case let .removed(offsets):
                .remove(offsets)
            case let .updated(offsets):
                .update(offsets.map { ($0, key(snapshot[$0])) })
            case let .moved(from, to):
                .move(from: from, to: to)
            case .reset:
                .rebuild(runs(of: snapshot, in: 0 ..< snapshot.count, key: key))
            }
        }
    }
}

// `state` is guarded by `lock`; the other stored properties are immutable or (`output`) a weak reference
// to a thread-safe property.
extension SectionsFollower: @unchecked Sendable {}

/// The bookkeeping of a list grouped into sections: where each section ends, and the occurrences given to
/// each key. It edits the published array of sections in place (see `Docs/Internals.md`, "Sections").
@usableFromInline
struct SectionGrouping<Key: Hashable & Sendable> {
    /// A run of `count` consecutive items with the same key.
    @usableFromInline
    struct Run: Equatable {
        @usableFromInline var key: Key
        @usableFromInline var count: Int

        @inlinable
        init(key: Key, count: Int) {
            self.key = key
            self.count = count
        }
    }

    /// One change of the list, its keys read.
    @usableFromInline
    enum Step {
        /// Items inserted at an offset, as runs.
        case insert(at: Int, [Run])
        /// Items removed, at these offsets (ascending) in the list before.
        case remove([Int])
        /// Items replaced in place, with their new keys.
        case update([(Int, Key)])
        /// One item moved.
        case move(from: Int, to: Int)
        /// The whole list replaced, as runs.
        case rebuild([Run])
    }

    /// The offset just past each section, in order: `ends[i]` is the end of section `i`.
    @usableFromInline var ends: [Int] = []
    /// The occurrences given so far to each key: the lowest and the highest.
    @usableFromInline var occurrences: [Key: Occurrences] = [:]
    /// The sections whose `items` must be cut again from the snapshot at the end of the transition.
    @usableFromInline var dirty: [Int] = []

    /// The lowest and the highest occurrence given to a key.
    @usableFromInline
    struct Occurrences {
        @usableFromInline var low: Int
        @usableFromInline var high: Int

        @inlinable
        init(low: Int, high: Int) {
            self.low = low
            self.high = high
        }
    }

    @inlinable
    init() {}

    /// The number of items the sections cover.
    @inlinable
    var count: Int { ends.last ?? 0 }

    /// Replaces `sections` by the sections of `runs`, numbered afresh, cut from `items`. O(n).
    @inlinable
    mutating func rebuild<Item>(_ sections: inout [ListSection<Key, Item>], runs: [Run], from items: ItemList<Item>) {
        occurrences = [:]
        dirty = []
        ends = []
        ends.reserveCapacity(runs.count)
        var built: [ListSection<Key, Item>] = []
        built.reserveCapacity(runs.count)
        var start = 0
        for run in runs {
            let id = ListSection<Key, Item>.ID(key: run.key, occurrence: newOccurrence(of: run.key, atTop: false))
            built.append(ListSection(id: id, items: items.extracting(start ..< start + run.count)))
            start += run.count
            ends.append(start)
        }
        sections = built
    }

    /// Applies one transition's steps to `sections` and cuts the touched sections from `snapshot`, the list
    /// after them. Returns whether the result covers exactly `snapshot` (false: the steps did not fit, and
    /// the caller groups the snapshot again).
    @inlinable
    mutating func apply<Item>(
        _ steps: [Step], to sections: inout [ListSection<Key, Item>], from snapshot: ItemList<Item>
    ) -> Bool {
        dirty = []
        for step in steps {
            switch step {
            case let .insert(at, runs):
                guard at >= 0, at <= count else { return false }
                replace(at ..< at, with: runs, in: &sections)
            case let .remove(offsets):
                guard offsets.allSatisfy({ $0 >= 0 && $0 < count }) else { return false }
                // Contiguous ranges, from the bottom up: the offsets above stay valid.
                var upper = offsets.count
                while upper > 0 {
                    var lower = upper - 1
                    while lower > 0, offsets[lower - 1] == offsets[lower] - 1 { lower -= 1 }
                    replace(offsets[lower] ..< offsets[upper - 1] + 1, with: [], in: &sections)
                    upper = lower
                }
            case let .update(updates):
                for (offset, key) in updates {
                    guard offset >= 0, offset < count else { return false }
                    let index = section(containing: offset)
                    if sections[index].key == key {
                        markDirty(index)
                    } else {
                        replace(offset ..< offset + 1, with: [Run(key: key, count: 1)], in: &sections)
                    }
                }
            case let .move(from, to):
                guard from >= 0, from < count, to >= 0, to < count else { return false }
                let key = sections[section(containing: from)].key
                replace(from ..< from + 1, with: [], in: &sections)
                replace(to ..< to, with: [Run(key: key, count: 1)], in: &sections)
            case let .rebuild(runs):
                rebuild(&sections, runs: runs, from: snapshot)
            }
        }
        guard count == snapshot.count else { return false }
        // `markDirty` may have listed a section more than once (when its marks were not in a row).
        if dirty.count > 1 { dirty = Array(Set(dirty)) }
        for index in dirty {
            let start = index == 0 ? 0 : ends[index - 1]
            sections[index] = ListSection(id: sections[index].id, items: snapshot.extracting(start ..< ends[index]))
        }
        dirty = []
        if count == 0 { occurrences = [:] }
        return true
    }

    /// The index of the section holding item `offset` (in `0 ..< count`). O(log sections).
    @inlinable
    func section(containing offset: Int) -> Int {
        var low = 0, high = ends.count - 1
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] > offset { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Lists section `index` among those whose `items` are cut again. O(1): an update of k rows in k
    /// sections would cost O(k²) if each mark searched the list; the few repeats are dropped at the end.
    @inlinable
    mutating func markDirty(_ index: Int) {
        if dirty.last != index { dirty.append(index) }
    }

    /// A new occurrence of `key`: below every one given (a run that appears at the top), else above.
    @inlinable
    mutating func newOccurrence(of key: Key, atTop: Bool) -> Int {
        guard let given = occurrences[key] else {
            occurrences[key] = Occurrences(low: 0, high: 0)
            return 0
        }
        if atTop {
            occurrences[key] = Occurrences(low: given.low - 1, high: given.high)
            return given.low - 1
        }
        occurrences[key] = Occurrences(low: given.low, high: given.high + 1)
        return given.high + 1
    }

    /// One piece of the sections a replacement leaves: a run, the id it keeps (if it keeps one), and the
    /// old section it is, unchanged (if it is one).
    @usableFromInline
    struct Piece {
        @usableFromInline var key: Key
        @usableFromInline var count: Int
        @usableFromInline var occurrence: Int?
        @usableFromInline var unchanged: Int?

        @inlinable
        init(key: Key, count: Int, occurrence: Int?, unchanged: Int?) {
            self.key = key
            self.count = count
            self.occurrence = occurrence
            self.unchanged = unchanged
        }
    }

    /// Replaces the items at `range` (offsets in the list now) by `runs`: the sections around the range
    /// are cut and merged, the ones that live keep their ids, new runs get new ones. O(sections touched +
    /// runs), plus moving the sections below in the array and their ends.
    @inlinable
    mutating func replace<Item>(_ range: Range<Int>, with runs: [Run], in sections: inout [ListSection<Key, Item>]) {
        let total = count
        // The sections touched: the one above the range's first item, through the one holding the item after it.
        let first = range.lowerBound > 0 ? section(containing: range.lowerBound - 1) : 0
        let last = range.upperBound < total ? section(containing: range.upperBound) + 1 : sections.count
        let regionStart = first == 0 ? 0 : ends[first - 1]
        var pieces: [Piece] = []
        pieces.reserveCapacity(runs.count + 2)
        if range.lowerBound > 0 {
            let end = ends[first]
            pieces.append(Piece(key: sections[first].key, count: range.lowerBound - regionStart,
                                occurrence: sections[first].id.occurrence,
                                unchanged: range.lowerBound == end ? first : nil))
        }
        for run in runs where run.count > 0 {
            pieces.append(Piece(key: run.key, count: run.count, occurrence: nil, unchanged: nil))
        }
        if range.upperBound < total {
            let below = last - 1
            let start = below == 0 ? 0 : ends[below - 1]
            // The lower part of a section cut in two is a new run; the upper part keeps the id.
            let split = range.lowerBound > 0 && below == first
            pieces.append(Piece(key: sections[below].key, count: ends[below] - range.upperBound,
                                occurrence: split ? nil : sections[below].id.occurrence,
                                unchanged: !split && range.upperBound == start ? below : nil))
        }
        var merged: [Piece] = []
        merged.reserveCapacity(pieces.count)
        for piece in pieces {
            if let top = merged.last, top.key == piece.key {
                merged[merged.count - 1] = Piece(key: top.key, count: top.count + piece.count,
                                                 occurrence: top.occurrence ?? piece.occurrence, unchanged: nil)
            } else {
                merged.append(piece)
            }
        }
        // New runs at the very top are numbered upwards from the topmost; the others, downwards.
        let atTop = first == 0 && range.lowerBound == 0 && total > 0
        for index in atTop ? Array(merged.indices.reversed()) : Array(merged.indices) where merged[index].occurrence == nil {
            merged[index].occurrence = newOccurrence(of: merged[index].key, atTop: atTop)
        }
        let wasDirty = dirty.filter { $0 >= first && $0 < last }
        dirty.removeAll { $0 >= first && $0 < last }
        var newSections: [ListSection<Key, Item>] = []
        var newEnds: [Int] = []
        newSections.reserveCapacity(merged.count)
        newEnds.reserveCapacity(merged.count)
        var end = regionStart
        var newDirty: [Int] = []
        for (offset, piece) in merged.enumerated() {
            end += piece.count
            newEnds.append(end)
            let id = ListSection<Key, Item>.ID(key: piece.key, occurrence: piece.occurrence!)
            if let old = piece.unchanged {
                newSections.append(sections[old])
                if wasDirty.contains(old) { newDirty.append(first + offset) }
            } else {
                newSections.append(ListSection(id: id, items: ItemList()))
                newDirty.append(first + offset)
            }
        }
        let shift = merged.count - (last - first)
        if shift != 0 {
            for index in dirty.indices where dirty[index] >= last { dirty[index] += shift }
        }
        dirty += newDirty
        sections.replaceSubrange(first ..< last, with: newSections)
        ends.replaceSubrange(first ..< last, with: newEnds)
        let delta = runs.reduce(0) { $0 + $1.count } - range.count
        if delta != 0 {
            for index in (first + merged.count) ..< ends.count { ends[index] += delta }
        }
    }
}

extension ItemList {
    /// The items in `range`, as a list that shares this list's nodes but the O(log n) on the range's
    /// edges. O(log n).
    ///
    /// A range that fits in a leaf is copied into one new leaf instead: cutting the tree at its ends would
    /// copy the same items into the partial leaves at both ends, and make O(log n) inner nodes besides.
    @inlinable
    func extracting(_ range: Range<Int>) -> ItemList {
        precondition(range.lowerBound >= 0 && range.upperBound <= count,
                     "ItemList range \(range) out of bounds 0..<\(count)")
        if range.isEmpty { return ItemList() }
        if range.count == count { return self }
        guard let tree else { return ItemList() }
        if range.count <= ItemListLeaf<Item>.maxCount {
            let copy = ItemListLeaf<Item>.make(capacity: range.count)
            copy.update { copy in
                var position = range.lowerBound
                while position < range.upperBound {
                    let (source, offset) = leaf(at: position)
                    position += source.read { source in
                        let end = Swift.min(source.count, offset + range.upperBound - position)
                        copy.append(copying: UnsafeBufferPointer(rebasing: source.items[offset ..< end]))
                        return end - offset
                    }
                }
            }
            return ItemList(tree: ItemListTree(leaf: copy))
        }
        let below = ItemListTree.split(tree, at: range.upperBound).0
        return ItemList(tree: below.flatMap { ItemListTree.split($0, at: range.lowerBound).1 })
    }
}
