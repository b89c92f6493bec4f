import Signals

/// The working part of a `QueryPaginatedList`: the kept view models, and the switches between them.
///
/// **Commands.** `setQuery(_:)` and the current view model's transitions (its `items`, `loadStates` and
/// `changes`, each tagged with the *observation* it came through) become commands in `inbox`, run in FIFO
/// order by whichever thread holds the drain token, inside an action run by the scheduler, as in
/// `ViewModelStorage`. A switch ends the observation of the previous view model: what it still sends
/// carries an old tag, and is dropped. So no page of a previous query ever reaches the list.
///
/// **Locking rule.** `lock` guards `inbox`, `draining`, `released` and `cacheKeys`. The rest belongs to
/// the holder of the drain token, taken and given back under `lock`. No lock is held while user code runs
/// (observers, `firstPage`, the view models' commands).
///
/// **Ownership.** The storage holds the kept view models (`cache`); the observations of the current one
/// hold the storage weakly.
final class QueryListStorage<Query: Hashable & Sendable, Item, Failure: Error>: @unchecked Sendable {
    // `@unchecked`: the mutable state is guarded by `lock` or owned by the drain-token holder (see above).
    typealias ViewModel = PaginatedListViewModel<Item, Failure>

    enum Command {
        case setQuery(Query)
        /// The current view model's `items`, through observation `UInt64`.
        case items(UInt64, ItemList<Item>)
        /// The current view model's `loadStates`, through observation `UInt64`.
        case loadStates(UInt64, LoadStates<Failure>)
        /// A value of the current view model's `changes`, through observation `UInt64`.
        case change(UInt64, ItemListChange)
        /// The current view model ran every command it had when its load went idle, through observation
        /// `UInt64` (see `received(_:)`, load states).
        case settled(UInt64)
    }

    /// A kept query.
    struct Entry {
        let query: Query
        let viewModel: ViewModel
        /// When its top was loaded (`QueryRevalidation.ifOlderThan` only), and the observation that says.
        let clock: FirstPageClock?
        let clockWatch: (any Disposable)?
    }

    /// How the current view model's items reach `items`.
    enum Phase {
        /// The first `items` value from the observation (the snapshot it starts from) is shown with a
        /// `.reset`, or, when `keepUntilLanded`, held back while empty.
        case starting(keepUntilLanded: Bool)
        /// The previous query's items stay until the new first page lands with items, fails, or ends the
        /// list empty; `sawLoading`: its load started.
        case waiting(sawLoading: Bool)
        /// Forwarding; the changes of the transition shown with a `.reset` are dropped
        /// (`dropsChanges`) until the next `items` value.
        case showing(dropsChanges: Bool)
    }

    let query: MutableProperty<Query>
    let current: MutableProperty<ViewModel>
    let items = MutableProperty(ItemList<Item>())
    let loadStates = MutableProperty(LoadStates<Failure>.idle)
    let changes = Signal<ItemListChange, Never>.pipe()

    private let scheduler: any Scheduler
    private let keepPrevious: Bool
    private let cacheLimit: Int
    private let revalidation: QueryRevalidation
    private let firstPage: @Sendable (Query) -> Producer<Page<Item, Failure>, Failure>

    private let lock = Lock()
    // Guarded by `lock`.
    private var inbox: [Command] = []
    private var draining = false
    private var released = false
    private var cacheKeys: [Query] = []

    // Owned by the holder of the drain token.
    /// The kept queries, least recently used first; the current one is last.
    private var cache: [Entry] = []
    private var phase = Phase.starting(keepUntilLanded: false)
    /// The tag of the current observation.
    private var tag: UInt64 = 0
    /// The last `items` value of the current view model.
    private var latest = ItemList<Item>()
    /// Whether the switch started the current view model's first page and the observation's first load
    /// states, those of before that load (idle, or the failure of a first page a switch away cut short),
    /// have not come yet: they are not shown (`loadStates` says `.loading` from the switch on).
    private var skipsStatesBeforeLoad = false
    private let observation = SerialDisposable()

