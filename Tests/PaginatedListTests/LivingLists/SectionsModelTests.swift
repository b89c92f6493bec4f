import PaginatedList
import PaginatedListTesting
import Signals
import Testing

/// A model-based session whose view model the sections follow.
protocol PostSession: SeededSequence {
    var viewModel: PostViewModel { get }
}

extension BothDirectionsSession: PostSession {}
extension RefreshSession: PostSession {}

/// The key the sessions group by: runs of about three posts, the keys cycling through three values (so
/// that two runs share a key), and a like moves a post to another key (an edit that splits or merges runs).
@Sendable func sessionKey(_ post: FeedPost) -> Int { (post.id / 3 + post.likes) % 3 }

/// The sections of `items` grouped from scratch: the keys and items of each run.
func groupedFromScratch(_ items: [FeedPost], key: (FeedPost) -> Int) -> [(key: Int, items: [FeedPost])] {
    var runs: [(key: Int, items: [FeedPost])] = []
    for item in items {
        let itemKey = key(item)
        if let last = runs.last, last.key == itemKey {
            runs[runs.count - 1].items.append(item)
        } else {
            runs.append((itemKey, [item]))
        }
    }
    return runs
}

/// One random sequence of another model-based session (every operation it makes: pages both ways,
/// failures, edits, refreshes of every policy, `fillGap()`, `maxPages` drops, resets), with `sections(by:)`
/// following its view model. After every step:
///
/// 1. The sections equal a grouping of `items` from scratch (their keys and items, in order).
/// 2. No two sections have the same id.
/// 3. The sections sent once per transition that changed `items`.
/// 4. A step whose only changes appended items at the end kept every section above the last unchanged
///    (same id, same items) and the last one's id.
final class SectionsSession<Inner: PostSession>: SeededSequence {
    /// How many steps sent each kind of change (so that a change to the inner session's generator that
    /// stops reaching one fails the test).
    struct Coverage {
        var kinds: [String: Int] = [:]
        var appendOnlySteps = 0
    }

    let inner: Inner
    private let sections: Property<[ListSection<Int, FeedPost>]>
    private let sectionSends = Counter()
    private let itemsSends = Counter()
    private let changes = Recorder<ItemListChange>()
    private(set) var coverage = Coverage()
    private var problem: String?

    init(seed: UInt64) {
        inner = Inner(seed: seed)
        sections = inner.viewModel.sections(by: sessionKey)
        sections.signal.observeValues { [sectionSends] _ in sectionSends.increment() }
        inner.viewModel.items.signal.observeValues { [itemsSends] _ in itemsSends.increment() }
        inner.viewModel.changes.observeValues { [changes] change in changes.append(change) }
    }

    var description: String { inner.description }
    var trail: [String] { inner.trail }
    /// The sections' first failure. The inner session's own properties are its own suite's business: a
    /// sequence that breaks one of them still checks the sections of every step.
    var failure: String? { problem }

    func step() {
        let before = sections.value
        let countBefore = inner.viewModel.items.value.count
        let changesBefore = changes.values.count
        inner.step()
        let stepChanges = Array(changes.values[changesBefore...])
        for change in stepChanges { coverage.kinds[Self.kind(change), default: 0] += 1 }
        var problems: [String] = []
        let items = Array(inner.viewModel.items.value)
        let expected = groupedFromScratch(items, key: sessionKey)
        let actual = sections.value
        if actual.map(\.key) != expected.map(\.key) || actual.map({ Array($0.items) }) != expected.map(\.items) {
            problems.append("sections \(actual.map { "\($0.key):\(Array($0.items))" }) "
                + "!= from scratch \(expected.map { "\($0.key):\($0.items)" })")
        }
        if Set(actual.map(\.id)).count != actual.count {
            problems.append("ids repeat: \(actual.map(\.id))")
        }
        if sectionSends.count != itemsSends.count {
            problems.append("sections sent \(sectionSends.count) times, items \(itemsSends.count)")
        }
        let appendsOnly = !stepChanges.isEmpty && !before.isEmpty && stepChanges.allSatisfy {
            if case .appended = $0 { true } else { false }
        } && stepChanges.first == .appended(countBefore ..< countBefore + stepChanges.reduce(0) {
            if case let .appended(range) = $1 { $0 + range.count } else { $0 }
        })
        if appendsOnly {
            coverage.appendOnlySteps += 1
            let kept = before.dropLast()
            if Array(actual.prefix(kept.count)) != Array(kept) || actual[kept.count].id != before.last!.id {
                problems.append("an append changed the sections above the last, or its id: "
                    + "\(before.map(\.id)) -> \(actual.map(\.id))")
            }
        }
        if !problems.isEmpty, problem == nil {
            problem = problems.joined(separator: "; ") + "\n  changes \(stepChanges)"
        }
    }

    static func kind(_ change: ItemListChange) -> String {
        switch change {
        case .appended: "appended"
        case .inserted: "inserted"
        case .removed: "removed"
        case .updated: "updated"
        case .moved: "moved"
        case .reset: "reset"
        }
    }
}

@Suite("Sections: model-based")
struct SectionsModelTests {
    /// 10,000 random sequences of the both-directions session (pages both ways, `maxPages` drops, edits,
    /// refreshes, resets), 24 steps each, sections compared with a grouping from scratch after every step.
    @Test func tenThousandSequencesOfPagesDropsEditsAndRefreshesKeepSectionsEqualToAGroupingFromScratch() {
        var coverage = SectionsSession<BothDirectionsSession>.Coverage()
        let ranAll = runSeededSequences(SectionsSession<BothDirectionsSession>.self, base: 0x5EC_7105, steps: 24,
                                        filter: "SectionsModelTests") { session in
            coverage.kinds.merge(session.coverage.kinds, uniquingKeysWith: +)
            coverage.appendOnlySteps += session.coverage.appendOnlySteps
        }
        guard ranAll else { return }
        for kind in ["appended", "inserted", "removed", "updated", "reset"] {
            #expect(coverage.kinds[kind, default: 0] >= 1_000, "\(kind): \(coverage)")
        }
        #expect(coverage.appendOnlySteps >= 1_000, "\(coverage)")
    }

    /// 4,000 random sequences of the refresh session (refreshes of every policy while the feed changes,
    /// moves, batch patches, `fillGap()`), 24 steps each, checked the same way.
    @Test func fourThousandSequencesOfRefreshesMovesAndPatchesKeepSectionsEqualToAGroupingFromScratch() {
        var coverage = SectionsSession<RefreshSession>.Coverage()
        let ranAll: Bool = runSeededSequences(SectionsSession<RefreshSession>.self, base: 0x5EC_7106, count: 4_000, steps: 24,
                                        filter: "SectionsModelTests", finished: { session in
            coverage.kinds.merge(session.coverage.kinds, uniquingKeysWith: +)
        })
        guard ranAll else { return }
        for kind in ["appended", "inserted", "removed", "updated", "moved", "reset"] {
            #expect(coverage.kinds[kind, default: 0] >= 100, "\(kind): \(coverage)")
        }
    }
}
