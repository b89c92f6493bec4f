import Signals

/// The rules of `PaginatedListViewModel`, as a value: every input (a command, a producer's event, a
/// retry falling due) is a mutating method that updates the state and returns what to do about it, as
/// `Action`s that `ViewModelStorage` runs in order, outside any lock.
///
/// The machine holds no lock, starts nothing and calls no user code: it names the producers to start and
/// the runs to cut off, and the storage does it. Its tests drive it directly, without schedulers.
///
/// **State.** The list (`store`), the pages it came in (`ledger`), and one edge per kind of load:
/// `append` (the page after the last item held), `prepend` (the page before the first) and `refresh`.
/// An `Edge` is waiting (only `prepend`, before the first page), ready to load a pending page, loading
/// it, failed (the page stays pending, maybe with an automatic retry waiting), or complete. The refresh
/// edge is idle, checking freshness, loading one of its pages, or failed. `LoadStates` and every derived
/// property come from the edges. With `maxPages`, a page dropped at an end is loaded again, when the
/// user comes back, by the producer of the page now at that end that leads to it (`previous` at the top,
/// `next` at the bottom); only when that page has none is the request that loaded the dropped page kept
/// (`droppedAbove`, `droppedBelow`, nearest last). A refresh that kept the held items below fresh ones leaves a `gap`.
///
/// **Loads.** Each start of a producer is a load with a fresh `LoadID`. An event counts only if it is of
/// the load its edge is waiting for; after a load's page lands the load is *landed* (its run is cut off,
/// and what it still sends is an extra); any other load's events are stale.
// Inlinable: specialised in the client with the storage that runs it (`Benchmarks itemlist`, view model rows).
@usableFromInline
struct PagingStateMachine<Item, Failure: Error> {
    @usableFromInline
    typealias PageProducer = Producer<Page<Item, Failure>, Failure>

    /// What the storage does after an input, in order.
    @usableFromInline
    enum Action {
        /// Start the producer `request` names, as load `load`; its events come back as `receive(_:of:)`.
        case start(LoadID, PageRequest<Item, Failure>)
        /// Start the freshness check, as load `load`; its events come back as `receiveCheck(_:of:)`.
        case startCheck(LoadID, Producer<Bool, Failure>)
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
    @usableFromInline
    struct Transition {
        /// The new list, if it changed.
        @usableFromInline var items: ItemList<Item>?
        /// What changed, in order (empty when `items` is `nil`).
        @usableFromInline var changes: [ItemListChange]
        @usableFromInline var loadStates: LoadStates<Failure>
        @usableFromInline var lastError: Failure?
        /// The index of the first held item below the gap, if a gap is open.
        @usableFromInline var gap: Int?
        /// How many items the feed holds, as the latest page that said it said (`nil`: no page said).
        @usableFromInline var totalCount: Int?

        @inlinable
        init(
            items: ItemList<Item>?, changes: [ItemListChange], loadStates: LoadStates<Failure>, lastError: Failure?,
            gap: Int?, totalCount: Int?
        ) {
            self.totalCount = totalCount
            self.items = items
            self.changes = changes
            self.loadStates = loadStates
            self.lastError = lastError
            self.gap = gap
        }
    }

    /// A load that may be started: what to start, how often it failed in a row, and why it is wanted.
    @usableFromInline
    struct PendingLoad {
        @usableFromInline var request: PageRequest<Item, Failure>
        /// Consecutive failures of this page (what the automatic retry counts).
        @usableFromInline var failures = 0
        /// The furthest prefetch request made while this load was pending, re-checked when it lands.
        @usableFromInline var prefetch: PrefetchRequest?
        /// How many empty pages in a row led to this load without a command in between.
        @usableFromInline var emptyPagesInARow = 0
        /// Whether `request` is the dependency's first page, made for this load (`firstPageMade`): the page
        /// that opens the list.
        @usableFromInline var opensList = false

        @inlinable
        init(
            request: PageRequest<Item, Failure>, failures: Int = 0, prefetch: PrefetchRequest? = nil,
            emptyPagesInARow: Int = 0
        ) {
            self.request = request
            self.failures = failures
            self.prefetch = prefetch
            self.emptyPagesInARow = emptyPagesInARow
        }

        /// Remembers `request` if it reaches further (in `direction`) than the one held.
        @usableFromInline
        mutating func remember(_ request: PrefetchRequest, toward direction: Direction) {
            if let held = prefetch {
                switch direction {
                case .append where held.reach >= request.reach: return
                case .prepend where held.first <= request.first: return
                default: break
                }
            }
            prefetch = request
        }
    }

    /// One end of the list.
    @usableFromInline
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

