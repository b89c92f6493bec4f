import Signals

extension PaginatedListViewModel {
    /// Calls `loadNextPage()` once per burst of `triggers`: when `interval` has passed on `scheduler`
    /// without another trigger (the `debounce` operator).
    ///
    /// For UIs that send many triggers for one intent (scroll events, repeated key presses). The load
    /// itself runs as a command on the view model's scheduler, as `loadNextPage()` does. Stops when the
    /// returned disposable is disposed (a trigger still waiting is dropped), when `triggers` terminates
    /// (after a trigger still waiting is acted on, if it completed), or, once the view model is released,
    /// at the next burst's end (as `refresh(whenever:ifOlderThan:policy:on:)` stops at the next trigger).
    /// Holds the view model weakly; the observation of `triggers` is held by `triggers` until it stops.
    @discardableResult
    public func loadNextPage(
        whenever triggers: Signal<Void, Never>, debounce interval: Duration, on scheduler: any DateScheduler
    ) -> any Disposable {
        Self.observe(triggers, debounce: interval, on: scheduler, submitting: { _ in .loadNextPage }, to: core)
    }

    /// Calls `loadPagesIfNeeded(visibleIndex:prefetchDistance:)` with the last row of each burst of
    /// `visibleIndices`: when `interval` has passed on `scheduler` without another row.
    ///
    /// Feed it the rows a list view displays (`willDisplay`, `onAppear`, a moving cursor). The last row
    /// of a burst is where the user stopped: the next page loads when it is near the end, the previous
    /// page when it is near the top. A row sent while a page loads is remembered and re-checked when it
    /// lands, as with `loadPagesIfNeeded(visibleIndex:prefetchDistance:)`. Stops as
    /// `loadNextPage(whenever:debounce:on:)` does.
    @discardableResult
    public func loadPagesIfNeeded(
        visibleIndices: Signal<Int, Never>, prefetchDistance: Int = 5,
        debounce interval: Duration, on scheduler: any DateScheduler
    ) -> any Disposable {
        Self.observe(visibleIndices, debounce: interval, on: scheduler, submitting: { row in
            .loadIfNeeded(PrefetchRequest(visibleIndex: row, prefetchDistance: prefetchDistance))
        }, to: core)
    }

    /// Submits the command `command` makes of the last value of each burst of `triggers` to `core`, held
    /// weakly; the first burst to end after `core` is released ends the observation.
    private static func observe<Trigger: Sendable>(
        _ triggers: Signal<Trigger, Never>, debounce interval: Duration, on scheduler: any DateScheduler,
        submitting command: @escaping @Sendable (Trigger) -> ViewModelStorage<Item, Failure>.Command,
        to core: ViewModelStorage<Item, Failure>
    ) -> any Disposable {
        let observation = SerialDisposable()
        let debounced = Producer(triggers).debounce(interval, on: scheduler)
        observation.inner = debounced.startWithValues { [weak core] trigger in
            guard let core else { return observation.dispose() }
            core.submit(command(trigger))
        }
        return observation
    }
}
