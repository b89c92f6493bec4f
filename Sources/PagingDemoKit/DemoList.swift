import Foundation
import PaginatedList
import PaginatedListStore
import Signals

/// The demo's list, for both modes: the view model, the simulated feed (if any), the screen's cursor kept
/// on its row through the view model's `changes`, the rows dropped, and what the living-list keys do
/// (like, delete, a new post, refresh, fill the gap, try again), and the search as you type (`/`).
///
/// Thread-safe: the screen and the tally are behind a lock; the view model's observers update them on its
/// scheduler, where `settle()` and the commands that read the cursor must run too (the interactive demo's
/// main thread; the script runner's queue).
package final class DemoList: Sendable {
    /// The list: one view model, or a query list, a view model per query (`options.canSearch`).
    private enum Lists: Sendable {
        case one(PaginatedListViewModel<Row, FeedError>)
        case search(QueryPaginatedList<String, Row, FeedError>)
    }

    private let lists: Lists
    /// The view model the keys act on: with search, the current query's.
    package var viewModel: PaginatedListViewModel<Row, FeedError> {
        switch lists {
        case let .one(viewModel): viewModel
        case let .search(search): search.current.value
        }
    }

    /// The query list, when `/` can search (`DemoOptions.canSearch`).
    package var search: QueryPaginatedList<String, Row, FeedError>? {
        guard case let .search(search) = lists else { return nil }
        return search
    }

    /// The rows shown: with search, the query list's (the previous query's until the new one's first page
    /// lands).
    package var items: Property<ItemList<Row>> { search?.items ?? viewModel.items }
    /// The load states shown: with search, the current query's.
    package var loadStates: Property<LoadStates<FeedError>> { search?.loadStates ?? viewModel.loadStates }
    /// The simulated feed, or `nil` when the list pages an HTTP endpoint.
    package let feed: SimulatedFeed?
    /// The store's feed, with `--store`.
    package let stored: StoredFeed<Row>?
    private let churn: Int
    /// The rows grouped by `Row.day`, for the headers (the simulated feed's rows only).
    private let days: Property<[ListSection<Int, Row>]>?
    /// Whether the simulated server refuses likes (`--fail-mutations`), and how long it takes to answer.
    private let failMutations: Bool
    private let latencyMilliseconds: Int
    private let state: StateBox
    private let observations: [any Disposable]

    /// The state behind its lock, shared with the observers.
    private final class StateBox: Sendable {
        let locked: Locked<State>
        init(_ state: State) { locked = Locked(state) }
        func withLock<Result>(_ body: (inout State) -> Result) -> Result { locked.withLock(body) }
    }

    private struct State {
        var screen: ListScreen
        var tally = RowTally()
        /// The last `items` sent (what a `.reset` change leads to).
        var rows = ItemList<Row>()
        /// Ids for the posts `new` makes over an HTTP endpoint (no feed to ask): counting down from -1.
        var nextLocalID = -1
        /// Where the rows came from, with `--store`.
        var store: StoreStatus?
        /// Whether the last refresh state seen was loading.
        var refreshing = false
        /// What became of the last like sent (with `--store`).
        var like: String?
        /// The query being typed after `/`, until Return or Esc.
        var typing: String?
    }

    /// The list `options` describe, delivering on `scheduler`.
    ///
    /// - Throws: with `--store`, the store's error when its file cannot be opened.
    package convenience init(options: DemoOptions, scheduler: any Scheduler) throws(StoreError) {
        if options.canSearch {
            // One view model per query; the empty query is the whole feed. A query typed again (among the
            // last four) shows its rows as they were, without a request.
            let feed = options.makeFeed()
            let search = QueryPaginatedList<String, Row, FeedError>(
                query: "", scheduler: scheduler, keepPrevious: true, revalidation: .never
            ) { query in feed.firstPage(matching: query) }
            try self.init(lists: .search(search), feed: feed, stored: nil, options: options)
            return
        }
        let (viewModel, feed, stored) = try options.makeList(scheduler: scheduler)
        try self.init(lists: .one(viewModel), feed: feed, stored: stored, options: options)
    }

    /// A second list of `other`'s store (`--store`), over the store's feed `name` and the same simulated
    /// feed: the two lists share their rows' items (a like in one shows in the other).
    ///
    /// - Throws: the store's error when the feed's state cannot be read.
    package convenience init(sharing other: DemoList, feed name: String, options: DemoOptions, scheduler: any Scheduler) throws(StoreError) {
        guard let feed = other.feed, let stored = other.stored?.store.feed(name, of: Row.self) else {
            preconditionFailure("DemoList(sharing:) needs a store-backed list over the simulated feed")
        }
        try self.init(lists: .one(options.makeStoredViewModel(feed: feed, stored: stored, scheduler: scheduler)), feed: feed,
                      stored: stored, options: options)
    }

    private init(lists: Lists, feed: SimulatedFeed?, stored: StoredFeed<Row>?, options: DemoOptions) throws(StoreError) {
        (self.lists, self.feed, self.stored) = (lists, feed, stored)
        churn = options.churn
        if case let .one(viewModel) = lists, feed != nil { days = viewModel.sections(by: { $0.day }) } else { days = nil }
        failMutations = options.failMutations
        latencyMilliseconds = options.effectiveLatencyMilliseconds
        var initial = State(screen: ListScreen(prefetchDistance: options.prefetch, startRow: options.start))
        initial.store = try stored.map { stored throws(StoreError) in StoreStatus(opened: try stored.info()) }
        let state = StateBox(initial)
        self.state = state
        let (items, loadStates, changes) = switch lists {
        case let .one(viewModel): (viewModel.items, viewModel.loadStates, viewModel.changes)
        case let .search(search): (search.items, search.loadStates, search.changes)
        }
        observations = [
            loadStates.signal.observeValues { states in
                state.withLock { state in
                    let loading = states.refresh == .loading
                    if state.refreshing, !loading, states.refresh.error == nil { state.store?.refreshed = true }
                    state.refreshing = loading
                }
            },
            items.signal.observeValues { rows in
                state.withLock { state in
                    state.rows = rows
                    state.tally.saw(rows)
                }
            },
            changes.observeValues { change in
                state.withLock { state in state.screen.follow(change, rows: state.rows) }
            },
        ].compactMap { $0 }
    }

    deinit {
        for observation in observations { observation.dispose() }
    }

    /// What the status line says about the store (`--store`), `now`; `nil` without a store.
    package func storeStatus(now: Date = Date()) -> String? {
        state.withLock { $0.store?.text(now: now) }
    }

    /// The screen, read or changed under the lock.
    package func withScreen<Result>(_ body: (inout ListScreen) -> Result) -> Result {
        state.withLock { body(&$0.screen) }
    }

    /// After a transition: remembers the row under the cursor (see `ListScreen.settle(rows:)`).
    package func settle() {
        let rows = items.value
        state.withLock { $0.screen.settle(rows: rows) }
    }

    /// The row under the cursor, if the list has rows.
    package var cursorRow: Row? {
        let rows = items.value
        let cursor = state.withLock { $0.screen.cursor }
        return cursor < rows.count ? rows[cursor] : nil
    }

    // MARK: - Living-list commands

    /// Likes the row under the cursor: in the feed, then in the list (`update(id:)`, at once). With a store,
    /// an optimistic edit (`mutate(id:_:send:)`): shown at once in every list that holds the row, then the
    /// simulated server's answer after the latency (at once in script mode): the like stored, or with
    /// `--fail-mutations` refused and rolled back.
    package func like() {
        guard let row = cursorRow else { return }
        guard stored != nil else {
            feed?.like(id: row.id)
            viewModel.update(id: row.id) { $0.likes += 1 }
            return
        }
        let (feed, fails, latency, state) = (feed, failMutations, latencyMilliseconds, state)
        let send: @Sendable (Row) -> Producer<Row, FeedError> = { liked in
            Producer { observer, _ in
                let answer: @Sendable () -> Void = {
                    if fails { return observer.send(error: .likeRefused(id: liked.id)) }
                    feed?.like(id: liked.id)
                    observer.send(value: liked)
                    observer.sendCompleted()
                }
                if latency == 0 { return answer() }
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(latency), execute: answer)
            }
        }
        state.withLock { $0.like = "liking \(Self.number(row.id))…" }
        viewModel.mutate(id: row.id, { $0.likes += 1 }, send: send).start { event in
            let outcome: String? = switch event {
            case .value: "like of \(Self.number(row.id)) saved"
            case let .failed(.remote(error)): "\(error): rolled back"
            case let .failed(error): "like of \(Self.number(row.id)) not saved: \(error)"
            case .completed, .interrupted: nil
            }
            if let outcome { state.withLock { $0.like = outcome } }
        }
    }

    /// What became of the last like (with `--store`): sending, saved, or refused and rolled back.
    package var likeStatus: String? {
        state.withLock { $0.like }
    }

    /// A row's number as the screen shows it (`#0003`).
    private static func number(_ id: Int) -> String {
        "#" + String(format: "%04d", id)
    }

    /// Deletes the row under the cursor: from the feed, then from the list (`remove(id:)`).
    package func delete() {
        guard let row = cursorRow else { return }
        feed?.delete(id: row.id)
        state.withLock { $0.tally.delete(row.id) }
        viewModel.remove(id: row.id)
    }

    /// A new post at the top: the feed's (or a local one over an HTTP endpoint), inserted at the top of
    /// the list.
    package func post() {
        let row = feed?.post() ?? state.withLock { state in
            defer { state.nextLocalID -= 1 }
            return Row(id: state.nextLocalID, title: "my post")
        }
        viewModel.insert([row], at: 0)
    }

    /// Refreshes with new rows arriving on top: `.mergeOnTop(maxPages: 2, onGap: .keepGap)`; with
    /// `--churn`, the feed first gains 0-30 rows at the top.
    package func refresh() {
        if churn > 0 { feed?.gainRows(0 ... 30) }
        viewModel.refresh(.mergeOnTop(maxPages: 2, onGap: .keepGap))
    }

    /// Loads the rows missing at the gap.
    package func fillGap() {
        viewModel.fillGap()
    }

    /// Tries again what failed: the page after the last row, the page before the first, the refresh.
    package func tryAgain() {
        let states = viewModel.loadStates.value
        if states.append.error != nil { viewModel.loadNextPage() }
        if states.prepend.error != nil { viewModel.loadPreviousPage() }
        if states.refresh.error != nil { refresh() }
    }

    /// `reset()` or `reload()`: the tally starts over too.
    package func startOver(reload: Bool) {
        state.withLock { $0.tally.reset() }
        if reload { viewModel.reload() } else { viewModel.reset() }
    }

    // MARK: - Search as you type

    /// `/`: starts typing a query, from the current one; `false` (nothing happens) when the list cannot
    /// search (`cannotSearch` says why).
    @discardableResult
    package func startTyping() -> Bool {
        guard let query = search?.query.value else { return false }
        state.withLock { $0.typing = query }
        return true
    }

    /// Why `/` does nothing over a list that cannot search.
    package static let cannotSearch = "no search here: only over the simulated feed, without --url, --store, --max-pages or --source"

    /// The query as typed so far, while typing.
    package var typing: String? {
        state.withLock { $0.typing }
    }

    /// While typing: the query on the status line becomes `text` (the list follows with `search(_:)`).
    package func type(_ text: String) {
        state.withLock { if $0.typing != nil { $0.typing = text } }
    }

    /// Return or Esc: typing ends (the query stays).
    package func endTyping() {
        state.withLock { $0.typing = nil }
    }

    /// Shows the rows whose title contains `query` (the whole feed for `""`): `setQuery(_:)` of the query
    /// list, which keeps the rows shown until the new query's first page lands. Nothing when the list
    /// cannot search.
    package func search(_ query: String) {
        search?.setQuery(query)
    }

    /// What the status line says of the search: `/ hel_` while typing, `search: hel` while a query is
    /// shown; `nil` otherwise.
    package var searchStatus: String? {
        if let typing { return "/ \(typing)_" }
        guard let query = search?.query.value, !query.isEmpty else { return nil }
        return "search: \(query)"
    }

    // MARK: - What the screen shows

    /// The gap, the prepend state and the rows dropped (with `--max-pages`), for the screen.
    package func window(maxPages: Int?) -> ListScreen.Window {
        let rows = items.value
        let gap = viewModel.gap.value
        return ListScreen.Window(
            prepend: loadStates.value.prepend, gap: gap, missing: gap.flatMap { missing(at: $0, in: rows) },
            dropped: maxPages == nil ? nil : state.withLock { $0.tally.dropped(holding: rows) },
            headers: headers(), total: viewModel.totalCount.value
        )
    }

    /// The header above the first row of each day (`Row.day`), by row index: `[:]` over an HTTP endpoint.
    /// The view model's `sections(by:)`; with search, the rows shown grouped here (while a new query
    /// loads they are the previous query's, which no view model's sections describe).
    private func headers() -> [Int: String] {
        guard feed != nil else { return [:] }
        var headers: [Int: String] = [:]
        if let days {
            var start = 0
            for section in days.value {
                headers[start] = "day \(section.key)"
                start += section.items.count
            }
        } else {
            let rows = items.value
            for (index, row) in rows.enumerated() where index == 0 || rows[index - 1].day != row.day {
                headers[index] = "day \(row.day)"
            }
        }
        return headers
    }

    /// The line's window: the cursor's row, the rows held, the gap, the rows dropped.
    package func snapshot(maxPages: Int?) -> WindowSnapshot {
        let rows = items.value
        let window = window(maxPages: maxPages)
        return WindowSnapshot(cursor: cursorRow, first: rows.first?.id, last: rows.last?.id, gap: window.gap,
                              missing: window.missing, dropped: window.dropped)
    }

    /// How many rows the feed has between the rows around the gap at `index`, when it knows.
    private func missing(at index: Int, in rows: ItemList<Row>) -> Int? {
        guard let feed, index > 0, index < rows.count else { return nil }
        return feed.rowsBetween(rows[index - 1].id, and: rows[index].id)
    }
}
