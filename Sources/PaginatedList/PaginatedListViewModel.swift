import Signals

/// A paginated list ("infinite scroll"): observe `items`, call `loadNextPage()` near the end of the list,
/// `reset()` or `reload()` to start over.
///
/// A dependency supplies the first page as a cold `Producer`; each page carries the producer of the next.
/// The view model's contract:
///
/// 1. A new view model has empty `items`, is not `loading`, not `exhausted`, has no `lastError`, and has
///    started no request.
/// 2. `loadNextPage()` starts the pending page producer (the dependency's first page after creation or
///    `reset()`). `loading` is `true` from then until that producer's page lands or it terminates.
/// 3. A page's arrival is one transition: its items are appended, its `next` becomes the pending
///    producer (`nil` sets `exhausted`), `loading` becomes `false`; when any observer runs, every property
///    already agrees. The view model takes a producer's first page, then disposes its run.
/// 4. `loadNextPage()` while loading or exhausted does nothing: never two requests in flight.
/// 5. A failure sets `lastError` and ends loading; the failed producer stays pending, so the next
///    `loadNextPage()` retries that same page (and clears `lastError` as it starts).
/// 6. `reset()` interrupts the load in flight, empties `items`, clears `exhausted`, `lastError` and
///    `loading`; the next `loadNextPage()` asks the dependency for a fresh first page.
/// 7. A page from a load that `reset()` (or the release of the view model) cut off never lands.
/// 8. Every property change is delivered on the view model's scheduler. `items` sends once per change of
///    the list, never for a change of `loading`, `lastError` or `exhausted` alone.
/// 9. Any thread may call `loadNextPage()`, `reset()` and `reload()`, also from inside the view model's
///    own observers (the infinite-scroll idiom): commands are queued and run one at a time, in order, on
///    the scheduler; a command issued while one runs is run after it, never nested.
/// 10. Releasing the view model interrupts its load; nothing it started keeps it alive.
/// 11. Misbehaving producers (a second page, completion or self-interruption without a page, a failure
///     after the page, values after termination) have the outcomes `PaginatedListDiagnostic` describes.
///     What reaches the view model is reported on `diagnostics`; what the run's disposal (after the page
///     lands) or the event grammar (after a terminal event) cuts off never reaches it.
/// 12. Appending a page costs time proportional to the page (`ItemList`), whatever the list's length.
///
/// Loading policy: `loadPagesIfNeeded(visibleIndex:prefetchDistance:)` prefetches by row index,
/// an `AutomaticRetry` given at creation retries failed pages with backoff, and
/// `loadNextPage(whenever:debounce:on:)` turns bursts of triggers into one load.
///
/// Properties deliver on the `scheduler` (the main thread by default, with `UIScheduler`). Use
/// `ImmediateScheduler()` (or `TestScheduler`) in tests.
public final class PaginatedListViewModel<Item, Failure: Error> {
    /// The items loaded since the last reset, in order. Sends once per change of the list.
    public let items: Property<ItemList<Item>>
    /// Whether any kind of load is in flight: `loadStates.value.isLoading`, as its own property. Sends only
    /// when that changes, in the same transition as `loadStates`.
    public let loading: Property<Bool>
    /// The error of the most recently failed kind of load in `loadStates` that has not been retried since
    /// (`nil` when none stands): cleared when that load starts again. Sends in the same transition as
    /// `loadStates`, whenever an error stands or stood before it.
    public let lastError: Property<Failure?>
    /// Whether the last page is held: `loadStates.value.append == .complete`, as its own property. Sends
    /// only when that changes, in the same transition as `loadStates`.
    public let exhausted: Property<Bool>
    /// The state of each kind of load (refresh, previous page, next page): the one load-state model, of
    /// which `loading`, `lastError` and `exhausted` are views. Sends when a kind's state changes (and for
    /// every new failure), in the same transition as `items`.
    public let loadStates: Property<LoadStates<Failure>>
    /// The index of the first held item below a gap, if a refresh left one (`RefreshPolicy.mergeOnTop`
    /// with `GapPolicy.keepGap` found more new items than its page budget): the items above it are fresh,
    /// the ones from it down were held before, and some items of the feed between them are not loaded yet.
    /// `fillGap()` loads them. `nil` when no gap is open; there is at most one.
    public let gap: Property<Int?>
    /// Each mutation of `items`, sent right after `items` changes (same transition), for batch updates.
    public let changes: Signal<ItemListChange, Never>
    /// What the view model noticed and handled: misbehaving producers, stale pages, source corrections.
    public let diagnostics: Signal<PaginatedListDiagnostic, Never>

