import PaginatedList
import Signals

/// `PaginatedListViewModel` growing a long list (issue 3): the cost of a page must not grow with the
/// list, also when an observer keeps every snapshot of `items` it is sent, and the memory must stay a
/// small multiple of the items'. Beside it, the original's `all + current` (a plain array rebuilt for
/// every page), the approach it replaces.
enum ViewModelBenchmarks: BenchmarkSuite {
    static let name = "viewmodel"

    static let pageSize = 100
    /// Pages at full scale (1,000,000 items); `--quick` loads a tenth.
    static let fullPages = 10_000
    /// The pages whose costs are compared: the first and the last `window`.
    static let window = 100

    static var studies: [Study] {
        [Study(name: "grow to 1,000,000 Int items in 10,000 pages of 100", run: grow)]
    }

    // MARK: - The page chain (synchronous: each page lands inside `start`)

    /// Pages `k ..< pages` of `pageSize` consecutive integers: page `k` holds `k·100 ..< (k+1)·100`.
    static func chain(from k: Int = 0, pages: Int) -> Producer<Page<Int, Never>, Never> {
        Producer { observer, _ in
            let start = k * pageSize
            let next = k + 1 < pages ? chain(from: k + 1, pages: pages) : nil
            observer.send(value: Page(items: Array(start ..< start + pageSize), next: next))
            observer.sendCompleted()
        }
    }

    // MARK: - Ours

    /// What one run measured.
    struct Run {
        var perPage: [Double] = []
        var total = 0.0
        /// Peak heap growth in bytes (memory runs only).
        var peak: Int?
        var ok = true
    }

    /// The snapshots an observer was sent, all kept.
    final class SnapshotKeeper: Sendable {
        let snapshots = Locked<[ItemList<Int>]>([])
    }

    /// Loads `pages` pages through a view model on `ImmediateScheduler`, an observer keeping every
    /// snapshot of `items`. With `heap`, samples the heap after every page (a memory run, not timed).
    static func ours(pages: Int, heap: HeapPeak?) -> Run {
        let keeper = SnapshotKeeper()
        keeper.snapshots.withLock { $0.reserveCapacity(pages) }
        let viewModel = PaginatedListViewModel<Int, Never>(scheduler: ImmediateScheduler()) {
            chain(pages: pages)
        }
        let observation = viewModel.items.signal.observeValues { list in
            keeper.snapshots.withLock { $0.append(list) }
        }
        var run = Run()
        (run.perPage, run.total) = timePerStep(pages) { _ in
            viewModel.loadNextPage()
            heap?.sample()
        }
        run.peak = heap?.growth
        // Verify: every snapshot kept, each the list as it was after its page, and the whole list in order.
        let snapshots = keeper.snapshots.withLock { $0 }
        run.ok = snapshots.count == pages && viewModel.exhausted.value
            && snapshots.indices.allSatisfy { snapshots[$0].count == ($0 + 1) * pageSize }
            && snapshots.last.map { $0.reduce(0, &+) == triangle(pages * pageSize) } ?? false
            && snapshots.first.map { Array($0) == Array(0 ..< pageSize) } ?? false
        observation?.dispose()
        blackHole(snapshots)
        return run
    }

    // MARK: - The baseline: the original's `all + current`

    /// The original view model reduced to what matters here: a property holding a plain array, set to
    /// `all + page` when a page lands, and the pending page's producer.
    final class OriginalViewModel: Sendable {
        let items = MutableProperty<[Int]>([])
        private let pending: Locked<Producer<Page<Int, Never>, Never>?>

        init(first: Producer<Page<Int, Never>, Never>) {
            pending = Locked(first)
        }

        func loadNextPage() {
            guard let producer = pending.withLock({ $0.take() }) else { return }
            _ = producer.startWithValues { [self] page in
                items.value = items.value + page.items
                pending.withLock { $0 = page.next }
            }
        }
    }

    /// The last snapshot an observer was sent (keeping every one would need ~40 GB).
    final class LastSnapshot: Sendable {
        let snapshot = Locked<[Int]>([])
    }

    /// Loads `pages` pages the original's way, an observer keeping the last snapshot. With `heap`, also
    /// samples the heap inside the observer, while the previous snapshot is still alive beside the new one.
    static func baseline(pages: Int, heap: HeapPeak?) -> Run {
        let viewModel = OriginalViewModel(first: chain(pages: pages))
        let last = LastSnapshot()
        let observation = viewModel.items.signal.observeValues { list in
            heap?.sample()
            last.snapshot.withLock { $0 = list }
        }
        var run = Run()
        (run.perPage, run.total) = timePerStep(pages) { _ in
            viewModel.loadNextPage()
            heap?.sample()
        }
        run.peak = heap?.growth
        let final = last.snapshot.withLock { $0 }
        run.ok = final.count == pages * pageSize && final.reduce(0, &+) == triangle(pages * pageSize)
        observation?.dispose()
        return run
    }

    // MARK: - The study

