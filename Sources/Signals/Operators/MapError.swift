extension Signal {
    /// A signal that fails with `transform(error)` where this one fails with `error`; everything else
    /// passes through.
    ///
    /// `transform` runs on the delivering thread. The returned signal terminates when this one does.
    @inlinable
    public func mapError<F: Error>(_ transform: @escaping @Sendable (Failure) -> F) -> Signal<Value, F> {
        let (output, input) = Signal<Value, F>.pipe()
        // The input is reached only from this signal's serial delivery.
        let downstream = Confined(input)
        observe { event in downstream.value.send(event.mapError(transform)) }
        return output
    }

    /// The same stream with its failures turned into `completed`: for consumers that only care about values.
    ///
    /// The returned signal terminates when this one does (`completed` where this one fails).
    @inlinable
    public func ignoreErrors() -> Signal<Value, Never> {
        let (output, input) = Signal<Value, Never>.pipe()
        // The input is reached only from this signal's serial delivery.
        let downstream = Confined(input)
        observe { event in
            switch event {
            case let .value(value): downstream.value.send(value: value)
            case .failed, .completed: downstream.value.sendCompleted()
            case .interrupted: downstream.value.sendInterrupted()
            }
        }
        return output
    }
}

extension Signal where Failure == Never {
    /// The same stream, typed as able to fail with `F` (it never does): to combine it with failing streams.
    ///
    /// The returned signal terminates when this one does.
    @inlinable
    public func promoteError<F: Error>(_: F.Type = F.self) -> Signal<Value, F> {
        mapError { never -> F in }
    }
}

extension Producer {
    /// A producer that fails with `transform(error)` where this one fails with `error`; everything
    /// else passes through.
    ///
    /// Fused with the upstream start handler (no intermediate signal). `transform` runs on the thread
    /// the upstream sends from.
    @inlinable
    public func mapError<F: Error>(_ transform: @escaping @Sendable (Failure) -> F) -> Producer<Value, F> {
        let upstream = startHandler
        return Producer<Value, F> { observer, lifetime in
            upstream(Signal<Value, Failure>.Observer(forwarding: { event in
                observer.send(event.mapError(transform))
            }), lifetime)
        }
    }

    /// The same producer with its failures turned into `completed`: for consumers that only care about values.
    ///
    /// Fused with the upstream start handler (no intermediate signal).
    @inlinable
    public func ignoreErrors() -> Producer<Value, Never> {
        let upstream = startHandler
        return Producer<Value, Never> { observer, lifetime in
            upstream(Signal<Value, Failure>.Observer(forwarding: { event in
                switch event {
                case let .value(value): observer.send(value: value)
                case .failed, .completed: observer.sendCompleted()
                case .interrupted: observer.sendInterrupted()
                }
            }), lifetime)
        }
    }
}

extension Producer where Failure == Never {
    /// The same producer, typed as able to fail with `F` (it never does): to combine it with failing producers.
    ///
    /// Fused with the upstream start handler (no intermediate signal).
    @inlinable
    public func promoteError<F: Error>(_: F.Type = F.self) -> Producer<Value, F> {
        mapError { never -> F in }
    }
}
