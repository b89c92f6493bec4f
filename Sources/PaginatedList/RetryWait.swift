import Signals

/// The wait of an automatic retry (`AutomaticRetry`): `due` runs once, when the delay has passed on the
/// retry scheduler and the connectivity (if one is watched) is `true`, or at once when the connectivity
/// turns `true` again after being `false` (whatever is left of the delay is skipped: the failure was the
/// network's, not the server's).
///
/// Disposing the wait cancels it. It holds the connectivity's observation and the timer; `due` holds the
/// view model's storage weakly.
final class RetryWait: Disposable {
    private struct State {
        var delayPassed = false
        var sawOffline = false
        var done = false
    }

    private let state = Locked(State())
    private let parts = CompositeDisposable()

    /// Starts the wait; returns what cancels it.
    static func start(
        after delay: Duration, on scheduler: any DateScheduler, connectivity: Property<Bool>?,
        due: @escaping @Sendable () -> Void
    ) -> (any Disposable)? {
        guard let connectivity else { return scheduler.schedule(after: delay, action: due) }
        let wait = RetryWait()
        // The current value first: a wait that starts offline waits for the next `true`.
        wait.parts.add(connectivity.producer.startWithValues { [weak wait] connected in
            wait?.connectivityChanged(to: connected, due)
        })
        wait.parts.add(scheduler.schedule(after: delay) { [weak wait, connectivity] in
            wait?.delayPassed(connected: connectivity.value, due)
        })
        return wait
    }

    var isDisposed: Bool { parts.isDisposed }

    func dispose() {
        state.withLock { $0.done = true }
        parts.dispose()
    }

    private func connectivityChanged(to connected: Bool, _ due: @Sendable () -> Void) {
        let fire = state.withLock { state -> Bool in
            guard !state.done else { return false }
            guard connected else {
                state.sawOffline = true
                return false
            }
            guard state.sawOffline || state.delayPassed else { return false }
            state.done = true
            return true
        }
        if fire { finish(due) }
    }

    private func delayPassed(connected: Bool, _ due: @Sendable () -> Void) {
        let fire = state.withLock { state -> Bool in
            guard !state.done else { return false }
            state.delayPassed = true
            guard connected else { return false }
            state.done = true
            return true
        }
        if fire { finish(due) }
    }

    private func finish(_ due: @Sendable () -> Void) {
        parts.dispose()
        due()
    }
}
