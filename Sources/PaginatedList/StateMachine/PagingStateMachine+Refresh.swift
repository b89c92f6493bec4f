import Signals

/// Refreshes and gaps: the loads that bring a held list up to date without blanking it.
///
/// A refresh first cuts off the append and prepend loads in flight (their pages never land) and, while it
/// runs, `loadNextPage()` / `loadPreviousPage()` do nothing. It may start with a freshness check (a
/// producer of "changed?"): unchanged ends the refresh with no page request. Then it loads pages from the
/// dependency's first page, and applies them by its mode when it has enough:
///
/// - `.replace`: the first page replaces the list.
/// - `.mergeOnTop`: pages accumulate until one overlaps the held items (contains a held id), then they
///   are merged above them; no overlap within the budget (of pages holding items): replace, or keep the
///   held items below a gap.
/// - `.reloadAll`: pages accumulate until as many as the list held have landed (or the feed ended); then
///   each replaces the range of the held page it reloads, in one transition.
/// - `.fillGap`: pages load from the gap downwards, each inserted at the gap as a page of the ledger,
///   until one overlaps the items below it (the gap closes) or the budget is spent (the gap stays, lower
///   down).
extension PagingStateMachine {
    /// What a refresh does with the pages it loads.
    @usableFromInline
    enum RefreshMode: Sendable {
        case replace
        case mergeOnTop(maxPages: Int, onGap: GapPolicy)
        case reloadAll
        case fillGap
    }

    /// A page a refresh loaded and has not applied yet.
    @usableFromInline
    struct FreshPage {
        var items: [Item]
        var record: PageRecord
    }

    /// How far a refresh got.
    @usableFromInline
    struct RefreshProgress {
        let mode: RefreshMode
        /// `.mergeOnTop`, `.reloadAll`: the pages loaded so far, applied together when one overlaps (when
        /// the last lands).
        var fresh: [FreshPage] = []
        /// `.reloadAll`, `.fillGap`: how many pages were applied.
        var pagesApplied = 0
        /// `.reloadAll`: how many pages the list held when the refresh started.
        var pagesToReload = 0
        /// `.reloadAll`: items `0 ..< reloadedEnd` are the reloaded pages' content.
        var reloadedEnd = 0
    }

    /// The step a failed refresh retries.
    @usableFromInline
    enum RefreshStep {
        case check(Producer<Bool, Failure>, PendingLoad)
        case page(PendingLoad)
    }

    /// The refresh's state.
    @usableFromInline
    enum RefreshEdge {
        case idle
        /// The freshness check runs as `LoadID`.
        case checking(RefreshProgress, Producer<Bool, Failure>, PendingLoad, LoadID)
        /// A page of the refresh loads as `LoadID`.
        case loading(RefreshProgress, PendingLoad, LoadID)
        /// A step failed; an automatic retry of it waits when `retryOf` names the failed load.
        case failed(Failure, RefreshProgress, RefreshStep, retryOf: LoadID?)

        @inlinable
        var loadState: LoadState<Failure> {
            switch self {
            case .idle: .idle
            case .checking, .loading: .loading
            case let .failed(error, _, _, _): .failed(error)
            }
        }

        /// Whether a refresh is in flight (appends and prepends wait).
        @inlinable
        var isBusy: Bool {
            switch self {
            case .checking, .loading: true
            case .idle, .failed: false
            }
        }

        /// Whether the refresh failed with no automatic retry waiting (nothing of it is in flight).
        @inlinable
        var isFailedWithoutRetry: Bool {
            if case .failed(_, _, _, retryOf: nil) = self { return true }
            return false
        }
    }

    // MARK: - Commands

    /// `refresh(_:)`: cuts off every load in flight and starts a refresh (`check` first, if given).
    @usableFromInline
    mutating func refresh(_ mode: RefreshMode, check: Producer<Bool, Failure>?) -> [Action] {
        defer { _checkInvariants() }
        var actions = cutOffRefresh() + cutOffEdges()
        var progress = RefreshProgress(mode: mode)
        if case .reloadAll = mode { progress.pagesToReload = Swift.max(ledger.pageCount, 1) }
        guard let check else {
            return actions + startRefreshPage(progress, PendingLoad(request: .firstPage))
        }
        let load = nextLoadID()
        failureOrder.removeAll { $0 == .refresh }
        refresh = .checking(progress, check, PendingLoad(request: .firstPage), load)
        actions += [transition(), .startCheck(load, check)]
        return actions
    }

