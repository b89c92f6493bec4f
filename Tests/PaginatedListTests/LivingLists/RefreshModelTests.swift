import Foundation
import PaginatedList
import PaginatedListTesting
import Signals
import Testing

/// A feed of posts that the test changes between requests, paged from the top by cursors: a page after
/// an entry is the `size` live entries that follow it *when the page is answered*. A deleted or moved
/// post leaves a tombstone where it was, so a cursor on it still knows its place (a moved post gets a
/// new entry with the same id). Every page load and every freshness check is a run the test answers when
/// it likes, or fails, or never answers.
final class RefreshScriptFeed: PaginatedListDependency {
    struct Entry {
        let serial: Int
        var post: FeedPost
        var alive: Bool
    }

    /// One start of a page producer: the page after the entry `after` (`nil`: the first page).
    final class PageRun: AnsweredRun<PostPage> {
        let after: Int?
        /// Whether the refresh edge started it (a refresh's or `fillGap()`'s page), else an append.
        var byRefresh = false

        init(after: Int?, input: Signal<PostPage, TestError>.Observer, lifetime: Lifetime) {
            self.after = after
            super.init(input: input, lifetime: lifetime)
        }
    }

    /// One start of a freshness check: answered with whether the feed changed (`deliver`).
    typealias CheckRun = AnsweredRun<Bool>

    let size: Int
    private(set) var entries: [Entry]
    private var nextSerial: Int
    private var nextID = 1_000
    private(set) var pageRuns: [PageRun] = []
    private(set) var checkRuns: [CheckRun] = []
    private(set) var pageRunsStarted = 0
    private(set) var checkRunsStarted = 0

    init(count: Int, size: Int) {
        self.size = size
        entries = (0 ..< count).map { Entry(serial: $0, post: FeedPost(id: $0), alive: true) }
        nextSerial = count
    }

    func firstPage() -> PostProducer { producer(after: nil) }

    func producer(after serial: Int?) -> PostProducer {
        Producer { [unowned self] observer, lifetime in
            pageRunsStarted += 1
            pageRuns.append(PageRun(after: serial, input: observer, lifetime: lifetime))
        }
    }

    /// A freshness check: each start records a run.
    var check: Producer<Bool, TestError> {
        Producer { [unowned self] observer, lifetime in
            checkRunsStarted += 1
            checkRuns.append(CheckRun(input: observer, lifetime: lifetime))
        }
    }

    /// The page after the entry `serial` (`nil`: the first page), as the feed is now.
    func page(after serial: Int?) -> PostPage {
        var index = serial.flatMap { serial in entries.firstIndex { $0.serial == serial } }.map { $0 + 1 } ?? 0
        var items: [FeedPost] = []
        var last: Int?
        while index < entries.count, items.count < size {
            if entries[index].alive {
                items.append(entries[index].post)
                last = entries[index].serial
            }
            index += 1
        }
        let more = entries[index...].contains(where: \.alive)
        return Page(items: items, next: more ? last.map { producer(after: $0) } : nil)
    }

    var activePageRuns: [PageRun] { pageRuns.filter(\.isActive) }
    var activeCheckRuns: [CheckRun] { checkRuns.filter(\.isActive) }

    func forgetEndedRuns() {
        pageRuns.removeAll { !$0.isActive }
        checkRuns.removeAll { !$0.isActive }
    }

    // MARK: - Changes (at positions among the live posts)

    var live: [FeedPost] { entries.filter(\.alive).map(\.post) }

    private func entryIndex(ofLive position: Int) -> Int? {
        var seen = 0
        for (index, entry) in entries.enumerated() where entry.alive {
            if seen == position { return index }
            seen += 1
        }
        return nil
    }

    /// Inserts a new post before the live post at `position` (at the end past the last); its id.
    @discardableResult
    func insert(at position: Int) -> Int {
        let id = nextID
        nextID += 1
        insert(FeedPost(id: id), at: position)
        return id
    }

