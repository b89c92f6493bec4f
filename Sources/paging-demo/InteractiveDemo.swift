import Foundation
import PaginatedList
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
    /// The simulated feed, or `nil` when the list pages an HTTP endpoint.
    private let feed: SimulatedFeed?
    private let viewModel: PaginatedListViewModel<Row, FeedError>
    private var screen: ListScreen
    private var observations: [any Disposable] = []
    /// SIGINT, SIGTERM (restore the terminal and exit) and SIGWINCH (redraw).
    private var signalSources: [any DispatchSourceSignal] = []
    private var redrawScheduled = false
    /// The source's corrections so far, and the description of the last diagnostic (a correction, or a
    /// misbehaving producer's outcome).
    private var corrections = 0
    private var lastDiagnostic: String?

    init(options: DemoOptions) {
        self.options = options
        (viewModel, feed) = options.makeList(scheduler: UIScheduler())
        screen = ListScreen(prefetchDistance: options.prefetch)
    }

    /// Takes over the terminal, starts observing and reading keys, and loads the first page.
    func start() throws(TerminalError) {
        signalSources = try TerminalUI.enterRawMode()
        let changed: @Sendable () -> Void = { [weak self] in
            MainActor.assumeIsolated { self?.listDidChange() }
        }
        observations = [
            viewModel.items.signal.observeValues { _ in changed() },
            viewModel.state.signal.observeValues { _ in changed() },
            viewModel.diagnostics.observeValues { [weak self] diagnostic in
                MainActor.assumeIsolated { self?.record(diagnostic) }
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

    /// After any change of the list, its state or the cursor: keep the cursor in the list, tell the view
    /// model which row the user is looking at (it loads when the row is within `--prefetch` rows of the
    /// end, and re-checks a row it was told about while a page loaded when that page lands, so a user
    /// parked at the end is not stranded; it does not retry a failed page), and redraw.
    private func listDidChange() {
        screen.clamp(count: viewModel.items.value.count)
        viewModel.loadNextPageIfNeeded(visibleIndex: screen.cursor, prefetchDistance: screen.prefetchDistance)
        setNeedsRedraw()
    }

    /// Counts a correction and keeps the last diagnostic's description, for the status line.
    private func record(_ diagnostic: PaginatedListDiagnostic) {
        if diagnostic.isCorrection { corrections += 1 }
        lastDiagnostic = diagnostic.demoShortDescription
        setNeedsRedraw()
    }

    private func handle(_ key: Key) {
        let count = viewModel.items.value.count
        let screenful = max(TerminalUI.size.height - 6, 1)
        switch key {
        case .up, .character("k"): screen.move(by: -1, count: count)
        case .down, .character("j"): screen.move(by: 1, count: count)
        case .pageUp: screen.move(by: -screenful, count: count)
        case .pageDown, .character(" "): screen.move(by: screenful, count: count)
        case .home, .character("g"): screen.move(to: 0, count: count)
        case .end, .character("G"): screen.move(to: count - 1, count: count)
        case .character("r"): viewModel.loadNextPage()   // after a failure: retries the failed page
        case .character("R"), .character("x"): viewModel.reload()
        case .character("q"), .character("Q"), .interrupt: quit()
        case .character: break
        }
        listDidChange()
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

    private func redraw() {
        let size = TerminalUI.size
        let lines = screen.render(
            rows: viewModel.items.value, state: viewModel.state.value, title: title,
            width: size.width, height: size.height,
            note: lastDiagnostic.map { "fixes: \(corrections), last: \($0)" }
        )
        TerminalUI.draw(lines)
    }

    private var title: String {
        if let url = options.url { return "paging-demo | \(url.absoluteString) | style \(options.style.rawValue)" }
        let percent = Int((options.effectiveFailureRate * 100).rounded())
        let churn = options.churn > 0 ? ", churn \(options.churn)" : ""
        return "paging-demo | \(options.source.rawValue) source, \(options.items) items, \(options.pageSize)/page, "
            + "\(options.effectiveLatencyMilliseconds) ms, \(percent)% failures\(churn), seed \(options.seed)"
    }

    /// Restores the terminal, prints a one-line summary and exits.
    private func quit() -> Never {
        TerminalUI.restore()
        let loads = feed.map { ", \($0.loadsStarted) requests started" } ?? ""
        print("paging-demo: \(viewModel.items.value.count) rows loaded\(loads), \(corrections) corrections.")
        exit(0)
    }
}
