import Signals

/// The working part of a `PaginatedListViewModel`: it queues every input as a command, runs the commands
/// one at a time through the `PagingStateMachine`, and carries out the machine's actions (starting and
/// cutting off page producers, timing automatic retries, publishing transitions).
///
/// **Commands.** Public calls and producer events become commands in `inbox`. They run in FIFO order,
/// by whichever thread holds the *drain token*, inside an action run by the scheduler. A command
/// submitted while another runs (from another thread, or from an observer the running command calls)
/// runs after it, by the same drainer: never nested, so the stack does not grow with the number of pages.
///
/// **Locking rule.** `lock` guards `inbox`, `draining`, `released` and `runs`. The machine and
/// `published` belong to the holder of the drain token, which is taken and given back under `lock` (so
/// one drainer's writes happen before the next one's reads). No lock is held while user code runs: the
/// dependency's `firstPage()`, producers' start handlers, edit closures, observers, disposal.
///
/// **Ownership.** The view model retains the storage. The storage retains the runs of the loads in
/// flight and the waiting retries' timers; the runs' observers, the timers' actions and the scheduled
/// drains hold the storage weakly. Releasing the view model (`shutdown()`) disposes the runs and timers.
// Inlinable, with what it runs: a client's commands specialise for its `Item` (`Benchmarks itemlist`, all rows).
@usableFromInline
final class ViewModelStorage<Item, Failure: Error>: @unchecked Sendable {
    // `@unchecked`: the mutable state is guarded by `lock` or owned by the drain-token holder (see above).
    @usableFromInline
    typealias Machine = PagingStateMachine<Item, Failure>
    @usableFromInline
    typealias PageProducer = Producer<Page<Item, Failure>, Failure>

    /// An input of the view model.
    @usableFromInline
    enum Command {
        case loadNextPage
        case loadPreviousPage
        case loadIfNeeded(PrefetchRequest)
        /// Refresh by `mode`, asking `check` first whether anything changed.
        case refresh(Machine.RefreshMode, check: Producer<Bool, Failure>?)
        case fillGap
        /// Run the failed refresh's (or gap fill's) step again (`ObservablePaginatedList.retry()`).
        case retryRefresh
        /// An event of the freshness check `LoadID`.
        case checkEvent(LoadID, Event<Bool, Failure>)
        /// Change each held item whose id is a `key` with its `change` (which must keep the id), in one
        /// transition.
        case patch([(key: AnyHashable, change: @Sendable (inout Item) -> Void)])
        case reset
        case reload
        /// An event of load `LoadID`'s producer.
        case event(LoadID, Event<Page<Item, Failure>, Failure>)
        /// The automatic retry of a kind's failed load is due.
        case retryDue(LoadKind, of: LoadID)
        /// Replace the held item with this item's id.
        case update(Item)
        /// Change the held item whose id is `key` with `change`, which must keep the id.
        case modify(key: AnyHashable, change: @Sendable (inout Item) -> Void)
        /// Remove the held item whose id is `key`.
        case remove(key: AnyHashable)
        /// Insert items at an index (clamped).
        case insert([Item], at: Int)
        /// Call the closure with where the view model stands (`ObservablePaginatedList.refresh()`).
        case mark(@Sendable (MirrorMark) -> Void)
        /// Apply what a store changed outside the list, in one transition (`FollowedChange`).
        case follow(FollowedChange<Item, Failure>)
        /// Cut off every load in flight, keeping the items (`QueryPaginatedList` switched away).
        case pause
        /// Refresh by `mode` unless a refresh is in flight or `isStale` says the top is fresh
        /// (`refresh(whenever:ifOlderThan:policy:on:)`).
        case refreshIfStale(Machine.RefreshMode, isStale: @Sendable () -> Bool)
    }

    @usableFromInline let firstPage: () -> PageProducer
    /// The store that keeps the pages, for a store-backed list (see `PageKeeper`).
    @usableFromInline let keeper: (any PageKeeper<Item, Failure>)?
    @usableFromInline let scheduler: any Scheduler
    @usableFromInline let retryScheduler: (any DateScheduler)?
    /// The waiting automatic retries' timers, by kind; set by the drainer, disposed by `shutdown()`.
    @usableFromInline
    let retryTimers = (refresh: SerialDisposable(), prepend: SerialDisposable(), append: SerialDisposable())