    // `@usableFromInline`, with the inlinable commands below: a client's call specialises the storage, the
    // machine, the store and the list for its `Item` (`Benchmarks itemlist`, view model and edit rows).
    @usableFromInline let core: ViewModelStorage<Item, Failure>

    /// A view model over `dependency`, delivering every property change on `scheduler`.
    ///
    /// Starts no request: call `loadNextPage()` to load the first page. With `retry`, a failed page is
    /// retried automatically after the policy's delay (see `AutomaticRetry`); without it (the default),
    /// only `loadNextPage()` retries.
    ///
    /// With `maxPages`, the list holds at most that many pages (at least 1): when a page lands beyond the
    /// limit, the page farthest from it is dropped (`changes` sends `.removed`), and loaded again when the
    /// user scrolls back, by the `previous` or `next` of the page now at that end, so memory stays flat
    /// however far they scroll (a source that pages only one way: by the producer that loaded it, kept).
    public convenience init<D: PaginatedListDependency>(
        dependency: D, scheduler: any Scheduler = UIScheduler(), retry: AutomaticRetry? = nil, maxPages: Int? = nil
    ) where D.Item == Item, D.Failure == Failure {
        self.init(core: ViewModelStorage<Item, Failure>(
            firstPage: dependency.firstPage, scheduler: scheduler, retry: retry, maxPages: maxPages
        ))
    }

    /// A view model whose pages a store keeps (`PaginatedListStore`'s store-backed lists): its first page
    /// comes from `keeper`, which also writes what refreshes and edits change before the list shows it.
    package convenience init<Keeper: PageKeeper>(
        keeper: Keeper, scheduler: any Scheduler, retry: AutomaticRetry?, maxPages: Int?
    ) where Keeper.Item == Item, Keeper.Failure == Failure {
        self.init(core: ViewModelStorage<Item, Failure>(
            firstPage: KeeperDependency(keeper: keeper).firstPage, keeper: keeper, scheduler: scheduler, retry: retry,
            maxPages: maxPages
        ))
    }

    /// A view model over `core`: its properties are the storage's.
    init(core: ViewModelStorage<Item, Failure>) {
        self.core = core
        items = Property(core.items)
        loading = Property(core.loading)
        lastError = Property(core.lastError)
        exhausted = Property(core.exhausted)
        loadStates = Property(core.loadStates)
        gap = Property(core.gap)
        changes = core.changes.output
        diagnostics = core.diagnostics.output
    }

    /// A view model whose first page comes from `firstPage`, delivering every change on `scheduler`,
    /// retrying failed pages automatically when given `retry`, holding at most `maxPages` pages if given.
    public convenience init(
        scheduler: any Scheduler = UIScheduler(),
        retry: AutomaticRetry? = nil,
        maxPages: Int? = nil,
        firstPage: @escaping () -> Producer<Page<Item, Failure>, Failure>
    ) {
        self.init(
            dependency: ClosureDependency(makeFirstPage: firstPage), scheduler: scheduler, retry: retry, maxPages: maxPages
        )
    }

    /// Loads the pending page, unless a page is loading or the list is exhausted.
    ///
    /// Retries the failed page after a failure, at once, cancelling an automatic retry that is waiting.
    /// May be called from any thread; runs on the scheduler.
    @inlinable
    public func loadNextPage() {
        core.submit(.loadNextPage)
    }

    /// Loads the page before the first item held, unless one is loading, nothing lies before it, or the
    /// first page has not landed yet (a list that opened in the middle of a feed grows upwards this way).
    ///
    /// Independent of `loadNextPage()`: both may load at once, and a failure in one leaves the other
    /// usable. Retries the failed previous page after a failure, cancelling a waiting automatic retry.
    /// Does nothing while a refresh loads. May be called from any thread; runs on the scheduler.
    @inlinable
    public func loadPreviousPage() {
        core.submit(.loadPreviousPage)
    }

