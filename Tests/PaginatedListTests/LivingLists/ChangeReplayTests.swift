import Foundation
import PaginatedList
import PaginatedListTesting
import Signals
import Testing

/// One random sequence of loads and edits on a view model of posts whose ids come from a small range (so
/// that pages and inserts often repeat held ids), checked after every step against the rules alone.
private final class ReplaySession {
    let seed: UInt64
    private var rng: SplitMix64
    private let viewModel: PostViewModel
    private let replayer: ChangeReplayer<FeedPost>
    /// What the list must be, computed from the operations and the rules of identity.
    private var expected: [FeedPost] = []
    private var exhausted = false
    private(set) var failure: String?

    init(seed: UInt64) {
        self.seed = seed
        rng = SplitMix64(seed: seed)
        let pages = PageScript(seed: seed)
        viewModel = PostViewModel(scheduler: ImmediateScheduler()) { pages.producer() }
        replayer = ChangeReplayer(viewModel)
        self.pages = pages
    }

    private let pages: PageScript

    func step(_ index: Int) {
        let roll = rng.below(100)
        switch roll {
        case 0 ..< 30:
            let page = pages.upcoming
            viewModel.loadNextPage()
            if !exhausted {
                merge(page.items, at: expected.count)
                exhausted = page.isLast
            }
        case 30 ..< 45:
            let id = randomID()
            let likes = Int(rng.below(100))
            viewModel.update(id: id) { $0.likes = likes }
            if let at = expected.firstIndex(where: { $0.id == id }) { expected[at].likes = likes }
        case 45 ..< 55:
            let post = FeedPost(id: randomID(), likes: Int(rng.below(100)))
            viewModel.update(post)
            if let at = expected.firstIndex(where: { $0.id == post.id }) { expected[at] = post }
        case 55 ..< 70:
            let id = randomID()
            viewModel.remove(id: id)
            expected.removeAll { $0.id == id }
        case 70 ..< 92:
            let batch = (0 ..< rng.below(4)).map { _ in FeedPost(id: randomID(), likes: Int(rng.below(100))) }
            let at = Int(rng.below(expected.count + 5)) - 2
            viewModel.insert(batch, at: at)
            merge(batch, at: min(max(at, 0), expected.count))
        default:
            viewModel.reset()
            pages.restart()
            expected = []
            exhausted = false
        }
        check(step: index, roll: roll)
    }

    private func randomID() -> Int { Int(rng.below(30)) }

    /// The rules of identity: held ids are updated in place, a repeated id in the batch keeps its first
    /// position and its last value, new ids go in at `index`.
    private func merge(_ batch: [FeedPost], at index: Int) {
        var fresh: [FeedPost] = []
        for post in batch {
            if let held = expected.firstIndex(where: { $0.id == post.id }) {
                expected[held] = post
            } else if let slot = fresh.firstIndex(where: { $0.id == post.id }) {
                fresh[slot] = post
            } else {
                fresh.append(post)
            }
        }
        expected.insert(contentsOf: fresh, at: index)
    }

    private func check(step: Int, roll: Int) {
        let items = Array(viewModel.items.value)
        var problems: [String] = []
        if items != expected { problems.append("items \(items), expected \(expected)") }
        if replayer.mirror != items { problems.append("replaying changes gave \(replayer.mirror), items are \(items)") }
        if Set(items.map(\.id)).count != items.count { problems.append("an id is held twice: \(items)") }
        problems += replayer.mismatches
        if !problems.isEmpty {
            failure = "seed \(seed) step \(step) (roll \(roll)): " + problems.joined(separator: "; ")
        }
    }
}

/// The pages a `ReplaySession`'s dependency serves: random posts, the last page after a random number.
private final class PageScript {
    struct Upcoming {
        let items: [FeedPost]
        let isLast: Bool
    }

    private var rng: SplitMix64
    private(set) var upcoming: Upcoming

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed ^ 0x9A6E)
        upcoming = Upcoming(items: [], isLast: false)
        upcoming = draw()
    }

    /// A page of 0-4 posts (at least one unless it is the last: an empty page that is not the last makes
    /// the view model load the next at once, and each `loadNextPage()` here lands exactly one page).
    private func draw() -> Upcoming {
        let isLast = rng.below(8) == 0
        let count = rng.below(5)
        let items = (0 ..< (isLast ? count : max(count, 1))).map { _ in FeedPost(id: Int(rng.below(30)), likes: Int(rng.below(100))) }
        return Upcoming(items: items, isLast: isLast)
    }

    /// A fresh first page (after a reset).
    func restart() { upcoming = draw() }

    /// The producer of the upcoming page: it sends that page, then the next one is drawn.
    func producer() -> PostProducer {
        Producer { [self] observer, _ in
            let page = upcoming
            upcoming = draw()
            observer.send(value: Page(items: page.items, next: page.isLast ? nil : producer()))
            observer.sendCompleted()
        }
    }
}

@Suite("14. Replaying changes reproduces items")
struct ChangeReplayContract {
    @Test func tenThousandRandomSequencesOfLoadsAndEditsReplayExactly() {
        var seeds = SplitMix64(seed: 0xC4A_14)
        let sessions = ProcessInfo.processInfo.environment["PAGINATED_LIST_SEED"].flatMap(UInt64.init).map { [$0] }
            ?? (0 ..< seededRunCount(10_000)).map { _ in seeds.next() }
        for seed in sessions {
            let session = ReplaySession(seed: seed)
            for step in 0 ..< 16 where session.failure == nil { session.step(step) }
            if let failure = session.failure {
                Issue.record("\(failure)\n(replay: PAGINATED_LIST_SEED=\(seed) swift test --filter ChangeReplayContract)")
                return
            }
        }
    }
}
