import PaginatedList
import PaginatedListTesting
import Signals

/// Page sources at length: `OffsetSource`'s de-duplication (a ledger of every ID the chain loaded, checked
/// for each window) must stay O(page), so a page costs the same at page 10,000 as at 100; and what each
/// source's corrections cost in requests and transfer on feeds that change between requests.
enum SourceBenchmarks: BenchmarkSuite {
    static let name = "sources"

    static let limit = 20
    /// Pages at full scale; `--quick` loads a tenth.
    static let fullPages = 10_000
    /// The pages whose costs are compared: the first and the last `window`.
    static let window = 100

    static var studies: [Study] {
        [
            Study(name: "OffsetSource de-duplication at 10,000 pages of 20", run: offsetSource),
            Study(name: "Request overhead on feeds that change between requests", run: requestOverhead),
        ]
    }

    /// An item of the static feed.
    struct Item: Identifiable, Sendable {
        let id: Int
    }

    /// Loads `pages` pages of `limit` through an `OffsetSource` over a static feed of `pages · limit + 1`
    /// items, with a view model on `ImmediateScheduler`; the nanoseconds of each `loadNextPage()`, and
    /// whether every item landed once, in order.
    static func run(pages: Int) -> (perPage: [Double], total: Double, ok: Bool) {
        let feed = (0 ..< pages * limit + 1).map(Item.init(id:))
        let source = OffsetSource<Item, Never>(limit: limit) { offset, limit in
            let start = min(max(offset, 0), feed.count)
            return Producer(value: Array(feed[start ..< min(start + limit, feed.count)]))
        }
        let viewModel = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        let diagnostics = Accumulator()
        let observation = viewModel.diagnostics.observeValues { _ in diagnostics.add(1) }
        let (perPage, total) = timePerStep(pages) { _ in viewModel.loadNextPage() }
        let items = viewModel.items.value
        let ok = items.count == pages * limit && !viewModel.exhausted.value
            && items.enumerated().allSatisfy { $0.offset == $0.element.id }
            && diagnostics.sum == 0
        observation?.dispose()
        return (perPage, total, ok)
    }

    static func offsetSource(quick: Bool, runs: Int) -> StudyResult {
        let pages = quick ? fullPages / 10 : fullPages
        _ = run(pages: pages / 10)   // warm up
        let measured = (0 ..< runs).map { _ in run(pages: pages) }
        let windows = measured.map { firstAndLast($0.perPage, window: window) }
        let first = median(windows.map(\.first))
        let last = median(windows.map(\.last))
        let ratio = last / first
        var result = StudyResult()
        result.ok = measured.allSatisfy(\.ok)
        result.figures = [
            Figure(name: "per page, pages 0..<\(window) (median)", value: duration(first)),
            Figure(name: "per page, pages \(pages - window)..<\(pages) (median)", value: duration(last)),
            Figure(name: "last / first", value: format(ratio) + "x", target: "≤ 1.5x", met: ratio <= 1.5),
            Figure(name: "total, \(pages) pages", value: duration(median(measured.map(\.total)))),
        ]
        result.notes = [
            "OffsetSource (limit \(limit), three-item overlap) over a static in-memory feed of \(pages) × \(limit) + 1 "
                + "Identifiable items, view model on ImmediateScheduler; each loadNextPage() timed; "
                + "median over \(runs) runs (after a warm-up).",
        ]
        return result
    }
}

// MARK: - Request overhead on feeds that change

extension SourceBenchmarks {
    /// A page source over a `ChangingFeed`.
    enum Kind: String, CaseIterable {
        case offset = "OffsetSource"
        case ids = "IDSnapshotSource"
        case cursor = "CursorSource (keyset)"
        case pageNumber = "PageNumberSource"

        /// The first page of the source over `feed`, in pages of `size`.
        func firstPage(_ feed: ChangingFeed, size: Int) -> Producer<Page<ChangingFeed.Item, Never>, Never> {
            typealias Item = ChangingFeed.Item
            switch self {
            case .offset:
                return OffsetSource<Item, Never>(limit: size) { offset, limit in
                    feed.request { $0.offset(offset, limit: limit) }
                }.firstPage()
            case .ids:
                return IDSnapshotSource<Item, Never>(batchSize: size, fetchIDs: { feed.request { $0.ids() } },
                                                     fetchItems: { ids in feed.request { $0.items(ids: ids) } }).firstPage()
            case .cursor:
                return CursorSource<Item, Int, Never> { cursor in
                    feed.request { $0.cursor(after: cursor, limit: size) }
                }.firstPage()
            case .pageNumber:
                return PageNumberSource<Item, Never>(pageSize: size) { page, size in
                    feed.request { $0.page(page, size: size) }
                }.firstPage()
            }
        }
    }

