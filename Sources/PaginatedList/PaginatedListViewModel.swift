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
/// Loading policy: `loadNextPageIfNeeded(visibleIndex:prefetchDistance:)` prefetches by row index,
/// an `AutomaticRetry` given at creation retries failed pages with backoff, and
/// `loadNextPage(whenever:debounce:on:)` turns bursts of triggers into one load.
///
/// Properties deliver on the `scheduler` (the main thread by default, with `UIScheduler`). Use
/// `ImmediateScheduler()` (or `TestScheduler`) in tests.
public final class PaginatedListViewModel<Item, Failure: Error> {
    /// The items loaded since the last reset, in order. Sends once per change of the list.
    public let items: Property<ItemList<Item>>
    /// Whether a page is loading.
    public let loading: Property<Bool>
    /// The error of the last load, if it failed; cleared when the retry starts.
    public let lastError: Property<Failure?>
    /// Whether the last page has landed.
    public let exhausted: Property<Bool>
    /// The loading state from which `loading`, `lastError` and `exhausted` derive.
    public let state: Property<PaginatedListState<Failure>>
    /// Each mutation of `items`, sent right after `items` changes (same transition), for batch updates.
    public let changes: Signal<ItemListChange, Never>
    /// What the view model noticed and handled: misbehaving producers, stale pages, source corrections.
    public let diagnostics: Signal<PaginatedListDiagnostic, Never>

    let core: ViewModelCore<Item, Failure>

    /// A view model over `dependency`, delivering every property change on `scheduler`.
    ///
    /// Starts no request: call `loadNextPage()` to load the first page. With `retry`, a failed page is
    /// retried automatically after the policy's delay (see `AutomaticRetry`); without it (the default),
    /// only `loadNextPage()` retries.
    public init<D: PaginatedListDependency>(
        dependency: D, scheduler: any Scheduler = UIScheduler(), retry: AutomaticRetry? = nil
    ) where D.Item == Item, D.Failure == Failure {
        let core = ViewModelCore<Item, Failure>(firstPage: dependency.firstPage, scheduler: scheduler, retry: retry)
        self.core = core
        items = Property(core.items)
        loading = Property(core.loading)
        lastError = Property(core.lastError)
        exhausted = Property(core.exhausted)
        state = Property(core.state)
        changes = core.changes.output
        diagnostics = core.diagnostics.output
    }

    /// A view model whose first page comes from `firstPage`, delivering every change on `scheduler`,
    /// retrying failed pages automatically when given `retry`.
    public convenience init(
        scheduler: any Scheduler = UIScheduler(),
        retry: AutomaticRetry? = nil,
        firstPage: @escaping () -> Producer<Page<Item, Failure>, Failure>
    ) {
        self.init(dependency: ClosureDependency(makeFirstPage: firstPage), scheduler: scheduler, retry: retry)
    }

    /// Loads the pending page, unless a page is loading or the list is exhausted.
    ///
    /// Retries the failed page after a failure, at once, cancelling an automatic retry that is waiting.
    /// May be called from any thread; runs on the scheduler.
    public func loadNextPage() {
        core.submit(.loadNextPage)
    }

    /// Starts over: interrupts the load in flight, cancels a waiting automatic retry, empties the list and
    /// clears every state; the next `loadNextPage()` loads a fresh first page. May be called from any thread; runs on the scheduler.
    public func reset() {
        core.submit(.reset)
    }

    /// `reset()`, then `loadNextPage()`, as one command.
    public func reload() {
        core.submit(.reload)
    }

    /// Tells the view model the user is looking at row `visibleIndex`: loads the pending page when at
    /// most `prefetchDistance` loaded rows lie below that row (`items.count - 1 - visibleIndex <=
    /// prefetchDistance`; an empty list always qualifies).
    ///
    /// Call it from `tableView(_:willDisplay:forRowAt:)`, a SwiftUI row's `onAppear`, or wherever a
    /// cursor moves; calling it for every row shown is cheap. While a page is loading (or after it
    /// failed) the request is remembered — the furthest one wins — and re-checked when a page lands: if
    /// the row is still within the distance of the new end, the next page loads without another call,
    /// so a user parked at the bottom is never stranded. A failure does not load again by itself: a
    /// failed page is retried by `loadNextPage()` or by the automatic retry policy, never by this
    /// call. `reset()` forgets the request. Does nothing once the list is exhausted. May be called
    /// from any thread; runs on the scheduler.
    ///
    /// - Parameters:
    ///   - visibleIndex: the row the user is looking at, an index into `items`.
    ///   - prefetchDistance: how many loaded rows below `visibleIndex` still count as "near the end"
    ///     (negative values count as 0).
    public func loadNextPageIfNeeded(visibleIndex: Int, prefetchDistance: Int = 5) {
        core.submit(.loadIfNeeded(PrefetchRequest(visibleIndex: visibleIndex, prefetchDistance: prefetchDistance)))
    }

