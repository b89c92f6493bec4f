extension EventTransformation where OutputFailure == Failure {
    /// `map`: `transform` applied to every value; the terminal event passes unchanged.
    @inlinable
    static func map(_ transform: @escaping @Sendable (Value) -> Output) -> Self {
        Self { downstream in { value in downstream.forward(value: transform(value)) } }
    }
}

extension Signal {
    /// A signal of `transform` applied to every value; terminal events pass through unchanged.
    ///
    /// `transform` runs on the delivering thread, once per value, for as long as the returned signal
    /// has observers; the returned signal terminates when this one does. Neither signal retains the other
    /// beyond the observation this one holds of the returned signal's input.
    @inlinable
    public func map<U>(_ transform: @escaping @Sendable (Value) -> U) -> Signal<U, Failure> {
        transformed(by: .map(transform))
    }
}

extension Producer {
    /// A producer of `transform` applied to every value this one sends; terminal events pass through.
    ///
    /// Fused with the upstream start handler: no intermediate signal and no allocation per value.
    /// `transform` runs on the thread the upstream sends from.
    @inlinable
    public func map<U>(_ transform: @escaping @Sendable (Value) -> U) -> Producer<U, Failure> {
        transformed(by: .map(transform))
    }
}
