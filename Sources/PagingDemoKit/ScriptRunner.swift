import Foundation
import PaginatedList
import PaginatedListStore
import PaginatedListTesting
import Signals

/// One command of a `--script` run.
package enum ScriptCommand: Equatable, Sendable {
    /// `loadNextPage()`.
    case next
    /// `loadNextPage()` after a failure: the view model retries the failed page.
    case retry
    /// Makes the next page load fail, and starts it: `loadNextPage()` with a forced failure. (If a load is
    /// already in flight, that one is unaffected and the failure hits the next load that starts.)
    case fail
    /// `reset()`.
    case reset
    /// `reload()`.
    case reload
    /// Waits until the load in flight, if any, has ended.
    case wait
    /// `loadPreviousPage()`: the page before the first row (a list opened with `--start`).
    case prev
    /// Moves the cursor up one row.
    case up
    /// Moves the cursor down one row.
    case down
    /// Likes the row under the cursor: in the feed, and in the list with `update(id:)`.
    case like
    /// Deletes the row under the cursor: from the feed, and from the list with `remove(id:)`.
    case delete
    /// A new post at the top of the feed, inserted at the top of the list (`insert(_:at:)`).
    case new
    /// `refresh(.mergeOnTop(maxPages: 2, onGap: .keepGap))`; with `--churn`, the feed first gains 0-30
    /// rows at the top.
    case refresh
    /// `fillGap()`.
    case fill
    /// `search=TEXT`: shows the rows whose title contains TEXT (`search=` alone: the whole feed), as `/` does
    /// once typing pauses: the query list keeps the rows shown until the new query's first page lands.
    case search(String)

    /// The commands named by a word alone, in the order the usage lists them.
    private static let plain: [ScriptCommand] = [
        .next, .retry, .fail, .reset, .reload, .wait, .prev, .up, .down, .like, .delete, .new, .refresh, .fill,
    ]

    /// The command as the script writes it (`next`, `search=amber`).
    package var word: String {
        switch self {
        case .next: "next"
        case .retry: "retry"
        case .fail: "fail"
        case .reset: "reset"
        case .reload: "reload"
        case .wait: "wait"
        case .prev: "prev"
        case .up: "up"
        case .down: "down"
        case .like: "like"
        case .delete: "delete"
        case .new: "new"
        case .refresh: "refresh"
        case .fill: "fill"
        case let .search(query): "search=\(query)"
        }
    }

    /// Whether the command is about a list that lives (both directions, edits, refreshes): its lines then
    /// show the window (see `StateSnapshot.window`).
    package var isLivingList: Bool {
        switch self {
        case .next, .retry, .fail, .reset, .reload, .wait: false
        case .prev, .up, .down, .like, .delete, .new, .refresh, .fill, .search: true
        }
    }

    /// Parses a comma- (or space-) separated list of commands.
    package static func parseScript(_ text: String) throws(OptionsError) -> [ScriptCommand] {
        let words = text.split { $0 == "," || $0 == " " }.map(String.init)
        var commands: [ScriptCommand] = []
        for word in words {
            if word.lowercased().hasPrefix("search=") {
                commands.append(.search(String(word.dropFirst("search=".count))))
                continue
            }
            guard let command = plain.first(where: { $0.word == word.lowercased() }) else {
                let known = (plain.map(\.word) + ["search=TEXT"]).joined(separator: ", ")
                throw OptionsError(message: "unknown script command '\(word)' (known: \(known))")
            }
            commands.append(command)
        }
        guard !commands.isEmpty else { throw OptionsError(message: "--script needs at least one command") }
        return commands
    }
}

/// One observed state of the view model, printed as one stable line.
package struct StateSnapshot: Equatable, Sendable {
    package var items: Int
    package var loading: Bool
    package var error: FeedError?
    package var exhausted: Bool
    /// The window, when the run shows it.
    package var window: WindowSnapshot?

    package init(items: Int, loading: Bool, error: FeedError?, exhausted: Bool, window: WindowSnapshot? = nil) {
        self.items = items
        self.loading = loading
        self.error = error
        self.exhausted = exhausted
        self.window = window
    }

    /// Reads the view model's properties. Call it where no transition can run concurrently (on the view
    /// model's serial scheduler), so that the four agree.
    package init(_ viewModel: PaginatedListViewModel<Row, FeedError>) {
        self.init(
            items: viewModel.items.value.count, loading: viewModel.loading.value,
            error: viewModel.lastError.value, exhausted: viewModel.exhausted.value
        )
    }

    /// `items=20 loading=false error=nil exhausted=false`; an error is quoted:
    /// `error="forced failure loading page 2"`; then the window, if shown.
    package var line: String {
        let errorText = error.map { "\"\($0)\"" } ?? "nil"
        let base = "items=\(items) loading=\(loading) error=\(errorText) exhausted=\(exhausted)"
        return window.map { "\(base) \($0.line)" } ?? base
    }
}