    /// `fillGap()`: loads the items missing at the gap; nothing without a gap or while a refresh runs.
    @usableFromInline
    mutating func fillGap() -> [Action] {
        defer { _checkInvariants() }
        guard let gap, !refresh.isBusy else { return [] }
        let actions = cutOffRefresh() + cutOffEdges()
        return actions + startRefreshPage(RefreshProgress(mode: .fillGap), PendingLoad(request: .producer(gap.continuation)))
    }

    /// Cuts off the refresh in flight (or cancels its waiting retry); the refresh state goes back to idle.
    @usableFromInline
    mutating func cutOffRefresh() -> [Action] {
        var actions: [Action] = []
        switch refresh {
        case let .checking(_, _, _, load), let .loading(_, _, load): actions.append(.cutOff(load))
        case .failed(_, _, _, retryOf: _?): actions.append(.cancelRetry(.refresh))
        case .idle, .failed: break
        }
        refresh = .idle
        failureOrder.removeAll { $0 == .refresh }
        return actions
    }

    /// The automatic retry of the refresh's failed step is due. Like the refresh it retries, it cuts off the
    /// appends and prepends started while it waited (a failed refresh does not hold the ends back).
    @usableFromInline
    mutating func refreshRetryDue(of failedLoad: LoadID) -> [Action] {
        defer { _checkInvariants() }
        guard case .failed(_, _, _, let retryOf) = refresh, retryOf == failedLoad else { return [] }
        return resumeFailedRefresh()
    }

    /// A mirror's `retry()` after a failed refresh or gap fill, whoever started it: runs the step that failed
    /// again now, as its automatic retry would (which is cancelled, if one waits). Nothing unless the refresh
    /// failed.
    @usableFromInline
    mutating func retryFailedRefresh() -> [Action] {
        defer { _checkInvariants() }
        guard case .failed(_, _, _, let retryOf) = refresh else { return [] }
        let cancel: [Action] = retryOf == nil ? [] : [.cancelRetry(.refresh)]
        return cancel + resumeFailedRefresh()
    }

    /// Runs the failed refresh's step again, going on from where it stopped.
    private mutating func resumeFailedRefresh() -> [Action] {
        guard case .failed(_, var progress, let step, _) = refresh else { return [] }
        let actions = cutOffEdges()
        // Pages the user loaded while the retry waited are held too: a reload reloads them (else the last
        // reloaded page would end the list above them).
        if case .reloadAll = progress.mode {
            progress.pagesToReload = Swift.max(progress.pagesToReload, ledger.pageCount)
        }
        switch step {
        case let .page(pending):
            return actions + startRefreshPage(progress, pending)
        case let .check(check, pending):
            let load = nextLoadID()
            failureOrder.removeAll { $0 == .refresh }
            refresh = .checking(progress, check, pending, load)
            return actions + [transition(), .startCheck(load, check)]
        }
    }

    private mutating func startRefreshPage(_ progress: RefreshProgress, _ pending: PendingLoad) -> [Action] {
        let load = nextLoadID()
        failureOrder.removeAll { $0 == .refresh }
        refresh = .loading(progress, pending, load)
        return [transition(), .start(load, pending.request)]
    }

    // MARK: - Events

    /// An event of the freshness check `load`.
    @usableFromInline
    mutating func receiveCheck(_ event: Event<Bool, Failure>, of load: LoadID) -> [Action] {
        defer { _checkInvariants() }
        guard case let .checking(progress, check, pending, current) = refresh, current == load else {
            return unexpected(event.map { _ in () }, of: load)
        }
        switch event {
        case let .value(changed):
            markLanded(load)
            guard changed else {
                refresh = .idle
                return [.cutOff(load), transition()]
            }
            return [.cutOff(load)] + startRefreshPage(progress, PendingLoad(request: .firstPage))
        case let .failed(error):
            let outcome = failure(of: .refresh, load: load, error: error, pending: pending)
            refresh = .failed(error, progress, .check(check, outcome.failed), retryOf: outcome.retryOf)
            return [.cutOff(load), transition()] + outcome.then
        case .completed, .interrupted:
            refresh = .idle
            let diagnostic: PaginatedListDiagnostic = if case .completed = event { .completedWithoutPage } else { .interruptedWithoutPage }
            return [.cutOff(load), transition(), .report(diagnostic)]
        }
    }

