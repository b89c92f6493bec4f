import Foundation

extension Signal where Value: Sendable {
    /// A signal that sends at most one value per `interval` on `scheduler`: the latest one.
    ///
    /// A value that arrives when the last one sent is at least `interval` old is sent from an action
    /// scheduled at once; otherwise it waits (replacing any value already waiting) until `interval`
    /// after the last one sent. Values are sent from actions on `scheduler`. When this signal completes,
    /// a value still waiting is sent at once, then `completed`; when it fails or is interrupted, a
    /// waiting value is dropped. Terminal events are forwarded on the thread that delivers them.
    public func throttle(_ interval: Duration, on scheduler: some DateScheduler) -> Signal<Value, Failure> {
        let state = TimedState<Value, Failure>()
        observe { event in
            guard case let .value(value) = event else { return state.terminate(event) }
            let now = scheduler.currentDate
            let due = state.lock.locked { () -> (Date, UInt64)? in
                state.waiting = value
                guard !state.isScheduled else { return nil }
                state.isScheduled = true
                let earliest = state.lastSent.map { $0.addingTimeInterval(interval.timeInterval) } ?? now
                return (max(earliest, now), state.generation)
            }
            guard let (date, generation) = due else { return }
            state.timer.inner = scheduler.schedule(after: date) {
                state.release(generation, sentAt: scheduler.currentDate)
            }
        }
        return state.output
    }
}

extension Producer where Value: Sendable {
    /// A producer that sends at most one value per `interval` on `scheduler`: the latest one.
    ///
    /// As `Signal.throttle(_:on:)`, per run. Disposing the run cancels the waiting value.
    public func throttle(_ interval: Duration, on scheduler: some DateScheduler) -> Producer<Value, Failure> {
        lift { $0.throttle(interval, on: scheduler) }
    }
}