    private func insert(_ post: FeedPost, at position: Int) {
        let index = entryIndex(ofLive: position) ?? entries.count
        entries.insert(Entry(serial: nextSerial, post: post, alive: true), at: index)
        nextSerial += 1
    }

    /// Deletes the live post at `position`; its id.
    func delete(at position: Int) -> Int? {
        guard let index = entryIndex(ofLive: position) else { return nil }
        entries[index].alive = false
        return entries[index].post.id
    }

    /// Re-ranks the live post at `from` to the live position `to` (counted after it left); its id.
    func move(from: Int, to: Int) -> Int? {
        guard let index = entryIndex(ofLive: from) else { return nil }
        entries[index].alive = false
        let post = entries[index].post
        insert(post, at: to)
        return post.id
    }

    /// Sets the likes of the live post at `position`.
    func like(at position: Int, _ likes: Int) {
        guard let index = entryIndex(ofLive: position) else { return }
        entries[index].post.likes = likes
    }
}

/// One random sequence: a view model over a `RefreshScriptFeed`, loads and refreshes of every policy
/// (some asking a freshness check first), `fillGap()`, likes and batch patches, answered in any order
/// while the feed changes between requests (inserts at the top and anywhere, deletes, moves, counter
/// changes). After every step the properties below are checked.
///
/// *Stable* posts: those in the feed since the sequence began, never deleted, never moved (their likes
/// may change). Their order in the feed never changes. The list splits at the gap, when one is open,
/// into a top side (above it) and a bottom side; without a gap the whole list is the top side.
///
/// 1. No id is held twice.
/// 2. Replaying `changes` on a mirror of the first snapshot gives `items`.
/// 3. The stable posts held appear in feed order (across the gap too).
/// 4. No silent hole: every stable post ranked before the last stable post of the top side is held in
///    the top side; every stable post ranked between the first and the last stable post of the bottom
///    side is held in the bottom side. (The stable posts between the sides are the ones the gap reports
///    missing. The list always starts at the feed's top: there is no `maxPages` here, since a dropped
///    page is loaded again by the producer that loaded it, whose cursor a changed feed has moved on.)
/// 5. A refresh whose freshness check answers "unchanged" made exactly one check request and no page
///    request, and the answer changes nothing (`items` and `changes` send nothing; the refresh is idle).
/// 6. When a page completes a refresh (or a `fillGap()` step), every held post that page has shows the
///    page's value (a changed like counter shows).
/// 7. A `.replace` refresh ends with exactly its page; a `.reloadAll` with exactly its pages' content
///    (each id once, at its first position, with its last value).
/// 8. A batch patch of held posts is one transition: `items` sends once, `changes` one `.updated`; every
///    patched post held shows its patch.
///
/// With moves in the feed, `.mergeOnTop` may take a held post that moved to the top for the overlap, and
/// remove the held posts above it (contract 16: the fresh pages do not have them), stable ones included:
/// a re-ranked feed is refreshed with `.reloadAll` (or `.replace`), not merged. So property 4 is not
/// checked after a `.mergeOnTop` or `fillGap()` applied pages while a post had moved since the list
/// was last replaced whole (`movesAllowHoles`); every other property is checked throughout.
final class RefreshSession: SeededSequence {
    /// How often the sequences reached what the properties are about (so that a change to the generator
    /// that stops reaching it fails the test).
    struct Coverage {
        var refreshesEnded: [Mode: Int] = [:]
        var gapsOpened = 0
        var unchangedChecks = 0
        var patches = 0
        /// Steps checked for property 4 while a gap was open, or after a merge that moved items.
        var holeChecksWithGap = 0
    }

    private(set) var coverage = Coverage()

    enum Operation: CaseIterable {
        case loadNext, prefetch, deliver, fail, answerCheck, failCheck
        case insertTop, insertAnywhere, delete, move, serverLike
        case like, patch, refreshReplace, refreshMerge, refreshReloadAll, refreshChecked, fillGap, reset
    }

