import Foundation
import PaginatedList
import PaginatedListTesting
import Signals
import Testing

/// A feed that never changes (posts `0 ..< count`), paged in runs of `size` both ways from an anchor:
/// page `lo ..< hi` has the page before it (`max(lo - size, 0) ..< lo`, unless `lo` is 0) and the page
/// after it (`hi ..< hi + size`, clamped, unless `hi` is the end). Every load is a run the test answers
/// when it likes, or never; runs are recorded with the range they load.
final class WindowFeed: PaginatedListDependency {
    /// One start of a page producer.
    final class Run: AnsweredRun<PostPage> {
        let range: Range<Int>
        /// Whether the test already sent a page on the run after it was cut off.
        var sentLate = false

        init(range: Range<Int>, input: Signal<PostPage, TestError>.Observer, lifetime: Lifetime) {
            self.range = range
            super.init(input: input, lifetime: lifetime)
        }
    }

    let count: Int
    let size: Int
    /// The first item of the dependency's first page.
    let start: Int
    private(set) var runs: [Run] = []

    init(count: Int, size: Int, start: Int) {
        self.count = count
        self.size = size
        self.start = min(start, count)
    }

    func firstPage() -> PostProducer {
        producer(for: start ..< min(start + size, count))
    }

    /// The producer of the page `range`: each start records a run.
    func producer(for range: Range<Int>) -> PostProducer {
        Producer { [unowned self] observer, lifetime in
            runs.append(Run(range: range, input: observer, lifetime: lifetime))
        }
    }

    /// The page `range`, with its neighbours' producers.
    func page(_ range: Range<Int>) -> PostPage {
        let previous = range.lowerBound > 0 ? producer(for: max(range.lowerBound - size, 0) ..< range.lowerBound) : nil
        let next = range.upperBound < count ? producer(for: range.upperBound ..< min(range.upperBound + size, count)) : nil
        return Page(items: range.map { FeedPost(id: $0) }, previous: previous, next: next)
    }

    /// The runs the view model waits for.
    var activeRuns: [Run] { runs.filter(\.isActive) }

    /// Forgets the runs that ended and can send nothing more that a test would send.
    func forgetEndedRuns() {
        runs.removeAll { !$0.isActive && ($0.endedByTest || $0.sentLate) }
    }
}

/// One random sequence over a `WindowFeed`: loads at both ends (commands and prefetch), answers in any
/// order, failures, late pages of cut-off runs, edits, refreshes and resets, on a view model that may
/// hold at most `maxPages` pages; after every step the invariants are checked.
///
/// The invariants (`R`: the ids the user removed since the last reset; a page that comes again may bring
/// one back, and a drop take it away again):
/// 1. No id is held twice.
/// 2. Replaying `changes` on a mirror of the first snapshot gives `items`.
/// 3. The feed's posts held form a contiguous run of the feed: within the list (or within each side of
///    a gap, when one is open), their ids increase, and every id skipped is in `R`. Items the user
///    inserted (ids outside the feed) and the ids in `R` are left out of this check (a page loaded again
///    brings back an item the user removed as a new item, above the held items it overlaps).
/// 4. At most one load per direction: the runs the view model waits for are exactly one per kind of load
///    that `loadStates` shows as `.loading`.
/// 5. The machine's ledger holds at most `maxPages` pages, and counts exactly the items held.
/// 6. An end shown `.complete` has nothing more: every feed id above the first held (below the last
///    held) is in `R`.
/// 7. An `update(id:)` of a held item shows its new value at once.
final class BothDirectionsSession: SeededSequence {
    enum Operation: CaseIterable {
        case loadNext, loadPrevious, prefetch, deliver, fail, lateDelivery
        case like, remove, insert, refreshReplace, refreshMerge, refreshReloadAll, fillGap, reset
    }

    /// How often the sequences reached what the invariants are about (so that a change to the generator
    /// that stops reaching it fails the test).
    struct Coverage {
        /// Steps with a load in flight at each end.
        var bothEndsLoading = 0
        /// Pages that landed on a window already full (a page was dropped).
        var drops = 0
    }

    private(set) var coverage = Coverage()
    let seed: UInt64
    private var rng: SplitMix64
    let feed: WindowFeed
    let viewModel: PostViewModel
    private let replayer: ChangeReplayer<FeedPost>
    private let maxPages: Int?
    /// Ids the user removed since the last reset (`R`).
    private var removed = Set<Int>()
    private var nextInsertedID = 1_000_000
    /// The operations applied, for the failure message.
    private(set) var trail: [String] = []
    private(set) var failure: String?

