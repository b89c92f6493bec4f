// The samples of Docs/PaginatedListViewModel.md, compiled and run. Keep both in sync.
import Foundation
import PaginatedList
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