        /// Whether the edge's pending load remembers a prefetch request (`shiftPrefetch(by:)` moves it).
        @inlinable
        var remembersPrefetch: Bool {
            switch self {
            case let .ready(pending), let .loading(pending, _), let .failed(_, pending, _): pending.prefetch != nil
            case .waiting, .complete: false
            }
        }

        @inlinable
        var loadState: LoadState<Failure> {
            switch self {
            case .waiting, .ready: .idle
            case .loading: .loading
            case let .failed(error, _, _): .failed(error)
            case .complete: .complete
            }
        }
    }

    /// What the machine keeps of a page held: how to load it again and what lies around it.
    @usableFromInline
    struct PageRecord {
        /// The request that loaded it (`nil`: items an edit inserted into an empty list).
        @usableFromInline var loadedBy: PageRequest<Item, Failure>?
        @usableFromInline var previous: PageProducer?
        @usableFromInline var next: PageProducer?
        /// The `joinEpoch` in which this page landed right below the page above it in the ledger (loaded by
        /// that page's `next`), or that page landed right above it (by this page's `previous`): then this
        /// page's `previous` leads to that page and that page's `next` to this one. `nil`, or an older
        /// epoch: not known to be joined (a refresh rearranged the pages since).
        @usableFromInline var joinedAbove: Int? = nil
        /// Where the page is kept outside the view model (`Page.origin`), if anywhere.
        @usableFromInline var origin: (any PageOrigin)?

        @inlinable
        init(
            loadedBy: PageRequest<Item, Failure>?, previous: PageProducer?, next: PageProducer?,
            joinedAbove: Int? = nil, origin: (any PageOrigin)? = nil
        ) {
            self.loadedBy = loadedBy
            self.previous = previous
            self.next = next
            self.joinedAbove = joinedAbove
            self.origin = origin
        }
    }

    /// An open gap: held items below fresh ones that a refresh could not join.
    @usableFromInline
    struct Gap {
        /// The index of the first held item below the gap.
        @usableFromInline var index: Int
        /// Loads the page after the fresh items above the gap.
        @usableFromInline var continuation: PageProducer
        /// How many pages one `fillGap()` may load before it stops with the gap still open.
        var pageBudget: Int
    }

    /// How many empty pages in a row one command may load before the view model stops and reports
    /// `emptyPagesLimitReached` (a page with no items that is not the last loads the next at once).
    @inlinable
    static var maxEmptyPagesInARow: Int { 10 }
    /// How many landed loads are remembered (to tell their extra events from stale ones).
    @inlinable
    static var landedMemory: Int { 8 }

    @usableFromInline var store = ItemStore<Item>()
    @usableFromInline var ledger = PageLedger<PageRecord>()
    @usableFromInline var append: Edge = .ready(PendingLoad(request: .firstPage))
    @usableFromInline var prepend: Edge = .waiting
    @usableFromInline var refresh: RefreshEdge = .idle
    /// Bumped by every page a refresh applies: the joins of the pages held before it no longer hold
    /// (`PageRecord.joinedAbove`).
    @usableFromInline var joinEpoch = 0
    /// The feed's total as the latest page that carried one said (`Page.totalCount`); `nil` until one does,
    /// and again after `reset()`.
    @usableFromInline var totalCount: Int?
    /// The requests that loaded the pages `maxPages` dropped above the first page held, nearest last.
    @usableFromInline var droppedAbove: [PageRequest<Item, Failure>] = []
    /// A gap that `maxPages` dropped at the top with the pages above it: it lies below the page that
    /// `droppedAbove[depth - 1]` loads, and opens again when that page lands (see `dropPages(awayFrom:)`).
    @usableFromInline var gapAbove: (depth: Int, gap: Gap)?
    /// The requests that loaded the pages `maxPages` dropped below the last page held, nearest last.
    @usableFromInline var droppedBelow: [PageRequest<Item, Failure>] = []
    @usableFromInline var gap: Gap?
    /// The kinds whose last load failed, the most recent failure last (what `lastError` shows).
    @usableFromInline var failureOrder: [LoadKind] = []
    @usableFromInline var loadCounter: UInt64 = 0
    /// Loads whose page landed, most recent last, until their terminal event.
    @usableFromInline var landed: [LoadID] = []
    let retry: RetryPolicy?
    /// Whether the connectivity `AutomaticRetry` watches is `false` (set by the storage before each input):
    /// a failure then waits for it instead of backing off, and does not count towards `maxRetries`.
    @usableFromInline var isOffline = false
    /// How many pages are held at most (`nil`: no limit).
    @usableFromInline let maxPages: Int?
    /// The jitter's random source.
    var generator: any RandomNumberGenerator & Sendable

    @usableFromInline
    init(retry: RetryPolicy?, generator: any RandomNumberGenerator & Sendable, maxPages: Int? = nil) {
        self.retry = retry
        self.generator = generator
        self.maxPages = maxPages.map { max($0, 1) }
    }

