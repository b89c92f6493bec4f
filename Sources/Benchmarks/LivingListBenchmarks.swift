import Foundation
import PaginatedList
import Signals

/// Living lists (issues 10 and 11): a window of `maxPages` scrolled from the middle of a 1,000,000-item
/// feed to both ends (per-page cost and memory flat), a prepend beside an append on a long list, and a
/// `.mergeOnTop` refresh that brings 50 new items on lists of 10,000 and 1,000,000 items.
enum LivingListBenchmarks: BenchmarkSuite {
    static let name = "livinglists"

    static let pageSize = 100
    /// Pages of the feed at full scale (1,000,000 items); `--quick` pages a tenth.
    static let fullPages = 10_000
    static let maxPages = 10

    static var studies: [Study] {
        [
            Study(name: "a window of 10 pages scrolled from the middle of 1,000,000 items to both ends", run: window),
            Study(name: "a prepend beside an append on a list of 1,000 pages", run: prependBesideAppend),
            Study(name: ".mergeOnTop bringing 50 new items on 1,000,000 items beside 10,000", run: mergeOnTop),
        ]
    }

    /// A post: what the refresh study's view model holds (merging finds items by id).
    struct Post: Identifiable, Equatable, Sendable {
        let id: Int
    }

    // MARK: - Both directions

    /// Page `k` of a feed of `pages` pages of consecutive integers (`k·100 ..< (k+1)·100`), with the pages
    /// before and after it: synchronous, each page lands inside `start`.
    static func page(_ k: Int, of pages: Int) -> Producer<Page<Int, Never>, Never> {
        Producer { observer, _ in
            let start = k * pageSize
            observer.send(value: Page(
                items: Array(start ..< start + pageSize),
                previous: k > 0 ? page(k - 1, of: pages) : nil,
                next: k + 1 < pages ? page(k + 1, of: pages) : nil
            ))
            observer.sendCompleted()
        }
    }

    /// What one scroll measured.
    struct Scroll {
        /// Nanoseconds per page scrolling down (the first page included), then up.
        var down: [Double] = []
        var up: [Double] = []
        /// Heap growth over the baseline after every page, down then up (memory runs only).
        var heap: [Int] = []
        var ok = true
    }

    /// Opens a view model of `maxPages` at the middle page of `pages`, scrolls down to the last page, then
    /// up to the first; an observer receives every snapshot and drops it. With `sampleHeap`, records the
    /// heap growth after every page (a memory run: not timed).
    static func scroll(pages: Int, sampleHeap: Bool) -> Scroll {
        var result = Scroll()
        // The samples' own array is allocated before the baseline (growing it while measuring would count
        // the measurement), and a memory run keeps no timings.
        if sampleHeap { result.heap.reserveCapacity(2 * pages) }
        func steps(_ count: Int, _ step: () -> Void) -> [Double] {
            if sampleHeap {
                for _ in 0 ..< count { step() }
                return []
            }
            return timePerStep(count) { _ in step() }.perStep
        }
        let baseline = sampleHeap ? heapBytesInUse() : nil
        let middle = pages / 2
        let viewModel = PaginatedListViewModel<Int, Never>(scheduler: ImmediateScheduler(), maxPages: maxPages) {
            page(middle, of: pages)
        }
        let observation = viewModel.items.signal.observeValues { list in blackHole(list) }
        func sample() {
            if let baseline, let now = heapBytesInUse() { result.heap.append(now - baseline) }
        }
        // Down: the middle page, then every page after it. Up: the pages dropped above on the way down come
        // back through the requests that loaded them, then the pages above the middle.
        result.down = steps(pages - middle) {
            viewModel.loadNextPage()
            sample()
        }
        // The check reads the bottom window's snapshot in a scope of its own: a snapshot still held while
        // scrolling up would keep every page the scroll drops until it has replaced the whole window (one
        // window more, ~9 KB, measured as the library's), where the observer's snapshots are dropped at once.
        do {
            let bottom = viewModel.items.value
            result.ok = viewModel.loadStates.value.append == .complete && bottom.count == maxPages * pageSize
                && bottom.last == pages * pageSize - 1
        }
        result.up = steps(pages - maxPages) {
            viewModel.loadPreviousPage()
            sample()
        }
        let top = viewModel.items.value
        result.ok = result.ok && viewModel.loadStates.value.prepend == .complete
            && Array(top) == Array(0 ..< maxPages * pageSize)
        observation?.dispose()
        return result
    }

