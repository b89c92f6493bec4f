import Signals

/// A paginated list ("infinite scroll"): observe `items`, call `loadNextPage()` near the end of the list,
/// `refresh()` to bring it up to date without blanking it, `reset()` or `reload()` to start over.
///
/// A dependency supplies the first page as a cold `Producer`; each page carries the producers of the page
/// after it and, in a list that grows both ways, of the page before it. The load state has one model,
/// `loadStates`: a `LoadState` for the refresh, the previous page and the next page; `loading`, `lastError`
/// and `exhausted` are views of it. The view model's contract:
///
/// 1. A new view model has empty `items`, every load state `.idle` (not `loading`, not `exhausted`, no
///    `lastError`), and has started no request.
/// 2. `loadNextPage()` starts the pending page producer (the dependency's first page after creation or
///    `reset()`). `loadStates.append` is `.loading`, and `loading` is `true`, from then until that
///    producer's page lands or it terminates.
/// 3. A page's arrival is one transition: its items are appended, its `next` becomes the pending
///    producer (`nil` sets `exhausted`), `loading` becomes `false`; when any observer runs, every property
///    already agrees. The view model takes a producer's first page, then disposes its run.
/// 4. `loadNextPage()` while the next page loads or the list is exhausted does nothing: never two requests
///    for the next page in flight (the previous page loads on its own: point 18).
/// 5. A failure sets that kind's load state to `.failed` and `lastError`, and ends its loading; the failed
///    producer stays pending, so the next `loadNextPage()` retries that same page (and clears `lastError`
///    as it starts).
/// 6. `reset()` interrupts every load in flight, empties `items`, sets every load state back to `.idle`
///    (clearing `exhausted`, `lastError` and `loading`); the next `loadNextPage()` asks the dependency for a
///    fresh first page. `reload()` is `reset()` then `loadNextPage()`: the list is blank until the first
///    page lands (a refresh, point 15, never blanks it).
/// 7. A page from a load that `reset()`, a refresh or the release of the view model cut off never lands.
/// 8. Every property change is delivered on the view model's scheduler. `items` sends once per change of
///    the list, never for a change of `loadStates`, `loading`, `lastError` or `exhausted` alone.
/// 9. Any thread may call the view model's commands, also from inside its own observers (the
///    infinite-scroll idiom): commands are queued and run one at a time, in order, on the scheduler; a
///    command issued while one runs is run after it, never nested.
/// 10. Releasing the view model interrupts its loads; nothing it started keeps it alive.
/// 11. Misbehaving producers (a second page, completion or self-interruption without a page, a failure
///     after the page, values after termination) have the outcomes `PaginatedListDiagnostic` describes.
///     What reaches the view model is reported on `diagnostics`; what the run's disposal (after the page
///     lands) or the event grammar (after a terminal event) cuts off never reaches it.
/// 12. Appending a page costs time proportional to the page (`ItemList`), whatever the list's length, also
///     when observers keep every `items` snapshot.
///
/// A living list: edits, refreshes and both directions (held `Identifiable` items are found by their id):
///
/// 13. An edit (`update(_:)`, `update(id:_:)`, the batch `update(_:id:apply:)`, `remove(id:)`,
///     `insert(_:at:)`) is a command like the others: queued, run on the scheduler, one transition:
///     `items` sends once, and `changes` sends values that, applied in order, take the previous snapshot
///     to the new one. An id that is not held: nothing happens. An insert index outside `0...count` is
///     clamped. A change that changes an item's id is a precondition failure.
/// 14. Applying every `changes` value, in order, to a copy of the first `items` snapshot gives exactly each
///     later snapshot, for every kind of operation.
/// 15. `refresh()` and `refresh(_:)` keep the held items visible until the new data lands;
///     `loadStates.refresh` is `.loading` (and `loading` true) meanwhile. A refresh cuts off an append or
///     prepend in flight; `loadNextPage()` and `loadPreviousPage()` during a refresh do nothing. A failed
///     refresh keeps the list as it was and reports on `loadStates.refresh` and `lastError`. The first load
///     of a new or reset view model is an append, not a refresh.
/// 16. `.mergeOnTop` inserts the new items above the first held item the fresh pages contain, updates the
///     held items that came back in place, and removes the held items above it that the feed no longer
///     has. No id appears twice in `items`, ever: a page, an insert or a batch that repeats an id keeps one
///     item, at the first position, with the last value.
/// 17. A gap is never silent: with `.keepGap`, `gap` names the index of the first held item below it
///     (`fillGap()` loads it); with `.replace`, the held items go. At most one gap is open. `.reloadAll`
///     reloads as many pages from the top as are held and ends with exactly their content.
/// 18. `loadPreviousPage()` and `loadNextPage()` are independent: at most one load per direction, both may
///     run at once, and a failure in one leaves the other usable.
/// 19. With `maxPages`, pages beyond the limit are dropped from the end away from the load that landed, and
///     loaded again when the user comes back: memory stays flat however far the user scrolls.
///     `loadPreviousPage()` before the first page has landed does nothing (`loadStates.prepend` is `.idle`).
/// 20. An edit, a prepend or a drop costs O(log n + k) for k items touched; appending a page stays O(page).
///
/// A store-backed list (`PaginatedListStore`: a view model made from a `StoredFeed` and a remote
/// `KeyedPageSource`):
///
/// 21. Opening shows what is stored before any request: the first `loadNextPage()` lands the stored rows
///     of the first page; paging past them asks the remote source for the page after the last stored key
///     (never the first page again), and stores it.
/// 22. A page from the remote source is stored in one transaction, all of it or nothing.
/// 23. The store is the only source of the screen: `items` equal the feed's stored items in the window
///     held, after every transition, and `changes` replay exactly (point 14) also for what the store changed.
/// 24. An item edited anywhere changes in every open list that holds it, in one transition each;
///     `remove(id:)` takes it out of the list's own feed.
/// 25. Revalidation keeps the stored rows visible (point 15) and never removes another feed's rows.
/// 26. A file that is not the store's is an error at open, and is left unchanged.
/// 27. A store failure while paging is `StoredListError.store` on `lastError`, a remote one `.remote`; the
///     rows held stay.
/// 28. Paging from the store costs O(page) at any depth.
///
/// Loading policy: `loadPagesIfNeeded(visibleIndex:prefetchDistance:)` prefetches by row index (at both
/// ends), an `AutomaticRetry` given at creation retries failed pages with backoff, and
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
    /// Whether the last page is held: `loadStates.value.append.isComplete`, as its own property. Sends
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
    /// How many items the whole feed holds, as the server said with the latest page that said it
    /// (`Page.totalCount`: a page-number total, a JSON:API `meta` count, a source's own count); `nil` until
    /// a page says, and again after `reset()`.
    ///
    /// A page that does not say leaves it as it was (a server that sends the total with its first page
    /// only); a refresh's page that says replaces it; a `maxPages` drop leaves it (it counts the feed, not
    /// the items held). Sends only when it changes, in the same transition as the page's `items`.
    public var totalCount: Property<Int?> { Property(core.totalCount) }
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
    /// gap stays open, lower down). Reported on `loadStates.refresh`. Each page it loads is held as a page
    /// of its own, so `maxPages` drops it and loads it again like any other; with `maxPages`, the pages then
    /// held beyond the limit are dropped at the bottom (the held items below the gap first). Does nothing
    /// without a gap or while a refresh loads. May be called from any thread; runs on the scheduler.
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

    /// Applies what a store changed outside the list (another list's edit, a page of another feed), in one
    /// transition, queued as every command (for `PaginatedListStore`). Inlinable: a store-backed list built
    /// in the app's module follows its store's updates specialised (see `PagingStateMachine.follow`).
    @inlinable
    package func follow(_ change: FollowedChange<Item, Failure>) {
        core.submit(.follow(change))
    }

    /// What keeps the list's pages, for a store-backed list (for `PaginatedListStore`); `nil` for any other.
    package var keeper: (any PageKeeper<Item, Failure>)? {
        core.keeper
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
