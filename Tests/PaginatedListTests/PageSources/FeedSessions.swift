import Foundation
import PaginatedList
import PaginatedListTesting
import Signals

/// One page source over one `ChangingFeed`, paged page by page to the end, and judged.
///
/// The sessions start the page producers directly (the view model adds nothing a source's guarantees
/// depend on, and thousands of sessions run faster without it); the view model's own bounds are tested
/// with the reproductions.
enum FeedSessions {
    typealias Item = ChangingFeed.Item

    /// The number of seeded sessions a suite runs per source and profile: `suiteDefault`, or
    /// `PAGINATED_LIST_SESSIONS` when set (a sweep by hand, say 2,000 per profile: not in CI, whose
    /// defaults keep the suites quick).
    static func sessions(_ suiteDefault: UInt64) -> UInt64 {
        ProcessInfo.processInfo.environment["PAGINATED_LIST_SESSIONS"].flatMap(UInt64.init) ?? suiteDefault
    }

    /// Whether the run is a sweep by hand (`PAGINATED_LIST_SESSIONS` set): the suites then print a tally
    /// per source and profile.
    static var isSweep: Bool { ProcessInfo.processInfo.environment["PAGINATED_LIST_SESSIONS"] != nil }

    /// What a sweep prints for one source and profile: how many sessions lost stable items (and how many
    /// of those lost one no page reports), showed one twice or never reached the end, their requests per
    /// the fewest, and the seeds of the sessions that lost an item silently or never reached the end.
    struct Tally {
        private var sessions = 0
        private var lost = 0
        private var silent = 0
        private var duplicated = 0
        private var unended = 0
        private var ratios: [Double] = []
        private var silentSeeds: [UInt64] = []
        private var unendedSeeds: [UInt64] = []

        /// Counts session `seed`: its audit, its stable items lost that no page reports (`uncovered`),
        /// whether it reached the end, its requests and the fewest.
        mutating func add(
            _ audit: ChangingFeed.Audit, seed: UInt64, uncovered: [Int], reachedEnd: Bool, requests: Int, minimum: Int
        ) {
            sessions += 1
            if !audit.lost.isEmpty { lost += 1 }
            if !uncovered.isEmpty {
                silent += 1
                if silentSeeds.count < 10 { silentSeeds.append(seed) }
            }
            if !audit.duplicates.isEmpty { duplicated += 1 }
            if !reachedEnd {
                unended += 1
                if unendedSeeds.count < 10 { unendedSeeds.append(seed) }
            }
            ratios.append(Double(requests) / Double(max(1, minimum)))
        }

