import Observation
import Signals

/// A main-actor mirror of a `PaginatedListViewModel` for SwiftUI and any other Observation client: its
/// stored properties show the view model's list and load states, and its methods are what a list view
/// calls.
///
/// ```swift
/// List(list.rows) { row in
///     Text(row.item.title).onAppear { list.rowAppeared(row.index) }
/// }
/// .onAppear { if list.items.isEmpty { list.loadNextPage() } }   // the first page: nothing loads by itself
/// .refreshable { await list.refresh() }
/// ```
///
/// **Updates.** One transition of the view model is one update of the mirror, on the main actor: every
/// property it changes is already set when any observer of the mirror runs. A property is set only when
/// its value changes, so a view that reads only `items` is not invalidated by a change of a load state, and
/// one that reads `exhausted` is not invalidated by a load that starts or ends. When the view model
/// delivers on the main thread (its default scheduler, `UIScheduler()`), each transition is applied as it
/// is published: before the call that caused it returns, when that call runs on the main thread and
/// nothing is queued on the main queue (a `UIScheduler` runs at once only then; a test that needs it
/// every time uses `ImmediateScheduler`). From
/// another scheduler, transitions are applied on the main actor in order; those that pile up before the
/// main actor runs are applied as one update that shows the latest.
///
/// **Ownership.** The mirror retains its view model; the view model does not retain the mirror. Releasing
/// the mirror stops the observation.
@MainActor
@Observable
public final class ObservablePaginatedList<Item, Failure: Error> {
    /// The items held, in order, as of the last transition applied.
    public private(set) var items: ItemList<Item>
    /// The state of each kind of load (refresh, previous page, next page), as of the last transition applied.
    public private(set) var loadStates: LoadStates<Failure>
    /// The index of the first held item below a gap a refresh left (see `PaginatedListViewModel.gap`):
    /// show a "load newer" row above it that calls `fillGap()`. `nil` when no gap is open.
    public private(set) var gap: Int?
    /// Whether any kind of load is in flight (`loadStates.isLoading`): the view model's `loading`.
    public private(set) var loading: Bool
    /// The error of the most recently failed kind of load that has not been retried since: the view
    /// model's `lastError`. Which load failed is in `loadStates` (show an error row with `retry()`).
    public private(set) var lastError: Failure?
    /// Whether the last page is held (`loadStates.append.isComplete`): the view model's `exhausted`.
    public private(set) var exhausted: Bool
    /// How many items the feed holds, as the server last said (the view model's `totalCount`): "1,284
    /// results". `nil` when no page said.
    public private(set) var totalCount: Int?

    /// The view model this mirror shows: for what the mirror does not forward (edits, `reset()`, `changes`).
    @ObservationIgnored public let viewModel: PaginatedListViewModel<Item, Failure>
    /// How many rows below the row that appeared still count as "near the end" for `rowAppeared(_:)`
    /// (5 by default; negative values count as 0).
    @ObservationIgnored public var prefetchDistance = 5

    /// The counters of the state shown, to tell what a newer state changes.
    @ObservationIgnored private var shown: Shown
    /// The `refresh()` calls waiting for their refresh to end.
    @ObservationIgnored private var refreshes: [UInt64: RefreshWait] = [:]
    @ObservationIgnored private var nextRefresh: UInt64 = 0
    /// The observation of the view model's transitions, disposed when the mirror is released.
    @ObservationIgnored private let observation = SerialDisposable()

    /// A mirror of `viewModel`, showing its current state at once.
    ///
    /// Create it on the main actor, where it stays; the view model may deliver on any scheduler.
    public init(_ viewModel: PaginatedListViewModel<Item, Failure>) {
        self.viewModel = viewModel
        let state = viewModel.core.mirrorState
        items = state.items
        loadStates = state.loadStates
        gap = state.gap
        loading = state.loadStates.isLoading
        lastError = state.lastError
        exhausted = state.loadStates.append.isComplete
        totalCount = state.totalCount
        shown = Shown(state)
        observation.inner = viewModel.core.mirrorChanged.output.observeValues { [weak self] _ in
            onMainActor(self) { $0.showLatest() }
        }
        // A transition published between reading the state and attaching is shown now.
        showLatest()
    }