    /// An event of the refresh's page load `load` (in flight with `progress`, for `pending`).
    @usableFromInline
    mutating func receiveRefresh(
        _ event: Event<Page<Item, Failure>, Failure>, of load: LoadID, progress: RefreshProgress, pending: PendingLoad
    ) -> [Action] {
        switch event {
        case let .value(page):
            markLanded(load)
            joinEpoch &+= 1   // this page rearranges the pages held: their joins no longer hold
            let record = PageRecord(loadedBy: pending.request, previous: page.previous, next: page.next, origin: page.origin)
            let fresh = FreshPage(items: page.items, record: record)
            if let total = page.totalCount { totalCount = total }
            var actions: [Action] = [.cutOff(load)]
            var report: PaginatedListDiagnostic?
            let (changes, then) = apply(fresh, progress: progress, report: &report)
            if let (next, producer) = then {
                refresh = .loading(next, pending, load)
                actions.insert(transition(changes), at: 0)
                actions += startRefreshPage(next, PendingLoad(request: .producer(producer)))
            } else {
                refresh = .idle
                actions.insert(transition(changes), at: 0)
            }
            for diagnostic in page.diagnostics { actions.append(.report(diagnostic)) }
            if let report { actions.append(.report(report)) }
            return actions
        case let .failed(error):
            let outcome = failure(of: .refresh, load: load, error: error, pending: pending)
            refresh = .failed(error, progress, .page(outcome.failed), retryOf: outcome.retryOf)
            return [.cutOff(load), transition()] + outcome.then
        case .completed, .interrupted:
            refresh = .idle
            let diagnostic: PaginatedListDiagnostic = if case .completed = event { .completedWithoutPage } else { .interruptedWithoutPage }
            return [.cutOff(load), transition(), .report(diagnostic)]
        }
    }

    /// What the refresh does after a page: load the page `producer` gives, going on with `progress`.
    private typealias NextRefreshPage = (progress: RefreshProgress, producer: PageProducer)

    /// Applies a refresh's page by its mode: the changes made, and the page to load next with the
    /// progress to go on with (the page's `next`), `nil` when the refresh is done; `report` is set to what
    /// the view model reports of a refresh that stopped short.
    private mutating func apply(
        _ page: FreshPage, progress: RefreshProgress, report: inout PaginatedListDiagnostic?
    ) -> ([ItemListChange], NextRefreshPage?) {
        var progress = progress
        switch progress.mode {
        case .replace:
            return (replaceAll(with: [page]), nil)
        case let .mergeOnTop(maxPages, onGap):
            progress.fresh.append(page)
            if !store.isEmpty, let overlap = firstOverlap(of: progress.fresh, from: 0) {
                return (merge(progress.fresh, at: 0, overlap: overlap), nil)
            }
            // Nothing held, or the feed ended before reaching the held items: they are gone from it.
            guard !store.isEmpty, let next = page.record.next else {
                return (replaceAll(with: progress.fresh), nil)
            }
            // Pages with no items do not count towards the budget (they put nothing above the held items),
            // up to `maxEmptyPagesInARow` in a row, which stop the refresh (reported): the pages that held
            // items are applied as when the budget is spent; when none did, the list stays as it was.
            let holding = progress.fresh.count { !$0.items.isEmpty }
            let emptyInARow = progress.fresh.reversed().prefix { $0.items.isEmpty }.count
            if holding < Swift.max(maxPages, 1), emptyInARow < Self.maxEmptyPagesInARow {
                return ([], (progress, next))
            }
            if emptyInARow >= Self.maxEmptyPagesInARow { report = .emptyPagesLimitReached(count: emptyInARow) }
            if holding == 0 { return ([], nil) }
            switch onGap {
            case .replace: return (replaceAll(with: progress.fresh), nil)
            case .keepGap: return (openGap(above: progress.fresh, continuation: next, budget: Swift.max(maxPages, 1)), nil)
            }
        case .reloadAll:
            // The pages are applied together when the last lands: a reload that fails or is cut off
            // part-way leaves the list as it was, never half old pages and half new ones.
            // As many pages holding items as the list holds (pages with no items hold no place in it, as an
            // append's), up to `maxEmptyPagesInARow` empty ones in a row, which stop the reload (reported).
            progress.fresh.append(page)
            let holding = progress.fresh.filter { !$0.items.isEmpty }
            let emptyInARow = progress.fresh.reversed().prefix { $0.items.isEmpty }.count
            if holding.count < progress.pagesToReload, emptyInARow < Self.maxEmptyPagesInARow, let next = page.record.next {
                return ([], (progress, next))
            }
            if emptyInARow >= Self.maxEmptyPagesInARow, page.record.next != nil {
                report = .emptyPagesLimitReached(count: emptyInARow)
                // No page held items and the feed goes on: nothing tells what it holds; the list stays.
                if holding.isEmpty { return ([], nil) }
            }
            var changes: [ItemListChange] = []
            // An empty feed still has its top: its first page, held empty.
            for (index, fresh) in (holding.isEmpty ? [progress.fresh[0]] : holding).enumerated() {
                changes += reload(fresh, asPage: index, progress: &progress)
                progress.pagesApplied += 1
            }
            return (changes + finishReload(after: page, progress: progress), nil)
        case .fillGap:
            return fill(with: page, progress: progress)
        }
    }