    static func window(quick: Bool, runs: Int) -> StudyResult {
        let pages = quick ? fullPages / 10 : fullPages
        var result = StudyResult()
        _ = scroll(pages: pages / 10, sampleHeap: false)   // warm up
        let timedRuns = (0 ..< runs).map { _ in scroll(pages: pages, sampleHeap: false) }
        let memoryRun = scroll(pages: pages, sampleHeap: true)
        let exactHeap = heapSamplesWithoutAllocatorCache(pages: pages)
        result.ok = (timedRuns + [memoryRun]).allSatisfy(\.ok) && exactHeap?.ok != false

        let window = pages / 20   // 10% of each direction's pages
        for (direction, perPage) in [("down", timedRuns.map(\.down)), ("up", timedRuns.map(\.up))] {
            let windows = perPage.map { firstAndLast($0, window: window) }
            let first = median(windows.map(\.first))
            let last = median(windows.map(\.last))
            result.figures += [
                Figure(name: "\(direction): per page, first 10% (median)", value: duration(first)),
                Figure(name: "\(direction): per page, last 10% (median)", value: duration(last)),
                Figure(name: "\(direction): last / first", value: format(last / first) + "x",
                       target: "≤ 1.5x", met: last / first <= 1.5),
            ]
        }
        let downSteps = pages - pages / 2
        // The target rows read the child process's samples (live bytes only) when it ran; this process's
        // samples are shown beside them.
        let heap = exactHeap.map(\.heap) ?? memoryRun.heap
        if heap.count == downSteps + pages - maxPages, memoryRun.heap.count == heap.count {
            // Kilobytes: the window of 10 pages of 100 Int is a few tens of them.
            func kilobytes(_ bytes: Int) -> String { format(Double(bytes) / 1_000) + " KB" }
            let tenth = heap.count / 10
            func peaks(_ samples: [Int]) -> (first: Int, last: Int, ratio: Double) {
                let first = samples.prefix(tenth).max()!, last = samples.suffix(tenth).max()!
                return (first, last, Double(last) / Double(max(first, 1)))
            }
            let whole = peaks(heap), inProcess = peaks(memoryRun.heap)
            let peak = heap.max()!
            let source = exactHeap == nil ? "" : " (live bytes)"
            result.figures += [
                Figure(name: "heap over baseline\(source), peak of the first 10% of pages", value: kilobytes(whole.first)),
                Figure(name: "heap over baseline\(source), peak of the last 10% of pages", value: kilobytes(whole.last)),
                Figure(name: "last 10% / first 10%", value: format(whole.ratio) + "x", target: "≤ 1.1x", met: whole.ratio <= 1.1),
            ]
            if exactHeap != nil {
                result.figures.append(Figure(
                    name: "in this process (glibc's per-thread cache counted as in use): first / last 10%, ratio",
                    value: "\(kilobytes(inProcess.first)) / \(kilobytes(inProcess.last)), \(format(inProcess.ratio))x"))
            }
            // Each direction alone.
            for (direction, samples) in [("down", heap.prefix(downSteps)), ("up", heap.dropFirst(downSteps))] {
                let tenth = samples.count / 10
                let first = samples.prefix(tenth).max()!, last = samples.suffix(tenth).max()!
                let ratio = Double(last) / Double(max(first, 1))
                result.figures += [
                    Figure(name: "\(direction): heap peak, first 10% / last 10% of its pages",
                           value: "\(kilobytes(first)) / \(kilobytes(last))"),
                    Figure(name: "\(direction): last 10% / first 10%", value: format(ratio) + "x", target: "≤ 1.1x", met: ratio <= 1.1),
                ]
            }
            result.figures.append(Figure(name: "heap over baseline, peak of the whole scroll", value: kilobytes(peak),
                                         target: "≤ 2 MB", met: peak <= 2_000_000))
        } else {
            result.figures.append(Figure(name: "heap over baseline", value: "n/a (no mallinfo2)"))
        }
        result.notes = [
            "\(pages * pageSize) Int items in \(pages) pages of \(pageSize), maxPages \(maxPages), synchronous pages that carry "
                + "their previous and next producers, ImmediateScheduler; an observer receives every snapshot and drops it.",
            "The view model opens at page \(pages / 2), loads every page below it (loadNextPage(), each dropping the top page "
                + "once 10 are held), then every page above the window (loadPreviousPage(): the pages dropped on the way down "
                + "come back through the requests that loaded them, then the pages above the middle), each call timed.",
            "Times: median over \(runs) runs after a warm-up run; 10% = \(window) pages of each direction. Heap: one more run, "
                + "mallinfo2() sampled after every page, growth over the heap in use before the view model was made.",
            "Live bytes: mallinfo2() counts the freed chunks glibc parks in its per-thread cache (tcache) as in use, so the "
                + "turn of the scroll shows a freed chunk or two (~1-2 KB) as held. The target rows come from the same run in a "
                + "child process with GLIBC_TUNABLES=glibc.malloc.tcache_count=0, where mallinfo2() counts live chunks only "
                + "(valgrind's DHAT agrees); this process's figures are shown beside them.",
        ]
        return result
    }