    deinit {
        observation.dispose()
    }

    // MARK: - What a list view calls

    /// Tells the list that the row at `index` (an index into `items`) appeared: when at most
    /// `prefetchDistance` rows lie below it, the next page loads; in a list that grows both ways, when at
    /// most `prefetchDistance` rows lie above it, the previous page loads.
    ///
    /// Call it from every row's `onAppear`: it is cheap, and the view model loads at most one page per
    /// direction at a time, remembers the request while a page loads, and re-checks it when the page lands.
    /// See `PaginatedListViewModel.loadPagesIfNeeded(visibleIndex:prefetchDistance:)`.
    public func rowAppeared(_ index: Int) {
        viewModel.loadPagesIfNeeded(visibleIndex: index, prefetchDistance: prefetchDistance)
    }

    /// Loads the next page, unless one is loading, a refresh is, or the list is exhausted; after a
    /// failure, retries it.
    public func loadNextPage() {
        viewModel.loadNextPage()
    }

    /// Loads the page before the first item held, unless one is loading, a refresh is, or nothing lies
    /// before it; after a failure, retries it.
    public func loadPreviousPage() {
        viewModel.loadPreviousPage()
    }

    /// Retries what failed, as shown in `loadStates`: if `loadStates.refresh` failed, the step of the
    /// refresh or gap fill that failed, whoever started it (this mirror, a refresh trigger, a store's
    /// revalidation), going on from where it stopped; the next page if `loadStates.append` did; the previous
    /// page if `loadStates.prepend` did. Does nothing when nothing failed.
    public func retry() {
        if loadStates.refresh.error != nil { viewModel.core.submit(.retryRefresh) }
        if loadStates.append.error != nil { viewModel.loadNextPage() }
        if loadStates.prepend.error != nil { viewModel.loadPreviousPage() }
    }

    /// Loads the items missing at the gap (`PaginatedListViewModel.fillGap()`); reported on
    /// `loadStates.refresh`. Does nothing without a gap or while a refresh loads.
    public func fillGap() {
        viewModel.fillGap()
    }

    /// Refreshes the list without blanking it (`PaginatedListViewModel.refresh()`) and returns once the
    /// refresh has landed, failed or been cut off (by a reset or another refresh), with the mirror already
    /// showing the outcome.
    ///
    /// Made for `.refreshable { await list.refresh() }`: the system spinner shows exactly as long as the
    /// work. If the calling task is cancelled, returns at once; the refresh goes on.
    public func refresh() async {
        await refreshing { $0.refresh() }
    }

