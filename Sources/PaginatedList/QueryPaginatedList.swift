import Signals

/// A list whose source depends on a query (a search text, a filter): one view model per query.
///
/// `setQuery(_:)` switches to another query, from any thread:
///
/// - The previous query's loads in flight are cut off, and nothing of its view model reaches `items` or
///   `changes` after the switch, even a page its producer sends anyway.
/// - A query seen before, among the last `cacheLimit`, shows its items at once (`changes` sends `.reset`),
///   then is revalidated by `revalidation` (`QueryRevalidation`).
/// - A new query's first page loads at once. With `keepPrevious` (the default), `items` keeps showing the
///   previous query's items until that page lands (or the load fails, or the page is empty and ends the
///   list; an empty page with more after it keeps them while the next one loads), then shows the new
///   query's list in one transition (`changes` sends `.reset`); without it, the list blanks at once.
///   `loadStates` follows the new query from the switch on (`append` is `.loading` meanwhile), and `query`
///   and `current` change together (an observer of either sees the other's new value).
/// - A query switched away from keeps its items and a failure it showed (its load in flight is cut off).
///   Going back to a query that holds items shows them; its failure shows again, retried by
///   `loadNextPage()` as any failed page, unless `revalidation` refreshes the query then (a refresh starts
///   over and clears it). A query that holds no item loads its first page again at once.
///
/// Between switches, `items`, `loadStates` and `changes` forward the current view model's, transition by
/// transition: applying every `changes` value in order to a copy of the first `items` snapshot gives each
/// later snapshot, across switches too. `current` is the current query's view model, for everything
/// else (edits, `loadPagesIfNeeded`, `diagnostics`); during a `keepPrevious` wait its items are not yet
/// the ones shown.
///
/// The first query's view model starts no request, as any new view model (call `loadNextPage()`). Debounce
/// keystrokes before they reach `setQuery(_:)` (the `debounce` operator on the text's signal).
///
/// **Threading.** Every property delivers on `scheduler`, which the view models share; a switch runs there
/// as a command, queued with the view models' transitions, one at a time. **Ownership.** The list holds the
/// kept view models; a view model evicted from the cache (least recently used first) is released, unless
/// the app holds it. The view models do not hold the list.
public final class QueryPaginatedList<Query: Hashable & Sendable, Item, Failure: Error> {
    /// The current query: set by `setQuery(_:)`, when the switch runs.
    public let query: Property<Query>
    /// The current query's view model.
    public let current: Property<PaginatedListViewModel<Item, Failure>>
    /// The current query's items; the previous one's until its first page lands (with `keepPrevious`).
    public let items: Property<ItemList<Item>>
    /// The current query's load states, from the switch on.
    public let loadStates: Property<LoadStates<Failure>>
    /// Each mutation of `items`, sent right after `items` changes; replays onto `items` across switches
    /// (a switch that changes the list sends `.reset`).
    public var changes: Signal<ItemListChange, Never> { storage.changes.output }
    /// Whether a new query keeps the previous query's items on `items` until its first page lands.
    public let keepPrevious: Bool
    /// How many queries keep their view models (at least 1: the current one).
    public let cacheLimit: Int
    /// What happens when a kept query comes back.
    public let revalidation: QueryRevalidation

    let storage: QueryListStorage<Query, Item, Failure>

    /// A list over `firstPage(query)` for each query, starting at `query`, delivering on `scheduler`,
    /// keeping the last `cacheLimit` queries' view models and revalidating a query that comes back with
    /// `.always(.replace)`.
    public convenience init(
        query: Query, scheduler: any Scheduler = UIScheduler(), keepPrevious: Bool = true, cacheLimit: Int = 4,
        firstPage: @escaping @Sendable (Query) -> Producer<Page<Item, Failure>, Failure>
    ) {
        self.init(
            query: query, scheduler: scheduler, keepPrevious: keepPrevious, cacheLimit: cacheLimit,
            revalidation: .always(.replace), firstPage: firstPage
        )
    }

    /// A list over `firstPage(query)` for each query, starting at `query`, delivering on `scheduler`,
    /// keeping the last `cacheLimit` queries' view models (at least 1) and revalidating a query that comes
    /// back by `revalidation`.
    public init(
        query: Query, scheduler: any Scheduler = UIScheduler(), keepPrevious: Bool = true, cacheLimit: Int = 4,
        revalidation: QueryRevalidation,
        firstPage: @escaping @Sendable (Query) -> Producer<Page<Item, Failure>, Failure>
    ) {
        self.keepPrevious = keepPrevious
        self.cacheLimit = max(cacheLimit, 1)
        self.revalidation = revalidation
        storage = QueryListStorage(
            query: query, scheduler: scheduler, keepPrevious: keepPrevious, cacheLimit: max(cacheLimit, 1),
            revalidation: revalidation, firstPage: firstPage
        )
        self.query = Property(storage.query)
        current = Property(storage.current)
        items = Property(storage.items)
        loadStates = Property(storage.loadStates)
    }

    /// Switches to `query` (nothing if it is the current one); see the type's documentation. May be
    /// called from any thread; runs on the scheduler.
    public func setQuery(_ query: Query) {
        storage.submit(.setQuery(query))
    }

    /// The queries whose view models are kept, least recently used first (the current one last).
    public var cachedQueries: [Query] {
        storage.cachedQueries
    }

    /// Loads the current query's next page (`PaginatedListViewModel.loadNextPage()`).
    public func loadNextPage() {
        current.value.loadNextPage()
    }

    /// Refreshes the current query's list without blanking it (`PaginatedListViewModel.refresh()`).
    public func refresh() {
        current.value.refresh()
    }

    deinit {
        storage.shutdown()
    }
}

extension QueryPaginatedList: Sendable where Item: Sendable, Failure: Sendable {}