/// Where a living list stands: the cursor's row, the rows held, the gap, the rows dropped.
package struct WindowSnapshot: Equatable, Sendable {
    /// The row under the cursor, and its likes.
    package var cursor: Row?
    package var first: Int?
    package var last: Int?
    /// The index of the first row below the gap, and how many rows it hides (when the feed knows).
    package var gap: Int?
    package var missing: Int?
    /// The rows dropped (with `--max-pages`).
    package var dropped: Int?

    /// `cursor=#0003 likes=1 rows=#0001-#0020 gap=none`, then `dropped=N` with a window; a gap reads
    /// `gap=20 missing=31`.
    package var line: String {
        func number(_ id: Int?) -> String { id.map { "#" + String(repeating: "0", count: max(0, 4 - String($0).count)) + String($0) } ?? "-" }
        let rows = first == nil ? "-" : "\(number(first))-\(number(last))"
        var text = "cursor=\(number(cursor?.id)) likes=\(cursor?.likes ?? 0) rows=\(rows) gap=\(gap.map(String.init) ?? "none")"
        if gap != nil { text += " missing=\(missing.map(String.init) ?? "?")" }
        if let dropped { text += " dropped=\(dropped)" }
        return text
    }
}

/// The rows a list loaded and the ones the user deleted: what it dropped is what it loaded, no longer
/// holds, and the user did not delete.
package struct RowTally: Sendable {
    private var seen = Set<Int>()
    private var deleted = Set<Int>()

    package init() {}

    /// The list holds `rows` now.
    package mutating func saw(_ rows: ItemList<Row>) {
        for row in rows { seen.insert(row.id) }
    }

    /// The user deleted the row `id`.
    package mutating func delete(_ id: Int) {
        deleted.insert(id)
    }

    /// The list started over.
    package mutating func reset() {
        seen = []
        deleted = []
    }

    /// The rows loaded and no longer held, but for the ones the user deleted.
    package func dropped(holding rows: ItemList<Row>) -> Int {
        let held = Set(rows.map(\.id))
        return seen.subtracting(held).subtracting(deleted).count
    }
}

