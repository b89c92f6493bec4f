import Signals

extension PaginatedListViewModel {
    /// Refreshes (with `policy`) each time `trigger` sends, when the first page is older than `staleAfter`
    /// (the app came to the foreground, the network came back, a timer fired).
    ///
    /// The first page's age counts, on `scheduler`'s clock, from the last time the top of the list was
    /// loaded: its first page landed after creation or `reset()`, or a refresh ended (a list that already
    /// holds items when this is called counts as loaded now). A trigger refreshes when at least
    /// `staleAfter` has passed since; a list that has no first page yet, or that is refreshing, is left
    /// alone (at most one refresh at a time: the check runs as a command, on the view model's scheduler,
    /// so triggers in a burst start one refresh). The refresh never blanks the list (see `refresh(_:)`).
    ///
    /// Policies other than `.replace` find items by their ids: for items that are not `Identifiable`,
    /// every policy acts as `.replace`.
    ///
    /// Stops when the returned disposable is disposed, when `trigger` terminates, or when the view model is
    /// released: it holds the view model weakly, and the first value `trigger` sends after the release
    /// ends the observation (until then `trigger` keeps it, a few small objects).
    @discardableResult
    public func refresh(
        whenever trigger: Signal<Void, Never>, ifOlderThan staleAfter: Duration, policy: RefreshPolicy,
        on scheduler: any DateScheduler
    ) -> any Disposable {
        let clock = FirstPageClock(on: scheduler)
        let observations = CompositeDisposable()
        observations.add(clock.watch(self))
        let mode = Self.triggeredMode(of: policy)
        observations.add(trigger.observeValues { [weak core] _ in
            guard let core else { return observations.dispose() }
            core.submit(.refreshIfStale(mode, isStale: { clock.isOlder(than: staleAfter) }))
        })
        return observations
    }

    /// The refresh mode of a triggered refresh by `policy`: every policy but `.replace` needs ids.
    static func triggeredMode(of policy: RefreshPolicy) -> ViewModelStorage<Item, Failure>.Machine.RefreshMode {
        guard Item.self is any Identifiable.Type else { return .replace }
        switch policy {
        case .replace: return .replace
        case let .mergeOnTop(maxPages, onGap): return .mergeOnTop(maxPages: maxPages, onGap: onGap)
        case .reloadAll: return .reloadAll
        }
    }

    /// Cuts off every load in flight and cancels waiting retries, keeping the items (a query list switched
    /// away from this view model). Runs as a command.
    func pause() {
        core.submit(.pause)
    }
}

extension PaginatedListViewModel {
    /// Refreshes by `policy` (as a triggered refresh: every policy but `.replace` needs `Identifiable`
    /// items) unless a refresh is in flight, the list holds no page, or `isFresh()` says so when the
    /// command runs.
    func refresh(_ policy: RefreshPolicy, unless isFresh: @escaping @Sendable () -> Bool) {
        core.submit(.refreshIfStale(Self.triggeredMode(of: policy), isStale: { !isFresh() }))
    }
}
