import PaginatedList
import Signals

/// Page sources at length (issue 4): `OffsetSource`'s de-duplication (a ledger of every ID the chain
/// loaded, checked for each window) must stay O(page), so a page costs the same at page 10,000 as at 100.
enum SourceBenchmarks: BenchmarkSuite {
    static let name = "sources"

    static let limit = 20
    /// Pages at full scale; `--quick` loads a tenth.
    static let fullPages = 10_000
    /// The pages whose costs are compared: the first and the last `window`.
    static let window = 100

    static var studies: [Study] {
        [Study(name: "OffsetSource de-duplication at 10,000 pages of 20", run: offsetSource)]
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
            "OffsetSource (limit \(limit), one-item overlap) over a static in-memory feed of \(pages) × \(limit) + 1 "
                + "Identifiable items, view model on ImmediateScheduler; each loadNextPage() timed; "
                + "median over \(runs) runs (after a warm-up).",
        ]
        return result
    }
}
