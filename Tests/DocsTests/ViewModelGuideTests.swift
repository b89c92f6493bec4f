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

// MARK: Driving a table or collection view from `changes`

@MainActor
protocol RowsView: AnyObject {
    func insertRows(_ rows: [Int])
    func deleteRows(_ rows: [Int])
    func reloadRows(_ rows: [Int])
    func moveRow(from: Int, to: Int)
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
            guard let view = self?.view else { return }
            switch change {
            case let .appended(rows), let .inserted(rows): view.insertRows(Array(rows))
            case let .removed(rows): view.deleteRows(rows)
            case let .updated(rows): view.reloadRows(rows)
            case let .moved(from, to): view.moveRow(from: from, to: to)
            case .reset: view.reloadAll()
            }
        }
    }

    /// Call from `tableView(_:willDisplay:forRowAt:)` (or a SwiftUI row's `onAppear`).
    func willDisplayRow(_ row: Int) {
        list.loadPagesIfNeeded(visibleIndex: row)
    }
}

@MainActor
final class RecordingRowsView: RowsView {
    var log: [String] = []
    func insertRows(_ rows: [Int]) { log.append("insert \(rows.first!)...\(rows.last!)") }
    func deleteRows(_ rows: [Int]) { log.append("delete \(rows)") }
    func reloadRows(_ rows: [Int]) { log.append("reload \(rows)") }
    func moveRow(from: Int, to: Int) { log.append("move \(from) \(to)") }
    func reloadAll() { log.append("reload") }
}

#if canImport(UIKit)
import UIKit

@MainActor
final class PostsTableController: NSObject, UITableViewDataSource {
    let list: PaginatedListViewModel<Int, Never>
    let tableView: UITableView
    private var rows: ItemList<Int> = []
    private var observation: (any Disposable)?

    init(list: PaginatedListViewModel<Int, Never>, tableView: UITableView) {
        self.list = list
        self.tableView = tableView
        super.init()
        tableView.dataSource = self
        observation = list.changes.observeValues(on: UIScheduler()) { [weak self] change in
            self?.apply(change)
        }
    }

    private func apply(_ change: ItemListChange) {
        let paths = { (rows: [Int]) in rows.map { IndexPath(row: $0, section: 0) } }
        tableView.performBatchUpdates {
            rows = list.items.value
            switch change {
            case let .appended(range), let .inserted(range): tableView.insertRows(at: paths(Array(range)), with: .automatic)
            case let .removed(offsets): tableView.deleteRows(at: paths(offsets), with: .automatic)
            case let .updated(offsets): tableView.reloadRows(at: paths(offsets), with: .none)
            case let .moved(from, to): tableView.moveRow(at: IndexPath(row: from, section: 0), to: IndexPath(row: to, section: 0))
            case .reset: tableView.reloadData()
            }
        }
    }

    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { rows.count }

    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
        var content = cell.defaultContentConfiguration()
        content.text = "\(rows[indexPath.row])"
        cell.contentConfiguration = content
        list.loadPagesIfNeeded(visibleIndex: indexPath.row)
        return cell
    }
}
#endif

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
        list.loadPagesIfNeeded(visibleIndex: row, prefetchDistance: 5)
    }
}

final class TerminalList {
    let list: PaginatedListViewModel<Int, Never>
    private(set) var cursor = 0

    init(list: PaginatedListViewModel<Int, Never>) { self.list = list }

    func moveCursor(by delta: Int) {
        cursor = max(0, min(cursor + delta, list.items.value.count - 1))
        list.loadPagesIfNeeded(visibleIndex: cursor, prefetchDistance: 5)
    }
}

final class ScrollPrefetcher {
    private let rows: Signal<Int, Never>.Observer
    private let observation: any Disposable

