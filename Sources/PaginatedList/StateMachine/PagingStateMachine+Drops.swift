import Signals

// Pages dropped at the ends (`maxPages`): what a landing drops, how each dropped page is loaded again,
// and the changes of a landing and its drops in an order a view can replay.
//
// A view model with `maxPages` drops a page for every page that lands once it holds that many: the drop
// is as hot as the landing (`Benchmarks livinglists`, the window of 10 pages: out of line, unspecialised,
// each drop looked up generic metadata for the list, the ledger and the edges, +37% instructions per
// page). So the drops are inlinable, behind `holdsTooManyPages`; the reordering of the changes
// (`replayable`), which reads no item, is out of line.

extension PagingStateMachine {
    /// Whether more pages are held than `maxPages` allows (a landing then drops some).
    @inlinable
    var holdsTooManyPages: Bool {
        guard let maxPages else { return false }
        return ledger.pageCount > maxPages
    }

    /// With `maxPages`, drops the pages farthest from the end a page just landed at until at most
    /// `maxPages` are held; each dropped page's request is kept to load it again from that end, and that
    /// end's edge becomes ready to load it (a load in flight there is cut off: it would land next to items
    /// no longer held).
    @inlinable
    mutating func dropPages(awayFrom direction: Direction) -> (changes: [ItemListChange], actions: [Action]) {
        guard let maxPages else { return ([], []) }
        var changes: [ItemListChange] = []
        var actions: [Action] = []
        while ledger.pageCount > maxPages {
            let open = gap
            switch direction {
            case .append:
                let dropped = ledger.removeFirst()
                if dropped.count > 0 {
                    let removed = store.removeFirst(dropped.count)
                    noteGap(after: removed)
                    changes += removed
                }
                if let open, gap == nil {
                    // Everything above the gap is gone: the list begins below it. Above lie the gap and
                    // the pages dropped with it: the page just dropped is loaded again from above, and the
                    // gap opens again below it when it lands (`gapAbove`).
                    if let request = dropped.record.loadedBy {
                        droppedAbove.append(request)
                        gapAbove = (droppedAbove.count, open)
                        actions += replaceEdge(.prepend, with: request)
                    } else {
                        droppedAbove = []
                        gapAbove = nil
                        actions += replaceEdge(.prepend, with: ledger.first?.record.previous.map { .producer($0) })
                    }
                    continue
                }
                actions += replaceEdge(.prepend, with: rememberDroppedAbove(dropped.record))
            case .prepend:
                let dropped = ledger.removeLast()
                if dropped.count > 0 {
                    let removed = store.removeLast(dropped.count)
                    noteGap(after: removed)
                    changes += removed
                }
                if let open, gap == nil {
                    // Everything below the gap is gone: the list ends at the gap and goes on from it.
                    actions += continueFromGap(open)
                    continue
                }
                actions += replaceEdge(.append, with: rememberDroppedBelow(dropped.record))
            }
        }
        return (changes, actions)
    }

    /// How to load a page just dropped at the top again. When nothing is remembered above and the page
    /// now first was joined to it (see `PageRecord.joinedAbove`), by that page's `previous`: nothing needs
    /// remembering, each page loaded again leads to the one above it, so memory stays flat however far the
    /// user scrolls. Otherwise (a source that pages only downwards, or pages a refresh rearranged) by the
    /// request that loaded the dropped page, kept on `droppedAbove`.
    @inlinable
    mutating func rememberDroppedAbove(_ dropped: PageRecord) -> PageRequest<Item, Failure>? {
        if droppedAbove.isEmpty, let first = ledger.first?.record, first.joinedAbove == joinEpoch,
           let previous = first.previous {
            return .producer(previous)
        }
        if let request = dropped.loadedBy { droppedAbove.append(request) }
        return droppedAbove.last ?? ledger.first?.record.previous.map { .producer($0) }
    }

    /// How to load a page just dropped at the bottom again: by the `next` of the page now last when the
    /// dropped page was joined to it and nothing is remembered below, else by the request that loaded the
    /// dropped page, kept on `droppedBelow` (see `rememberDroppedAbove`).
    @inlinable
    mutating func rememberDroppedBelow(_ dropped: PageRecord) -> PageRequest<Item, Failure>? {
        if droppedBelow.isEmpty, dropped.joinedAbove == joinEpoch, let next = ledger.last?.record.next {
            return .producer(next)
        }
        if let request = dropped.loadedBy { droppedBelow.append(request) }
        return droppedBelow.last ?? ledger.last?.record.next.map { .producer($0) }
    }

    /// Makes `kind`'s edge ready to load `request` (`nil`: complete), cutting off its load in flight and
    /// cancelling its waiting retry.
    @inlinable
    mutating func replaceEdge(_ direction: Direction, with request: PageRequest<Item, Failure>?) -> [Action] {
        var actions: [Action] = []
        switch edge(direction) {
        case let .loading(_, load): actions.append(.cutOff(load))
        case .failed(_, _, retryOf: _?): actions.append(.cancelRetry(.edge(direction)))
        default: break
        }
        failureOrder.removeAll { $0 == .edge(direction) }
        setEdge(direction, request.map { .ready(PendingLoad(request: $0)) } ?? .complete)
        return actions
    }

    /// A landing's changes followed by those of the drops it caused, in an order a view can replay reading
    /// every inserted and updated row from the transition's snapshot (whose offsets are final): after an
    /// append, the drops at the top come first and the landed rows' offsets move up by the rows dropped;
    /// after a prepend, the drops at the bottom stay last and rows updated, then dropped, are not reported.
    @usableFromInline
    static func replayable(
        _ landing: [ItemListChange], then drops: [ItemListChange], at direction: Direction, finalCount: Int
    ) -> [ItemListChange] {
        guard !drops.isEmpty else { return landing }
        switch direction {
        case .append:
            let dropped = drops.reduce(0) { sum, change in
                if case let .removed(offsets) = change { return sum + offsets.count }
                return sum
            }
            return drops + landing.compactMap { change in
                switch change {
                case let .appended(range): .appended(range.lowerBound - dropped ..< range.upperBound - dropped)
                case let .inserted(range): .inserted(range.lowerBound - dropped ..< range.upperBound - dropped)
                case let .updated(offsets):
                    offsets.contains { $0 >= dropped } ? .updated(offsets.filter { $0 >= dropped }.map { $0 - dropped }) : nil
                default: change
                }
            }
        case .prepend:
            return landing.compactMap { change in
                guard case let .updated(offsets) = change else { return change }
                return offsets.contains { $0 < finalCount } ? .updated(offsets.filter { $0 < finalCount }) : nil
            } + drops
        }
    }
}