    /// The mode of the refresh in flight, as the test asked for it.
    enum Mode: Hashable {
        case replace, merge, reloadAll, fillGap
    }

    let seed: UInt64
    private var rng: SplitMix64
    let feed: RefreshScriptFeed
    let viewModel: PostViewModel
    private let replayer: ChangeReplayer<FeedPost>
    private let itemsSends = Counter()
    private let changeSends = Recorder<ItemListChange>()
    /// The initial posts never deleted nor moved.
    private var stable: Set<Int>
    private let withMoves: Bool
    /// Whether a post moved since the last `.replace`, `.reloadAll` or reset replaced the whole list.
    private var moved = false
    /// Whether a `.mergeOnTop` or `fillGap()` ended while `moved` (see the class comment).
    private var movesAllowHoles = false
    private var mode: Mode?
    /// The pages the `.reloadAll` in flight has received, in order.
    private var reloaded: [[FeedPost]] = []
    /// The refresh waiting for its freshness check: the runs started before it was asked.
    private var checkAsked: (checks: Int, pages: Int)?
    private var checkMode: Mode?
    private(set) var trail: [String] = []
    private(set) var failure: String?

    init(seed: UInt64) {
        self.seed = seed
        rng = SplitMix64(seed: seed)
        let count = rng.below(26)
        feed = RefreshScriptFeed(count: count, size: 1 + rng.below(4))
        stable = Set(0 ..< count)
        withMoves = rng.below(2) == 0
        viewModel = PostViewModel(scheduler: ImmediateScheduler()) { [feed] in feed.firstPage() }
        replayer = ChangeReplayer(viewModel)
        viewModel.items.signal.observeValues { [itemsSends] _ in itemsSends.increment() }
        viewModel.changes.observeValues { [changeSends] change in changeSends.append(change) }
    }

    var description: String {
        "feed of \(feed.live.count) posts, pages of \(feed.size), \(withMoves ? "with" : "without") moves"
    }

    private var items: [FeedPost] { Array(viewModel.items.value) }

    private func weight(_ operation: Operation, pages: Bool, checks: Bool, held: Bool) -> Int {
        switch operation {
        case .loadNext: 10
        case .prefetch: 4
        case .deliver: pages ? 30 : 0
        case .fail: pages ? 3 : 0
        case .answerCheck: checks ? 8 : 0
        case .failCheck: checks ? 1 : 0
        case .insertTop: 6
        case .insertAnywhere: 3
        case .delete: 3
        case .move: withMoves ? 3 : 0
        case .serverLike: 4
        case .like: held ? 2 : 0
        case .patch: held ? 2 : 0
        case .refreshReplace: 2
        case .refreshMerge: 5
        case .refreshReloadAll: 2
        case .refreshChecked: 3
        case .fillGap: viewModel.gap.value == nil ? 0 : 10
        case .reset: 1
        }
    }

    private func pick() -> Operation {
        feed.forgetEndedRuns()
        let pages = !feed.activePageRuns.isEmpty
        let checks = !feed.activeCheckRuns.isEmpty
        let held = !viewModel.items.value.isEmpty
        let weights = Operation.allCases.map { ($0, weight($0, pages: pages, checks: checks, held: held)) }
        var roll = rng.below(weights.reduce(0) { $0 + $1.1 })
        for (operation, weight) in weights {
            if roll < weight { return operation }
            roll -= weight
        }
        fatalError("unreachable")
    }

    private func randomMode() -> (Mode, RefreshPolicy) {
        switch rng.below(4) {
        case 0: return (.replace, .replace)
        case 1: return (.reloadAll, .reloadAll)
        default:
            let policy = RefreshPolicy.mergeOnTop(maxPages: 1 + rng.below(3), onGap: rng.below(2) == 0 ? .replace : .keepGap)
            return (.merge, policy)
        }
    }