    /// The argument that makes this executable print a window memory run's heap samples and exit.
    static let heapRunArgument = "--window-heap-run"

    /// The child's side: a memory run of `pages` pages, printed as `ok` or `wrong`, then the samples.
    static func printHeapSamples(pages: Int) {
        let run = scroll(pages: pages, sampleHeap: true)
        print(run.ok ? "ok" : "wrong")
        print(run.heap.map(String.init).joined(separator: ","))
    }

    /// `scroll(pages:sampleHeap: true)`'s samples, from a child process (this executable with
    /// `heapRunArgument`) whose allocator keeps no per-thread cache, so that mallinfo2() counts live bytes
    /// only; nil where that cannot run (no glibc, no /proc/self/exe, the child failed).
    static func heapSamplesWithoutAllocatorCache(pages: Int) -> (heap: [Int], ok: Bool)? {
        guard heapBytesInUse() != nil, FileManager.default.fileExists(atPath: "/proc/self/exe") else { return nil }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        child.arguments = [heapRunArgument, String(pages)]
        var environment = ProcessInfo.processInfo.environment
        environment["GLIBC_TUNABLES"] = "glibc.malloc.tcache_count=0"
        child.environment = environment
        let output = Pipe()
        child.standardOutput = output
        do { try child.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        guard child.terminationStatus == 0, lines.count == 2 else { return nil }
        let samples = lines[1].split(separator: ",").compactMap { Int($0) }
        return (samples, lines[0] == "ok")
    }

    /// A list of `held` pages opened at page `held` of a feed of `3·held` pages; then `samples` prepends and
    /// `samples` appends, interleaved, each timed.
    static func prependBesideAppend(quick: Bool, runs: Int) -> StudyResult {
        let held = 1_000
        let samples = quick ? 20 : 100
        var prepends: [Double] = []
        var appends: [Double] = []
        var ok = true
        for _ in 0 ... runs {   // the first run warms up
            let viewModel = PaginatedListViewModel<Int, Never>(scheduler: ImmediateScheduler()) {
                page(held, of: 3 * held)
            }
            let observation = viewModel.items.signal.observeValues { list in blackHole(list) }
            for _ in 0 ..< held { viewModel.loadNextPage() }
            var runPrepends: [Double] = []
            var runAppends: [Double] = []
            for _ in 0 ..< samples {
                runPrepends.append(timePerStep(1) { _ in viewModel.loadPreviousPage() }.total)
                runAppends.append(timePerStep(1) { _ in viewModel.loadNextPage() }.total)
            }
            let items = viewModel.items.value
            ok = ok && items.count == (held + 2 * samples) * pageSize && items.first == (held - samples) * pageSize
                && items.last == (2 * held + samples) * pageSize - 1
            observation?.dispose()
            prepends.append(median(runPrepends))
            appends.append(median(runAppends))
        }
        let prepend = median(Array(prepends.dropFirst()))
        let append = median(Array(appends.dropFirst()))
        var result = StudyResult()
        result.ok = ok
        result.figures = [
            Figure(name: "prepend of a page of \(pageSize) (median)", value: duration(prepend)),
            Figure(name: "append of a page of \(pageSize) (median)", value: duration(append)),
            Figure(name: "prepend / append", value: format(prepend / append) + "x", target: "≤ 2x", met: prepend / append <= 2),
        ]
        result.notes = [
            "A view model opened at page \(held) of \(3 * held) pages of \(pageSize) Int items, \(held) pages loaded (\(held * pageSize) "
                + "items), no maxPages; then \(samples) loadPreviousPage() and \(samples) loadNextPage(), interleaved, each timed "
                + "(the list grows to \(held + 2 * samples) pages). Median per run, median of \(runs) runs after a warm-up run.",
        ]
        return result
    }

    // MARK: - Refresh

    /// A feed of `count` posts that gains new posts at the top: position `p` holds a new post while
    /// `p < fresh`, else post `p - fresh`; new posts have negative ids. Pages of `pageSize` by offset.
    final class GrowingFeed: Sendable {
        let count: Int
        private let freshCount = Locked(0)

        init(count: Int) { self.count = count }

        var fresh: Int {
            get { freshCount.withLock { $0 } }
            set { freshCount.withLock { $0 = newValue } }
        }

        func page(at offset: Int) -> Producer<Page<Post, Never>, Never> {
            Producer { [self] observer, _ in
                let fresh = self.fresh
                let total = count + fresh
                let end = min(offset + pageSize, total)
                let items = (offset ..< end).map { p in Post(id: p < fresh ? -(fresh - p) : p - fresh) }
                observer.send(value: Page(items: items, next: end < total ? page(at: end) : nil))
                observer.sendCompleted()
            }
        }
    }

    /// Loads `count` posts, then times `samples` refreshes `.mergeOnTop(maxPages: 2, onGap: .keepGap)`,
    /// each after 50 new posts arrived at the top (the first fresh page: 50 new, 50 held). The median.
    static func refreshes(count: Int, samples: Int) -> (median: Double, ok: Bool) {
        let feed = GrowingFeed(count: count)
        let viewModel = PaginatedListViewModel<Post, Never>(scheduler: ImmediateScheduler()) { feed.page(at: 0) }
        let observation = viewModel.items.signal.observeValues { list in blackHole(list) }
        for _ in 0 ..< count / pageSize { viewModel.loadNextPage() }
        var ok = viewModel.items.value.count == count
        var times: [Double] = []
        for sample in 1 ... samples {
            feed.fresh += 50
            times.append(timePerStep(1) { _ in viewModel.refresh(.mergeOnTop(maxPages: 2, onGap: .keepGap)) }.total)
            let items = viewModel.items.value
            ok = ok && items.count == count + 50 * sample && items.first?.id == -50 * sample
                && items[50].id == -(50 * sample - 50) && viewModel.gap.value == nil
        }
        observation?.dispose()
        return (median(times), ok)
    }

    static func mergeOnTop(quick: Bool, runs: Int) -> StudyResult {
        let large = quick ? 100_000 : 1_000_000
        let small = 10_000
        let samples = 20
        _ = refreshes(count: small, samples: samples)   // warm up
        let smallRuns = (0 ..< runs).map { _ in refreshes(count: small, samples: samples) }
        let largeRuns = (0 ..< runs).map { _ in refreshes(count: large, samples: samples) }
        let smallTime = median(smallRuns.map(\.median))
        let largeTime = median(largeRuns.map(\.median))
        var result = StudyResult()
        result.ok = (smallRuns + largeRuns).allSatisfy(\.ok)
        result.figures = [
            Figure(name: "refresh on \(small) items (median)", value: duration(smallTime)),
            Figure(name: "refresh on \(large) items (median)", value: duration(largeTime)),
            Figure(name: "\(large) / \(small)", value: format(largeTime / smallTime) + "x", target: "≤ 2x",
                   met: largeTime / smallTime <= 2),
        ]
        result.notes = [
            "A view model of posts (Identifiable) loaded page by page (pages of \(pageSize)); then \(samples) times: 50 new posts "
                + "arrive at the top of the feed and refresh(.mergeOnTop(maxPages: 2, onGap: .keepGap)) runs, timed (its first "
                + "fresh page lands inside it: 50 new posts, 50 held ones updated in place, merged in one transition). An "
                + "observer receives every snapshot and drops it. Median per run, median of \(runs) runs after a warm-up run.",
        ]
        return result
    }
}
