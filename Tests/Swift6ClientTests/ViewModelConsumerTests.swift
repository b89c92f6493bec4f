import Dispatch
import PaginatedList
import Signals
import Testing

// A Swift 6 client of the view model: a `@MainActor` screen model that owns a view model delivering on the
// main thread (`UIScheduler`), binds `items`, `loading` and `lastError` to its main-actor state and calls
// `loadNextPage()`. No unchecked Sendable conformance, unsafe nonisolated state or preconcurrency import anywhere (`NoEscapeHatchTests` checks).

struct FeedError: Error, Equatable, Sendable {
    let message: String
}

/// Page `k` of a feed of `pages` pages of three rows, delivered from a background queue. Failures, if any,
/// come first: `failures` runs of the first page fail before one succeeds.
func feedPage(_ k: Int, of pages: Int, failures: FailureBudget? = nil) -> Producer<Page<Int, FeedError>, FeedError> {
    Producer<[Int], FeedError> { observer, _ in
        DispatchQueue.global().async {
            if k == 0, let failures, failures.take() {
                observer.send(error: FeedError(message: "offline"))
                return
            }
            observer.send(value: Array(k * 3 ..< k * 3 + 3))
            observer.sendCompleted()
        }
    }
    .map { rows in Page(items: rows, next: k + 1 < pages ? feedPage(k + 1, of: pages) : nil) }
}

/// How many loads are still to fail, shared with the background queue.
final class FailureBudget: Sendable {
    private let remaining: Signals.MutableProperty<Int>
    init(_ count: Int) { remaining = MutableProperty(count) }
    /// Whether this load should fail (using up one failure).
    func take() -> Bool {
        remaining.modify { count in
            guard count > 0 else { return false }
            count -= 1
            return true
        }
    }
}

/// What an app's screen would hold: rows, a spinner flag and an error message, all on the main actor.
@MainActor
final class FeedScreenModel {
    let viewModel: PaginatedListViewModel<Int, FeedError>
    private(set) var rows: [Int] = []
    private(set) var isLoading = false
    private(set) var errorMessage: String?
    private(set) var isAtEnd = false
    /// Whether to ask for the next page as soon as rows arrive (a prefetching list).
    var prefetches = false
    private var observations: [any Disposable] = []
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(firstPage: @escaping () -> Producer<Page<Int, FeedError>, FeedError>) {
        viewModel = PaginatedListViewModel(scheduler: UIScheduler(), firstPage: firstPage)
        // UIScheduler delivers on the main thread: the observers step onto the main actor with
        // `MainActor.assumeIsolated`, which would trap if that promise were broken.
        bind(viewModel.items.signal) { screen, items in screen.show(items) }
        bind(viewModel.loading.signal) { screen, loading in screen.isLoading = loading }
        bind(viewModel.lastError.signal) { screen, error in screen.errorMessage = error?.message }
        bind(viewModel.exhausted.signal) { screen, exhausted in screen.isAtEnd = exhausted }
    }

    private func bind<Value: Sendable>(
        _ signal: Signal<Value, Never>, _ update: @escaping @MainActor (FeedScreenModel, Value) -> Void
    ) {
        let observation = signal.observeValues { [weak self] value in
            MainActor.assumeIsolated {
                guard let self else { return }
                update(self, value)
                self.changed()
            }
        }
        if let observation { observations.append(observation) }
    }

    private func show(_ items: ItemList<Int>) {
        rows = Array(items)
        if prefetches { viewModel.loadNextPage() }
    }

    func userScrolledNearTheEnd() { viewModel.loadNextPage() }
    func userPulledToRefresh() { viewModel.reload() }

    /// Suspends until `condition` holds, re-checking after every change the view model delivers.
    func waitUntil(_ condition: (FeedScreenModel) -> Bool) async {
        while !condition(self) {
            await withCheckedContinuation { waiters.append($0) }
        }
    }

    private func changed() {
        let resumed = waiters
        waiters = []
        for waiter in resumed { waiter.resume() }
    }
}

@Suite("A @MainActor consumer of the view model", .timeLimit(.minutes(1)))
struct ViewModelConsumerTests {
    @Test @MainActor func screenShowsTheFirstPageWhenItLands() async {
        let screen = FeedScreenModel { feedPage(0, of: 3) }
        screen.userScrolledNearTheEnd()
        await screen.waitUntil { $0.rows.count == 3 && !$0.isLoading }
        #expect(screen.rows == [0, 1, 2])
        #expect(screen.errorMessage == nil)
        #expect(!screen.isAtEnd)
    }

    @Test @MainActor func prefetchingScreenLoadsEveryPageInOrder() async {
        let screen = FeedScreenModel { feedPage(0, of: 5) }
        screen.prefetches = true
        screen.userScrolledNearTheEnd()
        await screen.waitUntil { $0.isAtEnd }
        #expect(screen.rows == Array(0 ..< 15))
        #expect(!screen.isLoading)
    }

    @Test @MainActor func screenShowsTheErrorAndRetryClearsIt() async {
        let failures = FailureBudget(1)
        let screen = FeedScreenModel { feedPage(0, of: 2, failures: failures) }
        screen.userScrolledNearTheEnd()
        await screen.waitUntil { $0.errorMessage != nil }
        #expect(screen.errorMessage == "offline")
        #expect(!screen.isLoading)
        #expect(screen.rows.isEmpty)
        screen.userScrolledNearTheEnd()   // retries the failed first page
        await screen.waitUntil { $0.rows.count == 3 && !$0.isLoading }
        #expect(screen.rows == [0, 1, 2])
        #expect(screen.errorMessage == nil)
    }

    @Test @MainActor func pullToRefreshStartsOver() async {
        let screen = FeedScreenModel { feedPage(0, of: 3) }
        screen.prefetches = true
        screen.userScrolledNearTheEnd()
        await screen.waitUntil { $0.isAtEnd }
        screen.prefetches = false
        screen.userPulledToRefresh()
        await screen.waitUntil { $0.rows == [0, 1, 2] && !$0.isLoading }
        #expect(!screen.isAtEnd)
    }

    @Test @MainActor func viewModelCanBeDrivenFromATaskOffTheMainActor() async {
        let screen = FeedScreenModel { feedPage(0, of: 3) }
        let viewModel = screen.viewModel   // Sendable: Int is
        await Task.detached { viewModel.loadNextPage() }.value
        await screen.waitUntil { $0.rows.count == 3 && !$0.isLoading }
        #expect(screen.rows == [0, 1, 2])
    }
}
