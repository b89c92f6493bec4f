import PaginatedList
import PaginatedListTesting
import Signals
import Foundation

/// What driving a dependency through a view model produced.
struct SourceSession<Item> {
    let items: [Item]
    let exhausted: Bool
    let diagnostics: [PaginatedListDiagnostic]

    /// The source corrections among the diagnostics.
    var corrections: [PaginatedListDiagnostic.SourceCorrection] {
        diagnostics.compactMap { if case let .sourceCorrection(correction) = $0 { correction } else { nil } }
    }

    /// The total of `.duplicatesDropped` corrections.
    var duplicatesDropped: Int {
        corrections.reduce(0) { if case let .duplicatesDropped(count) = $1 { $0 + count } else { $0 } }
    }
}

/// Drives `dependency` through a `PaginatedListViewModel` on the immediate scheduler: `loadNextPage()`
/// until the list is exhausted, a load fails, or `maxLoads` loads were made.
func drive<D: PaginatedListDependency>(_ dependency: D, maxLoads: Int = 10_000) -> SourceSession<D.Item>
where D.Item: Sendable {
    let model = PaginatedListViewModel(dependency: dependency, scheduler: ImmediateScheduler())
    let diagnostics = MutableProperty<[PaginatedListDiagnostic]>([])
    model.diagnostics.observeValues { diagnostic in diagnostics.modify { $0.append(diagnostic) } }
    var loads = 0
    while !model.exhausted.value, model.lastError.value == nil, loads < maxLoads {
        model.loadNextPage()
        loads += 1
    }
    return SourceSession(items: Array(model.items.value), exhausted: model.exhausted.value,
                         diagnostics: diagnostics.value)
}

/// A test failure.
struct TestFailure: Error, Equatable {
    let page: Int
}

/// Keeps the last page a producer sent, for tests that start page producers by hand.
// `stored` is guarded by `lock`: the only mutable state.
final class PageSlot<Item, Failure: Error>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Page<Item, Failure>?

    /// The last page stored.
    var page: Page<Item, Failure>? { lock.withLock { stored } }

    /// Starts `producer` and stores the page it sends.
    func load(_ producer: Producer<Page<Item, Failure>, Failure>?) {
        producer?.startWithValues { page in self.lock.withLock { self.stored = page } }
    }
}
