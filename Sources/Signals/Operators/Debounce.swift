import Foundation

extension Signal where Value: Sendable {
    /// A signal that sends a value only once `interval` has passed on `scheduler` without a newer one.
    ///
    /// Each value restarts the wait; the value sent is the latest. Values are sent from actions on
    /// `scheduler`. When this signal completes, a value still waiting is sent at once, then `completed`;
    /// when it fails or is interrupted, a waiting value is dropped and the terminal event forwarded at
    /// once. Terminal events are forwarded on the thread that delivers them. The pending action is
    /// cancelled when the returned signal terminates.
    public func debounce(_ interval: Duration, on scheduler: some DateScheduler) -> Signal<Value, Failure> {
        let state = TimedState<Value, Failure>()
        observe { event in
            guard case let .value(value) = event else { return state.terminate(event) }
            let generation = state.hold(value)
            state.timer.inner = scheduler.schedule(after: interval) { state.release(generation) }
        }
        return state.output
    }
}

extension Producer where Value: Sendable {
    /// A producer that sends a value only once `interval` has passed on `scheduler` without a newer one.
    ///
    /// As `Signal.debounce(_:on:)`, per run. Disposing the run cancels the pending value.
    public func debounce(_ interval: Duration, on scheduler: some DateScheduler) -> Producer<Value, Failure> {
        lift { $0.debounce(interval, on: scheduler) }
    }
}

/// The state of `debounce` and `throttle`: the value waiting for the scheduler, guarded by `lock`.
@usableFromInline
final class TimedState<Value, Failure: Error>: LockedOutput<Value, Failure>, @unchecked Sendable {
    // Guarded by `lock`.
    var waiting: Value?
    var generation: UInt64 = 0
    /// `throttle`: when the last value was sent.
    var lastSent: Date?
    /// `throttle`: an action is scheduled to send `waiting`.
    var isScheduled = false

    /// The scheduled action; cancelled on termination.
    let timer = SerialDisposable()

    /// Makes `value` the waiting one; returns its generation.
    func hold(_ value: Value) -> UInt64 {
        lock.locked { () -> UInt64 in
            waiting = value
            generation &+= 1
            return generation
        }
    }

    /// Sends the waiting value if it is still the one of `generation`.
    func release(_ generation: UInt64, sentAt date: Date? = nil) {
        deliver(lock.locked { () -> Signal<Value, Failure>.Delivery? in
            isScheduled = false
            guard generation == self.generation, let value = waiting else { return nil }
            waiting = nil
            lastSent = date
            return sendLocked(value)
        })
    }

    /// Forwards a terminal event: after the waiting value if it is `completed`.
    func terminate(_ event: Event<Value, Failure>) {
        let terminated = lock.locked { () -> (Signal<Value, Failure>.Delivery?, Signal<Value, Failure>.Observer?)? in
            let flushed = waiting
            waiting = nil
            if case .completed = event { return terminateLocked(event, after: flushed) }
            return terminateLocked(event)
        }
        guard let (delivery, released) = terminated else { return }
        deliver(delivery)
        withExtendedLifetime(released) {}
        timer.dispose()
    }
}
