extension EventTransformation where OutputFailure == Failure {
    /// `scan`: the running accumulation of the values, from `initial` anew for every stream; the terminal
    /// event passes unchanged. Stateful: serialised by a signal, never fused.
    @inlinable
    static func scan(_ initial: Output, _ next: @escaping @Sendable (Output, Value) -> Output) -> Self {
        Self { downstream in
            let accumulated = Confined(initial)
            return { value in
                accumulated.value = next(accumulated.value, value)
                downstream.send(value: accumulated.value)
            }
        }
    }
}

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
        transformed(by: .scan(initial, next))
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