    init(
        query: Query, scheduler: any Scheduler, keepPrevious: Bool, cacheLimit: Int, revalidation: QueryRevalidation,
        firstPage: @escaping @Sendable (Query) -> Producer<Page<Item, Failure>, Failure>
    ) {
        self.scheduler = scheduler
        self.keepPrevious = keepPrevious
        self.cacheLimit = cacheLimit
        self.revalidation = revalidation
        self.firstPage = firstPage
        let entry = Self.entry(for: query, scheduler: scheduler, revalidation: revalidation, firstPage: firstPage)
        self.query = MutableProperty(query)
        current = MutableProperty(entry.viewModel)
        cache = [entry]
        cacheKeys = [query]
        observe(entry.viewModel)
    }

    var cachedQueries: [Query] {
        lock.locked { cacheKeys }
    }

    // MARK: - Commands

    /// Queues `command` and asks the scheduler to run the queue, unless a drainer is running. Any thread.
    func submit(_ command: Command) {
        let needsDrain = lock.locked { () -> Bool in
            guard !released else { return false }
            inbox.append(command)
            return !draining
        }
        guard needsDrain else { return }
        scheduler.schedule { [weak self] in self?.drain() }
    }

    private func drain() {
        let acquired = lock.locked { () -> Bool in
            guard !draining, !released else { return false }
            draining = true
            return true
        }
        guard acquired else { return }
        while let batch = takeCommands() {
            for command in batch { perform(command) }
        }
    }

    /// The queued commands, or `nil` after giving the drain token back.
    private func takeCommands() -> [Command]? {
        lock.locked { () -> [Command]? in
            guard !released, !inbox.isEmpty else {
                draining = false
                return nil
            }
            defer { inbox.removeAll(keepingCapacity: true) }
            return inbox
        }
    }

    private func perform(_ command: Command) {
        switch command {
        case let .setQuery(query):
            switchTo(query)
        case let .items(from, list):
            guard from == tag else { return }
            received(list)
        case let .loadStates(from, states):
            guard from == tag else { return }
            received(states)
        case let .change(from, change):
            guard from == tag, case .showing(dropsChanges: false) = phase else { return }
            changes.input.send(value: change)
        case let .settled(from):
            guard from == tag, case .waiting(sawLoading: true) = phase, !current.value.loadStates.value.isLoading else { return }
            // Nothing loads after the idle load: the new query's list, blank, replaces the previous one.
            show(latest)
        }
    }

    // MARK: - Switching

    private func switchTo(_ newQuery: Query) {
        guard newQuery != query.value, let previous = cache.last else { return }
        observation.inner = nil
        tag &+= 1
        previous.viewModel.pause()
        let entry: Entry
        if let index = cache.firstIndex(where: { $0.query == newQuery }) {
            entry = cache.remove(at: index)
        } else {
            entry = Self.entry(for: newQuery, scheduler: scheduler, revalidation: revalidation, firstPage: firstPage)
        }
        cache.append(entry)
        // The evicted view models are released when this returns (unless the app holds them).
        let evicted = cache.prefix(max(cache.count - cacheLimit, 0))
        cache.removeFirst(evicted.count)
        lock.locked { cacheKeys = cache.map(\.query) }
        for gone in evicted { gone.clockWatch?.dispose() }

        let viewModel = entry.viewModel
        // A kept query that shows something (or is known to be empty) shows it at once.
        let showsAtOnce = !viewModel.items.value.isEmpty || viewModel.exhausted.value
        phase = .starting(keepUntilLanded: keepPrevious && !showsAtOnce)
        // Both set before either is delivered: an observer of one that reads the other (or acts on `current`,
        // as `loadNextPage()` and `refresh()` do) sees the new query's view model.
        let staged = [query.stage(newQuery), current.stage(viewModel)]
        for delivery in staged { delivery?.deliver() }
        skipsStatesBeforeLoad = !showsAtOnce
        if skipsStatesBeforeLoad {
            // `.loading` from the switch on, as the load this starts will say (on an asynchronous scheduler,
            // a turn or more later).
            var starting = viewModel.loadStates.value
            starting.append = .loading
            loadStates.value = starting
        }
        observe(viewModel)
        if showsAtOnce {
            revalidate(entry)
        } else {
            viewModel.loadNextPage()
        }
    }