    // MARK: - Replace

    /// The list becomes the fresh pages' items (`.reset`, or `.appended` into an empty list).
    private mutating func replaceAll(with pages: [FreshPage]) -> [ItemListChange] {
        let hadItems = !store.isEmpty
        _ = store.removeAll()
        ledger.removeAll()
        var changes: [ItemListChange] = []
        for page in pages {
            let added = store.append(page.items)
            // A page that added no item holds no place in the list (as an append's): it would only take a
            // slot of `maxPages`. When none added any, the first is kept: an empty list still has its top.
            if Self.insertedCount(added) > 0 { ledger.append(count: Self.insertedCount(added), record: page.record) }
            changes += added
        }
        if ledger.isEmpty { ledger.append(count: 0, record: pages.first!.record) }
        droppedAbove = []
        gapAbove = nil
        droppedBelow = []
        gap = nil
        settleEdges(top: pages.first!.record, bottom: pages.last!.record)
        changes = dropPagesAfterRefresh(after: changes)
        return hadItems ? [.reset] : changes
    }

    /// After the list's top became the feed's top: the prepend edge loads what lies before the top page,
    /// the append edge what lies after the bottom one.
    private mutating func settleEdges(top: PageRecord?, bottom: PageRecord?) {
        if let top { setEdge(.prepend, top.previous.map { .ready(PendingLoad(request: .producer($0))) } ?? .complete) }
        if let bottom { setEdge(.append, bottom.next.map { .ready(PendingLoad(request: .producer($0))) } ?? .complete) }
    }

    // MARK: - Merge on top

    /// The position of the first held item at or after `start` that one of the fresh pages contains.
    private func firstOverlap(of pages: [FreshPage], from start: Int) -> Int? {
        var first: Int?
        for page in pages {
            for item in page.items {
                guard let position = store.position(ofIDOf: item), position >= start else { continue }
                first = Swift.min(first ?? position, position)
            }
        }
        return first
    }

    /// The held items at or after `start` that the fresh pages hold in the list's order: the longest run,
    /// in the pages' order (each id at its first occurrence), whose positions in the list increase
    /// (`longestIncreasingRun`); of runs as long, the one that ends first in the pages (a held item the
    /// feed moved down comes later in them than its place says). O(k log k) for the k held items the
    /// pages bring back.
    private func inOrderHeldKeys(of pages: [FreshPage], from start: Int) -> Set<AnyHashable> {
        var keys: [AnyHashable] = []
        var positions: [Int] = []
        var seen: Set<AnyHashable> = []
        for page in pages {
            for item in page.items {
                guard let key = store.key(of: item), let position = store.position(ofKey: key), position >= start,
                      seen.insert(key).inserted else { continue }
                keys.append(key)
                positions.append(position)
            }
        }
        return Set(Self.longestIncreasingRun(positions, endingFirst: true).map { keys[$0] })
    }

