extension Signal {
    /// A signal of `transform` applied to every value; terminal events pass through unchanged.
    ///
    /// `transform` runs on the delivering thread, once per value, for as long as the returned signal
    /// has observers; the returned signal terminates when this one does. Neither signal retains the other
    /// beyond the observation this one holds of the returned signal's input.
    @inlinable
    public func map<U>(_ transform: @escaping @Sendable (Value) -> U) -> Signal<U, Failure> {
        let (output, input) = Signal<U, Failure>.pipe()
        // The input is reached only from this signal's serial delivery.
        let downstream = Confined(input)
        observe { event in downstream.value.send(event.map(transform)) }
        return output
    }
}

extension Producer {
    /// A producer of `transform` applied to every value this one sends; terminal events pass through.
    ///
    /// Fused with the upstream start handler: no intermediate signal and no allocation per value.
    /// `transform` runs on the thread the upstream sends from.
    @inlinable
    public func map<U>(_ transform: @escaping @Sendable (Value) -> U) -> Producer<U, Failure> {
        let upstream = startHandler
        return Producer<U, Failure> { observer, lifetime in
            upstream(Signal<Value, Failure>.Observer(forwarding: { event in
                switch event {
                case let .value(value): observer.send(value: transform(value))
                case let .failed(error): observer.send(error: error)
                case .completed: observer.sendCompleted()
                case .interrupted: observer.sendInterrupted()
                }
            }, values: { value in observer.send(value: transform(value)) }), lifetime)
        }
    }
}