    /// Follows `viewModel` through a new observation (tagged `tag`).
    private func observe(_ viewModel: ViewModel) {
        let observations = CompositeDisposable()
        let tag = tag
        // Changes first: a transition between these lines sends its changes before the first `items`
        // value, which is shown with a `.reset` that covers them.
        observations.add(viewModel.changes.observeValues { [weak self] change in
            self?.submit(.change(tag, change))
        })
        observations.add(viewModel.items.producer.startWithValues { [weak self] list in
            self?.submit(.items(tag, list))
        })
        observations.add(viewModel.loadStates.producer.startWithValues { [weak self] states in
            self?.submit(.loadStates(tag, states))
        })
        observation.inner = observations
    }

    private func revalidate(_ entry: Entry) {
        switch revalidation {
        case .never:
            return
        case let .always(policy):
            entry.viewModel.refresh(policy, unless: { false })
        case let .ifOlderThan(age, policy, _):
            let clock = entry.clock
            entry.viewModel.refresh(policy, unless: { !(clock?.isOlder(than: age) ?? true) })
        }
    }

    private static func entry(
        for query: Query, scheduler: any Scheduler, revalidation: QueryRevalidation,
        firstPage: @escaping @Sendable (Query) -> Producer<Page<Item, Failure>, Failure>
    ) -> Entry {
        let viewModel = ViewModel(scheduler: scheduler) { firstPage(query) }
        guard case let .ifOlderThan(_, _, clockScheduler) = revalidation else {
            return Entry(query: query, viewModel: viewModel, clock: nil, clockWatch: nil)
        }
        let clock = FirstPageClock(on: clockScheduler)
        return Entry(query: query, viewModel: viewModel, clock: clock, clockWatch: clock.watch(viewModel))
    }

    // MARK: - The current view model's transitions

    private func received(_ list: ItemList<Item>) {
        latest = list
        switch phase {
        case let .starting(keepUntilLanded) where keepUntilLanded && list.isEmpty:
            phase = .waiting(sawLoading: false)
        case .waiting where list.isEmpty:
            break
        case .starting, .waiting:
            show(list)
        case .showing:
            phase = .showing(dropsChanges: false)
            items.value = list
        }
    }

    private func received(_ states: LoadStates<Failure>) {
        if skipsStatesBeforeLoad {
            // The value the observation was given at once: the view model's states before the load (unless
            // a load of its own was in flight already: shown then, as any load).
            skipsStatesBeforeLoad = false
            guard states.isLoading else { return }
        }
        loadStates.value = states
        guard case let .waiting(sawLoading) = phase else { return }
        if states.isLoading {
            if !sawLoading { phase = .waiting(sawLoading: true) }
        } else if sawLoading {
            if states.append.error != nil || states.refresh.error != nil || states.append.isComplete {
                // The first page failed, or the query has no results: its list, blank, replaces the previous one.
                show(latest)
            } else {
                // An idle load may be followed by another before the view model's commands run out: an empty
                // page with more after it (the next loads at once), a load cut off by a switch away that a
                // switch back started again. Decided once its queued commands have run.
                let tag = tag
                current.value.core.submit(.mark { [weak self] _ in self?.submit(.settled(tag)) })
            }
        }
    }

    /// Shows `list` in place of what `items` shows, with a `.reset` (nothing when both are empty).
    private func show(_ list: ItemList<Item>) {
        phase = .showing(dropsChanges: true)
        guard !(list.isEmpty && items.value.isEmpty) else { return }
        items.value = list
        changes.input.send(value: .reset)
    }

    /// The list was released: drop queued commands and stop following the view model.
    func shutdown() {
        lock.locked {
            released = true
            inbox.removeAll()
        }
        observation.dispose()
    }
}
