import Signals

/// The rules of `PaginatedListViewModel`, as a value: every input (a command, a producer's event, a
/// retry falling due) is a mutating method that updates the state and returns what to do about it, as
/// `Action`s that `ViewModelStorage` runs in order, outside any lock.
///
/// The machine holds no lock, starts nothing and calls no user code: it names the producers to start and
/// the runs to cut off, and the storage does it. Its tests drive it directly, without schedulers.
///
/// **State.** The list (`items`), and one `Edge` per direction: `append` (the page after the last item
/// held) and `prepend` (the page before the first). Each edge is waiting (only `prepend`, before the
/// first page), ready to load a pending page, loading it, failed (the page stays pending, maybe with an
/// automatic retry waiting), or complete. `LoadStates` and every derived property come from the edges.
///
/// **Loads.** Each start of a producer is a load with a fresh `LoadID`. An event counts only if it is of
/// the load its edge is waiting for; after a load's page lands the load is *landed* (its run is cut off,
/// and what it still sends is an extra); any other load's events are stale.
struct PagingStateMachine<Item, Failure: Error> {
    typealias PageProducer = Producer<Page<Item, Failure>, Failure>

    /// What the storage does after an input, in order.
    enum Action {
        /// Start the producer `request` names, as load `load`; its events come back as `receive(_:of:)`.
        case start(LoadID, PageRequest<Item, Failure>)
        /// Dispose the run of `load` (cut off, or landed).
        case cutOff(LoadID)
        /// Publish one transition of the observable properties.
        case publish(Transition)
        /// Call `retryDue(_:of:)` for `kind` and the failed load after `delay`, on the retry scheduler.
        case scheduleRetry(LoadKind, of: LoadID, after: Duration)
        /// Cancel the automatic retry waiting for `kind`, if any.
        case cancelRetry(LoadKind)
        /// Send the diagnostic.
        case report(PaginatedListDiagnostic)
    }

    /// One transition of the observable properties: delivered together, so that every observer sees all
    /// of them already updated.
    struct Transition {
        /// The new list, if it changed.
        var items: ItemList<Item>?
        /// What changed, in order (empty when `items` is `nil`).
        var changes: [ItemListChange]
        var loadStates: LoadStates<Failure>
        var lastError: Failure?
    }

    /// The storage asked the dependency for the first page to start `load`: a retry of that load starts
    /// the same producer instead of asking the dependency again.
    mutating func firstPageMade(_ producer: PageProducer, for load: LoadID) {
        guard let direction = direction(loading: load), case let .loading(pending, _) = edge(direction.kind) else { return }
        var made = PendingLoad(request: .producer(producer), failures: pending.failures, prefetch: pending.prefetch)
        made.emptyPagesInARow = pending.emptyPagesInARow
        setEdge(direction.kind, .loading(made, load))
    }

    /// A load that may be started: what to start, how often it failed in a row, and why it is wanted.
    struct PendingLoad {
        let request: PageRequest<Item, Failure>
        /// Consecutive failures of this page (what the automatic retry counts).
        var failures = 0
        /// The furthest prefetch request made while this load was pending, re-checked when it lands.
        var prefetch: PrefetchRequest?
        /// How many empty pages in a row led to this load without a command in between.
        var emptyPagesInARow = 0

        /// Remembers `request` if it reaches further than the one held.
        mutating func remember(_ request: PrefetchRequest) {
            if let held = prefetch, held.reach >= request.reach { return }
            prefetch = request
        }
    }

    /// One end of the list.
    enum Edge {
        /// Nothing known yet about this end (`prepend` before the first page lands).
        case waiting
        /// `PendingLoad` loads next.
        case ready(PendingLoad)
        /// The pending page is in flight as `LoadID`.
        case loading(PendingLoad, LoadID)
        /// The pending page failed; it is retried next, automatically when `retryOf` names the failed load
        /// whose retry is waiting.
        case failed(Failure, PendingLoad, retryOf: LoadID?)
        /// Nothing more lies in this direction.
        case complete