    /// Merges the fresh pages into the list at `start` (0, or the gap), given the first held item they
    /// overlap: the held items between `start` and it are removed (the feed no longer has them); new items
    /// before the first held one are inserted at `start`, new items after a held one right after it (a held
    /// one the pages hold in the list's order: see `inOrderHeldKeys`); held items that came back are
    /// updated in place.
    ///
    /// The merge is planned first, then made: the runs of new items are inserted top to bottom and the
    /// updates reported last, at their final offsets, so that every change names its rows by their offsets
    /// in the transition's snapshot, also when the fresh pages hold the held items in another order than
    /// the list (a feed that re-ranked). A new id repeated in the fresh pages keeps its first position and
    /// its last value.
    ///
    /// The new items inserted at `start` belong to the fresh pages that brought them: at the top, those
    /// pages are put above the held ones; at a gap, they are put in the ledger at `pageAtStart` (the page
    /// after the last one above the gap). New items after a held one belong to its page.
    private mutating func merge(
        _ pages: [FreshPage], at start: Int, overlap: Int, pageAtStart: Int = 0
    ) -> [ItemListChange] {
        var changes: [ItemListChange] = []
        if overlap > start {
            let removed = store.remove(offsets: Array(start ..< overlap))
            removeFromLedger(start ..< overlap)
            noteGap(after: removed)
            changes += removed
            if start > 0 {
                // The pages below the gap the removal emptied go (as the pages emptied above the overlap at
                // the top do, below): they hold nothing, and would take slots of `maxPages`.
                let end = ledger.page(holding: start) ?? ledger.pageCount
                for page in (Swift.min(pageAtStart, end) ..< end).reversed() where ledger[page].count == 0 {
                    ledger.remove(atPage: page)
                }
            }
        }
        if start == 0 {
            // The pages emptied above the overlap go too: the fresh pages are the top now, and a drop must
            // not take one of them for the page above the list.
            while let first = ledger.first, first.count == 0 { _ = ledger.removeFirst() }
        }
        // The runs of new items: the first at `start`, each other after the held item (its anchor) that
        // precedes it in the fresh pages. Held items stay where they are, so only those the fresh pages
        // hold in the list's order can anchor: a held item the feed moved would put the new items after
        // it next to its old place, out of order with the items around them.
        let anchors = inOrderHeldKeys(of: pages, from: start)
        var runs: [(anchor: AnyHashable?, items: [(item: Item, page: Int)])] = [(nil, [])]
        var runOfAnchor: [AnyHashable: Int] = [:]
        var current = 0
        var planned: [AnyHashable: (run: Int, index: Int)] = [:]
        var updates: [AnyHashable: Item] = [:]
        for (pageIndex, page) in pages.enumerated() {
            for item in page.items {
                let key = store.key(of: item)
                if let key, let held = store.position(ofKey: key) {
                    updates[key] = item
                    guard held >= start, anchors.contains(key) else { continue }
                    if let run = runOfAnchor[key] {
                        current = run
                    } else {
                        runOfAnchor[key] = runs.count
                        current = runs.count
                        runs.append((key, []))
                    }
                } else if let key, let slot = planned[key] {
                    runs[slot.run].items[slot.index].item = item
                } else {
                    if let key { planned[key] = (current, runs[current].items.count) }
                    runs[current].items.append((item, pageIndex))
                }
            }
        }
        for (key, item) in updates {
            _ = store.replace(at: store.position(ofKey: key)!, with: item)
        }
        // Top to bottom: each insertion lands below the rows the earlier ones inserted.
        let order = runs.indices.sorted { lhs, rhs in
            (runs[lhs].anchor.flatMap { store.position(ofKey: $0) } ?? -1)
                < (runs[rhs].anchor.flatMap { store.position(ofKey: $0) } ?? -1)
        }
        for index in order where !runs[index].items.isEmpty {
            let run = runs[index]
            let row = run.anchor.map { store.position(ofKey: $0)! + 1 } ?? start
            let inserted = store.insert(run.items.map(\.item), at: row)
            if run.anchor == nil {
                // The new items at `start` belong to the fresh pages that brought them.
                var perPage: [Int: Int] = [:]
                for entry in run.items { perPage[entry.page, default: 0] += 1 }
                let ledgerPage = start == 0 ? 0 : pageAtStart
                for pageIndex in perPage.keys.sorted(by: >) {
                    if start == 0 {
                        ledger.prepend(count: perPage[pageIndex]!, record: pages[pageIndex].record)
                    } else {
                        ledger.insert(count: perPage[pageIndex]!, record: pages[pageIndex].record, atPage: ledgerPage)
                    }
                }
                let extra = Self.insertedCount(inserted) - run.items.count
                if extra != 0, !ledger.isEmpty { ledger.adjust(page: ledgerPage, by: extra) }
                noteGap(after: inserted)
            } else {
                attributeInsertions(in: inserted)
            }
            changes += inserted
        }
        let updated = updates.keys.compactMap { store.position(ofKey: $0) }.sorted()
        if !updated.isEmpty { changes.append(.updated(updated)) }
        if start == 0 {
            droppedAbove = []
            gapAbove = nil
            settleEdges(top: pages.first?.record, bottom: nil)
            changes = dropPagesAfterRefresh(after: changes)
        }
        return changes
    }

