extension Signal {
    /// A signal of the values for which `isIncluded` returns `true`; terminal events pass through.
    ///
    /// `isIncluded` runs on the delivering thread, once per value. The returned signal terminates when
    /// this one does; this signal retains the returned signal's input until then.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Failure> {
        let (output, input) = Signal.pipe()
        // The input is reached only from this signal's serial delivery.
        let downstream = Confined(input)
        observe { event in
            if case let .value(value) = event, !isIncluded(value) { return }
            downstream.value.send(event)
        }
        return output
    }

    /// A signal of the non-`nil` results of `transform`; terminal events pass through.
    ///
    /// Same threading and ownership as `map(_:)`.
    @inlinable
    public func compactMap<U>(_ transform: @escaping @Sendable (Value) -> U?) -> Signal<U, Failure> {
        let (output, input) = Signal<U, Failure>.pipe()
        // The input is reached only from this signal's serial delivery.
        let downstream = Confined(input)
        observe { event in
            switch event {
            case let .value(value):
                if let mapped = transform(value) { downstream.value.send(value: mapped) }
            case let .failed(error): downstream.value.send(error: error)
            case .completed: downstream.value.sendCompleted()
            case .interrupted: downstream.value.sendInterrupted()
            }
        }
        return output
    }
}

extension Producer {
    /// A producer of the values for which `isIncluded` returns `true`; terminal events pass through.
    ///
    /// Fused with the upstream start handler (no intermediate signal). `isIncluded` runs on the thread
    /// the upstream sends from.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Producer<Value, Failure> {
        let upstream = startHandler
        return Producer { observer, lifetime in
            upstream(Signal<Value, Failure>.Observer(forwarding: { event in
                if case let .value(value) = event, !isIncluded(value) { return }
                observer.send(event)
            }, values: { value in
                if isIncluded(value) { observer.send(value: value) }
            }), lifetime)
        }
    }

    /// A producer of the non-`nil` results of `transform`; terminal events pass through.
    ///
    /// Fused with the upstream start handler (no intermediate signal). `transform` runs on the thread
    /// the upstream sends from.
    @inlinable
    public func compactMap<U>(_ transform: @escaping @Sendable (Value) -> U?) -> Producer<U, Failure> {
        let upstream = startHandler
        return Producer<U, Failure> { observer, lifetime in
            upstream(Signal<Value, Failure>.Observer(forwarding: { event in
                switch event {
                case let .value(value):
                    if let mapped = transform(value) { observer.send(value: mapped) }
                case let .failed(error): observer.send(error: error)
                case .completed: observer.sendCompleted()
                case .interrupted: observer.sendInterrupted()
                }
            }, values: { value in
                if let mapped = transform(value) { observer.send(value: mapped) }
            }), lifetime)
        }
    }
}
