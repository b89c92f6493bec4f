import Foundation
import PaginatedList
import PaginatedListStore
import Signals

/// The demo's list, for both modes: the view model, the simulated feed (if any), the screen's cursor kept
/// on its row through the view model's `changes`, the rows dropped, and what the living-list keys do
/// (like, delete, a new post, refresh, fill the gap, try again).
///
/// Thread-safe: the screen and the tally are behind a lock; the view model's observers update them on its
/// scheduler, where `settle()` and the commands that read the cursor must run too (the interactive demo's
/// main thread; the script runner's queue).
package final class DemoList: Sendable {
    package let viewModel: PaginatedListViewModel<Row, FeedError>
    /// The simulated feed, or `nil` when the list pages an HTTP endpoint.
    package let feed: SimulatedFeed?
    /// The store's feed, with `--store`.
    package let stored: StoredFeed<Row>?
    private let churn: Int
    /// The rows grouped by `Row.day`, for the headers (the simulated feed's rows only).
    private let days: Property<[ListSection<Int, Row>]>?
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
    }

    /// The list `options` describe, delivering on `scheduler`.
    ///
    /// - Throws: with `--store`, the store's error when its file cannot be opened.
    package init(options: DemoOptions, scheduler: any Scheduler) throws(StoreError) {
        (viewModel, feed, stored) = try options.makeList(scheduler: scheduler)
        churn = options.churn
        days = feed == nil ? nil : viewModel.sections(by: { $0.day })
        var initial = State(screen: ListScreen(prefetchDistance: options.prefetch, startRow: options.start))
        initial.store = try stored.map { stored throws(StoreError) in StoreStatus(opened: try stored.info()) }
        let state = StateBox(initial)
        self.state = state
        observations = [
            viewModel.loadStates.signal.observeValues { states in
                state.withLock { state in
                    let loading = states.refresh == .loading
                    if state.refreshing, !loading, states.refresh.error == nil { state.store?.refreshed = true }
                    state.refreshing = loading
                }
            },
            viewModel.items.signal.observeValues { rows in
                state.withLock { state in
                    state.rows = rows
                    state.tally.saw(rows)
                }
            },
            viewModel.changes.observeValues { change in
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
        let rows = viewModel.items.value
        state.withLock { $0.screen.settle(rows: rows) }
    }

    /// The row under the cursor, if the list has rows.
    package var cursorRow: Row? {
        let rows = viewModel.items.value
        let cursor = state.withLock { $0.screen.cursor }
        return cursor < rows.count ? rows[cursor] : nil
    }

    // MARK: - Living-list commands

    /// Likes the row under the cursor: in the feed, then in the list (`update(id:)`, at once).
    package func like() {
        guard let row = cursorRow else { return }
        feed?.like(id: row.id)
        viewModel.update(id: row.id) { $0.likes += 1 }
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

    // MARK: - What the screen shows

    /// The gap, the prepend state and the rows dropped (with `--max-pages`), for the screen.
    package func window(maxPages: Int?) -> ListScreen.Window {
        let rows = viewModel.items.value
        let gap = viewModel.gap.value
        return ListScreen.Window(
            prepend: viewModel.loadStates.value.prepend, gap: gap, missing: gap.flatMap { missing(at: $0, in: rows) },
            dropped: maxPages == nil ? nil : state.withLock { $0.tally.dropped(holding: rows) },
            headers: headers(), total: viewModel.totalCount.value
        )
    }

    /// The header above the first row of each day (`Row.day`), by row index: `[:]` over an HTTP endpoint.
    private func headers() -> [Int: String] {
        guard let days else { return [:] }
        var headers: [Int: String] = [:]
        var start = 0
        for section in days.value {
            headers[start] = "day \(section.key)"
            start += section.items.count
        }
        return headers
    }

    /// The line's window: the cursor's row, the rows held, the gap, the rows dropped.
    package func snapshot(maxPages: Int?) -> WindowSnapshot {
        let rows = viewModel.items.value
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