    func step() {
        let operation = pick()
        var note = "\(operation)"
        let before = items
        let gapBefore = viewModel.gap.value
        let sendsBefore = itemsSends.count
        let changesBefore = changeSends.count
        let runsBefore = feed.pageRunsStarted
        var expectations: [() -> String?] = []
        switch operation {
        case .loadNext:
            viewModel.loadNextPage()
        case .prefetch:
            let row = rng.below(before.count + 1)
            note += " \(row)"
            viewModel.loadPagesIfNeeded(visibleIndex: row, prefetchDistance: rng.below(3))
        case .deliver:
            let runs = feed.activePageRuns
            let run = runs[rng.below(runs.count)]
            let page = feed.page(after: run.after)
            note += " \(page.items.map(\.id))\(page.next == nil ? " last" : "")\(run.byRefresh ? " (refresh)" : "")"
            let refreshing = viewModel.loadStates.value.refresh.isLoading
            if run.byRefresh, mode == .reloadAll { reloaded.append(page.items) }
            run.deliver(page)
            if run.byRefresh, refreshing, !viewModel.loadStates.value.refresh.isLoading {
                if moved, mode == .merge || mode == .fillGap { movesAllowHoles = true }
                expectations.append { [self] in refreshEnded(with: page.items) }
            } else if run.byRefresh, mode == .fillGap, moved {
                movesAllowHoles = true
            }
        case .fail:
            let runs = feed.activePageRuns
            runs[rng.below(runs.count)].fail(TestError(1))
        case .answerCheck:
            let runs = feed.activeCheckRuns
            let changed = rng.below(2) == 0
            note += " \(changed)"
            let asked = checkAsked
            runs[rng.below(runs.count)].deliver(changed)
            if changed {
                mode = checkMode
            } else if let asked {
                coverage.unchangedChecks += 1
                expectations.append { [self] in
                    var problems: [String] = []
                    if feed.checkRunsStarted - asked.checks != 1 { problems.append("\(feed.checkRunsStarted - asked.checks) checks") }
                    if feed.pageRunsStarted != asked.pages { problems.append("\(feed.pageRunsStarted - asked.pages) page requests") }
                    if itemsSends.count != sendsBefore || changeSends.count != changesBefore { problems.append("the list changed") }
                    if viewModel.loadStates.value.refresh != .idle { problems.append("refresh is \(viewModel.loadStates.value.refresh)") }
                    return problems.isEmpty ? nil : "an unchanged check: " + problems.joined(separator: ", ")
                }
            }
            checkAsked = nil
        case .failCheck:
            let runs = feed.activeCheckRuns
            runs[rng.below(runs.count)].input.send(error: TestError(2))
            checkAsked = nil
        case .insertTop:
            let count = 1 + rng.below(2 * feed.size + 1)
            for _ in 0 ..< count { feed.insert(at: 0) }
            note += " \(count)"
        case .insertAnywhere:
            let at = rng.below(feed.live.count + 1)
            note += " at \(at)"
            feed.insert(at: at)
        case .delete:
            guard !feed.live.isEmpty, let id = feed.delete(at: rng.below(feed.live.count)) else { break }
            stable.remove(id)
            note += " \(id)"
        case .move:
            guard feed.live.count > 1 else { break }
            let from = rng.below(feed.live.count)
            let to = rng.below(feed.live.count - 1)
            guard let id = feed.move(from: from, to: to) else { break }
            stable.remove(id)
            moved = true
            note += " \(id) to \(to)"
        case .serverLike:
            guard !feed.live.isEmpty else { break }
            feed.like(at: rng.below(feed.live.count), 1 + rng.below(50))
        case .like:
            let post = before[rng.below(before.count)]
            let likes = 100 + rng.below(50)
            note += " \(post.id)"
            viewModel.update(id: post.id) { $0.likes = likes }
            expectations.append { [self] in
                items.first { $0.id == post.id }?.likes == likes ? nil : "\(post.id) liked \(likes) does not show it"
            }
        case .patch:
            // A counters endpoint: the feed's likes of some held posts (and of one the list does not hold).
            let chosen = (0 ..< 1 + rng.below(3)).map { _ in before[rng.below(before.count)].id } + [999_999]
            let counters = chosen.map { id in (id: id, likes: 200 + rng.below(50)) }
            note += " \(counters.map(\.id))"
            viewModel.update(counters, id: { $0.id }) { post, counter in post.likes = counter.likes }
            coverage.patches += 1
            expectations.append { [self] in
                var last: [Int: Int] = [:]
                for counter in counters { last[counter.id] = counter.likes }
                let now = items
                if let wrong = now.first(where: { post in last[post.id].map { $0 != post.likes } ?? false }) {
                    return "patched \(wrong.id) shows \(wrong.likes)"
                }
                if itemsSends.count - sendsBefore != 1 { return "a patch sent items \(itemsSends.count - sendsBefore) times" }
                let sent = Array(changeSends.values[changesBefore...])
                if sent.count != 1 { return "a patch sent \(sent)" }
                if case .updated = sent[0] { return nil }
                return "a patch sent \(sent)"
            }
        case .refreshReplace:
            viewModel.refresh()
            begin(.replace)
        case .refreshMerge:
            let pages = 1 + rng.below(3)
            let onGap: GapPolicy = rng.below(2) == 0 ? .replace : .keepGap
            note += " \(pages) \(onGap)"
            viewModel.refresh(.mergeOnTop(maxPages: pages, onGap: onGap))
            begin(.merge)
        case .refreshReloadAll:
            viewModel.refresh(.reloadAll)
            begin(.reloadAll)
        case .refreshChecked:
            let (chosen, policy) = randomMode()
            note += " \(policy)"
            let asked = (feed.checkRunsStarted, feed.pageRunsStarted)
            viewModel.refresh(policy, ifChanged: feed.check)
            begin(nil)
            checkAsked = asked
            checkMode = chosen
        case .fillGap:
            viewModel.fillGap()
            if viewModel.loadStates.value.refresh.isLoading { begin(.fillGap) }
        case .reset:
            viewModel.reset()
            mode = nil
            moved = false
            movesAllowHoles = false
            checkAsked = nil
        }
        // The runs this step started: by the refresh edge when it loads (appends wait meanwhile).
        if feed.pageRunsStarted > runsBefore, viewModel.loadStates.value.refresh.isLoading {
            for run in feed.pageRuns.suffix(feed.pageRunsStarted - runsBefore) { run.byRefresh = true }
        }
        if gapBefore == nil, viewModel.gap.value != nil { coverage.gapsOpened += 1 }
        trail.append(note)
        if tracingSequences { print("  \(note) -> \(items) gap \(viewModel.gap.value.map(String.init) ?? "-")") }
        guard failure == nil else { return }
        check(expectations)
    }