        var loadState: LoadState<Failure> {
            switch self {
            case .waiting, .ready: .idle
            case .loading: .loading
            case let .failed(error, _, _): .failed(error)
            case .complete: .complete
            }
        }

        var loadID: LoadID? {
            if case let .loading(_, load) = self { return load }
            return nil
        }
    }

    /// How many empty pages in a row one command may load before the view model stops and reports
    /// `emptyPagesLimitReached` (a page with no items that is not the last loads the next at once).
    static var maxEmptyPagesInARow: Int { 10 }
    /// How many landed loads are remembered (to tell their extra events from stale ones).
    private static var landedMemory: Int { 8 }

    private(set) var store = ItemStore<Item>()
    private(set) var append: Edge = .ready(PendingLoad(request: .firstPage))
    private(set) var prepend: Edge = .waiting
    /// The kinds whose last load failed, the most recent failure last (what `lastError` shows).
    private var failureOrder: [LoadKind] = []
    private var loadCounter: UInt64 = 0
    /// Loads whose page landed, most recent last, until their terminal event.
    private var landed: [LoadID] = []
    private let retry: RetryPolicy?
    /// The jitter's random source.
    private var generator: any RandomNumberGenerator & Sendable

    init(retry: RetryPolicy?, generator: any RandomNumberGenerator & Sendable) {
        self.retry = retry
        self.generator = generator
    }

    // MARK: - What the properties show

    /// The items held.
    var items: ItemList<Item> { store.items }

    var loadStates: LoadStates<Failure> {
        LoadStates(refresh: .idle, prepend: prepend.loadState, append: append.loadState)
    }

    /// The failure of the most recently failed kind of load that has not been retried since.
    var lastError: Failure? {
        guard let kind = failureOrder.last else { return nil }
        return edge(kind).loadState.error
    }

    // MARK: - Commands

    /// `loadNextPage()`: loads the pending page after the last item (retrying it after a failure).
    mutating func loadNextPage() -> [Action] {
        load(.append, prefetch: nil)
    }

    /// `loadNextPageIfNeeded`: loads when the request's row is near the end; otherwise remembers the
    /// request while a page is pending, to re-check it when the page lands.
    mutating func loadIfNeeded(_ request: PrefetchRequest) -> [Action] {
        switch append {
        case .ready:
            guard request.wantsMore(count: items.count) else { return [] }
            return load(.append, prefetch: request)
        case .loading(var pending, let load):
            pending.remember(request)
            append = .loading(pending, load)
        case .failed(let error, var pending, let retryOf):
            pending.remember(request)
            append = .failed(error, pending, retryOf: retryOf)
        case .waiting, .complete:
            break
        }
        return []
    }

    /// `reset()`: cuts off every load, cancels waiting retries, empties the list; the next
    /// `loadNextPage()` loads a fresh first page.
    mutating func reset() -> [Action] {
        var actions: [Action] = []
        for kind in [LoadKind.prepend, .append] {
            switch edge(kind) {
            case let .loading(_, load): actions.append(.cutOff(load))
            case .failed(_, _, retryOf: _?): actions.append(.cancelRetry(kind))
            default: break
            }
        }
        append = .ready(PendingLoad(request: .firstPage))
        prepend = .waiting
        failureOrder = []
        let changes = store.removeAll()
        actions.insert(transition(changes), at: 0)
        return actions
    }

    /// The automatic retry of `kind`'s failed load `failedLoad` is due: retries it, unless a command
    /// retried or cancelled it meanwhile.
    mutating func retryDue(_ kind: LoadKind, of failedLoad: LoadID) -> [Action] {
        guard case let .failed(_, pending, retryOf) = edge(kind), retryOf == failedLoad,
              let direction = kind.direction else { return [] }
        return start(direction, pending)
    }

    // MARK: - Edits

    /// Replaces the held item with `item`'s id by `item`; nothing if no item with that id is held.
    mutating func update(_ item: Item) -> [Action] {
        guard let index = store.position(ofIDOf: item) else { return [] }
        return replace(at: index, with: item)
    }