    static func grow(quick: Bool, runs: Int) -> StudyResult {
        let pages = quick ? fullPages / 10 : fullPages
        let itemBytes = Double(pages * pageSize * MemoryLayout<Int>.stride)
        var result = StudyResult()

        _ = ours(pages: pages / 10, heap: nil)   // warm up
        let oursRuns = (0 ..< runs).map { _ in ours(pages: pages, heap: nil) }
        let oursPeak = ours(pages: pages, heap: HeapPeak()).peak
        // The original's memory run comes first, as its warm-up: in a fresh process glibc maps and unmaps
        // every array above its mmap threshold (page faults for every page) until the threshold has risen
        // past the arrays' size; the timed runs after it reuse the heap. It is slow (it copies the whole
        // list for every page): fewer timed runs.
        let baselineMemoryRun = baseline(pages: pages, heap: HeapPeak())
        let baselinePeak = baselineMemoryRun.peak
        let baselineRuns = (0 ..< max(1, min(runs, 3))).map { _ in baseline(pages: pages, heap: nil) }
        result.ok = (oursRuns + baselineRuns + [baselineMemoryRun]).allSatisfy(\.ok)

        func summary(_ runs: [Run]) -> (first: Double, last: Double, total: Double) {
            let windows = runs.map { firstAndLast($0.perPage, window: window) }
            return (median(windows.map(\.first)), median(windows.map(\.last)), median(runs.map(\.total)))
        }
        func add(_ side: String, _ runs: [Run], peak: Int?, targets: Bool) {
            let (first, last, total) = summary(runs)
            let ratio = last / first
            result.figures += [
                Figure(name: "\(side): per page, first \(window) pages (median)", value: duration(first)),
                Figure(name: "\(side): per page, last \(window) pages (median)", value: duration(last)),
                Figure(name: "\(side): last / first", value: format(ratio) + "x",
                       target: targets ? "≤ 1.5x" : "", met: targets ? ratio <= 1.5 : nil),
                Figure(name: "\(side): total, \(pages) pages", value: duration(total)),
            ]
            if let peak {
                let multiple = Double(peak) / itemBytes
                result.figures += [
                    Figure(name: "\(side): peak heap growth", value: megabytes(Double(peak))),
                    Figure(name: "\(side): peak heap / items' memory", value: format(multiple) + "x",
                           target: targets ? "< 4x" : "", met: targets ? multiple < 4 : nil),
                ]
            } else {
                result.figures.append(Figure(name: "\(side): peak heap growth", value: "n/a (no mallinfo2)"))
            }
        }
        add("ours (keeps all \(pages) snapshots)", oursRuns, peak: oursPeak, targets: true)
        add("original all + current (keeps the last snapshot)", baselineRuns, peak: baselinePeak, targets: false)
        let speedUp = summary(baselineRuns).last / summary(oursRuns).last
        let startRatio = summary(baselineRuns).first / summary(oursRuns).first
        // Per window of pages, the median over runs of each run's median page: the first window from
        // which the original is slower than ours in every window after it.
        func windowMedians(_ runs: [Run]) -> [Double] {
            (0 ..< pages / window).map { index in
                median(runs.map { median(Array($0.perPage[index * window ..< (index + 1) * window])) })
            }
        }
        let oursWindows = windowMedians(oursRuns), originalWindows = windowMedians(baselineRuns)
        var crossover = oursWindows.count
        while crossover > 0 && originalWindows[crossover - 1] > oursWindows[crossover - 1] { crossover -= 1 }
        result.figures += [
            Figure(name: "original / ours, per page, first \(window) pages", value: format(startRatio) + "x"),
            Figure(name: "original / ours, per page, last \(window) pages", value: format(speedUp) + "x"),
            Figure(name: "ours faster than the original in every window of \(window) pages from page",
                   value: crossover == oursWindows.count ? "none" : String(crossover * window + 1)),
        ]

        let items = pages * pageSize
        result.notes = [
            "\(items) Int items (\(megabytes(itemBytes)) of items) in \(pages) pages of \(pageSize), synchronous page chain, "
                + "ImmediateScheduler; each loadNextPage() timed (the page lands inside it).",
            "Times: median over \(runs) runs of ours and \(baselineRuns.count) of the original, after a warm-up run; "
                + "heap: one more run of each (the original's is its warm-up), mallinfo2() (heap + mmapped chunks) "
                + "sampled after every page (and, for the original, inside the observer while the previous array "
                + "is still alive).",
            "The original's first run in a fresh process took \(duration(baselineMemoryRun.total)) "
                + "(heap sampling included): glibc mmaps and unmaps every array above its mmap threshold until "
                + "the threshold rises past the arrays' size, so early runs pay page faults for every page.",
            "Ours: an observer keeps every snapshot of items. The original: keeping every snapshot would need "
                + "~\(format(Double(pages) * itemBytes / 2 / 1e9)) GB (the sum of all prefixes), so its observer "
                + "keeps only the last one: its memory figure is a lower bound of what the same observer would cost.",
        ]
        return result
    }
}