    /// Removes the ledger's count of the items in `range` (already removed from the list).
    private mutating func removeFromLedger(_ range: Range<Int>) {
        for offset in range.reversed() {
            if let page = ledger.page(holding: offset) { ledger.adjust(page: page, by: -1) }
        }
    }

    /// With `maxPages`, drops pages at the bottom after a refresh made `changes` (putting pages at the
    /// top): `changes` and the drops, as one sequence a view can replay (see `truncated`).
    private mutating func dropPagesAfterRefresh(after changes: [ItemListChange]) -> [ItemListChange] {
        guard let maxPages, ledger.pageCount > maxPages else { return changes }
        let length = items.count
        while ledger.pageCount > maxPages {
            let open = gap
            let dropped = ledger.removeLast()
            if dropped.count > 0 {
                let removed = store.removeLast(dropped.count)
                noteGap(after: removed)
            }
            if let open, gap == nil {
                // Everything below the gap is gone: the list ends at the gap and goes on from it (pages
                // below it that edits emptied go too: the next page is the gap's, not theirs).
                removeFromLedgerBottom(from: items.count)
                droppedBelow = []
                setEdge(.append, .ready(PendingLoad(request: .producer(open.continuation))))
                continue
            }
            setEdge(.append, rememberDroppedBelow(dropped.record).map { .ready(PendingLoad(request: $0)) } ?? .complete)
        }
        return Self.truncated(changes, from: length, to: items.count)
    }

    /// `changes` (which left `length` items), then the removal of the items from `finalCount` on (pages
    /// dropped at the bottom), as changes a view can replay reading every inserted and updated row from
    /// the transition's snapshot: the rows `changes` inserted or updated that the drop removed are left
    /// out of them, and the drop removes only the rows that were there before. `changes` must make its
    /// removals and moves before any insertion or update, as every refresh does (the rows inserted then
    /// keep their order, so the dropped ones are a suffix at every step); otherwise, `.reset`.
    static func truncated(_ changes: [ItemListChange], from length: Int, to finalCount: Int) -> [ItemListChange] {
        guard finalCount < length else { return changes }
        func grows(_ change: ItemListChange) -> Bool {
            switch change {
            case .appended, .inserted, .updated: true
            case .removed, .moved, .reset: false
            }
        }
        let firstGrowth = changes.firstIndex(where: grows) ?? changes.count
        guard !changes.contains(.reset), changes[firstGrowth...].allSatisfy(grows) else { return [.reset] }
        // Going back from the end: the offset from which the rows after each change are dropped.
        var droppedFrom = [Int](repeating: 0, count: changes.count)
        var cut = finalCount
        for index in (firstGrowth ..< changes.count).reversed() {
            droppedFrom[index] = cut
            switch changes[index] {
            case let .appended(range), let .inserted(range):
                if range.upperBound <= cut { cut -= range.count } else if range.lowerBound < cut { cut = range.lowerBound }
            default: break
            }
        }
        var result = Array(changes[..<firstGrowth])
        var droppedInserted = 0
        for index in firstGrowth ..< changes.count {
            let cut = droppedFrom[index]
            switch changes[index] {
            case let .appended(range), let .inserted(range):
                let kept = range.lowerBound ..< Swift.min(range.upperBound, Swift.max(cut, range.lowerBound))
                droppedInserted += range.count - kept.count
                if !kept.isEmpty {
                    if case .appended = changes[index] { result.append(.appended(kept)) } else { result.append(.inserted(kept)) }
                }
            case let .updated(offsets):
                let kept = offsets.filter { $0 < cut }
                if !kept.isEmpty { result.append(.updated(kept)) }
            default: break
            }
        }
        let droppedHeld = length - finalCount - droppedInserted
        if droppedHeld > 0 { result.append(.removed(Array(finalCount ..< finalCount + droppedHeld))) }
        return result
    }