    deinit {
        core.shutdown()
    }
}

// All mutable state lives in `core`, which guards it (see `ViewModelCore`).
extension PaginatedListViewModel: @unchecked Sendable where Item: Sendable {}

/// A dependency made of a closure.
struct ClosureDependency<Item, Failure: Error>: PaginatedListDependency {
    let makeFirstPage: () -> Producer<Page<Item, Failure>, Failure>

    func firstPage() -> Producer<Page<Item, Failure>, Failure> { makeFirstPage() }
}

/// The state machine behind `PaginatedListViewModel`.
///
/// **Commands.** Every input — the public calls and the events of page producers — becomes a command in
/// `inbox`. Commands run one at a time, in FIFO order, by whichever thread holds the *drain token*
/// (`draining`), inside an action run by the scheduler. A command submitted while another runs (from
/// another thread, or from an observer the running command calls) is run after it by the same drainer:
/// never nested, so the stack does not grow with the number of pages.
///
/// **Locking rule.** `lock` guards `inbox`, `draining`, `released` and `run`. The drain-owned state
/// (`phase`, `activeLoad`, `list`, `published`) is touched only by the holder of the drain token, which
/// is taken and given back under `lock` (that orders one drainer's writes before the next one's reads).
/// No lock is held while user code runs (producers' start handlers, observers).
///
/// **Ownership.** The view model retains the core. The core retains the run of the page load in flight
/// and the waiting automatic retry's timer; the run's observer, the timer's action and scheduled drains
/// hold the core weakly. Releasing the view model disposes the run and the timer.
final class ViewModelCore<Item, Failure: Error>: @unchecked Sendable {
    typealias PageProducer = Producer<Page<Item, Failure>, Failure>

    enum Command {
        case loadNextPage
        case loadIfNeeded(PrefetchRequest)
        case reset
        case reload
        case event(load: UInt64, Event<Page<Item, Failure>, Failure>)
        /// The automatic retry of the failed load `load` is due.
        case retryDue(failedLoad: UInt64)
    }

    /// What `loadNextPage()` would do now.
    enum Phase {
        /// Load `next` (the dependency's first page when `nil`).
        case ready(next: PageProducer?)
        /// `pending` is in flight.
        case loading(PendingLoad)
        /// `pending` failed; it is retried next: by `loadNextPage()`, or by the automatic retry of
        /// `retryOf` (the number of the failed load) when one is waiting.
        case failed(Failure, PendingLoad, retryOf: UInt64?)
        /// Nothing left to load.
        case exhausted
    }

    /// A page being loaded (or that failed): its producer, how often it failed in a row, and the furthest
    /// prefetch request made while it was pending, re-checked when it lands.
    struct PendingLoad {
        let producer: PageProducer
        /// The consecutive failures of this page so far (what the automatic retry counts).
        var failures = 0
        /// The furthest prefetch request that started this load or arrived while it was pending.
        var prefetch: PrefetchRequest?

        /// Remembers `request` if it reaches further than the one held.
        mutating func remember(_ request: PrefetchRequest) {
            if let held = prefetch, held.reach >= request.reach { return }
            prefetch = request
        }
    }

    private let firstPage: () -> PageProducer
    private let scheduler: any Scheduler
    private let retry: AutomaticRetry?
    /// The waiting automatic retry's timer (on `retry.scheduler`); emptied when the retry is cancelled.
    /// Thread-safe itself; set by the drain-token holder, disposed by `shutdown()`.
    private let retryTimer = SerialDisposable()

    let items: MutableProperty<ItemList<Item>>
    let loading: MutableProperty<Bool>
    let lastError: MutableProperty<Failure?>
    let exhausted: MutableProperty<Bool>
    let state: MutableProperty<PaginatedListState<Failure>>
    let changes = Signal<ItemListChange, Never>.pipe()
    let diagnostics = Signal<PaginatedListDiagnostic, Never>.pipe()

    private let lock = Locked<Void>(())
    // Guarded by `lock`.
    private var inbox: [Command] = []
    private var inboxHead = 0
    private var draining = false
    private var released = false
    /// The run of the load in flight (or of the last load, until its page lands and it is disposed).
    private var run: (any Disposable)?

