extension Signal {
    /// A signal of the first `count` values of this one, then `completed`.
    ///
    /// After the `count`-th value the returned signal completes and stops observing this one. If this
    /// signal terminates first, the returned one terminates the same way. With `count <= 0` the
    /// returned signal has already completed (so, like any terminated signal, a late observer gets
    /// `interrupted`; use `Producer.take(first:)` to observe `completed`).
    public func take(first count: Int) -> Signal<Value, Failure> {
        let (output, input) = Signal.pipe()
        guard count > 0 else {
            input.sendCompleted()
            return output
        }
        // The counter and the input are reached only from this signal's serial delivery.
        let state = Confined((input: input, remaining: count))
        let upstream = SerialDisposable()
        upstream.inner = observe { event in
            guard case let .value(value) = event else {
                state.value.input.send(event)
                return
            }
            guard state.value.remaining > 0 else { return }
            state.value.remaining -= 1
            state.value.input.send(value: value)
            if state.value.remaining == 0 {
                state.value.input.sendCompleted()
                upstream.dispose()
            }
        }
        return output
    }

    /// A signal of this one's events until `trigger` sends a value or completes; then `completed`.
    ///
    /// An interrupted trigger is ignored (it can no longer fire). Once the returned signal terminates
    /// (either way) it stops observing both signals. Events from the two signals may arrive on
    /// different threads; they are ordered by a lock and delivered serially.
    public func take<T>(until trigger: Signal<T, Never>) -> Signal<Value, Failure> {
        let state = TakeUntilOperator<Value, Failure>()
        state.observations.add(trigger.observe { event in
            switch event {
            case .value, .completed: state.receive(.completed)
            case .interrupted: break
            }
        })
        state.observations.add(observe { state.receive($0) })
        return state.output
    }
}

/// `take(until:)`'s output, fed by the source and the trigger. Its only state is the output's.
@usableFromInline
final class TakeUntilOperator<Value, Failure: Error>: OperatorOutput<Value, Failure>, @unchecked Sendable {
    /// The observations of the source and the trigger, disposed once the output terminated.
    @usableFromInline let observations = CompositeDisposable()

    @usableFromInline
    func receive(_ event: Event<Value, Failure>) {
        let action = lock.locked { () -> OutputAction<Value, Failure> in
            if case let .value(value) = event { return outputState.send(value) }
            return outputState.terminate(event)
        }
        if perform(action) { observations.dispose() }
    }
}

extension Producer {
    /// A producer of the first `count` values of each run, then `completed`.
    ///
    /// After the `count`-th value the upstream run is disposed (its lifetime ends). With `count <= 0`
    /// the run completes at once without starting the upstream.
    public func take(first count: Int) -> Producer<Value, Failure> {
        guard count > 0 else { return .empty }
        return lift { $0.take(first: count) }
    }

    /// A producer of this one's events until `trigger` sends a value or completes; then `completed`.
    ///
    /// Each run starts `trigger` first (a trigger that fires at once completes the run before the
    /// upstream starts), then the upstream. When the run ends, both runs are disposed. An
    /// interrupted trigger is ignored.
    public func take<T>(until trigger: Producer<T, Never>) -> Producer<Value, Failure> {
        Producer { observer, lifetime in
            let (triggerSignal, triggerInput) = Signal<T, Never>.pipe()
            self.startWithSignal { signal, disposable in
                lifetime.add(disposable)
                signal.take(until: triggerSignal).attachForwarding(observer)
                lifetime.add(trigger.start(triggerInput))
            }
        }
    }

    /// A producer of this one's events until `trigger` sends a value or completes; then `completed`.
    ///
    /// Each run observes `trigger` from its start; the observation ends with the run. An interrupted
    /// (or already terminated) trigger is ignored.
    public func take<T>(until trigger: Signal<T, Never>) -> Producer<Value, Failure> {
        lift { $0.take(until: trigger) }
    }
}