    init(list: PaginatedListViewModel<Int, Never>, scheduler: any DateScheduler) {
        let (visibleRows, rows) = Signal<Int, Never>.pipe()
        self.rows = rows
        observation = list.loadPagesIfNeeded(visibleIndices: visibleRows, prefetchDistance: 5,
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
        #expect(view.log == ["insert 0...9", "insert 10...19", "reload"])
    }

    @MainActor
    @Test func listControllerDeletesTheRowsOfADroppedPage() async {
        let view = RecordingRowsView()
        let list = PaginatedListViewModel(dependency: NumbersDependency(), scheduler: ImmediateScheduler(), maxPages: 1)
        let controller = ListController(list: list, view: view)
        list.loadNextPage()
        list.loadNextPage()
        #expect(view.log == ["insert 0...9", "delete \(Array(0 ..< 10))", "insert 0...9"])
        withExtendedLifetime(controller) {}
    }

    @Test func editingTheListSamplePrintsWhatTheGuideShows() {
        struct Post: Identifiable, Sendable {
            let id: Int
            var likes: Int
        }

        let posts = PaginatedListViewModel<Post, Never>(scheduler: ImmediateScheduler()) {
            Producer(value: Page(items: (1 ... 5).map { Post(id: $0, likes: 0) }, next: nil))
        }
        posts.loadNextPage()
        posts.update(id: 3) { $0.likes += 1 }          // in place: `changes` sends .updated([2])
        posts.remove(id: 4)                            // .removed([3])
        posts.insert([Post(id: 99, likes: 0)], at: 0)  // the user's own post: .inserted(0 ..< 1)
        posts.update([(1, 10), (5, 50)], id: { $0.0 }, apply: { post, patch in post.likes = patch.1 })
        #expect(posts.items.value.map(\.id) == [99, 1, 2, 3, 5])
        #expect(posts.items.value.map(\.likes) == [0, 10, 0, 1, 50])
    }

    @Test func bothDirectionsSampleOpensAtTheAnchorAndGrowsUpwards() {
        struct Message: Identifiable, Sendable { let id: Int }

        /// The page of messages `start ..< start + 20` of a conversation of 200, with producers both ways.
        func messages(from start: Int) -> Producer<Page<Message, Never>, Never> {
            Producer { observer, _ in
                let range = max(start, 0) ..< min(start + 20, 200)
                observer.send(value: Page(
                    items: range.map { Message(id: $0) },
                    previous: range.lowerBound > 0 ? messages(from: range.lowerBound - 20) : nil,
                    next: range.upperBound < 200 ? messages(from: range.upperBound) : nil
                ))
                observer.sendCompleted()
            }
        }

        let firstUnread = 120
        let chat = PaginatedListViewModel<Message, Never>(scheduler: ImmediateScheduler(), maxPages: 5) {
            messages(from: firstUnread)
        }
        chat.loadNextPage()             // the anchor page: messages 120-139
        chat.loadPreviousPage()         // scrolled up: 100-139
        #expect(chat.items.value.first!.id == 100)
        #expect(chat.items.value.count == 40)
        for _ in 0 ..< 6 { chat.loadPreviousPage() }
        #expect(chat.items.value.first!.id == 0)
        #expect(chat.items.value.count == 100)   // five pages of 20: the window
    }

    @Test func theLivingListSamplesAreCompiledHere() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("Docs/PaginatedListViewModel.md"), encoding: .utf8)
        let start = try #require(guide.range(of: "## Editing the list")).lowerBound
        let end = try #require(guide.range(of: "## Loading policy")).lowerBound
        let samples = TestingGuideTests.swiftBlocks(in: String(guide[start ..< end]))
        #expect(samples.count == 4)
        let sourceLines = TestingGuideTests.significantLines(try String(contentsOf: here, encoding: .utf8))
        for sample in samples {
            let lines = TestingGuideTests.significantLines(sample).filter { !$0.hasPrefix("print(") && !$0.hasPrefix("// [") }
            let found = TestingGuideTests.containsInOrder(lines, in: sourceLines)
            #expect(found, "not compiled by ViewModelGuideTests:\n\(sample)")
        }
    }
}