    /// Brings the list up to date without blanking it (`RefreshPolicy.replace`): the held items stay
    /// visible and editable until the new first page lands and replaces them.
    ///
    /// Cuts off an append or prepend in flight (its page never lands); `loadStates.refresh` is `.loading`
    /// meanwhile, and `loadNextPage()` / `loadPreviousPage()` do nothing. A failed refresh keeps the list
    /// and reports on `loadStates.refresh` and `lastError`; refreshing again retries it, and so does an
    /// `AutomaticRetry`. May be called from any thread; runs on the scheduler.
    public func refresh() {
        core.submit(.refresh(.replace, check: nil))
    }

    /// Loads the items missing at the gap (see `gap`): pages from the gap downwards, each inserted at it,
    /// until one overlaps the held items below (the gap closes) or the refresh's page budget is spent (the
    /// gap stays open, lower down). Reported on `loadStates.refresh`. Does nothing without a gap or while a
    /// refresh loads. May be called from any thread; runs on the scheduler.
    public func fillGap() {
        core.submit(.fillGap)
    }

    /// Starts over: interrupts the load in flight, cancels a waiting automatic retry, empties the list and
    /// clears every state; the next `loadNextPage()` loads a fresh first page. May be called from any
    /// thread; runs on the scheduler.
    public func reset() {
        core.submit(.reset)
    }

    /// Starts over and loads the first page: `reset()`, then `loadNextPage()`, as one command. The list goes
    /// blank until the first page lands (`changes` sends `.reset`).
    ///
    /// To bring the list up to date without blanking it, refresh instead: `refresh()` (the first page
    /// replaces the list when it lands) or `refresh(.reloadAll)` (every held page reloaded, the list
    /// replaced when the last lands). May be called from any thread; runs on the scheduler.
    public func reload() {
        core.submit(.reload)
    }

    /// Tells the view model the user is looking at row `visibleIndex`: loads the next page when at most
    /// `prefetchDistance` loaded rows lie below that row (`items.count - 1 - visibleIndex <=
    /// prefetchDistance`; an empty list always qualifies), and, in a list that grows both ways, the
    /// previous page when at most `prefetchDistance` rows lie above it.
    ///
    /// Call it from `tableView(_:willDisplay:forRowAt:)`, a SwiftUI row's `onAppear`, or wherever a
    /// cursor moves; calling it for every row shown is cheap. While a page is loading (or after it
    /// failed) the request is remembered — the furthest one wins — and re-checked when a page lands: if
    /// the row is still within the distance of the new end, the next page loads without another call,
    /// so a user parked at the bottom is never stranded. A failure does not load again by itself: a
    /// failed page is retried by `loadNextPage()` or by the automatic retry policy, never by this
    /// call. `reset()` forgets the request. Loads no next page once the list is exhausted, and no previous
    /// page before the first page has landed or once nothing lies above. May be called from any thread;
    /// runs on the scheduler.
    ///
    /// - Parameters:
    ///   - visibleIndex: the row the user is looking at, an index into `items`.
    ///   - prefetchDistance: how many loaded rows below `visibleIndex` (above it) still count as "near the
    ///     end" ("near the top"); negative values count as 0.
    public func loadPagesIfNeeded(visibleIndex: Int, prefetchDistance: Int = 5) {
        core.submit(.loadIfNeeded(PrefetchRequest(visibleIndex: visibleIndex, prefetchDistance: prefetchDistance)))
    }

    /// Tells the view model the user sees rows `visibleRows`: loads the next page when at most
    /// `prefetchDistance` loaded rows lie below the last of them, and the previous page when at most
    /// `prefetchDistance` rows lie above the first. Otherwise works as
    /// `loadPagesIfNeeded(visibleIndex:prefetchDistance:)`, at both ends: a request made while an end's
    /// page loads is re-checked when it lands (shifted by the rows that landed above). May be called from
    /// any thread; runs on the scheduler.
    public func loadPagesIfNeeded(visibleRows: ClosedRange<Int>, prefetchDistance: Int = 5) {
        core.submit(.loadIfNeeded(PrefetchRequest(visibleRows: visibleRows, prefetchDistance: prefetchDistance)))
    }

    deinit {
        core.shutdown()
    }
}

// All mutable state lives in `core`, which guards it (see `ViewModelStorage`).
extension PaginatedListViewModel: @unchecked Sendable where Item: Sendable {}


/// A dependency made of a closure.
struct ClosureDependency<Item, Failure: Error>: PaginatedListDependency {
    let makeFirstPage: () -> Producer<Page<Item, Failure>, Failure>

    func firstPage() -> Producer<Page<Item, Failure>, Failure> { makeFirstPage() }
}