    // MARK: - Gaps

    /// Puts the fresh pages above the held items, behind a gap (dropping what lay below an older gap).
    private mutating func openGap(above pages: [FreshPage], continuation: PageProducer, budget: Int) -> [ItemListChange] {
        var changes: [ItemListChange] = []
        if let old = gap {
            // At most one gap: the items below the old one go, and the list continues from the old gap.
            changes += store.remove(offsets: Array(old.index ..< items.count))
            removeFromLedgerBottom(from: old.index)
            droppedBelow = []
            setEdge(.append, .ready(PendingLoad(request: .producer(old.continuation))))
            gap = nil
        }
        let fresh = pages.flatMap(\.items)
        let inserted = store.insert(fresh, at: 0)
        let count = Self.insertedCount(inserted)
        // Each fresh page holds its own items (after de-duplication within the fresh ones, in order); a page
        // left with none gets no ledger page (as an append's).
        var remaining = count
        var shares: [Int] = []
        for page in pages {
            let share = Swift.min(remaining, store.deduplicated(page.items).count)
            shares.append(share)
            remaining -= share
        }
        if remaining > 0, let first = shares.indices.first(where: { shares[$0] > 0 }) ?? shares.indices.first {
            shares[first] += remaining
        }
        for (page, share) in zip(pages, shares).reversed() where share > 0 {
            ledger.prepend(count: share, record: page.record)
        }
        changes += inserted
        droppedAbove = []
        gapAbove = nil
        settleEdges(top: pages.first?.record, bottom: nil)
        gap = count < items.count ? Gap(index: count, continuation: continuation, pageBudget: budget) : nil
        changes = dropPagesAfterRefresh(after: changes)
        return changes
    }

    /// `fillGap()`'s page: merges it at the gap if it overlaps the items below; otherwise inserts it at
    /// the gap and goes on (within the budget), or, at the end of the feed, removes the items below.
    ///
    /// The page is a page of the ledger of its own, between the pages above the gap and those below, so
    /// that `maxPages` drops it and loads it again by its own request, and `.reloadAll` counts it (a page
    /// that adds no item gets none, as an append's). It is put right after the last page holding an item
    /// above the gap (a page emptied by edits at the gap's edge is taken to lie below it). With
    /// `maxPages`, the pages then held beyond it are dropped at the bottom, as after any refresh: the held
    /// items below the gap go first, and once they are all gone the gap closes and the list goes on from
    /// where the filling got to.
    private mutating func fill(with page: FreshPage, progress: RefreshProgress) -> ([ItemListChange], NextRefreshPage?) {
        guard let open = gap else { return ([], nil) }
        var progress = progress
        let pageAtGap = ledger.page(holding: open.index - 1).map { $0 + 1 } ?? 0
        if let overlap = firstOverlap(of: [page], from: open.index) {
            gap = nil
            return (dropPagesAfterRefresh(after: merge([page], at: open.index, overlap: overlap, pageAtStart: pageAtGap)), nil)
        }
        guard let next = page.record.next else {
            var changes = store.remove(offsets: Array(open.index ..< items.count))
            removeFromLedgerBottom(from: open.index)
            gap = nil
            let appended = store.append(page.items)
            if Self.insertedCount(appended) > 0 { ledger.append(count: Self.insertedCount(appended), record: page.record) }
            changes += appended
            droppedBelow = []
            setEdge(.append, .complete)
            return (dropPagesAfterRefresh(after: changes), nil)
        }
        let inserted = store.insert(page.items, at: open.index)
        // A page that added no item gets no ledger page (its `next` goes on in the gap's continuation).
        if Self.insertedCount(inserted) > 0 {
            ledger.insert(count: Self.insertedCount(inserted), record: page.record, atPage: pageAtGap)
        }
        noteGap(after: inserted)
        gap?.continuation = next
        let changes = dropPagesAfterRefresh(after: inserted)
        progress.pagesApplied += 1
        if gap != nil, progress.pagesApplied < open.pageBudget { return (changes, (progress, next)) }
        return (changes, nil)
    }

