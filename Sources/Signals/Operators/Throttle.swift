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
        let timed = TimedOperator<Value, Failure>()
        observe { event in
            guard case let .value(value) = event else { return timed.terminate(event) }
            let now = scheduler.currentDate
            switch timed.lock.locked({ timed.state.throttle(value, now: now, interval: interval) }) {
            case .wait:
                return
            case let .schedule(date, generation):
                timed.timer.inner = scheduler.schedule(after: date) {
                    timed.release(generation, sentAt: scheduler.currentDate)
                }
            }
        }
        return timed.output
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