/// Runs a script of commands against a view model over a `SimulatedFeed` (through the `--source` the
/// options pick) or an HTTP endpoint (`--url`, through the `--style`'s source) and reports the state after
/// each.
///
/// The view model delivers on a private serial queue (a `QueueScheduler`); after each command the runner
/// reads the state in a block on that queue, queued behind the command, so it sees the command's whole
/// transition and no half of a later one. With no latency, a page lands within the `next` that starts it.
/// What the view model's `diagnostics` sent meanwhile (a source's corrections) is reported under the
/// command's line, one line each, indented. With `--churn` (the simulated feed), a last line audits what
/// was loaded.
package final class ScriptRunner {
    private let options: DemoOptions
    private let queue = DispatchQueue(label: "paging-demo.script")
    private let list: DemoList
    /// The simulated feed, or `nil` when the options name an HTTP endpoint.
    private var feed: SimulatedFeed? { list.feed }
    private var viewModel: PaginatedListViewModel<Row, FeedError> { list.viewModel }
    private let log = DiagnosticLog()
    private var observation: (any Disposable)?
    /// Whether each line shows the window (`--start`, `--max-pages`, or a living-list command).
    private let showsWindow: Bool

    /// How long `wait` waits for a load before it gives up and reports the state as it is.
    package var waitTimeout: Duration = .seconds(30)

    /// - Throws: with `--store`, the store's error when its file cannot be opened.
    package init(options: DemoOptions) throws(StoreError) {
        self.options = options
        list = try DemoList(options: options, scheduler: QueueScheduler(queue: queue))
        showsWindow = options.start != nil || options.maxPages != nil
            || (options.script ?? []).contains(where: \.isLivingList)
        observation = list.viewModel.diagnostics.observeValues { [log] in log.append($0) }
    }

    deinit {
        observation?.dispose()
    }

    /// Runs `commands` in order; calls `report` with `command -> state` after each, then a line for each
    /// diagnostic the command caused, and with `--churn` an audit line at the end.
    package func run(_ commands: [ScriptCommand], report: (String) -> Void) {
        if let status = list.storeStatus() { report("store -> \(status)") }
        for command in commands {
            perform(command)
            // With search, the query list forwards each of its view model's transitions in a block of its
            // own, queued on the same queue during the transition: let that block run before the state is read.
            if list.search != nil { queue.sync {} }
            let (snapshot, diagnostics) = queue.sync { () -> (StateSnapshot, [PaginatedListDiagnostic]) in
                list.settle()
                var snapshot = StateSnapshot(viewModel)
                snapshot.items = list.items.value.count   // with search, the rows shown (maybe the previous query's)
                if showsWindow { snapshot.window = list.snapshot(maxPages: options.maxPages) }
                return (snapshot, log.take())
            }
            report("\(command.word) -> \(snapshot.line)")
            for diagnostic in diagnostics { report("  \(diagnostic.demoDescription)") }
        }
        if options.churn > 0, let feed {
            let audit = self.audit()
            let rows = queue.sync { viewModel.items.value.count }
            report("audit -> rows=\(rows) duplicates=\(audit.duplicates.count) holes=\(audit.holes.count) "
                + "feed-changes=\(feed.rows.appliedChanges.count)")
        }
    }

    /// Runs `commands` and returns the lines `run(_:report:)` reports.
    package func lines(for commands: [ScriptCommand]) -> [String] {
        var lines: [String] = []
        run(commands) { lines.append($0) }
        return lines
    }

    /// The rows loaded so far, in order.
    package var loadedRows: [Row] {
        queue.sync { Array(list.items.value) }
    }

    /// What the loaded rows got wrong against the simulated feed's history: rows delivered twice, and
    /// holes (rows in the feed throughout, ranked before the end of what was loaded, never delivered).
    /// Only for the simulated feed: an HTTP endpoint's history is not known (a precondition).
    package func audit() -> ChangingFeed.Audit {
        guard let feed else {
            preconditionFailure("ScriptRunner.audit() needs the simulated feed, and this runner pages "
                + (options.url?.absoluteString ?? "an HTTP endpoint"))
        }
        let (rows, exhausted) = queue.sync { (Array(viewModel.items.value), viewModel.exhausted.value) }
        return feed.rows.audit(rows.map(\.feedItem), reachedEnd: exhausted)
    }

    private func perform(_ command: ScriptCommand) {
        switch command {
        case .next, .retry: viewModel.loadNextPage()
        case .fail:
            feed?.failNextLoad()
            viewModel.loadNextPage()
        case .reset: list.startOver(reload: false)
        case .reload: list.startOver(reload: true)
        case .wait: waitForLoad()
        case .prev: viewModel.loadPreviousPage()
        // The commands that read the cursor run on the view model's queue, after what is queued there.
        case .up: queue.sync { moveCursor(by: -1) }
        case .down: queue.sync { moveCursor(by: 1) }
        case .like: queue.sync { list.like() }
        case .delete: queue.sync { list.delete() }
        case .new: list.post()
        case .refresh: list.refresh()
        case .fill: list.fillGap()
        case let .search(query): search(query)
        }
    }

    /// `search=TEXT`: switches the query, and waits (passing the queue's blocks) until the switch ran and,
    /// with no latency, until the new query's first page is shown (as a `next` shows its page at once).
    private func search(_ query: String) {
        list.search(query)
        let waitsForPage = options.effectiveLatencyMilliseconds == 0
        let deadline = ContinuousClock.now + waitTimeout
        while ContinuousClock.now < deadline {
            let settled = queue.sync {
                list.search.map { $0.query.value == query && !(waitsForPage && $0.loadStates.value.isLoading) } ?? true
            }
            if settled { return }
        }
    }

    private func moveCursor(by delta: Int) {
        let count = list.items.value.count
        list.withScreen { $0.move(by: delta, count: count) }
        list.settle()
    }

    /// Blocks until `loading` is false (at once if it already is), or until `waitTimeout`.
    private func waitForLoad() {
        let settled = DispatchSemaphore(value: 0)
        let observation = viewModel.loading.producer.startWithValues { loading in
            if !loading { settled.signal() }
        }
        _ = settled.wait(timeout: .now() + waitTimeout.timeInterval)
        observation.dispose()
    }
}

/// The diagnostics a view model sent since the last `take()`. Thread-safe (`Locked`).
final class DiagnosticLog: Sendable {
    private let entries = Locked<[PaginatedListDiagnostic]>([])

    func append(_ diagnostic: PaginatedListDiagnostic) {
        entries.withLock { $0.append(diagnostic) }
    }

    /// The diagnostics sent since the last call, in order.
    func take() -> [PaginatedListDiagnostic] {
        entries.withLock { entries in
            defer { entries = [] }
            return entries
        }
    }
}
