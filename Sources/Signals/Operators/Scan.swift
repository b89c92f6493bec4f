extension Signal {
    /// A signal of the running accumulation of this one's values: `next(initial, v1)`, then
    /// `next(that, v2)`, and so on; terminal events pass through.
    ///
    /// The accumulator lives in the returned signal's observation, which this signal's serial delivery
    /// confines. `next` runs on the delivering thread. The returned signal terminates when this one does.
    @inlinable
    public func scan<State>(
        _ initial: State, _ next: @escaping @Sendable (State, Value) -> State
    ) -> Signal<State, Failure> {
        let (output, input) = Signal<State, Failure>.pipe()
        // The accumulator and the input are reached only from this signal's serial delivery.
        let state = Confined((input: input, accumulated: initial))
        observe { event in
            switch event {
            case let .value(value):
                state.value.accumulated = next(state.value.accumulated, value)
                state.value.input.send(value: state.value.accumulated)
            case let .failed(error): state.value.input.send(error: error)
            case .completed: state.value.input.sendCompleted()
            case .interrupted: state.value.input.sendInterrupted()
            }
        }
        return output
    }
}

extension Producer {
    /// A producer of the running accumulation of this one's values, starting from `initial` anew in every run.
    ///
    /// Runs behind a serializing signal (see `Signal.scan`); disposing the run disposes the upstream run.
    public func scan<State>(
        _ initial: State, _ next: @escaping @Sendable (State, Value) -> State
    ) -> Producer<State, Failure> {
        lift { $0.scan(initial, next) }
    }
}
