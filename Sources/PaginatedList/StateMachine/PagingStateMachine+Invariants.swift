// What must hold between the machine's inputs, and how its state reads in a failure message.
//
// Built with `-Xswiftc -DPAGINATEDLIST_INTERNAL_CHECKS`, every input of the machine ends by checking the
// relations below (and `ItemStore`, `ItemList`, `IDPositions` and `PageLedger` check their own structure
// after each of their edits), so a broken invariant stops the run at the input that broke it. `.ci/run`
// runs the model-based suites once that way. Without the flag the checks compile to nothing.

extension PagingStateMachine: InvariantChecking {
    @usableFromInline
    var invariantContext: String { stateDescription }

    /// What is wrong between the parts of the machine, if anything (each part checks its own structure):
    /// O(pages + loads); for tests and `_checkInvariants()`.
    @usableFromInline
    func invariantViolations() -> [String] {
        var problems: [String] = []
        if ledger.itemCount != store.count {
            problems.append("the ledger's pages count \(ledger.itemCount) items, the list holds \(store.count)")
        }
        if let maxPages, ledger.pageCount > maxPages {
            problems.append("\(ledger.pageCount) pages held, maxPages \(maxPages)")
        }
        if let gap, gap.index <= 0 || gap.index >= store.count {
            problems.append("gap at \(gap.index), not strictly inside the \(store.count) items")
        }
        // Each load in flight is one of the loads started, and only one state waits for it.
        let inFlight = [append.loadID, prepend.loadID, refresh.loadID].compactMap { $0 }
        if Set(inFlight).count != inFlight.count { problems.append("one load in flight for two states") }
        for load in inFlight + landed where load.value >= loadCounter {
            problems.append("load \(load.value) was never started (\(loadCounter) started)")
        }
        if inFlight.contains(where: landed.contains) { problems.append("a landed load is still in flight") }
        if landed.count > Self.landedMemory { problems.append("\(landed.count) landed loads remembered") }
        // While a refresh runs, the ends wait: their loads were cut off and `load` starts none.
        if refresh.isBusy, append.loadID != nil || prepend.loadID != nil {
            problems.append("an end loads while a refresh runs")
        }
        // `failureOrder` lists exactly the kinds whose last load failed, each once.
        let failed = [LoadKind.refresh, .edge(.prepend), .edge(.append)].filter { kind in
            switch kind {
            case .refresh: refresh.loadState.error != nil
            case let .edge(direction): edge(direction).loadState.error != nil
            }
        }
        if failureOrder.count != Set(failureOrder.map(\.description)).count {
            problems.append("a kind is twice in the failure order \(failureOrder)")
        }
        if Set(failureOrder.map(\.description)) != Set(failed.map(\.description)) {
            problems.append("failure order \(failureOrder), failed kinds \(failed)")
        }
        return problems
    }

    /// The machine's state in a line, for failure messages: each edge, the refresh, the failure order, the
    /// pages and items held, the gap and the loads started.
    @usableFromInline
    var stateDescription: String {
        "append \(append.summary), prepend \(prepend.summary), refresh \(refresh.summary), "
            + "failure order \(failureOrder), \(ledger.pageCount) pages, \(store.count) items, "
            + "gap \(gap.map { "at \($0.index)" } ?? "none"), \(loadCounter) loads started, landed \(landed.map(\.value))"
    }
}

extension PagingStateMachine.Edge {
    /// The load in flight, if the edge is loading.
    var loadID: LoadID? {
        if case let .loading(_, load) = self { return load }
        return nil
    }

    /// The case, and the load it names.
    var summary: String {
        switch self {
        case .waiting: "waiting"
        case .ready: "ready"
        case let .loading(_, load): "loading \(load.value)"
        case let .failed(_, _, retryOf): "failed" + (retryOf.map { " (retry of \($0.value) waits)" } ?? "")
        case .complete: "complete"
        }
    }
}

extension PagingStateMachine.RefreshEdge {
    /// The load in flight, if a check or a page of the refresh is.
    var loadID: LoadID? {
        switch self {
        case let .checking(_, _, _, load), let .loading(_, _, load): load
        case .idle, .failed: nil
        }
    }

    /// The case, and the load it names.
    var summary: String {
        switch self {
        case .idle: "idle"
        case let .checking(_, _, _, load): "checking \(load.value)"
        case let .loading(progress, _, load): "loading \(load.value) (\(progress.fresh.count) pages waiting)"
        case let .failed(_, _, _, retryOf): "failed" + (retryOf.map { " (retry of \($0.value) waits)" } ?? "")
        }
    }
}
