import Foundation
import PaginatedList
import PaginatedListStore
import PagingDemoKit
import Signals

/// The interactive mode: an infinite-scroll list over a `SimulatedFeed` (through the `--source` the options
/// pick) or an HTTP endpoint (`--url`), drawn in the terminal; the status line counts the source's
/// corrections and shows the last one.
///
/// Everything here runs on the main thread: the view model delivers there (its default `UIScheduler`),
/// keys arrive there (`KeyReader` hands them to the main queue), redraws happen there. The observers the
/// view model calls are `@Sendable` closures; they enter the main actor with `MainActor.assumeIsolated`,
/// which holds because `UIScheduler` runs them on the main thread.
@MainActor
final class InteractiveDemo {
    private let options: DemoOptions
    /// The lists: one, or with `--store` two feeds of the store side by side ("home" and "profile", over the
    /// same simulated feed: they share their posts). Each has its view model, feed, cursor, living-list keys.
    private let lists: [DemoList]
    /// The list the keys act on (tab or w switches).
    private var focus = 0
    private var list: DemoList { lists[focus] }
    /// The simulated feed, or `nil` when the list pages an HTTP endpoint.
    private var feed: SimulatedFeed? { list.feed }
    private var viewModel: PaginatedListViewModel<Row, FeedError> { list.viewModel }
    private var observations: [any Disposable] = []
    /// SIGINT, SIGTERM (restore the terminal and exit) and SIGWINCH (redraw).
    private var signalSources: [any DispatchSourceSignal] = []
    private var redrawScheduled = false
    /// The source's corrections so far, and the description of the last diagnostic (a correction, or a
    /// misbehaving producer's outcome).
    private var corrections = 0
    private var lastDiagnostic: String?
    /// What the status line says until the next key (`/` over a list that cannot search).
    private var keyNote: String?
    /// The query as typed, each keystroke; the list searches once typing pauses for 300 ms (`start()`).
    private let (typedQueries, typed) = Signal<String, Never>.pipe()

    /// - Throws: with `--store`, the store's error when its file cannot be opened.
    init(options: DemoOptions) throws(StoreError) {
        self.options = options
        let home = try DemoList(options: options, scheduler: UIScheduler())
        lists = options.storePath == nil ? [home]
            : [home, try DemoList(sharing: home, feed: "paging-demo profile", options: options, scheduler: UIScheduler())]
    }

    /// Takes over the terminal, starts observing and reading keys, and loads the first page.
    func start() throws(TerminalError) {
        signalSources = try TerminalUI.enterRawMode()
        let changed: @Sendable () -> Void = { [weak self] in
            MainActor.assumeIsolated { self?.listDidChange() }
        }
        observations = lists.flatMap { list in
            [
                list.items.signal.observeValues { _ in changed() },
                list.loadStates.signal.observeValues { _ in changed() },
                list.viewModel.gap.signal.observeValues { _ in changed() },
                list.viewModel.diagnostics.observeValues { [weak self] diagnostic in
                    MainActor.assumeIsolated { self?.record(diagnostic) }
                },
            ].compactMap { $0 }
        }
        // Debounced: a burst of typing makes one search, so the requests for "a", "am", "amb" are not made.
        observations += [
            typedQueries.debounce(.milliseconds(300), on: QueueScheduler.main).observeValues { [weak self] query in
                MainActor.assumeIsolated { self?.list.search(query) }
            },
        ].compactMap { $0 }
        signalSources.append(TerminalUI.onResize { [weak self] in
            MainActor.assumeIsolated { self?.setNeedsRedraw() }
        })
        KeyReader.start(
            onKey: { [weak self] key in self?.handle(key) },
            onEnd: { [weak self] in self?.quit() }
        )
        listDidChange()
    }

    /// After any change of the list, its state or the cursor: keep the cursor on its row (the list follows
    /// `changes`: rows inserted or removed above do not move it off its row), tell the view model which
    /// row the user is looking at (it loads the next page when the row is within `--prefetch` rows of the
    /// end, the previous one when it is as near the top, and re-checks a row it was told about while a
    /// page loaded when that page lands, so a user parked at either end is not stranded; it does not
    /// retry a failed page), and redraw.
    private func listDidChange() {
        setNeedsRedraw()
    }

    /// Counts a correction and keeps the last diagnostic's description, for the status line.
    private func record(_ diagnostic: PaginatedListDiagnostic) {
        if diagnostic.isCorrection { corrections += 1 }
        lastDiagnostic = diagnostic.demoShortDescription
        setNeedsRedraw()
    }