    /// A refresh command was sent: its pages are of `mode` (`nil`: a check answers first).
    private func begin(_ mode: Mode?) {
        self.mode = mode
        reloaded = []
        checkAsked = nil
    }

    /// The refresh of `mode` ended when a page of `page` landed: properties 6 and 7.
    private func refreshEnded(with page: [FeedPost]) -> String? {
        if let mode { coverage.refreshesEnded[mode, default: 0] += 1 }
        defer {
            if mode == .replace || mode == .reloadAll {
                moved = false
                movesAllowHoles = false
            }
            mode = nil
        }
        let now = items
        var last: [Int: FeedPost] = [:]
        for post in page { last[post.id] = post }
        if let stale = now.first(where: { post in last[post.id].map { $0 != post } ?? false }) {
            return "\(stale) does not show the refreshed \(last[stale.id]!)"
        }
        switch mode {
        case .replace where now != page:
            return ".replace ended with \(now), not its page \(page)"
        case .reloadAll:
            var content: [FeedPost] = []
            var slot: [Int: Int] = [:]
            for post in reloaded.joined() {
                if let index = slot[post.id] { content[index] = post } else {
                    slot[post.id] = content.count
                    content.append(post)
                }
            }
            return now == content ? nil : ".reloadAll ended with \(now), not its pages' content \(content)"
        default:
            return nil
        }
    }