    @usableFromInline let items: MutableProperty<ItemList<Item>>
    @usableFromInline let loading: MutableProperty<Bool>
    @usableFromInline let lastError: MutableProperty<Failure?>
    @usableFromInline let exhausted: MutableProperty<Bool>
    @usableFromInline let loadStates: MutableProperty<LoadStates<Failure>>
    @usableFromInline let gap: MutableProperty<Int?>
    @usableFromInline let totalCount: MutableProperty<Int?>
    @usableFromInline let changes = Signal<ItemListChange, Never>.pipe()
    /// Sends after everything else in each transition, with the transition's list (`nil` when it left the
    /// items as they were): an `ObservablePaginatedList` then reads `mirrorState`; a sections follower
    /// takes the list after the transition's changes from it (the value travels with the event, so it is
    /// that transition's even when the delivery is queued behind another). Not a property of the whole
    /// state: staging it costs little (it is specialised), and nothing is copied for it when nobody observes.
    @usableFromInline let mirrorChanged = Signal<ItemList<Item>?, Never>.pipe()
    @usableFromInline let diagnostics = Signal<PaginatedListDiagnostic, Never>.pipe()
    /// Sends after the transition in which the top of the list was loaded: the first page after creation
    /// or a reset, or a refresh that ended. What tells a list's age (`FirstPageAge`).
    @usableFromInline let firstPageLanded = Signal<Void, Never>.pipe()
    /// While `false`, a failed page waits for it to turn `true` instead of backing off (`AutomaticRetry`).
    @usableFromInline let connectivity: Property<Bool>?

    @usableFromInline let lock = Lock()
    // Guarded by `lock`. `@exclusivity(unchecked)` here and below: one thread at a time accesses them (the
    // lock's holder, or the drain token's, which is taken under the lock), and the dynamic checks cost a
    // call per access (`Benchmarks itemlist`, view model rows).
    @exclusivity(unchecked) @usableFromInline var inbox = FIFO<Command>()
    /// What an `ObservablePaginatedList` shows: advanced in each transition before anything is delivered.
    /// The only copy: the drainer too reads it under the lock (a copy per transition, through the generic
    /// value witnesses, showed in the profile: `Benchmarks itemlist`, view model rows).
    @exclusivity(unchecked) @usableFromInline var mirrorValue = MirrorState<Item, Failure>()
    @exclusivity(unchecked) @usableFromInline var draining = false
    @exclusivity(unchecked) @usableFromInline var released = false
    /// The runs of the loads started and not yet cut off.
    @exclusivity(unchecked) @usableFromInline var runs: [(load: LoadID, run: any Disposable)] = []

    // Owned by the holder of the drain token.
    @exclusivity(unchecked) @usableFromInline var machine: Machine
    /// What the properties show.
    @exclusivity(unchecked) @usableFromInline var published = Published()
    /// How many refresh commands have run (what `MirrorMark` tells a refresh by).
    @exclusivity(unchecked) @usableFromInline var refreshesStarted: UInt64 = 0

    /// The derived values last published, to publish only what changed. The load states are kept as their
    /// cases (`LoadShape`): comparing those needs no `Equatable` failure and keeps no copy of an error.
    @usableFromInline
    struct Published {
        @usableFromInline var shape = LoadShape.idle
        @usableFromInline var hasError = false
        @usableFromInline var gap: Int?
        @usableFromInline var totalCount: Int?
    }

    init(
        firstPage: @escaping () -> PageProducer, keeper: (any PageKeeper<Item, Failure>)? = nil, scheduler: any Scheduler,
        retry: AutomaticRetry?, maxPages: Int?
    ) {
        self.firstPage = firstPage
        self.keeper = keeper
        self.scheduler = scheduler
        retryScheduler = retry?.scheduler
        connectivity = retry?.connectivity
        machine = Machine(
            retry: retry?.policy, generator: retry?.generator ?? SystemRandomNumberGenerator(), maxPages: maxPages
        )
        items = MutableProperty(ItemList())
        loading = MutableProperty(false)
        lastError = MutableProperty(nil)
        exhausted = MutableProperty(false)
        loadStates = MutableProperty(.idle)
        gap = MutableProperty(nil)
        totalCount = MutableProperty(nil)
    }

    /// What an `ObservablePaginatedList` shows, as of the last transition published. Any thread.
    var mirrorState: MirrorState<Item, Failure> {
        lock.locked { mirrorValue }
    }

