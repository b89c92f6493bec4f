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
        let timed = TimedOperator<Value, Failure>()
        observe { event in
            guard case let .value(value) = event else { return timed.terminate(event) }
            let generation = timed.lock.locked { timed.state.hold(value) }
            timed.timer.inner = scheduler.schedule(after: interval) { timed.release(generation) }
        }
        return timed.output
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

/// The lock-guarded state of `debounce` and `throttle`: the value waiting for the scheduler.
struct TimedState<Value> {
    var waiting: Value?
    /// Numbers the values made to wait: a scheduled action sends only if its value is still the one waiting.
    var generation: UInt64 = 0
    /// `throttle`: when the last value was sent.
    var lastSent: Date?
    /// `throttle`: an action is scheduled to send `waiting`.
    var isScheduled = false

    /// `debounce`: makes `value` the waiting one; returns its generation, for the action to schedule.
    mutating func hold(_ value: Value) -> UInt64 {
        waiting = value
        generation &+= 1
        return generation
    }

    /// What `throttle` does with a new value.
    enum ThrottleAction {
        /// An action is already scheduled: it will send the value now waiting.
        case wait
        /// Schedule an action at `date` for `generation`.
        case schedule(at: Date, generation: UInt64)
    }

    /// `throttle`: makes `value` the waiting one and schedules its sending, at `now` or `interval` after
    /// the last value sent, unless an action is scheduled already.
    mutating func throttle(_ value: Value, now: Date, interval: Duration) -> ThrottleAction {
        waiting = value
        guard !isScheduled else { return .wait }
        isScheduled = true
        let earliest = lastSent.map { $0.addingTimeInterval(interval.timeInterval) } ?? now
        return .schedule(at: max(earliest, now), generation: generation)
    }

    /// The scheduled action of `generation` runs: sends the waiting value if it is still that generation's.
    mutating func release<Failure>(
        _ generation: UInt64, sentAt date: Date?, _ output: inout OutputState<Value, Failure>
    ) -> OutputAction<Value, Failure> {
        isScheduled = false
        guard generation == self.generation, let value = waiting, !output.isTerminated else { return .none }
        waiting = nil
        lastSent = date
        return output.send(value)
    }

    /// Forwards a terminal event: after the waiting value if it is `completed`; drops it otherwise.
    mutating func terminate<Failure>(
        _ event: Event<Value, Failure>, _ output: inout OutputState<Value, Failure>
    ) -> OutputAction<Value, Failure> {
        let flushed = waiting
        waiting = nil
        if case .completed = event { return output.terminate(event, after: flushed) }
        return output.terminate(event)
    }
}

/// The output of `debounce` and `throttle`, fed by the source and by actions on the scheduler.
final class TimedOperator<Value, Failure: Error>: OperatorOutput<Value, Failure>, @unchecked Sendable {
    /// Guarded by `lock`.
    var state = TimedState<Value>()
    /// The scheduled action; cancelled on termination.
    let timer = SerialDisposable()

    func release(_ generation: UInt64, sentAt date: Date? = nil) {
        perform(lock.locked { state.release(generation, sentAt: date, &outputState) })
    }

    func terminate(_ event: Event<Value, Failure>) {
        if perform(lock.locked { state.terminate(event, &outputState) }) { timer.dispose() }
    }
}