    // MARK: - What the properties show

    /// The items held.
    @inlinable
    var items: ItemList<Item> { store.items }

    @inlinable
    var loadStates: LoadStates<Failure> {
        LoadStates(refresh: refresh.loadState, prepend: prepend.loadState, append: append.loadState)
    }

    /// The failure of the most recently failed kind of load that has not been retried since.
    @inlinable
    var lastError: Failure? {
        switch failureOrder.last {
        case nil: nil
        case .refresh: refresh.loadState.error
        case let .edge(direction): edge(direction).loadState.error
        }
    }

    // MARK: - Commands

    /// The storage asked the dependency for the first page to start `load`: a retry of that load starts
    /// the same producer instead of asking the dependency again.
    @usableFromInline
    mutating func firstPageMade(_ producer: PageProducer, for load: LoadID) {
        defer { _checkInvariants() }
        if let (direction, pending) = edge(loading: load) {
            var made = pending
            made.request = .producer(producer)
            made.opensList = true
            setEdge(direction, .loading(made, load))
        } else if case .loading(let progress, var pending, load) = refresh {
            pending.request = .producer(producer)
            refresh = .loading(progress, pending, load)
        } else {
            // The storage runs a `.start` right after the input that named it: that load is still in flight.
            preconditionFailure("PagingStateMachine.firstPageMade: load \(load.value) is not in flight; \(stateDescription)")
        }
    }

    /// `loadNextPage()`: loads the pending page after the last item (retrying it after a failure).
    @inlinable
    mutating func loadNextPage() -> [Action] {
        defer { _checkInvariants() }
        return load(.append, prefetch: nil)
    }

    /// `loadPreviousPage()`: loads the pending page before the first item (retrying it after a failure).
    @inlinable
    mutating func loadPreviousPage() -> [Action] {
        defer { _checkInvariants() }
        return load(.prepend, prefetch: nil)
    }

    /// `loadPagesIfNeeded`: loads at each end the request's rows are near;
    /// otherwise remembers the request while that end's page is pending, to re-check it when it lands.
    @usableFromInline
    mutating func loadIfNeeded(_ request: PrefetchRequest) -> [Action] {
        defer { _checkInvariants() }
        var actions: [Action] = []
        for direction in [Direction.append, .prepend] {
            switch edge(direction) {
            case .ready:
                let wanted = direction == .append ? request.wantsMore(count: items.count) : request.wantsPrevious
                if wanted { actions += load(direction, prefetch: request) }
            case .loading(var pending, let load):
                pending.remember(request, toward: direction)
                setEdge(direction, .loading(pending, load))
            case .failed(let error, var pending, let retryOf):
                pending.remember(request, toward: direction)
                setEdge(direction, .failed(error, pending, retryOf: retryOf))
            case .waiting, .complete:
                break
            }
        }
        return actions
    }

    /// A query list switched away from this list (`QueryPaginatedList`): cuts off every load in flight
    /// and cancels waiting retries, keeping the items; each cut-off load is ready to start again. A failure
    /// with no retry waiting has nothing in flight: it stays, shown when the list is shown again, until
    /// `loadNextPage()` (or a refresh) retries it.
    @usableFromInline
    mutating func pause() -> [Action] {
        defer { _checkInvariants() }
        let actions = cutOffEdges(keepingFailures: true) + (refresh.isFailedWithoutRetry ? [] : cutOffRefresh())
        guard !actions.isEmpty else { return [] }
        return [transition()] + actions
    }

    /// Whether the top of the list was loaded since the last reset: a page landed, and no refresh is in
    /// flight or failed.
    @inlinable
    var holdsFreshTop: Bool {
        guard !ledger.isEmpty else { return false }
        if case .idle = refresh { return true }
        return false
    }

    /// `reset()`: cuts off every load, cancels waiting retries, empties the list; the next
    /// `loadNextPage()` loads a fresh first page.
    @usableFromInline
    mutating func reset() -> [Action] {
        defer { _checkInvariants() }
        var actions = cutOffEdges() + cutOffRefresh()
        append = .ready(PendingLoad(request: .firstPage))
        prepend = .waiting
        failureOrder = []
        ledger.removeAll()
        droppedAbove = []
        gapAbove = nil
        droppedBelow = []
        gap = nil
        totalCount = nil
        let changes = store.removeAll()
        actions.insert(transition(changes), at: 0)
        return actions
    }

    /// The automatic retry of `kind`'s failed load `failedLoad` is due: retries it, unless a command
    /// retried or cancelled it meanwhile.
    @usableFromInline
    mutating func retryDue(_ kind: LoadKind, of failedLoad: LoadID) -> [Action] {
        defer { _checkInvariants() }
        switch kind {
        case .refresh:
            return refreshRetryDue(of: failedLoad)
        case let .edge(direction):
            guard case let .failed(_, pending, retryOf) = edge(direction), retryOf == failedLoad else { return [] }
            return start(direction, pending)
        }
    }