    // MARK: - Commands

    /// Queues `command` and asks the scheduler to run the queue, unless a drainer is running: it takes
    /// the queue's commands until none is left, under the same lock, so it runs this one too (a producer's
    /// page and completion, sent while the command that started it runs, cost no scheduled action). Any
    /// thread.
    @inlinable
    func submit(_ command: Command) {
        let needsDrain = lock.locked { () -> Bool in
            guard !released else { return false }
            inbox.append(command)
            return !draining
        }
        guard needsDrain else { return }
        scheduler.schedule { [weak self] in self?.drain() }
    }

    /// Runs queued commands until none is left, unless another thread (or an outer frame of this one)
    /// already holds the drain token, in which case that drainer runs them.
    @inlinable
    func drain() {
        let acquired = lock.locked { () -> Bool in
            guard !draining, !released else { return false }
            draining = true
            return true
        }
        guard acquired else { return }
        while let command = takeCommand() {
            perform(command)
        }
    }

    /// The next command, or `nil` after giving the drain token back.
    @inlinable
    func takeCommand() -> Command? {
        lock.locked { () -> Command? in
            guard !released, let command = inbox.popFirst() else {
                draining = false
                return nil
            }
            return command
        }
    }

    @inlinable
    func perform(_ command: Command) {
        if let connectivity { machine.isOffline = !connectivity.value }
        switch command {
        case .loadNextPage:
            run(machine.loadNextPage())
        case .loadPreviousPage:
            run(machine.loadPreviousPage())
        case let .refresh(mode, check):
            refreshesStarted += 1
            run(machine.refresh(mode, check: check))
        case .fillGap:
            run(machine.fillGap())
        case .retryRefresh:
            run(machine.retryFailedRefresh())
        case let .checkEvent(load, event):
            run(machine.receiveCheck(event, of: load))
        case let .patch(patches):
            patch(patches, by: "update(_:id:apply:)")
        case let .loadIfNeeded(request):
            run(machine.loadIfNeeded(request))
        case .reset:
            run(machine.reset())
        case .reload:
            run(machine.reset())
            run(machine.loadNextPage())
        case let .event(load, event):
            // A page that may load the top: the first since a reset (also when edits inserted items before it
            // landed), or a refresh's (not a gap's fill, below it).
            let mayLoadTop = if case .value = event {
                machine.ledger.isEmpty || machine.isLoadingFirstPage(load) || machine.isRefreshingTop(load)
            } else { false }
            if let keeper, case .value = event, machine.isRefreshing(load) {
                kept(by: keeper, .refresh, orElse: { machine.receive(.failed($0), of: load) }) {
                    $0.receive(event, of: load)
                }
            } else {
                run(machine.receive(event, of: load))
            }
            if mayLoadTop, machine.holdsFreshTop { firstPageLanded.input.send(value: ()) }
        case let .retryDue(kind, failedLoad):
            run(machine.retryDue(kind, of: failedLoad))
        case let .update(item):
            edit { $0.update(item) }
        case let .modify(key, change):
            modify(key: key, change)
        case let .remove(key):
            edit { $0.remove(key: key) }
        case let .insert(batch, index):
            edit { $0.insert(batch, at: index) }
        case let .mark(body):
            mark(body)
        case let .follow(change):
            follow(change)
        case .pause:
            run(machine.pause())
        case let .refreshIfStale(mode, isStale):
            guard !machine.refresh.isBusy, !machine.ledger.isEmpty, isStale() else { return }
            refreshesStarted += 1
            run(machine.refresh(mode, check: nil))
        }
    }

    /// Applies what a store changed outside the list: the pages held are re-read first when the change
    /// asks for it (on this thread, outside the machine: it reads the store); a re-read that fails leaves
    /// the list as it is. (Inlinable: see `PagingStateMachine.follow(_:window:)`.)
    @inlinable
    func follow(_ change: FollowedChange<Item, Failure>) {
        var window: FollowedWindow<Item, Failure>?
        if let reread = change.reread {
            guard let read = reread(machine.heldOrigins) else { return }
            window = read
        }
        run(machine.follow(change, window: window))
    }

    /// Calls `body` with where the view model stands.
    @usableFromInline
    func mark(_ body: @Sendable (MirrorMark) -> Void) {
        body(MirrorMark(sequence: lock.locked { mirrorValue.sequence }, refreshing: published.shape.refresh == .loading,
                        refreshes: refreshesStarted))
    }

