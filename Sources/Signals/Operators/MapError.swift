extension EventTransformation where Output == Value {
    /// `mapError`: `transform` applied to the error of `failed`; values and other terminal events pass.
    @inlinable
    static func mapError(_ transform: @escaping @Sendable (Failure) -> OutputFailure) -> Self {
        Self(values: { downstream in { value in downstream.forward(value: value) } }, termination: { ended in
            switch ended {
            case let .failed(error): return .failed(transform(error))
            case .completed: return .completed
            case .interrupted: return .interrupted
            }
        })
    }
}

extension EventTransformation where Output == Value, OutputFailure == Never {
    /// `ignoreErrors`: `failed` becomes `completed`; everything else passes.
    @inlinable
    static var ignoreErrors: Self {
        Self(values: { downstream in { value in downstream.forward(value: value) } }, termination: { ended in
            switch ended {
            case .failed, .completed: return .completed
            case .interrupted: return .interrupted
            }
        })
    }
}

extension Signal {
    /// A signal that fails with `transform(error)` where this one fails with `error`; everything else
    /// passes through.
    ///
    /// `transform` runs on the delivering thread. The returned signal terminates when this one does.
    @inlinable
    public func mapError<F: Error>(_ transform: @escaping @Sendable (Failure) -> F) -> Signal<Value, F> {
        transformed(by: .mapError(transform))
    }

    /// The same stream with its failures turned into `completed`: for consumers that only care about values.
    ///
    /// The returned signal terminates when this one does (`completed` where this one fails).
    @inlinable
    public func ignoreErrors() -> Signal<Value, Never> {
        transformed(by: .ignoreErrors)
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
        transformed(by: .mapError(transform))
    }

    /// The same producer with its failures turned into `completed`: for consumers that only care about values.
    ///
    /// Fused with the upstream start handler (no intermediate signal).
    @inlinable
    public func ignoreErrors() -> Producer<Value, Never> {
        transformed(by: .ignoreErrors)
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