    // MARK: - Edits

    /// Replaces the held item with `item`'s id by `item`; nothing if no item with that id is held.
    @inlinable
    mutating func update(_ item: Item) -> [Action] {
        defer { _checkInvariants() }
        guard let index = store.position(ofIDOf: item) else { return [] }
        return replace([(index, item)])
    }

    /// Replaces the items at the indices (positions `position(ofKey:)` gave) by items with their ids: one
    /// transition, one `.updated` with every offset.
    @inlinable
    mutating func replace(_ replacements: [(index: Int, item: Item)]) -> [Action] {
        defer { _checkInvariants() }
        guard !replacements.isEmpty else { return [] }
        var offsets: [Int] = []
        for (index, item) in replacements {
            _ = store.replace(at: index, with: item)
            offsets.append(index)
        }
        let changes: [ItemListChange] = [.updated(Array(Set(offsets)).sorted())]
        return [transition(changes)]
    }

    /// Replaces the held items with the ids of `items` by them inside the transition `actions` publishes (its
    /// last one with items): its snapshot becomes the list's, and the rows replaced that the transition did
    /// not insert (nor reset) are reported in an `.updated` at its end (final offsets, read from the
    /// snapshot). Items not held are skipped. For a keeper that shows values other than those it wrote
    /// (`PageKeeper.persist(_:)`): still one transition.
    @inlinable
    mutating func amend(_ actions: inout [Action], showing items: [Item]) {
        defer { _checkInvariants() }
        guard let last = actions.lastIndex(where: { if case let .publish(transition) = $0 { transition.items != nil } else { false } }),
              case var .publish(transition) = actions[last] else { return }
        var offsets: Set<Int> = []
        for item in items {
            guard let index = store.position(ofIDOf: item) else { continue }
            _ = store.replace(at: index, with: item)
            offsets.insert(index)
        }
        guard !offsets.isEmpty else { return }
        transition.items = self.items
        if !transition.changes.contains(.reset) {
            // The rows the transition inserted, at their final offsets: read from the snapshot already.
            var fresh: Set<Int> = []
            for (position, change) in transition.changes.enumerated() {
                switch change {
                case let .appended(range), let .inserted(range):
                    fresh.formUnion(Self.finalOffsets(of: range, after: transition.changes[(position + 1)...]))
                default:
                    continue
                }
            }
            let updated = offsets.subtracting(fresh)
            if !updated.isEmpty {
                if case let .updated(existing)? = transition.changes.last {
                    transition.changes[transition.changes.count - 1] = .updated(Array(updated.union(existing)).sorted())
                } else {
                    transition.changes.append(.updated(updated.sorted()))
                }
            }
        }
        actions[last] = .publish(transition)
    }

    /// Where rows at `range` are after `later` changes (those a change removes are left out).
    @usableFromInline
    static func finalOffsets(of range: Range<Int>, after later: ArraySlice<ItemListChange>) -> [Int] {
        range.compactMap { row in
            var position: Int? = row
            for change in later { position = position.flatMap(change.position(ofRow:)) }
            return position
        }
    }

    /// Removes the item whose id is `key`; nothing if it is not held.
    @inlinable
    mutating func remove(key: AnyHashable) -> [Action] {
        defer { _checkInvariants() }
        guard let index = store.position(ofKey: key) else { return [] }
        if let page = ledger.page(holding: index) { ledger.adjust(page: page, by: -1) }
        let changes = store.remove(at: index)
        let closed = noteGap(after: changes)
        shiftPrefetch(after: changes)
        let actions = continueFromGap(closed)
        return [transition(changes)] + actions
    }

    /// Inserts `batch` at `index` (clamped to the list); items whose id is held update it in place.
    @inlinable
    mutating func insert(_ batch: [Item], at index: Int) -> [Action] {
        defer { _checkInvariants() }
        let changes = store.insert(batch, at: index)
        attributeInsertions(in: changes)
        shiftPrefetch(after: changes)
        return changes.isEmpty ? [] : [transition(changes)]
    }

    /// The position of the item whose id is `key`, if held.
    @inlinable
    func position(ofKey key: AnyHashable) -> Int? {
        store.position(ofKey: key)
    }

    // MARK: - Producer events

    /// An event of load `load`.
    @inlinable
    mutating func receive(_ event: Event<Page<Item, Failure>, Failure>, of load: LoadID) -> [Action] {
        defer { _checkInvariants() }
        if let (direction, pending) = edge(loading: load) {
            return receive(event, of: load, extending: direction, pending: pending)
        }
        if case .loading(let progress, let pending, load) = refresh {
            return receiveRefresh(event, of: load, progress: progress, pending: pending)
        }
        return unexpected(event.map { _ in () }, of: load)
    }