    private func handle(_ key: Key) {
        keyNote = nil
        if type(key) { return listDidChange() }
        let count = list.items.value.count
        let screenful = max(TerminalUI.size.height - 6, 1)
        switch key {
        case .up, .character("k"): list.withScreen { $0.move(by: -1, count: count) }
        case .down, .character("j"): list.withScreen { $0.move(by: 1, count: count) }
        case .pageUp: list.withScreen { $0.move(by: -screenful, count: count) }
        case .pageDown, .character(" "): list.withScreen { $0.move(by: screenful, count: count) }
        case .home, .character("g"): list.withScreen { $0.move(to: 0, count: count) }
        case .end, .character("G"): list.withScreen { $0.move(to: count - 1, count: count) }
        case .character("u"): list.like()
        case .character("d"): list.delete()
        case .character("n"): list.post()
        case .character("r"): list.refresh()
        case .character("f"): list.fillGap()
        case .character("t"): list.tryAgain()
        case .character("R"), .character("x"): list.startOver(reload: true)
        case .character("\t"), .character("w"): focus = (focus + 1) % lists.count
        case .character("/"): if !list.startTyping() { keyNote = DemoList.cannotSearch }
        case .character("q"), .character("Q"), .interrupt: quit()
        case .character, .enter, .backspace, .escape: break
        }
        listDidChange()
    }

    /// A key while a query is typed (after `/`): a character or backspace edits the query, Return or Esc
    /// ends typing; `false` for the other keys (arrows, Ctrl-C), which act as usual.
    private func type(_ key: Key) -> Bool {
        guard let text = list.typing else { return false }
        let edited: String
        switch key {
        case let .character(character): edited = text + String(character)
        case .backspace: edited = String(text.dropLast())
        case .enter, .escape:
            list.endTyping()
            return true
        case .up, .down, .pageUp, .pageDown, .home, .end, .interrupt: return false
        }
        list.type(edited)
        typed.send(value: edited)
        return true
    }

    /// Redraws once for any number of changes made in one turn of the main queue.
    private func setNeedsRedraw() {
        guard !redrawScheduled else { return }
        redrawScheduled = true
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.redrawScheduled = false
                self.redraw()
            }
        }
    }

    /// Runs once the transitions queued before it were delivered (every change followed): settles the
    /// cursor on its row, prefetches around it (see `listDidChange()`), and draws.
    private func redraw() {
        let size = TerminalUI.size
        let width = lists.count == 1 ? size.width : max((size.width - 3) / 2, 20)
        var screens: [[ListScreen.Line]] = []
        for (index, list) in lists.enumerated() {
            list.settle()
            let viewModel = list.viewModel
            let (cursor, distance) = list.withScreen { ($0.cursor, $0.prefetchDistance) }
            viewModel.loadPagesIfNeeded(visibleIndex: cursor, prefetchDistance: distance)
            let window = list.window(maxPages: options.maxPages)
            let (rows, loadStates, lastError) = (list.items.value, list.loadStates.value, viewModel.lastError.value)
            let heading = lists.count == 1 ? title : (index == focus ? "▶ " : "  ") + (index == 0 ? "home" : "profile")
                + (index == 0 ? " | " + title : " (tab: switch)")
            let note = [list.searchStatus, keyNote, list.storeStatus(), list.likeStatus, lastDiagnostic.map { "fixes: \(corrections), last: \($0)" }]
                .compactMap { $0 }.joined(separator: " | ").nilIfEmpty
            screens.append(list.withScreen { screen in
                screen.render(rows: rows, loadStates: loadStates, lastError: lastError, title: heading, width: width,
                              height: size.height, note: note, window: window)
            })
        }
        if screens.count == 2 {
            TerminalUI.draw(screens[0], beside: screens[1], width: width)
        } else {
            TerminalUI.draw(screens[0])
        }
    }

    private var title: String {
        if let url = options.url { return "paging-demo | \(url.absoluteString) | style \(options.style.rawValue)" }
        let percent = Int((options.effectiveFailureRate * 100).rounded())
        let churn = options.churn > 0 ? ", churn \(options.churn)" : ""
        let window = options.maxPages.map { ", \($0) pages held" } ?? ""
        let start = options.start.map { ", from row \($0)" } ?? ""
        return "paging-demo | \(options.source.rawValue) source, \(options.items) items, \(options.pageSize)/page"
            + "\(start)\(window), \(options.effectiveLatencyMilliseconds) ms, \(percent)% failures\(churn), seed \(options.seed)"
    }

    /// Restores the terminal, prints a one-line summary and exits.
    private func quit() -> Never {
        TerminalUI.restore()
        let loads = feed.map { ", \($0.loadsStarted) requests started" } ?? ""
        print("paging-demo: \(viewModel.items.value.count) rows loaded\(loads), \(corrections) corrections.")
        exit(0)
    }
}

extension String {
    /// `nil` for the empty string.
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