    /// Starts a refresh with `start` and returns once it has ended, in the state shown.
    private func refreshing(_ start: (PaginatedListViewModel<Item, Failure>) -> Void) async {
        let id = nextRefresh
        nextRefresh += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                refreshes[id] = RefreshWait(continuation: continuation)
                start(viewModel)
                // Runs after the refresh command: where the view model stands once the refresh started.
                viewModel.core.submit(.mark { [weak self] mark in
                    onMainActor(self) { $0.refresh(id, reached: mark) }
                })
                // Cancelled before the handler was installed: `onCancel` ran before the wait existed.
                if Task.isCancelled { endRefresh(id) }
            }
        } onCancel: { [weak self] in
            onMainActor(self) { $0.endRefresh(id) }
        }
    }

    // MARK: - Applying transitions


    /// Shows the view model's latest state, setting only the properties whose value changed.
    private func showLatest() {
        let state = viewModel.core.mirrorState
        guard state.sequence > shown.sequence else { return }
        if state.itemsVersion != shown.itemsVersion { items = state.items }
        let states = state.loadStates
        if !states.hasSameCases(as: loadStates) || state.failures != shown.failures {
            loadStates = states
            // `lastError` changes only in a transition that changes a load state (a failure, a retry, a
            // reset), and only when an error stands or stood.
            if lastError != nil || state.lastError != nil { lastError = state.lastError }
        }
        set(\.gap, state.gap)
        set(\.loading, states.isLoading)
        set(\.exhausted, states.append.isComplete)
        set(\.totalCount, state.totalCount)
        shown = Shown(state)
        endSettledRefreshes()
    }

    private func set<Value: Equatable>(_ property: ReferenceWritableKeyPath<ObservablePaginatedList, Value>, _ value: Value) {
        if self[keyPath: property] != value { self[keyPath: property] = value }
    }

    // MARK: - Waiting for refreshes

    /// The view model has run the command after refresh `id`'s.
    private func refresh(_ id: UInt64, reached mark: MirrorMark) {
        refreshes[id]?.mark = mark
        endSettledRefreshes()
    }

    /// Returns from the `refresh()` calls whose refresh has ended in the state shown.
    private func endSettledRefreshes() {
        for (id, wait) in refreshes {
            guard let mark = wait.mark,
                  mark.isEnded(in: (shown.sequence, shown.refreshing, shown.refreshes)) else { continue }
            endRefresh(id)
        }
    }

    private func endRefresh(_ id: UInt64) {
        refreshes.removeValue(forKey: id)?.continuation.resume()
    }

    /// What `showLatest()` compares a newer state with.
    private struct Shown {
        let sequence: UInt64
        let itemsVersion: UInt64
        let failures: LoadFailures
        let refreshing: Bool
        let refreshes: UInt64

        init(_ state: MirrorState<Item, Failure>) {
            sequence = state.sequence
            itemsVersion = state.itemsVersion
            failures = state.failures
            refreshing = state.loadStates.refresh.isLoading
            refreshes = state.refreshes
        }
    }

    /// A `refresh()` call waiting: until the view model has run the command after it, `mark` is `nil`.
    private struct RefreshWait {
        let continuation: CheckedContinuation<Void, Never>
        var mark: MirrorMark?
    }
}

extension ObservablePaginatedList {
    /// Refreshes the list by `policy` (`PaginatedListViewModel.refresh(_:)`: `.mergeOnTop` keeps what the
    /// user has read and may leave a `gap`) and returns once the refresh has landed, failed or been cut
    /// off, with the mirror already showing the outcome. As `refresh()`, for `.refreshable`.
    public func refresh(_ policy: RefreshPolicy) async {
        await refreshing { $0.refresh(policy) }
    }
}

extension ObservablePaginatedList {
    /// `items` with their indices, for `List` and `ForEach`: each row's `index` is what `rowAppeared(_:)`
    /// takes, and rows are identified by their items' ids. Reading it reads `items` (a view that shows
    /// `rows` is invalidated when `items` changes). Made in O(1); a row is made when it is read.
    public var rows: Rows { Rows(items: items) }

    /// An item of the list and its index in `items`.
    public struct Row {
        /// The item's index in `items` when the rows were read.
        public let index: Int
        /// The item.
        public let item: Item
    }

    /// The rows of a list: `items`, each with its index, as a random-access collection.
    public struct Rows: RandomAccessCollection {
        let items: ItemList<Item>
        /// The index in the whole list of `items`' first item (a section's rows start below the others').
        var offset = 0

        /// The index of the first row, 0.
        public var startIndex: Int { items.startIndex }
        /// The number of rows.
        public var endIndex: Int { items.endIndex }

        /// The row at `index`, which must be in `startIndex ..< endIndex`.
        public subscript(index: Int) -> Row { Row(index: offset + index, item: items[index]) }
    }
}

extension ObservablePaginatedList.Row: Identifiable where Item: Identifiable {
    /// The item's id: a row is the same row wherever its item moves.
    public var id: Item.ID { item.id }
}

extension ObservablePaginatedList.Row: Sendable where Item: Sendable {}
extension ObservablePaginatedList.Rows: Sendable where Item: Sendable {}