    // Owned by the holder of the drain token.
    private var phase: Phase = .ready(next: nil)
    /// The number of the load whose events count; events of other loads are stale.
    private var activeLoad: UInt64?
    /// Whether the active load's page has landed (later events of that load are extras).
    private var activeLoadLanded = false
    private var nextLoad: UInt64 = 0
    private var list = ItemList<Item>()
    private var published: PaginatedListState<Failure> = .idle
    /// The jitter's random source (a copy of `retry`'s).
    private var generator: any RandomNumberGenerator & Sendable

    init(firstPage: @escaping () -> PageProducer, scheduler: any Scheduler, retry: AutomaticRetry?) {
        self.firstPage = firstPage
        self.scheduler = scheduler
        self.retry = retry
        generator = retry?.generator ?? SystemRandomNumberGenerator()
        items = MutableProperty(ItemList())
        loading = MutableProperty(false)
        lastError = MutableProperty(nil)
        exhausted = MutableProperty(false)
        state = MutableProperty(.idle)
    }

    // MARK: - Commands

    /// Queues `command` and asks the scheduler to run the queue.
    func submit(_ command: Command) {
        let accepted = lock.withLock { _ -> Bool in
            guard !released else { return false }
            inbox.append(command)
            return true
        }
        guard accepted else { return }
        scheduler.schedule { [weak self] in self?.drain() }
    }