    /// Runs the user's `change` on the held item whose id is `key` (outside the machine: it is user code).
    @inlinable
    func modify(key: AnyHashable, _ change: @escaping @Sendable (inout Item) -> Void) {
        patch([(key, change)], by: "update(id:_:)")
    }

    /// Runs each change on the held item whose id is its key (user code, outside the machine), then
    /// replaces them all in one transition. Keys not held are skipped; a key given twice gets both changes,
    /// in order. A change that changes the id is a precondition failure that names `api`, the public call
    /// that made the changes.
    @inlinable
    func patch(_ patches: [(key: AnyHashable, change: @Sendable (inout Item) -> Void)], by api: StaticString) {
        var changed: [Int: Item] = [:]
        var order: [Int] = []
        for (key, change) in patches {
            guard let index = machine.position(ofKey: key) else { continue }
            var item = changed[index] ?? machine.items[index]
            change(&item)
            if let changedKey = machine.store.key(of: item), changedKey != key {
                preconditionFailure(
                    "PaginatedListViewModel.\(api): a change must not change the item's id (\(key) became \(changedKey))"
                )
            }
            if changed.updateValue(item, forKey: index) == nil { order.append(index) }
        }
        let replacements = order.map { ($0, changed[$0]!) }
        edit { $0.replace(replacements) }
    }

    /// Runs an edit: on the machine, or, for a store-backed list, through the keeper.
    @inlinable
    func edit(_ body: (inout Machine) -> [Machine.Action]) {
        guard let keeper else { return run(body(&machine)) }
        kept(by: keeper, .edit, orElse: { [keeper] in [.report(keeper.editNotKept($0))] }, body)
    }

    /// Runs `body` on a copy of the machine and asks `keeper` to write the pages it leaves held: when it
    /// did, the copy becomes the machine and its actions run; when it did not, `orElse` runs on the machine
    /// as it was, with the keeper's failure (the list is unchanged). A command that changes no item needs
    /// no write, unless it ends a refresh. The copy costs O(items held) when the command changes the list:
    /// paid by refreshes and by the edits of store-backed lists only.
    @inlinable
    func kept(
        by keeper: any PageKeeper<Item, Failure>, _ cause: KeptChangeCause,
        orElse failed: (Failure) -> [Machine.Action], _ body: (inout Machine) -> [Machine.Action]
    ) {
        var trial = machine
        var actions = body(&trial)
        var changes: [ItemListChange] = []
        for action in actions {
            if case let .publish(transition) = action, transition.items != nil { changes += transition.changes }
        }
        // A refresh that ended wrote its pages even when they changed no item (an empty first page).
        if !changes.isEmpty || (cause == .refresh && !trial.refresh.isBusy) {
            let change = KeptChange(cause: cause, before: machine.keptWindow, after: trial.keptWindow, changes: changes)
            switch keeper.persist(change) {
            case let .failure(failure):
                return run(failed(failure))
            case let .success(shown):
                if !shown.isEmpty { trial.amend(&actions, showing: shown) }
            }
        }
        machine = trial
        run(actions)
    }

    // MARK: - Actions (drain token held, no lock)

    @inlinable
    func run(_ actions: consuming [Machine.Action]) {
        // Each action is moved out of the array, first to last, and ends in this specialised code: an
        // array destroying (or a loop copying) its actions goes through the generic value witnesses,
        // which look up generic metadata (`Benchmarks itemlist`, view model rows).
        actions.withUnsafeMutableBufferPointer { $0.reverse() }  // A buffer's swaps move; an array's copy.
        while let action = actions.popLast() {
            switch consume action {
            case let .start(load, request):
                start(load, request)
            case let .startCheck(load, check):
                let run = check.start { [weak self] event in
                    self?.submit(.checkEvent(load, event))
                }
                keep(run, of: load)
            case let .cutOff(load):
                cutOff(load)
            case let .publish(transition):
                publish(transition)
            case let .scheduleRetry(kind, failedLoad, delay):
                scheduleRetry(kind, of: failedLoad, after: delay)
            case let .cancelRetry(kind):
                timer(kind).inner = nil
            case let .report(diagnostic):
                diagnostics.input.send(value: diagnostic)
            }
        }
    }