    /// Removes from the ledger the pages whose items start at or after `offset` (already removed).
    @usableFromInline
    mutating func removeFromLedgerBottom(from offset: Int) {
        while !ledger.isEmpty, ledger.start(ofPage: ledger.pageCount - 1) >= offset, ledger.pageCount > 1 {
            _ = ledger.removeLast()
        }
        let held = ledger.itemCount
        if held > items.count, !ledger.isEmpty { ledger.adjust(page: ledger.pageCount - 1, by: items.count - held) }
    }

    // MARK: - Reload all

    /// Replaces the range of held page `index` with `page`'s items: items of the page already reloaded
    /// above are updated in place, the fresh items are put in its order (moved up from below when held
    /// further down, inserted when new), and the page's held items the fresh page lacks go to the page
    /// below, right after it: a feed that grew or re-ranked above them has them on a later page, and the
    /// ones no reloaded page brings back are removed when the last lands (`finishReload`), so no
    /// transition hides an item the feed still has.
    private mutating func reload(_ page: FreshPage, asPage index: Int, progress: inout RefreshProgress) -> [ItemListChange] {
        let start = progress.reloadedEnd
        if index >= ledger.pageCount { ledger.append(count: 0, record: page.record) }
        var changes: [ItemListChange] = []
        var segment: [Item] = []
        for item in store.deduplicated(page.items) {
            if let held = store.position(ofIDOf: item), held < start {
                changes += store.replace(at: held, with: item)
            } else {
                segment.append(item)
            }
        }
        for (offset, item) in segment.enumerated() {
            let target = start + offset
            if let held = store.position(ofIDOf: item) {
                // An item of a page below joins this one, moved up or already in place.
                let from = ledger.page(holding: held)
                if held != target { changes += store.move(from: held, to: target) }
                if let from, from != index {
                    ledger.adjust(page: from, by: -1)
                    ledger.adjust(page: index, by: 1)
                }
                changes += store.replace(at: target, with: item)
            } else {
                changes += store.insert([item], at: target)
                ledger.adjust(page: index, by: 1)
            }
        }
        // What is left of the page's range after its fresh items: held items it lacks, now the next page's.
        let left = ledger[index].count - segment.count
        if left > 0, index + 1 < ledger.pageCount {
            ledger.adjust(page: index, by: -left)
            ledger.adjust(page: index + 1, by: left)
        }
        ledger.setRecord(page.record, ofPage: index)
        progress.reloadedEnd = start + segment.count
        noteGap(after: changes)
        return changes
    }

    /// After the last page of a `.reloadAll`: the list is exactly the reloaded pages' content; the edges go
    /// on from the feed's top and from the last reloaded page.
    private mutating func finishReload(after page: FreshPage, progress: RefreshProgress) -> [ItemListChange] {
        var changes: [ItemListChange] = []
        if progress.reloadedEnd < items.count {
            changes += store.remove(offsets: Array(progress.reloadedEnd ..< items.count))
        }
        while ledger.pageCount > progress.pagesApplied { _ = ledger.removeLast() }
        // The last reloaded page may still count held items its fresh page lacked: they were just removed.
        if let last = ledger.last, ledger.itemCount > items.count {
            ledger.adjust(page: ledger.pageCount - 1, by: Swift.max(items.count - ledger.itemCount, -last.count))
        }
        droppedAbove = []
        gapAbove = nil
        droppedBelow = []
        gap = nil
        settleEdges(top: ledger.first?.record, bottom: page.record)
        return changes
    }
}