    /// Replaces the item at `index` (a position `position(ofKey:)` gave) by `item`, which has its id.
    mutating func replace(at index: Int, with item: Item) -> [Action] {
        let changes = store.replace(at: index, with: item)
        return [transition(changes)]
    }

    /// Removes the item whose id is `key`; nothing if it is not held.
    mutating func remove(key: AnyHashable) -> [Action] {
        guard let index = store.position(ofKey: key) else { return [] }
        let changes = store.remove(at: index)
        return [transition(changes)]
    }

    /// Inserts `batch` at `index` (clamped to the list); items whose id is held update it in place.
    mutating func insert(_ batch: [Item], at index: Int) -> [Action] {
        let changes = store.insert(batch, at: index)
        return changes.isEmpty ? [] : [transition(changes)]
    }

    /// The position of the item whose id is `key`, if held.
    func position(ofKey key: AnyHashable) -> Int? {
        store.position(ofKey: key)
    }

    // MARK: - Producer events

    /// An event of load `load`.
    mutating func receive(_ event: Event<Page<Item, Failure>, Failure>, of load: LoadID) -> [Action] {
        if let direction = direction(loading: load) {
            return receive(event, of: load, extending: direction)
        }
        if let index = landed.firstIndex(of: load) {
            switch event {
            case .value: return [.report(.extraPageIgnored)]
            case .failed: return [.report(.failureAfterPageIgnored)]
            case .completed, .interrupted:
                landed.remove(at: index)
                return []
            }
        }
        if case .value = event { return [.report(.stalePageDiscarded)] }
        return []
    }

    private mutating func receive(
        _ event: Event<Page<Item, Failure>, Failure>, of load: LoadID, extending direction: Direction
    ) -> [Action] {
        guard case let .loading(pending, _) = edge(direction.kind) else { return [] }
        switch event {
        case let .value(page):
            return land(page, of: load, extending: direction, pending: pending)
        case let .failed(error):
            return [.cutOff(load)] + fail(direction, pending: pending, load: load, error: error)
        case .completed, .interrupted:
            setEdge(direction.kind, .ready(PendingLoad(request: pending.request)))
            let diagnostic: PaginatedListDiagnostic = if case .completed = event { .completedWithoutPage } else { .interruptedWithoutPage }
            return [.cutOff(load), transition(), .report(diagnostic)]
        }
    }

    private mutating func land(
        _ page: Page<Item, Failure>, of load: LoadID, extending direction: Direction, pending: PendingLoad
    ) -> [Action] {
        landed.append(load)
        if landed.count > Self.landedMemory { landed.removeFirst() }
        let changes = store.append(page.items)
        if case .waiting = prepend { prepend = .complete }
        append = page.next.map { .ready(PendingLoad(request: .producer($0))) } ?? .complete

        var actions = [transition(changes)]
        for diagnostic in page.diagnostics { actions.append(.report(diagnostic)) }
        actions.append(.cutOff(load))
        actions += continueAfterLanding(page, pending: pending)
        return actions
    }

    /// After a page landed: loads the next one at once when the page was empty (within
    /// `maxEmptyPagesInARow`), or when a prefetch request made while it loaded still wants more.
    private mutating func continueAfterLanding(_ page: Page<Item, Failure>, pending: PendingLoad) -> [Action] {
        guard let next = page.next else { return [] }
        if page.items.isEmpty {
            let empties = pending.emptyPagesInARow + 1
            guard empties < Self.maxEmptyPagesInARow else {
                return [.report(.emptyPagesLimitReached(count: empties))]
            }
            return start(.append, PendingLoad(request: .producer(next), prefetch: pending.prefetch, emptyPagesInARow: empties))
        }
        guard let request = pending.prefetch, request.wantsMore(count: items.count) else { return [] }
        return start(.append, PendingLoad(request: .producer(next), prefetch: request))
    }

