// The samples of Docs/PaginatedListViewModel.md, compiled and run. Keep both in sync.
import Foundation
import PaginatedList
import PaginatedListTesting
import Signals
import Testing

// MARK: The page chain

struct NumbersDependency: PaginatedListDependency {
    let pageSize = 10
    let total = 35

    func firstPage() -> Producer<Page<Int, Never>, Never> { page(from: 0) }

    private func page(from start: Int) -> Producer<Page<Int, Never>, Never> {
        Producer { observer, _ in
            let end = min(start + pageSize, total)
            let next = end < total ? page(from: end) : nil
            observer.send(value: Page(items: Array(start ..< end), next: next))
            observer.sendCompleted()
        }
    }
}

// MARK: Binding to a list view

@MainActor
protocol RowsView: AnyObject {
    func insertRows(_ rows: Range<Int>)
    func reloadAll()
}

@MainActor
final class ListController {
    let list: PaginatedListViewModel<Int, Never>
    let view: any RowsView
    private var observation: (any Disposable)?

    init(list: PaginatedListViewModel<Int, Never>, view: any RowsView) {
        self.list = list
        self.view = view
        observation = list.changes.observeValues(on: UIScheduler()) { [weak self] change in
            switch change {
            case let .appended(rows), let .inserted(rows): self?.view.insertRows(rows)
            default: self?.view.reloadAll()
            }
        }
    }

    /// Call from `tableView(_:willDisplay:forRowAt:)` (or a SwiftUI row's `onAppear`).
    func willDisplayRow(_ row: Int) {
        if row >= list.items.value.count - 5 { list.loadNextPage() }
    }
}

@MainActor
final class RecordingRowsView: RowsView {
    var log: [String] = []
    func insertRows(_ rows: Range<Int>) { log.append("insert \(rows.lowerBound)..<\(rows.upperBound)") }
    func reloadAll() { log.append("reload") }
}

// MARK: Loading policy

@MainActor
final class FeedModel {
    let list: PaginatedListViewModel<Int, Never>
    private(set) var rows = ItemList<Int>()
    private var observation: (any Disposable)?

    init(list: PaginatedListViewModel<Int, Never>) {
        self.list = list
        observation = list.items.producer.startWithValues(on: UIScheduler()) { [weak self] items in
            self?.rows = items
        }
    }

    /// UIKit: call from `tableView(_:willDisplay:forRowAt:)` with `indexPath.row`.
    /// SwiftUI: call from each row's `.onAppear { model.rowAppeared(index) }`.
    func rowAppeared(_ row: Int) {
        list.loadNextPageIfNeeded(visibleIndex: row, prefetchDistance: 5)
    }
}

final class TerminalList {
    let list: PaginatedListViewModel<Int, Never>
    private(set) var cursor = 0

    init(list: PaginatedListViewModel<Int, Never>) { self.list = list }

    func moveCursor(by delta: Int) {
        cursor = max(0, min(cursor + delta, list.items.value.count - 1))
        list.loadNextPageIfNeeded(visibleIndex: cursor, prefetchDistance: 5)
    }
}

final class ScrollPrefetcher {
    private let rows: Signal<Int, Never>.Observer
    private let observation: any Disposable

    init(list: PaginatedListViewModel<Int, Never>, scheduler: any DateScheduler) {
        let (visibleRows, rows) = Signal<Int, Never>.pipe()
        self.rows = rows
        observation = list.loadNextPageIfNeeded(visibleIndices: visibleRows, prefetchDistance: 5,
                                                debounce: .milliseconds(150), on: scheduler)
    }

    /// Call for every row shown; only the row where scrolling pauses is acted on.
    func rowShown(_ row: Int) { rows.send(value: row) }

    deinit { observation.dispose() }
}

@Suite("Guide: the view model")
struct ViewModelGuideTests {
    @Test func usingItPrintsTheCountsTheGuideShows() {
        let printed = Locked<[Int]>([])
        let list = PaginatedListViewModel(dependency: NumbersDependency(), scheduler: ImmediateScheduler())
        list.items.signal.observeValues { items in printed.withLock { $0.append(items.count) } }
        list.loadNextPage()   // items: 10
        list.loadNextPage()   // items: 20
        list.reset()          // items: 0
        list.loadNextPage()   // items: 10
        #expect(printed.withLock { $0 } == [10, 20, 0, 10])
    }

    @Test func theChainEndsWithAShortLastPage() {
        let list = PaginatedListViewModel(dependency: NumbersDependency(), scheduler: ImmediateScheduler())
        for _ in 0 ..< 5 { list.loadNextPage() }
        #expect(Array(list.items.value) == Array(0 ..< 35))
        #expect(list.exhausted.value)
    }

    @Test func retryingAfterAFailureIsJustLoadingAgain() {
        let attempts = MutableProperty(0)
        let flaky = PaginatedListViewModel<Int, URLError>(scheduler: ImmediateScheduler()) {
            Producer { observer, _ in
                attempts.modify { $0 += 1 }
                if attempts.value == 1 {
                    observer.send(error: URLError(.timedOut))
                } else {
                    observer.send(value: Page(items: [1, 2, 3], next: nil))
                    observer.sendCompleted()
                }
            }
        }
        flaky.loadNextPage()
        #expect(flaky.lastError.value?.code == .timedOut)
        flaky.loadNextPage()
        #expect(Array(flaky.items.value) == [1, 2, 3])
        #expect(flaky.exhausted.value)
        #expect(flaky.lastError.value == nil)
    }

