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

    /// How a feed changes between requests, and how large it and its pages are.
    struct Profile: CustomStringConvertible, Sendable {
        let name: String
        let feedSizes: ClosedRange<Int>
        let pageSizes: ClosedRange<Int>
        /// The churn for a session with pages of `pageSize`.
        let churn: @Sendable (_ pageSize: Int) -> ChangingFeed.Churn

        var description: String { name }

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

        static let withinBounds: [Profile] = [.churn, .moves, .bursts, .firehose, .tinyPages]
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
        let pages: [PageRecord]
        let reachedEnd: Bool
        let requests: Int
        let itemsServed: Int
        let audit: ChangingFeed.Audit
        /// Stable IDs in the final feed's order.
        let stableOrder: [Int]

        var shown: [Item] { pages.flatMap(\.items) }

        var description: String {
            "\(kind) \(profile) seed \(seed) (feed \(feedSize), pages of \(pageSize)): \(pages.count) pages, "
                + "\(requests) requests, end \(reachedEnd), lost \(audit.lost.prefix(8)), misordered "
                + "\(audit.misordered.prefix(8)), duplicates \(audit.duplicates.prefix(8))"
        }

        /// The fewest requests that could have shown what was shown: a request per page of `pageSize`
        /// items, one more for the end, plus the source's fixed ones.
        var minimumRequests: Int { shown.count / pageSize + 1 + kind.fixedRequests }

        /// Lost stable items that no page reports as possibly lost: a report covers an item when it comes
        /// with a page between the page of the shown stable item before it and that of the one after it.
        var uncoveredLosses: [Int] {
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
                if !reporting.contains(where: { (before ... after).contains($0) }) { uncovered.append(id) }
            }
            return uncovered
        }

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
        let feed = ChangingFeed(count: feedSize, script: .random(seed: seed, churn: profile.churn(pageSize)))
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
        return Session(kind: kind, profile: profile.name, seed: seed, feedSize: feedSize, pageSize: pageSize,
                       pages: pages, reachedEnd: producer == nil, requests: feed.requestCount,
                       itemsServed: feed.itemsServed, audit: feed.audit(shown, reachedEnd: producer == nil),
                       stableOrder: feed.currentItems.map(\.id).filter(stable.contains))
    }
}