    /// Waits `delay` on the retry scheduler (and for the connectivity, if watched: `RetryWait`), then retries
    /// `kind`'s failed load `failedLoad`.
    @usableFromInline
    func scheduleRetry(_ kind: LoadKind, of failedLoad: LoadID, after delay: Duration) {
        guard let retryScheduler else { return }
        timer(kind).inner = RetryWait.start(after: delay, on: retryScheduler, connectivity: connectivity) {
            [weak self] in self?.submit(.retryDue(kind, of: failedLoad))
        }
    }

    /// The timer of `kind`'s waiting automatic retry.
    @usableFromInline
    func timer(_ kind: LoadKind) -> SerialDisposable {
        switch kind {
        case .refresh: retryTimers.refresh
        case .edge(.prepend): retryTimers.prepend
        case .edge(.append): retryTimers.append
        }
    }

    /// Starts the producer of `request` as load `load`; its events come back as commands.
    @inlinable
    func start(_ load: LoadID, _ request: PageRequest<Item, Failure>) {
        let producer: PageProducer
        switch request {
        case .firstPage:
            keeper?.starting(machine.purpose(of: load))
            producer = firstPage()
            machine.firstPageMade(producer, for: load)
        case let .producer(given):
            keeper?.starting(machine.purpose(of: load))
            producer = given
        }
        let run = producer.start { [weak self] event in
            self?.submit(.event(load, event))
        }
        keeper?.starting(nil)
        keep(run, of: load)
    }

    /// Holds `run` until its load is cut off (disposes it at once if the view model was released).
    @inlinable
    func keep(_ run: any Disposable, of load: LoadID) {
        let kept = lock.locked { () -> Bool in
            guard !released else { return false }
            runs.append((load, run))
            return true
        }
        if !kept { run.dispose() }
    }

    @inlinable
    func cutOff(_ load: LoadID) {
        let run = lock.locked { () -> (any Disposable)? in
            guard let index = runs.firstIndex(where: { $0.load == load }) else { return nil }
            return runs.remove(at: index).run
        }
        run?.dispose()
    }

    /// Publishes one transition: stages every property that changes, then delivers them, so that every
    /// observer sees all of them already updated.
    @inlinable
    func publish(_ transition: Machine.Transition) {
        var staged: [StagedDelivery?] = []
        // Room for every property, a change and the mirror's signal: growing it cost 3 reallocations per
        // transition (`Benchmarks itemlist`, edits by id).
        staged.reserveCapacity(8 + transition.changes.count)
        if let newItems = transition.items { staged.append(items.stage(newItems)) }
        let newStates = transition.loadStates
        let shape = LoadShape(newStates)
        let hasError = transition.lastError != nil
        // The previous values.
        let old = (shape: published.shape, hasError: published.hasError, gap: published.gap)
        lock.locked {
            mirrorValue.advance(
                items: transition.items, loadStates: newStates, shapes: (old.shape, shape), lastError: transition.lastError,
                gap: transition.gap, totalCount: transition.totalCount, refreshes: refreshesStarted
            )
        }
        published.shape = shape
        published.hasError = hasError
        published.gap = transition.gap
        if old.shape.isLoading != shape.isLoading { staged.append(loading.stage(shape.isLoading)) }
        if (old.shape.append == .complete) != (shape.append == .complete) {
            staged.append(exhausted.stage(shape.append == .complete))
        }
        if old.hasError || hasError { staged.append(lastError.stage(transition.lastError)) }
        if old.shape != shape || shape.hasFailure { staged.append(loadStates.stage(newStates)) }
        if old.gap != transition.gap { staged.append(gap.stage(transition.gap)) }
        if published.totalCount != transition.totalCount {
            published.totalCount = transition.totalCount
            staged.append(totalCount.stage(transition.totalCount))
        }
        for change in transition.changes { staged.append(changes.input.stage(.value(change))) }
        staged.append(mirrorChanged.input.stage(.value(transition.items)))
        for delivery in staged { delivery?.deliver() }
    }

    /// The view model was released: drop queued commands, ignore later events, cut off every run, cancel
    /// the retries.
    @usableFromInline
    func shutdown() {
        let cutOff = lock.locked { () -> [any Disposable] in
            released = true
            inbox.removeAll()
            defer { runs.removeAll() }
            return runs.map(\.run)
        }
        for run in cutOff { run.dispose() }
        retryTimers.refresh.dispose()
        retryTimers.prepend.dispose()
        retryTimers.append.dispose()
    }
}