    /// An event of a load that no edge waits for: an extra of a landed load, or a stale one.
    @inlinable
    mutating func unexpected(_ event: Event<Void, Failure>, of load: LoadID) -> [Action] {
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

    @inlinable
    /// An event of `direction`'s load in flight, `load`, whose pending page is `pending`.
    mutating func receive(
        _ event: Event<Page<Item, Failure>, Failure>, of load: LoadID, extending direction: Direction,
        pending: PendingLoad
    ) -> [Action] {
        switch event {
        case let .value(page):
            return land(page, of: load, extending: direction, pending: pending)
        case let .failed(error):
            let outcome = failure(of: .edge(direction), load: load, error: error, pending: pending)
            setEdge(direction, .failed(error, outcome.failed, retryOf: outcome.retryOf))
            return [.cutOff(load), transition()] + outcome.then
        case .completed, .interrupted:
            setEdge(direction, .ready(PendingLoad(request: pending.request)))
            let diagnostic: PaginatedListDiagnostic = if case .completed = event { .completedWithoutPage } else { .interruptedWithoutPage }
            return [.cutOff(load), transition(), .report(diagnostic)]
        }
    }

    /// Remembers `load` as landed: what it still sends is an extra, not a stale event.
    @inlinable
    mutating func markLanded(_ load: LoadID) {
        landed.append(load)
        if landed.count > Self.landedMemory { landed.removeFirst() }
    }

    @inlinable
    mutating func land(
        _ page: Page<Item, Failure>, of load: LoadID, extending direction: Direction, pending: PendingLoad
    ) -> [Action] {
        markLanded(load)
        var record = PageRecord(loadedBy: pending.request, previous: page.previous, next: page.next, origin: page.origin)
        var changes: [ItemListChange]
        var aboveGap = false
        switch direction {
        case .append:
            let firstPage = ledger.isEmpty && droppedAbove.isEmpty && droppedBelow.isEmpty
            changes = store.append(page.items)
            let added = Self.insertedCount(changes)
            if added > 0 || firstPage {
                if !ledger.isEmpty { record.joinedAbove = joinEpoch }
                ledger.append(count: added, record: record)
            }
            if !droppedBelow.isEmpty { droppedBelow.removeLast() }
            append = droppedBelow.last.map { .ready(PendingLoad(request: $0)) }
                ?? page.next.map { .ready(PendingLoad(request: .producer($0))) } ?? .complete
            if case .waiting = prepend {
                prepend = page.previous.map { .ready(PendingLoad(request: .producer($0))) } ?? .complete
            }
        case .prepend:
            changes = store.prepend(page.items)
            let added = Self.insertedCount(changes)
            // The page above a gap `maxPages` dropped at the top: the gap opens again below it.
            aboveGap = gapAbove.map { $0.depth == droppedAbove.count } ?? false
            if added > 0 {
                ledger.prepend(count: added, record: record)
                if ledger.pageCount > 1, !aboveGap {
                    var below = ledger[1].record
                    below.joinedAbove = joinEpoch
                    ledger.setRecord(below, ofPage: 1)
                }
            }
            if !droppedAbove.isEmpty { droppedAbove.removeLast() }
            prepend = droppedAbove.last.map { .ready(PendingLoad(request: $0)) }
                ?? page.previous.map { .ready(PendingLoad(request: .producer($0))) } ?? .complete
            if added != 0, append.remembersPrefetch || prepend.remembersPrefetch { shiftPrefetch(by: added) }
        }
        noteGap(after: changes)
        let reopening = aboveGap ? reopenGapAbove(below: Self.insertedCount(changes)) : []
        let countBeforeDrops = items.count
        let drops = holdsTooManyPages ? dropPages(awayFrom: direction) : (changes: [], actions: [])
        // The rows the user saw moved down by what a prepend added, or up by what a drop above removed.
        let shift = direction == .prepend ? Self.insertedCount(changes) : items.count - countBeforeDrops
        if !drops.changes.isEmpty {
            changes = Self.replayable(changes, then: drops.changes, at: direction, finalCount: items.count)
        }

        if let total = page.totalCount { totalCount = total }
        var actions = [transition(changes)]
        for diagnostic in page.diagnostics { actions.append(.report(diagnostic)) }
        actions.append(.cutOff(load))
        actions += reopening
        actions += drops.actions
        actions += continueAfterLanding(page, direction: direction, pending: pending, shift: shift)
        return actions
    }

    /// After a page landed: loads the next one in the same direction at once when the page was empty
    /// (within `maxEmptyPagesInARow`), or when a prefetch request made while it loaded still wants more.
    @inlinable
    mutating func continueAfterLanding(
        _ page: Page<Item, Failure>, direction: Direction, pending: PendingLoad, shift: Int
    ) -> [Action] {
        guard case let .ready(ready) = edge(direction) else { return [] }
        let request = pending.prefetch?.shifted(by: shift)
        if page.items.isEmpty {
            let empties = pending.emptyPagesInARow + 1
            guard empties < Self.maxEmptyPagesInARow else {
                return [.report(.emptyPagesLimitReached(count: empties))]
            }
            return start(direction, PendingLoad(request: ready.request, prefetch: request, emptyPagesInARow: empties))
        }
        guard let request else { return [] }
        let wanted = direction == .append ? request.wantsMore(count: items.count) : request.wantsPrevious
        guard wanted else { return [] }
        return start(direction, PendingLoad(request: ready.request, prefetch: request))
    }

    /// Records a failure of `kind`'s load `load` (whose pending page was `pending`) and decides on an
    /// automatic retry. The caller stores the failed state (`retryOf`: the load whose retry waits, if any),
    /// then publishes, then runs `then`.
    @usableFromInline
    mutating func failure(
        of kind: LoadKind, load: LoadID, error: Failure, pending: PendingLoad
    ) -> (failed: PendingLoad, retryOf: LoadID?, then: [Action]) {
        var failed = pending
        failed.failures += 1
        failed.emptyPagesInARow = 0
        failureOrder.removeAll { $0 == kind }
        failureOrder.append(kind)
        guard let retry else { return (failed, nil, []) }
        let draw = Double.random(in: 0 ... 1, using: &generator)
        let decision = retry.decision(after: error, failures: failed.failures, draw: draw)
        if isOffline, retry.maxRetries > 0, decision != .stop(.cannotSucceed) {
            // Offline: not the page's fault. Retried as soon as the connectivity is back, uncounted.
            failed.failures = pending.failures
            return (failed, load, [.report(.waitingForConnectivity), .scheduleRetry(kind, of: load, after: .zero)])
        }
        switch decision {
        case let .stop(reason):
            return (failed, nil, [.report(reason.diagnostic)])
        case let .retry(after: delay):
            return (failed, load, [
                .report(.retryScheduled(retry: failed.failures, delay: delay)),
                .scheduleRetry(kind, of: load, after: delay),
            ])
        }
    }

    // MARK: - Starting loads

    /// A command's load of `direction`: starts the pending page when the edge is ready or failed
    /// (cancelling a waiting automatic retry); does nothing while loading, waiting or complete, or while a
    /// refresh loads.
    @inlinable
    mutating func load(_ direction: Direction, prefetch: PrefetchRequest?) -> [Action] {
        guard !refresh.isBusy else { return [] }
        var cancelsRetry = false
        var pending: PendingLoad
        switch edge(direction) {
        case let .ready(ready):
            pending = ready
        case let .failed(_, failed, retryOf):
            cancelsRetry = retryOf != nil
            pending = failed
        case .waiting, .loading, .complete:
            return []
        }
        pending.emptyPagesInARow = 0
        if let prefetch { pending.remember(prefetch, toward: direction) }
        // The cancellation goes in front of the start's actions: concatenating arrays of actions copies
        // each one through the generic value witnesses (`Benchmarks itemlist`, view model rows).
        var actions = start(direction, pending)
        if cancelsRetry { actions.insert(.cancelRetry(.edge(direction)), at: 0) }
        return actions
    }

    /// Starts `pending` as a new load of `direction`.
    @inlinable
    mutating func start(_ direction: Direction, _ pending: PendingLoad) -> [Action] {
        let load = nextLoadID()
        failureOrder.removeAll { $0 == .edge(direction) }
        setEdge(direction, .loading(pending, load))
        return [transition(), .start(load, pending.request)]
    }

    @inlinable
    mutating func nextLoadID() -> LoadID {
        defer { loadCounter += 1 }
        return LoadID(value: loadCounter)
    }

    /// Cuts off the append and prepend loads in flight and cancels their waiting retries; each edge keeps
    /// its pending page, ready to load again. A failed edge with no retry waiting is made ready too, unless
    /// `keepingFailures` (then it stays failed, and in `failureOrder`).
    mutating func cutOffEdges(keepingFailures: Bool = false) -> [Action] {
        var actions: [Action] = []
        for direction in [Direction.prepend, .append] {
            switch edge(direction) {
            case let .loading(pending, load):
                actions.append(.cutOff(load))
                setEdge(direction, .ready(PendingLoad(request: pending.request)))
            case .failed(_, _, retryOf: nil) where keepingFailures:
                continue
            case let .failed(_, pending, retryOf):
                if retryOf != nil { actions.append(.cancelRetry(.edge(direction))) }
                setEdge(direction, .ready(PendingLoad(request: pending.request)))
            case .waiting, .ready, .complete: break
            }
            failureOrder.removeAll { $0 == .edge(direction) }
        }
        return actions
    }

    // MARK: - Pages

    /// Shifts the prefetch requests both edges remember by `delta` rows (items inserted or removed above;
    /// `at`: by an edit at that row, which moves only the rows below it).
    @usableFromInline
    mutating func shiftPrefetch(by delta: Int, at row: Int? = nil) {
        guard delta != 0 else { return }
        func moved(_ request: PrefetchRequest?) -> PrefetchRequest? {
            guard let request else { return nil }
            return row.map { request.edited(at: $0, by: delta) } ?? request.shifted(by: delta)
        }
        for direction in [Direction.prepend, .append] {
            switch edge(direction) {
            case .ready(var pending) where pending.prefetch != nil:
                pending.prefetch = moved(pending.prefetch)
                setEdge(direction, .ready(pending))
            case .loading(var pending, let load) where pending.prefetch != nil:
                pending.prefetch = moved(pending.prefetch)
                setEdge(direction, .loading(pending, load))
            case .failed(let error, var pending, let retryOf) where pending.prefetch != nil:
                pending.prefetch = moved(pending.prefetch)
                setEdge(direction, .failed(error, pending, retryOf: retryOf))
            default: break
            }
        }
    }

    /// Moves the remembered prefetch requests by what an edit's `changes` inserted and removed.
    @usableFromInline
    mutating func shiftPrefetch(after changes: [ItemListChange]) {
        guard append.remembersPrefetch || prepend.remembersPrefetch else { return }
        for change in changes {
            switch change {
            case let .inserted(range), let .appended(range): shiftPrefetch(by: range.count, at: range.lowerBound)
            case let .removed(offsets): for offset in offsets.reversed() { shiftPrefetch(by: -1, at: offset) }
            default: break
            }
        }
    }

    /// Gives inserted items to the page of the item above them (the first page at the top).
    @usableFromInline
    mutating func attributeInsertions(in changes: [ItemListChange]) {
        for change in changes {
            guard case let .inserted(range) = change else { continue }
            if ledger.isEmpty {
                ledger.append(count: range.count, record: PageRecord(loadedBy: nil, previous: nil, next: nil))
            } else {
                let page = range.lowerBound == 0 ? 0 : (ledger.page(holding: range.lowerBound - 1) ?? ledger.pageCount - 1)
                ledger.adjust(page: page, by: range.count)
            }
        }
        noteGap(after: changes)
    }

    /// Keeps the gap, if one is open, on the same held item through `changes`; returns it when the changes
    /// took every held item below it (it is closed then: see `continueFromGap(_:)`).
    @inlinable @discardableResult
    mutating func noteGap(after changes: [ItemListChange]) -> Gap? {
        if gap != nil { return moveGap(after: changes) }
        return nil
    }

    /// `noteGap(after:)` with a gap open.
    @usableFromInline @discardableResult
    mutating func moveGap(after changes: [ItemListChange]) -> Gap? {
        guard var open = gap else { return nil }
        for change in changes {
            switch change {
            case let .inserted(range) where range.lowerBound <= open.index:
                open.index += range.count
            case let .removed(offsets):
                open.index -= offsets.prefix { $0 < open.index }.count
            case let .moved(from, to):
                if from < open.index, to >= open.index { open.index -= 1 }
                else if from >= open.index, to < open.index { open.index += 1 }
            case .reset:
                gap = nil
                return nil
            default:
                break
            }
        }
        gap = open.index > 0 && open.index < items.count ? open : nil
        return open.index >= items.count ? open : nil
    }

    /// After an edit or a store's change took every held item below the gap (`closed`, as it was): the list
    /// ends at the gap and goes on from it, as when `maxPages` drops the pages below it (a load in flight at
    /// the bottom is cut off: it would land below items no longer held). Nothing for `nil`.
    @usableFromInline
    mutating func continueFromGap(_ closed: Gap?) -> [Action] {
        guard let closed else { return [] }
        // The pages below the gap hold nothing now: they go (the next page is the gap's, not theirs).
        removeFromLedgerBottom(from: items.count)
        droppedBelow = []
        return replaceEdge(.append, with: .producer(closed.continuation))
    }

    /// The page above a gap that `maxPages` dropped at the top landed, adding `count` items: the gap opens
    /// again below them (an empty page: the next one up lies above it). With nothing held below them (edits
    /// took it all), the list ends at the gap and goes on from it (`continueFromGap(_:)`).
    @usableFromInline
    mutating func reopenGapAbove(below count: Int) -> [Action] {
        guard let above = gapAbove else { return [] }
        if count == 0 {
            gapAbove = (droppedAbove.count, above.gap)
            return []
        }
        gapAbove = nil
        guard gap == nil else { return [] }
        var reopened = above.gap
        reopened.index = count
        guard count < items.count else { return continueFromGap(reopened) }
        gap = reopened
        return []
    }

    @inlinable
    static func insertedCount(_ changes: [ItemListChange]) -> Int {
        changes.reduce(0) { sum, change in
            switch change {
            case let .appended(range), let .inserted(range): sum + range.count
            default: sum
            }
        }
    }

    // MARK: - Helpers

    @inlinable
    func edge(_ direction: Direction) -> Edge {
        switch direction {
        case .prepend: prepend
        case .append: append
        }
    }

    @inlinable
    mutating func setEdge(_ direction: Direction, _ edge: Edge) {
        switch direction {
        case .prepend: prepend = edge
        case .append: append = edge
        }
    }

    /// The end whose edge is loading `load`, and its pending page; `nil` when neither is.
    @inlinable
    func edge(loading load: LoadID) -> (Direction, PendingLoad)? {
        if case .loading(let pending, load) = append { return (.append, pending) }
        if case .loading(let pending, load) = prepend { return (.prepend, pending) }
        return nil
    }

    /// Whether `load` is the refresh's page load in flight.
    @inlinable
    func isRefreshing(_ load: LoadID) -> Bool {
        if case .loading(_, _, load) = refresh { return true }
        return false
    }

    /// Whether `load` is the append of the list's first page (after creation or `reset()`, or its retry),
    /// items inserted by edits meanwhile or not.
    @usableFromInline
    func isLoadingFirstPage(_ load: LoadID) -> Bool {
        guard case let .loading(pending, loading) = append, loading == load, droppedBelow.isEmpty else { return false }
        if case .firstPage = pending.request { return true }
        return pending.opensList
    }

    /// Whether `load` is a page of a refresh that loads the top of the list: any refresh but `fillGap()`,
    /// which loads what lies below a gap.
    @usableFromInline
    func isRefreshingTop(_ load: LoadID) -> Bool {
        guard case let .loading(progress, _, refreshing) = refresh, refreshing == load else { return false }
        if case .fillGap = progress.mode { return false }
        return true
    }

    /// What load `load` is for (`PageKeeper.starting(_:)`).
    @inlinable
    func purpose(of load: LoadID) -> PageLoadPurpose {
        switch edge(loading: load)?.0 {
        case .append: .append
        case .prepend: .prepend
        case nil: .refresh
        }
    }

    /// The pages held and their items, for a keeper (a cold path: out of line).
    @usableFromInline
    var keptWindow: KeptWindow<Item> {
        KeptWindow(pages: ledger.pages.map { ($0.record.origin, $0.count) }, items: items, gap: gap?.index)
    }

    /// The transition to the current state, with `changes` applied to the list (none: the list is unchanged).
    /// Call it with changes already computed (`let changes = store.…; transition(changes)`): in
    /// `transition(store.edit())`, `self` is read before the argument runs, so the list would be the old one.
    @inlinable
    func transition(_ changes: [ItemListChange] = []) -> Action {
        .publish(Transition(
            items: changes.isEmpty ? nil : items, changes: changes, loadStates: loadStates, lastError: lastError,
            gap: gap?.index, totalCount: totalCount
        ))
    }
}

/// Identifies one run of a page producer started by a view model.
// `@usableFromInline`: the inlinable machine and storage use it.
@usableFromInline
struct LoadID: Hashable, Sendable {
    @usableFromInline let value: UInt64

    @inlinable
    init(value: UInt64) {
        self.value = value
    }
}

/// Which end of the list a load extends: the end whose `Edge` it belongs to.
// `@usableFromInline`: the inlinable machine uses it.
@usableFromInline
enum Direction: Sendable {
    case prepend, append
}

/// One of the three kinds of load of `LoadStates`: the refresh, or the load at one end of the list.
/// Only the ends have an `Edge`: a kind names the refresh without pretending it has one.
// `@usableFromInline`: the inlinable machine and storage use it.
@usableFromInline
enum LoadKind: Sendable, Equatable, CustomStringConvertible {
    case refresh
    case edge(Direction)

    /// `refresh`, `prepend` or `append`, as `LoadStates` names them.
    @usableFromInline
    var description: String {
        switch self {
        case .refresh: "refresh"
        case .edge(.prepend): "prepend"
        case .edge(.append): "append"
        }
    }
}

/// What a load starts: the dependency's first page (asked for when the load starts), or a page's producer.
// `@usableFromInline`: the inlinable machine and storage use it.
@usableFromInline
enum PageRequest<Item, Failure: Error> {
    case firstPage
    case producer(Producer<Page<Item, Failure>, Failure>)
}