    /// How a feed changes, and how large it and its pages are (the test suite's session profiles).
    struct Profile: Sendable {
        let name: String
        let feedSizes: ClosedRange<Int>
        let pageSizes: ClosedRange<Int>
        let churn: @Sendable (Int) -> ChangingFeed.Churn
    }

    /// The next page's producer, as the page that carries it hands it over.
    final class NextPage: Sendable {
        let producer = Locked<Producer<Page<ChangingFeed.Item, Never>, Never>?>(nil)
    }

    static let profiles = [
        Profile(name: "scattered", feedSizes: 50 ... 300, pageSizes: 5 ... 50) { _ in .scattered },
        Profile(name: "re-ranking", feedSizes: 50 ... 300, pageSizes: 5 ... 50) { _ in .reRanking },
        Profile(name: "bursty", feedSizes: 80 ... 300, pageSizes: 5 ... 50) { _ in .bursty },
        Profile(name: "firehose", feedSizes: 50 ... 300, pageSizes: 5 ... 30) { .firehose(pageSize: $0) },
        Profile(name: "pages of 1-2", feedSizes: 20 ... 80, pageSizes: 1 ... 2) { _ in .gentle },
    ]

    /// One session: requests per the fewest that could show what was shown (a request a page of items
    /// shown, one for the end, one for an ID snapshot), items transferred per item shown, nanoseconds.
    static func session(_ kind: Kind, _ profile: Profile, seed: UInt64) -> (ratio: Double, transfer: Double, time: Double) {
        var random = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 17)
        let feedSize = Int.random(in: profile.feedSizes, using: &random)
        let size = Int.random(in: profile.pageSizes, using: &random)
        let feed = ChangingFeed(count: feedSize, script: .random(seed: seed, churn: profile.churn(size)))
        let shown = Accumulator()
        let (time, _) = timed {
            var producer: Producer<Page<ChangingFeed.Item, Never>, Never>? = kind.firstPage(feed, size: size)
            var pages = 0
            while let current = producer, pages < 10_000 {
                let next = NextPage()
                current.startWithValues { page in
                    shown.add(page.items.count)
                    next.producer.withLock { $0 = page.next }
                }
                producer = next.producer.withLock { $0 }
                pages += 1
            }
            return pages
        }
        let minimum = shown.sum / size + 1 + (kind == .ids ? 1 : 0)
        return (Double(feed.requestCount) / Double(minimum), Double(feed.itemsServed) / Double(max(1, shown.sum)), time)
    }

    static func requestOverhead(quick: Bool, runs _: Int) -> StudyResult {
        let sessions: UInt64 = quick ? 200 : 2_000
        var result = StudyResult()
        for profile in profiles {
            for kind in Kind.allCases where !(kind == .pageNumber && profile.name == "firehose") {
                var ratios: [Double] = []
                var transfers: [Double] = []
                var times: [Double] = []
                for seed in 0 ..< sessions {
                    let outcome = session(kind, profile, seed: seed)
                    ratios.append(outcome.ratio)
                    transfers.append(outcome.transfer)
                    times.append(outcome.time)
                }
                ratios.sort()
                let worst = ratios.last ?? .nan
                let bounded = kind != .pageNumber
                result.figures.append(Figure(
                    name: "\(kind.rawValue), \(profile.name) (pages of \(profile.pageSizes.lowerBound)-\(profile.pageSizes.upperBound))",
                    value: "\(format(median(ratios)))x median, \(format(ratios[ratios.count * 95 / 100]))x p95, "
                        + "\(format(worst))x max; \(format(median(transfers))) items/item; \(duration(median(times)))/session",
                    target: bounded ? "max ≤ 3x" : "", met: bounded ? worst <= 3 : nil))
            }
        }
        result.notes = [
            "\(sessions) seeded sessions per source and profile against ChangingFeed (the test suite's profiles, "
                + "feed changed after every request); ratio: requests / (items shown / page size + 1, + 1 for an "
                + "ID snapshot); items/item: items (or IDs) transferred per item shown; time: one session, release build.",
            "PageNumberSource cannot page a firehose (it never reaches the end): not run there.",
        ]
        return result
    }
}
