import PaginatedList
import PaginatedListTesting
import Signals

/// A list opened where a source starts, scrolled to its ends through a `PaginatedListViewModel` on the
/// immediate scheduler, checked after every command: the items held must always be a run of the feed
/// `0 ..< count`, in order, each once (the feed does not change).
final class ScrolledList<Failure: Error> {
    typealias Item = ChangingFeed.Item

    let model: PaginatedListViewModel<Item, Failure>
    private let recorded = MutableProperty<[PaginatedListDiagnostic]>([])
    private let removed = MutableProperty(0)
    /// The first command after which the items held were not a run of the feed, described.
    private(set) var broken: String?
    private var commands = 0

    init<D: PaginatedListDependency>(_ dependency: D, maxPages: Int? = nil) where D.Item == Item, D.Failure == Failure {
        model = PaginatedListViewModel(dependency: dependency, scheduler: ImmediateScheduler(), maxPages: maxPages)
        model.diagnostics.observeValues { [recorded] diagnostic in recorded.modify { $0.append(diagnostic) } }
        model.changes.observeValues { [removed] change in
            if case let .removed(offsets) = change { removed.modify { $0 += offsets.count } }
        }
    }

    var ids: [Int] { model.items.value.map(\.id) }
    var diagnostics: [PaginatedListDiagnostic] { recorded.value }
    /// The rows `maxPages` dropped so far.
    var rowsDropped: Int { removed.value }
    var loadStates: LoadStates<Failure> { model.loadStates.value }

    /// The source corrections reported.
    var corrections: [PaginatedListDiagnostic.SourceCorrection] {
        diagnostics.compactMap { if case let .sourceCorrection(correction) = $0 { correction } else { nil } }
    }

    /// Loads the first page.
    func open() {
        command { model.loadNextPage() }
    }

    /// `loadPreviousPage()` until nothing comes before the first item held (or `limit` commands).
    func scrollToTop(limit: Int = 1_000) {
        var count = 0
        while !loadStates.prepend.isComplete, model.lastError.value == nil, count < limit {
            command { model.loadPreviousPage() }
            count += 1
        }
    }

    /// `loadNextPage()` until the list is exhausted (or `limit` commands).
    func scrollToEnd(limit: Int = 1_000) {
        var count = 0
        while !loadStates.append.isComplete, model.lastError.value == nil, count < limit {
            command { model.loadNextPage() }
            count += 1
        }
    }

    private func command(_ body: () -> Void) {
        body()
        commands += 1
        let ids = ids
        guard broken == nil, let first = ids.first else { return }
        if ids != Array(first ..< first + ids.count) {
            broken = "after command \(commands) the list holds \(ids)"
        }
    }
}

/// Records the requests a test source makes, in order.
final class RequestLog<Request: Sendable>: Sendable {
    private let log = MutableProperty<[Request]>([])

    /// Records `request`.
    func record(_ request: Request) {
        log.modify { $0.append(request) }
    }

    /// The requests recorded, in order.
    var requests: [Request] { log.value }

    /// Forgets the requests recorded.
    func clear() {
        log.value = []
    }
}