    private func check(_ expectations: [() -> String?]) {
        let now = items
        let ids = now.map(\.id)
        var problems = expectations.compactMap { $0() }
        // 1, 2.
        if Set(ids).count != ids.count { problems.append("an id is held twice") }
        if replayer.mirror != now { problems.append("replaying changes gave \(replayer.mirror)") }
        problems += replayer.mismatches
        // 3. Stable posts in feed order.
        var rank: [Int: Int] = [:]
        for post in feed.live where stable.contains(post.id) { rank[post.id] = rank.count }
        let held = ids.compactMap { rank[$0] }
        if zip(held, held.dropFirst()).contains(where: { $0 >= $1 }) {
            problems.append("stable posts out of feed order")
        }
        // 4. No silent hole.
        if !movesAllowHoles {
            let gap = viewModel.gap.value ?? ids.count
            if gap < ids.count { coverage.holeChecksWithGap += 1 }
            let top = Set(ids[..<gap].compactMap { rank[$0] })
            let bottom = Set(ids[gap...].compactMap { rank[$0] })
            if let last = top.max(), let missing = (0 ..< last).first(where: { !top.contains($0) }) {
                problems.append("stable rank \(missing) missing above rank \(last)\(gap < ids.count ? " (above the gap)" : "")")
            }
            if let first = bottom.min(), let last = bottom.max(),
               let missing = (first ..< last).first(where: { !bottom.contains($0) }) {
                problems.append("stable rank \(missing) missing below the gap")
            }
        }
        if !problems.isEmpty {
            let ranks = feed.live.map { post in stable.contains(post.id) ? "\(post.id)" : "\(post.id)*" }
            failure = problems.joined(separator: "; ")
                + "\n  items \(now), gap \(viewModel.gap.value.map(String.init) ?? "none"), \(viewModel.loadStates.value)"
                + "\n  feed (* not stable) \(ranks)"
        }
    }
}

@Suite("Refresh: model-based")
struct RefreshModelTests {
    /// 10,000 random sequences (or the one `PAGINATED_LIST_SEED` names), 24 steps each.
    @Test func tenThousandRandomSequencesNeverDuplicateNorLeaveASilentHole() {
        var coverage = RefreshSession.Coverage()
        let ranAll = runSeededSequences(RefreshSession.self, base: 0xF4E5_10, steps: 24,
                                        filter: "RefreshModelTests") { session in
            coverage.gapsOpened += session.coverage.gapsOpened
            coverage.unchangedChecks += session.coverage.unchangedChecks
            coverage.patches += session.coverage.patches
            coverage.holeChecksWithGap += session.coverage.holeChecksWithGap
            coverage.refreshesEnded.merge(session.coverage.refreshesEnded, uniquingKeysWith: +)
        }
        guard ranAll else { return }
        #expect(coverage.gapsOpened >= 500, "\(coverage)")
        #expect(coverage.holeChecksWithGap >= 2_000, "\(coverage)")
        #expect(coverage.unchangedChecks >= 1_000, "\(coverage)")
        #expect(coverage.patches >= 2_000, "\(coverage)")
        for mode in [RefreshSession.Mode.replace, .merge, .reloadAll] {
            #expect(coverage.refreshesEnded[mode, default: 0] >= 2_000, "\(mode): \(coverage)")
        }
        #expect(coverage.refreshesEnded[.fillGap, default: 0] >= 100, "\(coverage)")
    }
}
