import PaginatedList
import Signals

/// `sections(by:)` on a long list (issue 22): an appended page must cost about what it costs without
/// sections, and not grow with the list or the number of sections.
enum SectionsBenchmarks: BenchmarkSuite {
    static let name = "sections"

    static let pageSize = 100
    /// Pages at full scale (1,000,000 items); `--quick` loads a tenth.
    static let fullPages = 10_000
    /// The pages whose costs are compared: the first and the last `window`.
    static let window = 100

    static var studies: [Study] {
        [Study(name: "append a page of 100 to 1,000,000 Int items in 10,000 sections", run: grow)]
    }

    /// Item `i`'s section: sections of 100 items, offset by half a page, so that every page ends the last
    /// section and starts a new one (the two sections an append touches).
    @Sendable static func key(_ item: Int) -> Int { (item + pageSize / 2) / pageSize }

    /// What one run measured.
    struct Run {
        var perPage: [Double] = []
        var ok = true
    }

    /// Loads `pages` pages through a view model on `ImmediateScheduler`, with `sections(by:)` following it
    /// or not; each `loadNextPage()` timed (the page lands, and the sections follow, inside it).
    static func run(pages: Int, sections: Bool) -> Run {
        let viewModel = PaginatedListViewModel<Int, Never>(scheduler: ImmediateScheduler()) {
            ViewModelBenchmarks.chain(pages: pages)
        }
        let grouped = sections ? viewModel.sections(by: key) : nil
        var run = Run()
        run.perPage = timePerStep(pages) { _ in viewModel.loadNextPage() }.perStep
        let count = pages * pageSize
        run.ok = viewModel.items.value.count == count && viewModel.exhausted.value
        if let grouped {
            // Every section holds the items of its key, in order, and they cover the list.
            let all = grouped.value
            run.ok = run.ok && all.count == key(count - 1) + 1
                && all.allSatisfy { section in section.items.allSatisfy { key($0) == section.key } }
                && all.reduce(0) { $0 + $1.items.count } == count
        }
        blackHole(grouped)
        return run
    }

    static func grow(quick: Bool, runs: Int) -> StudyResult {
        let pages = quick ? fullPages / 10 : fullPages
        var result = StudyResult()
        _ = run(pages: pages / 10, sections: true)   // warm up
        // Interleaved, run by run, so that a slow moment of the machine hits both sides alike.
        var with: [Run] = [], without: [Run] = []
        for _ in 0 ..< runs {
            without.append(run(pages: pages, sections: false))
            with.append(run(pages: pages, sections: true))
        }
        result.ok = (with + without).allSatisfy(\.ok)
        func summary(_ runs: [Run]) -> (first: Double, last: Double) {
            let windows = runs.map { firstAndLast($0.perPage, window: window) }
            return (median(windows.map(\.first)), median(windows.map(\.last)))
        }
        let withSections = summary(with), plain = summary(without)
        let extra = withSections.last - plain.last
        let ratio = withSections.last / withSections.first
        result.figures = [
            Figure(name: "without sections: per page, first \(window) pages (median)", value: duration(plain.first)),
            Figure(name: "without sections: per page, last \(window) pages (median)", value: duration(plain.last)),
            Figure(name: "with sections: per page, first \(window) pages (median)", value: duration(withSections.first)),
            Figure(name: "with sections: per page, last \(window) pages (median)", value: duration(withSections.last)),
            Figure(name: "with sections - without, last \(window) pages", value: duration(extra),
                   target: "≤ 10 µs", met: extra <= 10_000),
            Figure(name: "with sections: last / first", value: format(ratio) + "x", target: "≤ 1.5x", met: ratio <= 1.5),
        ]
        result.notes = [
            "\(pages * pageSize) Int items in \(pages) pages of \(pageSize), synchronous page chain, ImmediateScheduler; "
                + "sections of 100 items offset by half a page (\(key(pages * pageSize - 1) + 1) sections at the end): "
                + "each page ends the last section and starts a new one.",
            "Each loadNextPage() timed (the page lands and the sections follow inside it); medians over \(runs) runs "
                + "of each side, interleaved, after a warm-up run. Nothing keeps the snapshots of items or sections.",
        ]
        return result
    }
}