    /// Runs queued commands until none is left, unless another thread (or an outer frame of this one)
    /// already holds the drain token, in which case that drainer runs them.
    private func drain() {
        let acquired = lock.withLock { _ -> Bool in
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
    private func takeCommand() -> Command? {
        lock.withLock { _ -> Command? in
            guard !released, inboxHead < inbox.count else {
                inbox.removeAll(keepingCapacity: true)
                inboxHead = 0
                draining = false
                return nil
            }
            let command = inbox[inboxHead]
            inboxHead += 1
            return command
        }
    }

    private func perform(_ command: Command) {
        switch command {
        case .loadNextPage:
            loadNextPage()
        case let .loadIfNeeded(request):
            loadIfNeeded(request)
        case .reset:
            reset()
        case .reload:
            reset()
            loadNextPage()
        case let .event(load, event):
            receive(event, of: load)
        case let .retryDue(failedLoad):
            retryIfDue(failedLoad)
        }
    }

    // MARK: - Transitions (drain token held)

    private func loadNextPage() {
        switch phase {
        case let .ready(next):
            start(PendingLoad(producer: next ?? firstPage()))
        case let .failed(_, pending, retryOf):
            if retryOf != nil { retryTimer.inner = nil }
            start(pending)
        case .loading, .exhausted:
            return
        }
    }

    /// The automatic retry of `failedLoad` is due: retries it, unless it was cancelled meanwhile.
    private func retryIfDue(_ failedLoad: UInt64) {
        guard case let .failed(_, pending, retryOf) = phase, retryOf == failedLoad else { return }
        start(pending)
    }

    /// A prefetch request: loads when ready and the row is near the end; remembered while a page is
    /// loading or failed, for when a page lands.
    private func loadIfNeeded(_ request: PrefetchRequest) {
        switch phase {
        case let .ready(next):
            guard request.wantsMore(count: list.count) else { return }
            start(PendingLoad(producer: next ?? firstPage(), prefetch: request))
        case var .loading(pending):
            pending.remember(request)
            phase = .loading(pending)
        case .failed(let error, var pending, let retryOf):
            pending.remember(request)
            phase = .failed(error, pending, retryOf: retryOf)
        case .exhausted:
            return
        }
    }

    /// Starts `pending`'s producer as a new load.
    private func start(_ pending: PendingLoad) {
        let producer = pending.producer
        let load = nextLoad
        nextLoad += 1
        activeLoad = load
        activeLoadLanded = false
        phase = .loading(pending)
        publish(list: nil, change: nil, state: .loading)

        let disposable = producer.start { [weak self] event in
            self?.enqueue(.event(load: load, event))
        }
        let previous = lock.withLock { _ -> (any Disposable)? in
            let previous = run
            run = disposable
            return previous
        }
        previous?.dispose()
    }

    /// Queues a producer's event (from any thread) and asks the scheduler to run the queue.
    private func enqueue(_ command: Command) {
        submit(command)
    }

    private func reset() {
        let cutOff = lock.withLock { _ -> (any Disposable)? in
            let cutOff = run
            run = nil
            return cutOff
        }
        activeLoad = nil
        activeLoadLanded = false
        if case .failed(_, _, retryOf: _?) = phase { retryTimer.inner = nil }
        phase = .ready(next: nil)
        let hadItems = !list.isEmpty
        if hadItems { list = ItemList() }
        publish(list: hadItems ? list : nil, change: hadItems ? .reset : nil, state: .idle)
        cutOff?.dispose()
    }

    private func receive(_ event: Event<Page<Item, Failure>, Failure>, of load: UInt64) {
        guard load == activeLoad else {
            if case .value = event { report(.stalePageDiscarded) }
            return
        }
        if activeLoadLanded {
            switch event {
            case .value: report(.extraPageIgnored)
            case .failed: report(.failureAfterPageIgnored)
            case .completed, .interrupted: activeLoad = nil
            }
            return
        }
        guard case let .loading(pending) = phase else { return }
        switch event {
        case let .value(page):
            activeLoadLanded = true
            var change: ItemListChange?
            if !page.items.isEmpty {
                let start = list.count
                list.append(contentsOf: page.items)
                change = .appended(start ..< list.count)
            }
            let newState: PaginatedListState<Failure>
            if let next = page.next {
                phase = .ready(next: next)
                newState = .idle
            } else {
                phase = .exhausted
                newState = .exhausted
            }
            publish(list: change == nil ? nil : list, change: change, state: newState)
            for diagnostic in page.diagnostics { report(diagnostic) }
            // The page has landed: the run has nothing more to give.
            let landed = lock.withLock { _ -> (any Disposable)? in
                let landed = run
                run = nil
                return landed
            }
            landed?.dispose()
            // A user parked near the end asked while the page loaded: is the row still near the new end?
            if let next = page.next, let request = pending.prefetch, request.wantsMore(count: list.count) {
                start(PendingLoad(producer: next, prefetch: request))
            }
        case let .failed(error):
            activeLoad = nil
            var failed = pending
            failed.failures += 1
            guard let retry else {
                phase = .failed(error, failed, retryOf: nil)
                return publish(list: nil, change: nil, state: .failed(error))
            }
            guard failed.failures <= retry.policy.maxRetries else {
                phase = .failed(error, failed, retryOf: nil)
                publish(list: nil, change: nil, state: .failed(error))
                return report(.retriesExhausted(failures: failed.failures))
            }
            let delay = retry.policy.delay(beforeRetry: failed.failures, draw: Double.random(in: 0 ... 1, using: &generator))
            phase = .failed(error, failed, retryOf: load)
            publish(list: nil, change: nil, state: .failed(error))
            report(.retryScheduled(retry: failed.failures, delay: delay))
            retryTimer.inner = retry.scheduler.schedule(after: delay) { [weak self] in
                self?.submit(.retryDue(failedLoad: load))
            }
        case .completed, .interrupted:
            activeLoad = nil
            phase = .ready(next: pending.producer)
            publish(list: nil, change: nil, state: .idle)
            if case .completed = event { report(.completedWithoutPage) } else { report(.interruptedWithoutPage) }
        }
    }

    /// Publishes one transition: stages every property that changes, then delivers them, so that every
    /// observer sees all of them already updated.
    private func publish(list newList: ItemList<Item>?, change: ItemListChange?, state newState: PaginatedListState<Failure>) {
        var staged: [StagedDelivery?] = []
        if let newList { staged.append(items.stage(newList)) }
        let old = published
        published = newState
        if old.isLoading != newState.isLoading { staged.append(loading.stage(newState.isLoading)) }
        if old.isExhausted != newState.isExhausted { staged.append(exhausted.stage(newState.isExhausted)) }
        if old.error != nil || newState.error != nil { staged.append(lastError.stage(newState.error)) }
        if !Self.sameCase(old, newState) || newState.error != nil { staged.append(state.stage(newState)) }
        if let change { staged.append(changes.input.stage(.value(change))) }
        for delivery in staged { delivery?.deliver() }
    }

    private static func sameCase(_ lhs: PaginatedListState<Failure>, _ rhs: PaginatedListState<Failure>) -> Bool {
        switch (lhs, rhs) {
        case (.idle, .idle), (.loading, .loading), (.exhausted, .exhausted): return true
        default: return false
        }
    }

    private func report(_ diagnostic: PaginatedListDiagnostic) {
        diagnostics.input.send(value: diagnostic)
    }

    /// The view model was released: drop queued commands, ignore later events, interrupt the load.
    func shutdown() {
        let cutOff = lock.withLock { _ -> (any Disposable)? in
            released = true
            inbox.removeAll()
            inboxHead = 0
            let cutOff = run
            run = nil
            return cutOff
        }
        cutOff?.dispose()
        retryTimer.dispose()
    }
}