    private mutating func fail(_ direction: Direction, pending: PendingLoad, load: LoadID, error: Failure) -> [Action] {
        var failed = pending
        failed.failures += 1
        failed.emptyPagesInARow = 0
        let kind = direction.kind
        failureOrder.removeAll { $0 == kind }
        failureOrder.append(kind)
        guard let retry else {
            setEdge(kind, .failed(error, failed, retryOf: nil))
            return [transition()]
        }
        let draw = Double.random(in: 0 ... 1, using: &generator)
        switch retry.decision(after: error, failures: failed.failures, draw: draw) {
        case let .stop(reason):
            setEdge(kind, .failed(error, failed, retryOf: nil))
            return [transition(), .report(reason.diagnostic)]
        case let .retry(after: delay):
            setEdge(kind, .failed(error, failed, retryOf: load))
            return [
                transition(),
                .report(.retryScheduled(retry: failed.failures, delay: delay)),
                .scheduleRetry(kind, of: load, after: delay),
            ]
        }
    }

    // MARK: - Starting loads

    /// A command's load of `direction`: starts the pending page when the edge is ready or failed
    /// (cancelling a waiting automatic retry); does nothing while loading, waiting or complete.
    private mutating func load(_ direction: Direction, prefetch: PrefetchRequest?) -> [Action] {
        var actions: [Action] = []
        var pending: PendingLoad
        switch edge(direction.kind) {
        case let .ready(ready):
            pending = ready
        case let .failed(_, failed, retryOf):
            if retryOf != nil { actions.append(.cancelRetry(direction.kind)) }
            pending = failed
        case .waiting, .loading, .complete:
            return []
        }
        pending.emptyPagesInARow = 0
        if let prefetch { pending.remember(prefetch) }
        return actions + start(direction, pending)
    }

    /// Starts `pending` as a new load of `direction`.
    private mutating func start(_ direction: Direction, _ pending: PendingLoad) -> [Action] {
        let load = LoadID(value: loadCounter)
        loadCounter += 1
        failureOrder.removeAll { $0 == direction.kind }
        setEdge(direction.kind, .loading(pending, load))
        return [transition(), .start(load, pending.request)]
    }

    // MARK: - Helpers

    private func edge(_ kind: LoadKind) -> Edge {
        switch kind {
        case .prepend: prepend
        case .append: append
        case .refresh: .waiting
        }
    }

    private mutating func setEdge(_ kind: LoadKind, _ edge: Edge) {
        switch kind {
        case .prepend: prepend = edge
        case .append: append = edge
        case .refresh: break
        }
    }

    private func direction(loading load: LoadID) -> Direction? {
        if append.loadID == load { return .append }
        if prepend.loadID == load { return .prepend }
        return nil
    }

    /// The transition to the current state, with `changes` applied to the list (none: the list is unchanged).
    /// Call it with changes already computed (`let changes = store.…; transition(changes)`): in
    /// `transition(store.edit())`, `self` is read before the argument runs, so the list would be the old one.
    private func transition(_ changes: [ItemListChange] = []) -> Action {
        .publish(Transition(items: changes.isEmpty ? nil : items, changes: changes, loadStates: loadStates, lastError: lastError))
    }
}

/// Identifies one run of a page producer started by a view model.
struct LoadID: Hashable, Sendable {
    let value: UInt64
}

/// Which end of the list a load extends.
enum Direction: Sendable {
    case prepend, append

    var kind: LoadKind { self == .prepend ? .prepend : .append }
}

/// One of the three kinds of load of `LoadStates`.
enum LoadKind: Sendable, Equatable {
    case refresh, prepend, append

    var direction: Direction? {
        switch self {
        case .prepend: .prepend
        case .append: .append
        case .refresh: nil
        }
    }
}

/// What a load starts: the dependency's first page (asked for when the load starts), or a page's producer.
enum PageRequest<Item, Failure: Error> {
    case firstPage
    case producer(Producer<Page<Item, Failure>, Failure>)
}