    @MainActor
    @Test func feedModelLoadsWhenARowNearTheEndAppears() async {
        let model = FeedModel(list: PaginatedListViewModel(dependency: NumbersDependency(), scheduler: ImmediateScheduler()))
        model.rowAppeared(0)            // an empty list: the first page
        #expect(model.rows.count == 10)
        model.rowAppeared(3)            // 6 rows below: nothing
        #expect(model.rows.count == 10)
        model.rowAppeared(4)            // 5 rows below: the next page
        #expect(model.rows.count == 20)
    }

    @Test func terminalListLoadsAsTheCursorNearsTheEnd() {
        let terminal = TerminalList(list: PaginatedListViewModel(dependency: NumbersDependency(), scheduler: ImmediateScheduler()))
        terminal.moveCursor(by: 0)
        #expect(terminal.list.items.value.count == 10)
        terminal.moveCursor(by: 3)
        #expect(terminal.list.items.value.count == 10)
        terminal.moveCursor(by: 1)
        #expect(terminal.cursor == 4)
        #expect(terminal.list.items.value.count == 20)
    }

    @Test func aParkedCursorGetsTheNextPageWhenTheLoadInFlightLands() {
        let clock = TestScheduler()
        let pages = PaginatedListViewModel<Int, Never>(scheduler: ImmediateScheduler()) {
            func page(_ k: Int) -> Producer<Page<Int, Never>, Never> {
                Producer<Page<Int, Never>, Never> { observer, _ in
                    observer.send(value: Page(items: Array(k * 4 ..< k * 4 + 4), next: page(k + 1)))
                    observer.sendCompleted()
                }
                .start(on: clock)
            }
            return page(0)
        }
        let terminal = TerminalList(list: pages)
        terminal.moveCursor(by: 0)      // page 1 requested
        clock.advance()
        terminal.moveCursor(by: 3)      // the last row: page 2 loads
        terminal.moveCursor(by: 1)      // held at the bottom while it loads
        clock.advance()                 // page 2 lands; row 3 is still near the end: page 3 loads by itself
        clock.advance()
        #expect(pages.items.value.count == 12)
        #expect(!pages.loading.value)   // row 3 now has 8 rows below
    }

    @Test func resilientViewModelIsBuiltFromAPolicy() {
        let policy = RetryPolicy(maxRetries: 4, initialDelay: .seconds(1), multiplier: 2, maxDelay: .seconds(30), jitter: 0.2)
        let resilient = PaginatedListViewModel(
            dependency: NumbersDependency(),
            retry: AutomaticRetry(policy, on: QueueScheduler.main)
        )
        #expect(resilient.items.value.isEmpty)
        #expect(policy.delay(beforeRetry: 3, draw: 0.5) == .seconds(4))
    }

    @Test func automaticRetryIsDrivenByATestScheduler() {
        let clock = TestScheduler()
        let attempts = MutableProperty(0)
        let flaky = PaginatedListViewModel<Int, URLError>(
            scheduler: ImmediateScheduler(),
            retry: AutomaticRetry(RetryPolicy(maxRetries: 3, initialDelay: .seconds(2), jitter: 0), on: clock)
        ) {
            Producer { observer, _ in
                let attempt = attempts.modify { count -> Int in
                    count += 1
                    return count
                }
                if attempt < 3 {
                    observer.send(error: URLError(.timedOut))
                } else {
                    observer.send(value: Page(items: [1, 2, 3], next: nil))
                    observer.sendCompleted()
                }
            }
        }
        flaky.loadNextPage()              // attempt 1 fails: retry 1 in 2 s
        clock.advance(by: .seconds(2))    // attempt 2 fails: retry 2 in 4 s
        clock.advance(by: .seconds(4))    // attempt 3 lands: items [1, 2, 3]
        #expect(attempts.value == 3)
        #expect(Array(flaky.items.value) == [1, 2, 3])
        #expect(flaky.lastError.value == nil)
    }

    @Test func scrollPrefetcherActsOnTheRowWhereScrollingPauses() {
        let clock = TestScheduler()
        let list = PaginatedListViewModel(dependency: NumbersDependency(), scheduler: ImmediateScheduler())
        list.loadNextPage()
        let prefetcher = ScrollPrefetcher(list: list, scheduler: clock)
        for row in 0 ..< 8 { prefetcher.rowShown(row) }
        clock.advance(by: .milliseconds(100))
        #expect(list.items.value.count == 10)     // still scrolling
        clock.advance(by: .milliseconds(50))
        #expect(list.items.value.count == 20)     // paused at row 7: 2 rows below
        withExtendedLifetime(prefetcher) {}
    }

    @Test func theLoadingPolicySamplesAreCompiledHere() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("Docs/PaginatedListViewModel.md"), encoding: .utf8)
        let section = try #require(guide.range(of: "## Loading policy")).lowerBound
        let samples = TestingGuideTests.swiftBlocks(in: String(guide[section...]))
        #expect(samples.count == 5)
        let sourceLines = TestingGuideTests.significantLines(try String(contentsOf: here, encoding: .utf8))
        for sample in samples {
            let lines = TestingGuideTests.significantLines(sample)
            let found = sourceLines.indices.contains { sourceLines[$0...].starts(with: lines) }
            #expect(found, "not compiled by ViewModelGuideTests:\n\(sample)")
        }
    }

    @MainActor
    @Test func listControllerInsertsRowsAndPrefetchesNearTheEnd() async {
        let view = RecordingRowsView()
        let list = PaginatedListViewModel(dependency: NumbersDependency(), scheduler: ImmediateScheduler())
        let controller = ListController(list: list, view: view)
        list.loadNextPage()
        controller.willDisplayRow(2)    // far from the end: nothing
        #expect(list.items.value.count == 10)
        controller.willDisplayRow(6)    // within 5 rows of the end: next page
        #expect(list.items.value.count == 20)
        list.reset()
        #expect(view.log == ["insert 0..<10", "insert 10..<20", "reload"])
    }
}