    init(seed: UInt64) {
        self.seed = seed
        rng = SplitMix64(seed: seed)
        let count = rng.below(8) == 0 ? 0 : 1 + rng.below(40)
        let size = 1 + rng.below(5)
        feed = WindowFeed(count: count, size: size, start: count == 0 ? 0 : rng.below(count))
        maxPages = rng.below(3) == 0 ? nil : 1 + rng.below(4)
        viewModel = PostViewModel(scheduler: ImmediateScheduler(), maxPages: maxPages) { [feed] in feed.firstPage() }
        replayer = ChangeReplayer(viewModel)
    }

    var description: String {
        "feed of \(feed.count) posts, pages of \(feed.size) from \(feed.start), maxPages \(maxPages.map(String.init) ?? "nil")"
    }

    private var ids: [Int] { viewModel.items.value.map(\.id) }

    private func weight(_ operation: Operation, waiting: Bool, late: Bool, holdsPage: Bool) -> Int {
        switch operation {
        case .loadNext: return 10
        case .loadPrevious: return 10
        case .prefetch: return 6
        case .deliver: return waiting ? 30 : 0
        case .fail: return waiting ? 4 : 0
        case .lateDelivery: return late ? 2 : 0
        case .like: return 3
        case .remove: return 3
        // Into a list that holds a page (an edit into a list that never loaded one makes a page that has
        // no neighbours; what a refresh or a first page then does around it is not what this test checks).
        case .insert: return holdsPage ? 2 : 0
        case .refreshReplace: return 1
        case .refreshMerge: return 1
        case .refreshReloadAll: return 1
        case .fillGap: return viewModel.gap.value == nil ? 0 : 2
        case .reset: return 1
        }
    }

    private func pick() -> Operation {
        feed.forgetEndedRuns()
        let waiting = !feed.activeRuns.isEmpty
        let late = feed.runs.contains { $0.wasCutOff && !$0.sentLate }
        let holdsPage = ids.contains { $0 < feed.count }
        let weights = Operation.allCases.map { ($0, weight($0, waiting: waiting, late: late, holdsPage: holdsPage)) }
        var roll = rng.below(weights.reduce(0) { $0 + $1.1 })
        for (operation, weight) in weights {
            if roll < weight { return operation }
            roll -= weight
        }
        fatalError("unreachable")
    }

    func step() {
        let operation = pick()
        var note = "\(operation)"
        var liked: (id: Int, likes: Int)?
        switch operation {
        case .loadNext:
            viewModel.loadNextPage()
        case .loadPrevious:
            viewModel.loadPreviousPage()
        case .prefetch:
            let count = viewModel.items.value.count
            let first = rng.below(count + 2) - 1
            let last = first + rng.below(4)
            let distance = rng.below(4)
            note += " \(first)...\(last) distance \(distance)"
            viewModel.loadPagesIfNeeded(visibleRows: first ... last, prefetchDistance: distance)
        case .deliver:
            let waiting = feed.activeRuns
            let run = waiting[rng.below(waiting.count)]
            note += " \(run.range)"
            let full = maxPages != nil && MachinePeek(viewModel).pageCount == maxPages
            run.deliver(feed.page(run.range))
            if full, !run.range.isEmpty { coverage.drops += 1 }
        case .fail:
            let waiting = feed.activeRuns
            let run = waiting[rng.below(waiting.count)]
            note += " \(run.range)"
            run.fail(TestError(rng.below(3)))
        case .lateDelivery:
            let late = feed.runs.filter { $0.wasCutOff && !$0.sentLate }
            let run = late[rng.below(late.count)]
            run.sentLate = true
            note += " \(run.range)"
            let before = Array(viewModel.items.value)
            run.input.send(value: feed.page(run.range))
            if Array(viewModel.items.value) != before { fail("a page of a run cut off changed the list") }
        case .like:
            guard let id = randomHeldID() else { break }
            let likes = 1 + rng.below(100)
            note += " \(id)"
            viewModel.update(id: id) { $0.likes = likes }
            liked = (id, likes)
        case .remove:
            guard let id = randomHeldID() else { break }
            note += " \(id)"
            viewModel.remove(id: id)
            if id < feed.count { removed.insert(id) }
        case .insert:
            let at = rng.below(viewModel.items.value.count + 1)
            note += " at \(at)"
            viewModel.insert([FeedPost(id: nextInsertedID)], at: at)
            nextInsertedID += 1
        case .refreshReplace:
            viewModel.refresh()
        case .refreshMerge:
            let pages = 1 + rng.below(3)
            let onGap: GapPolicy = rng.below(2) == 0 ? .replace : .keepGap
            note += " \(pages) \(onGap)"
            viewModel.refresh(.mergeOnTop(maxPages: pages, onGap: onGap))
        case .refreshReloadAll:
            viewModel.refresh(.reloadAll)
        case .fillGap:
            viewModel.fillGap()
        case .reset:
            viewModel.reset()
            removed = []
        }
        trail.append(note)
        let pagesMayChange = [.deliver, .remove, .insert, .reset].contains(operation)
        if tracingSequences { print("  \(note) -> \(ids) gap \(viewModel.gap.value.map(String.init) ?? "-") \(viewModel.loadStates.value.prepend) \(MachinePeek(viewModel).pageSizes)") }
        guard failure == nil else { return }
        check(liked: liked, pagesMayChange: pagesMayChange)
    }