        /// One line: `name`, then the counts, the requests per the fewest (median, 95th percentile, worst,
        /// sessions over 3x), and the first seeds that lost silently or reached no end.
        func line(_ name: String) -> String {
            let sorted = ratios.sorted()
            func at(_ fraction: Double) -> String {
                sorted.isEmpty ? "-" : String(format: "%.2fx", sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))])
            }
            return "sweep \(name): \(sessions) sessions; lost stable items in \(lost) (unreported in \(silent)), "
                + "duplicates in \(duplicated), end not reached in \(unended); requests per the fewest: median \(at(0.5)), "
                + "p95 \(at(0.95)), max \(sorted.last.map { String(format: "%.2fx", $0) } ?? "-"), "
                + "over 3x in \(sorted.filter { $0 > 3 }.count); seeds unreported \(silentSeeds), unended \(unendedSeeds)"
        }
    }

    /// The stable items of `audit.lost` that no page of `pages` (in list order) reports as possibly lost:
    /// a report covers an item when it comes with a page between the page of the shown stable item before
    /// it (in `stableOrder`, the stable IDs in the final feed's order) and that of the one after it.
    static func uncoveredLosses(_ pages: [PageRecord], audit: ChangingFeed.Audit, stableOrder: [Int]) -> [Int] {
        var pageOf: [Int: Int] = [:]
        for (index, page) in pages.enumerated() {
            for item in page.items { pageOf[item.id] = index }
        }
        let reporting = pages.indices.filter { index in
            pages[index].diagnostics.contains {
                if case let .sourceCorrection(correction) = $0 { correction.impact == .possiblyLost } else { false }
            }
        }
        let lost = Set(audit.lost)
        var uncovered: [Int] = []
        var before = 0
        for (position, id) in stableOrder.enumerated() {
            if let page = pageOf[id] {
                before = page
                continue
            }
            guard lost.contains(id) else { continue }
            let after = stableOrder[(position + 1)...].lazy.compactMap { pageOf[$0] }.first ?? pages.count - 1
            // (Pages out of order when stable items were shown out of order.)
            let around = min(before, after) ... max(before, after)
            if !reporting.contains(where: around.contains) { uncovered.append(id) }
        }
        return uncovered
    }

    /// The page sources under test, each over a feed.
    enum Kind: String, CaseIterable, CustomStringConvertible, Sendable {
        case offset, ids, cursor, pageNumber

        var description: String { rawValue }

        /// Requests the source makes beyond its pages: the ID snapshot.
        var fixedRequests: Int { self == .ids ? 1 : 0 }

        /// The source's first page, paging `feed` by `pageSize`.
        func firstPage(_ feed: ChangingFeed, pageSize: Int) -> Producer<Page<Item, Never>, Never> {
            switch self {
            case .offset:
                OffsetSource<Item, Never>(limit: pageSize) { offset, limit in
                    feed.request { $0.offset(offset, limit: limit) }
                }.firstPage()
            case .ids:
                IDSnapshotSource<Item, Never>(batchSize: pageSize, fetchIDs: { feed.request { $0.ids() } },
                                              fetchItems: { ids in feed.request { $0.items(ids: ids) } }).firstPage()
            case .cursor:
                CursorSource<Item, Int, Never> { cursor in
                    feed.request { $0.cursor(after: cursor, limit: pageSize) }
                }.firstPage()
            case .pageNumber:
                PageNumberSource<Item, Never>(pageSize: pageSize) { page, size in
                    feed.request { $0.page(page, size: size) }
                }.firstPage()
            }
        }
    }

    /// How many items the server serves per request, against the page size a session asks for.
    enum Cap: String, Sendable {
        /// As many as asked.
        case none
        /// Fewer than a page: from half a page (at least 8) to a page less one.
        case below
        /// A page: the overlap an offset source adds is cut.
        case equal
        /// A page and one or two more: part of the overlap is cut.
        case above
        /// Fewer than 8, at most a page: too few for an offset source's overlap of three and five new items.
        case small

        /// The cap of a session with pages of `pageSize`, drawn from `random` (`nil`: none).
        func size(pageSize: Int, using random: inout SplitMix64) -> Int? {
            switch self {
            case .none: nil
            case .below: Int.random(in: max(8, (pageSize + 1) / 2) ... max(8, pageSize - 1), using: &random)
            case .equal: pageSize
            case .above: pageSize + Int.random(in: 1 ... 2, using: &random)
            case .small: Int.random(in: 1 ... min(7, pageSize), using: &random)
            }
        }

        /// The page sizes a profile of `pageSizes` runs with under this cap: at least 9 below a cap, at
        /// least 8 at or just above one (a cap of 8 or more: smaller ones are `small`).
        func pageSizes(_ pageSizes: ClosedRange<Int>) -> ClosedRange<Int> {
            let least = switch self {
            case .below: 9
            case .equal, .above: 8
            case .none, .small: pageSizes.lowerBound
            }
            return max(least, pageSizes.lowerBound) ... max(least, pageSizes.upperBound)
        }
    }

    /// How a feed changes between requests, how large it and its pages are, and how many items its server
    /// serves per request.
    struct Profile: CustomStringConvertible, Sendable {
        let name: String
        let feedSizes: ClosedRange<Int>
        let pageSizes: ClosedRange<Int>
        /// The server's cap, against the page size.
        var cap = Cap.none
        /// The churn for a session with pages of `pageSize`.
        let churn: @Sendable (_ pageSize: Int) -> ChangingFeed.Churn

        init(name: String, feedSizes: ClosedRange<Int>, pageSizes: ClosedRange<Int>,
             churn: @escaping @Sendable (_ pageSize: Int) -> ChangingFeed.Churn) {
            self.name = name
            self.feedSizes = feedSizes
            self.pageSizes = pageSizes
            self.churn = churn
        }

        var description: String { name }

        /// This profile against a server that caps the page size as `cap` says.
        func capped(_ cap: Cap) -> Profile {
            var profile = Profile(name: "\(name), capped \(cap.rawValue)", feedSizes: feedSizes,
                                  pageSizes: cap.pageSizes(pageSizes), churn: churn)
            profile.cap = cap
            return profile
        }

        /// The feed of a session: `size` items, its churn drawn from `seed`, capped as the profile says.
        func feed(size: Int, pageSize: Int, seed: UInt64, using random: inout SplitMix64) -> (ChangingFeed, cap: Int?) {
            let cap = cap.size(pageSize: pageSize, using: &random)
            return (ChangingFeed(count: size, script: .random(seed: seed, churn: churn(pageSize)), maxPageSize: cap), cap)
        }

        /// Single insertions, deletions and edits anywhere.
        static let churn = Profile(name: "churn", feedSizes: 50 ... 300, pageSizes: 5 ... 50) { _ in .scattered }
        /// Re-ranks too: items move anywhere, up or down.
        static let moves = Profile(name: "moves", feedSizes: 50 ... 300, pageSizes: 5 ... 50) { _ in .reRanking }
        /// Now and then a run of 5-25 deletions and a run of 5-25 insertions somewhere.
        static let bursts = Profile(name: "bursts", feedSizes: 80 ... 300, pageSizes: 5 ... 50) { _ in .bursty }
        /// A page to two pages of new items at the top after every request (at most 60: within the bound by
        /// which an offset window grows).
        static let firehose = Profile(name: "firehose", feedSizes: 50 ... 300, pageSizes: 5 ... 30) { .firehose(pageSize: $0) }
        /// Pages of one or two items, with an insertion, a deletion and an edit anywhere between two requests.
        static let tinyPages = Profile(name: "tiny pages", feedSizes: 20 ... 80, pageSizes: 1 ... 2) { _ in .gentle }
        /// Beyond the bounds: pages of one or two items on a feed re-ranked faster than it is read.
        static let tinyPagesReRanked = Profile(name: "tiny pages re-ranked", feedSizes: 20 ... 80, pageSizes: 1 ... 2) { _ in
            .hectic
        }
        /// Beyond the bounds: runs of 70-150 deletions (more than an offset source searches), often.
        static let deletionStorms = Profile(name: "deletion storms", feedSizes: 150 ... 400, pageSizes: 5 ... 30) { _ in
            .deletionStorms
        }

        /// Deletions outpace insertions: the feed shrinks while it is paged, by runs of 5-25 now and then.
        static let shrinking = Profile(name: "shrinking", feedSizes: 80 ... 300, pageSizes: 5 ... 50) { _ in .shrinking }

        static let withinBounds: [Profile] = [.churn, .moves, .bursts, .firehose, .tinyPages]

        /// The profiles within the bounds whose pages are not tiny, and a shrinking feed, against servers
        /// that cap below (8 or more), at and just above the page size.
        static let capped: [Profile] = [Cap.below, .equal, .above].flatMap { cap in
            [Profile.churn, .moves, .bursts, .shrinking].map { $0.capped(cap) }
        }

        /// Beyond an offset source's bounds: servers that serve fewer than 8 items a request (tiny pages
        /// among them), and a firehose that pushes the feed down by more than a capped window reads.
        static let smallCaps = Profile(name: "small caps", feedSizes: 20 ... 150, pageSizes: 1 ... 12) { _ in .scattered }
            .capped(.small)
        static let cappedFirehose: [Profile] = [Cap.below, .equal, .above].map { firehose.capped($0) }
    }

    /// A page as the chain delivered it.
    struct PageRecord {
        let items: [Item]
        let diagnostics: [PaginatedListDiagnostic]
    }

    /// What a session came to.
    struct Session: CustomStringConvertible {
        let kind: Kind
        let profile: String
        let seed: UInt64
        let feedSize: Int
        let pageSize: Int
        /// The most items the server served per request (`nil`: as many as asked).
        let cap: Int?
        let pages: [PageRecord]
        let reachedEnd: Bool
        let requests: Int
        let itemsServed: Int
        let audit: ChangingFeed.Audit
        /// Stable IDs in the final feed's order.
        let stableOrder: [Int]

        var shown: [Item] { pages.flatMap(\.items) }

        var description: String {
            "\(kind) \(profile) seed \(seed) (feed \(feedSize), pages of \(pageSize)\(cap.map { ", cap \($0)" } ?? "")): "
                + "\(pages.count) pages, "
                + "\(requests) requests, end \(reachedEnd), lost \(audit.lost.prefix(8)), misordered "
                + "\(audit.misordered.prefix(8)), duplicates \(audit.duplicates.prefix(8))"
        }

        /// The fewest requests that could have shown what was shown: a request per page of `pageSize`
        /// items (or of the cap, when the server serves fewer), one more for the end, plus the source's fixed
        /// ones.
        var minimumRequests: Int { shown.count / min(pageSize, cap ?? pageSize) + 1 + kind.fixedRequests }

        /// Lost stable items that no page reports as possibly lost: a report covers an item when it comes
        /// with a page between the page of the shown stable item before it and that of the one after it.
        var uncoveredLosses: [Int] { FeedSessions.uncoveredLosses(pages, audit: audit, stableOrder: stableOrder) }

        /// The diagnostics of every page, in order.
        var corrections: [PaginatedListDiagnostic.SourceCorrection] {
            pages.flatMap(\.diagnostics).compactMap {
                if case let .sourceCorrection(correction) = $0 { correction } else { nil }
            }
        }
    }

    /// Runs session `seed` of `kind` under `profile`: a feed and a page size drawn from the seed, paged
    /// until the last page or `maxPages`.
    static func run(_ kind: Kind, _ profile: Profile, seed: UInt64, maxPages: Int = 2_000) -> Session {
        var random = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 17)
        let feedSize = Int.random(in: profile.feedSizes, using: &random)
        let pageSize = Int.random(in: profile.pageSizes, using: &random)
        let (feed, cap) = profile.feed(size: feedSize, pageSize: pageSize, seed: seed, using: &random)
        var pages: [PageRecord] = []
        var producer: Producer<Page<Item, Never>, Never>? = kind.firstPage(feed, pageSize: pageSize)
        while let current = producer, pages.count < maxPages {
            let slot = PageSlot<Item, Never>()
            slot.load(current)
            guard let page = slot.page else { break }
            pages.append(PageRecord(items: page.items, diagnostics: page.diagnostics))
            producer = page.next
        }
        let shown = pages.flatMap(\.items)
        let stable = feed.stableIDs
        return Session(kind: kind, profile: profile.name, seed: seed, feedSize: feedSize, pageSize: pageSize, cap: cap,
                       pages: pages, reachedEnd: producer == nil, requests: feed.requestCount,
                       itemsServed: feed.itemsServed, audit: feed.audit(shown, reachedEnd: producer == nil),
                       stableOrder: feed.currentItems.map(\.id).filter(stable.contains))
    }
}
