import Observation
import Signals
import Synchronization

/// A main-actor mirror of a `QueryPaginatedList` for SwiftUI and any other Observation client: the list's
/// query, items and load states, across query switches (the previous query's items stay while a new
/// query's first page loads, when the list keeps them).
///
/// ```swift
/// List(Array(search.items.enumerated()), id: \.element.id) { index, repo in
///     Text(repo.name).onAppear { search.rowAppeared(index) }
/// }
/// .searchable(text: $text)
/// .onChange(of: text) { search.setQuery(text) }
/// ```
///
/// **Updates.** Each property is set on the main actor, only when it changed: at once when the list
/// delivers on the main thread, else enqueued there, showing the latest state when it runs. **Ownership.**
/// The mirror retains its list; the list does not retain the mirror. Releasing the mirror stops the
/// observation.
@MainActor
@Observable
public final class ObservableQueryPaginatedList<Query: Hashable & Sendable, Item, Failure: Error> {
    /// The current query, as of the last switch shown.
    public private(set) var query: Query
    /// The items the list shows (`QueryPaginatedList.items`).
    public private(set) var items: ItemList<Item>
    /// The current query's load states (`QueryPaginatedList.loadStates`).
    public private(set) var loadStates: LoadStates<Failure>

    /// The list this mirror shows: for what the mirror does not forward (`current`, `changes`).
    @ObservationIgnored public let list: QueryPaginatedList<Query, Item, Failure>
    /// How many rows below the row that appeared still count as "near the end" for `rowAppeared(_:)`
    /// (5 by default).
    @ObservationIgnored public var prefetchDistance = 5

    /// How many times each property of the list has sent (any thread), and what was shown.
    @ObservationIgnored private let versions = Versions()
    @ObservationIgnored private var shownVersions = (items: 0, loadStates: 0)
    @ObservationIgnored private let observation = CompositeDisposable()

    /// A mirror of `list`, showing its current state at once. Create it on the main actor.
    public init(_ list: QueryPaginatedList<Query, Item, Failure>) {
        self.list = list
        query = list.query.value
        items = list.items.value
        loadStates = list.loadStates.value
        let versions = versions
        observation.add(list.items.signal.observeValues { [weak self] _ in
            versions.items.add(1, ordering: .releasing)
            onMainActor(self) { $0.showLatest() }
        })
        observation.add(list.loadStates.signal.observeValues { [weak self] _ in
            versions.loadStates.add(1, ordering: .releasing)
            onMainActor(self) { $0.showLatest() }
        })
        observation.add(list.query.signal.observeValues { [weak self] _ in
            onMainActor(self) { $0.showLatest() }
        })
        // Read again now that the list is observed: a value it sent between the first read and the
        // observations would otherwise show only with its next one.
        query = list.query.value
        items = list.items.value
        loadStates = list.loadStates.value
    }

    deinit {
        observation.dispose()
    }

    /// Switches the list to `query` (`QueryPaginatedList.setQuery(_:)`): feed it the search text, debounced
    /// if each keystroke should not start a request.
    public func setQuery(_ query: Query) {
        list.setQuery(query)
    }

    /// Tells the current query's view model that the row at `index` appeared
    /// (`PaginatedListViewModel.loadPagesIfNeeded(visibleIndex:prefetchDistance:)`). While a new query's
    /// first page loads and the previous items show, the rows are not that query's: nothing is asked.
    public func rowAppeared(_ index: Int) {
        let viewModel = list.current.value
        guard !viewModel.items.value.isEmpty else { return }
        viewModel.loadPagesIfNeeded(visibleIndex: index, prefetchDistance: prefetchDistance)
    }

    /// Loads the current query's next page, or retries it after a failure.
    public func loadNextPage() {
        list.loadNextPage()
    }

    /// Retries what failed for the current query, as shown in `loadStates`: the step of the refresh (its
    /// revalidation, or one the app started) that failed, the next page or the previous page. Does nothing
    /// when nothing failed.
    public func retry() {
        let viewModel = list.current.value
        if loadStates.refresh.error != nil { viewModel.core.submit(.retryRefresh) }
        if loadStates.append.error != nil { viewModel.loadNextPage() }
        if loadStates.prepend.error != nil { viewModel.loadPreviousPage() }
    }

    /// Refreshes the current query's list without blanking it and returns once the refresh has ended
    /// (`ObservablePaginatedList.refresh()`): for `.refreshable { await search.refresh() }`.
    public func refresh() async {
        await ObservablePaginatedList(list.current.value).refresh()
        showLatest()
    }

    /// Shows the list's latest state, setting only what changed.
    private func showLatest() {
        let itemsVersion = versions.items.load(ordering: .acquiring)
        let statesVersion = versions.loadStates.load(ordering: .acquiring)
        if itemsVersion != shownVersions.items {
            shownVersions.items = itemsVersion
            items = list.items.value
        }
        if statesVersion != shownVersions.loadStates {
            shownVersions.loadStates = statesVersion
            loadStates = list.loadStates.value
        }
        let latest = list.query.value
        if latest != query { query = latest }
    }


    /// How many values the list's `items` and `loadStates` have sent.
    private final class Versions: Sendable {
        let items = Atomic<Int>(0)
        let loadStates = Atomic<Int>(0)
    }
}