    private func randomHeldID() -> Int? {
        let held = ids
        return held.isEmpty ? nil : held[rng.below(held.count)]
    }

    private func fail(_ message: String) {
        if failure == nil { failure = message }
    }

    private func check(liked: (id: Int, likes: Int)?, pagesMayChange: Bool) {
        let items = Array(viewModel.items.value)
        let ids = items.map(\.id)
        var problems: [String] = []
        // 1. Unique ids.
        if Set(ids).count != ids.count { problems.append("an id is held twice") }
        // 2. Replaying changes.
        if replayer.mirror != items { problems.append("replaying changes gave \(replayer.mirror.map(\.id))") }
        problems += replayer.mismatches
        // 3. Contiguous runs of the feed, on each side of the gap.
        let gap = viewModel.gap.value
        if let gap, !(1 ..< max(items.count, 1)).contains(gap) { problems.append("gap \(gap) outside the list") }
        let sides = gap.map { [Array(ids[..<$0]), Array(ids[$0...])] } ?? [ids]
        let states = viewModel.loadStates.value
        for side in sides {
            let posts = side.filter { $0 < feed.count && !removed.contains($0) }
            for (upper, lower) in zip(posts, posts.dropFirst()) {
                if lower <= upper {
                    problems.append("\(lower) after \(upper)")
                } else if let skipped = (upper + 1 ..< lower).first(where: { !removed.contains($0) }) {
                    problems.append("\(skipped) missing between \(upper) and \(lower)")
                }
            }
        }
        if states.prepend.isLoading, states.append.isLoading { coverage.bothEndsLoading += 1 }
        // 4. One load per direction.
        let loading = [states.refresh, states.prepend, states.append].filter(\.isLoading).count
        if feed.activeRuns.count != loading {
            problems.append("\(feed.activeRuns.count) runs in flight for \(loading) loads (\(states))")
        }
        // 5. The ledger (after the steps that can change it).
        if pagesMayChange {
            let peek = MachinePeek(viewModel)
            if let maxPages, peek.pageCount > maxPages { problems.append("\(peek.pageCount) pages held") }
            if peek.ledgerItemCount != items.count || peek.pageSizes.contains(where: { $0 < 0 }) {
                problems.append("the ledger counts \(peek.pageSizes) for \(items.count) items")
            }
        }
        // 6. Complete ends.
        let posts = ids.filter { $0 < feed.count }
        let topSide = sides[0].filter { $0 < feed.count }
        let bottomSide = sides[sides.count - 1].filter { $0 < feed.count }
        if states.prepend.isComplete, let first = topSide.first ?? posts.first,
           let missing = (0 ..< first).first(where: { !removed.contains($0) }) {
            problems.append("prepend complete but \(missing) lies above")
        }
        if states.append.isComplete, let last = bottomSide.last ?? posts.last,
           let missing = (last + 1 ..< feed.count).first(where: { !removed.contains($0) }) {
            problems.append("append complete but \(missing) lies below")
        }
        // 7. Edits show.
        if let liked, let item = items.first(where: { $0.id == liked.id }), item.likes != liked.likes {
            problems.append("\(liked.id) liked \(liked.likes) shows \(item.likes)")
        }
        if !problems.isEmpty {
            fail(problems.joined(separator: "; ") + "\n  items \(items), gap \(gap.map(String.init) ?? "none"), \(states)")
        }
    }
}

@Suite("Both directions: model-based")
struct BothDirectionsModelTests {
    /// 10,000 random sequences (or the one `PAGINATED_LIST_SEED` names), 24 steps each.
    @Test func tenThousandRandomSequencesKeepTheWindowContiguousAndBounded() {
        var coverage = BothDirectionsSession.Coverage()
        let ranAll = runSeededSequences(BothDirectionsSession.self, base: 0xB07_11, steps: 24,
                                        filter: "BothDirectionsModelTests") { session in
            coverage.bothEndsLoading += session.coverage.bothEndsLoading
            coverage.drops += session.coverage.drops
        }
        guard ranAll else { return }
        #expect(coverage.bothEndsLoading >= 5_000, "\(coverage)")
        #expect(coverage.drops >= 5_000, "\(coverage)")
    }
}
