extension EventTransformation where Output == Value, OutputFailure == Failure {
    /// `skipRepeats`: the values, minus each one that `isEquivalent` to the one before it (the first value
    /// of every stream passes); the terminal event passes unchanged. Stateful: serialised by a signal,
    /// never fused.
    @inlinable
    static func skipRepeats(by isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Self {
        Self { downstream in
            let previous = Confined<Value?>(nil)
            return { value in
                if let last = previous.value, isEquivalent(last, value) { return }
                previous.value = value
                downstream.send(value: value)
            }
        }
    }
}

extension Signal {
    /// A signal of this one's values, minus each value that `isEquivalent` to the one before it.
    ///
    /// The first value always passes. The previous value lives in the observation, which this signal's
    /// serial delivery confines; `isEquivalent` runs on the delivering thread. The returned signal
    /// terminates when this one does.
    @inlinable
    public func skipRepeats(
        by isEquivalent: @escaping @Sendable (Value, Value) -> Bool
    ) -> Signal<Value, Failure> {
        transformed(by: .skipRepeats(by: isEquivalent))
    }
}

extension Producer {
    /// A producer of this one's values, minus each value that `isEquivalent` to the one before it
    /// (in the same run).
    ///
    /// Runs behind a serializing signal (see `Signal.skipRepeats(by:)`); disposing the run disposes the upstream run.
    public func skipRepeats(
        by isEquivalent: @escaping @Sendable (Value, Value) -> Bool
    ) -> Producer<Value, Failure> {
        lift { $0.skipRepeats(by: isEquivalent) }
    }
}

// `skipRepeats()` compares values in `@Sendable` observers, so the `Equatable` conformance must not be
// isolated to an actor (`SendableMetatype`, SE-0470); every plain `Equatable` type satisfies it.
extension Signal where Value: Equatable & SendableMetatype {
    /// A signal of this one's values, minus each value equal to the one before it.
    ///
    /// See `skipRepeats(by:)`.
    @inlinable
    public func skipRepeats() -> Signal<Value, Failure> {
        skipRepeats(by: { $0 == $1 })
    }
}

extension Producer where Value: Equatable & SendableMetatype {
    /// A producer of this one's values, minus each value equal to the one before it (in the same run).
    ///
    /// See `skipRepeats(by:)`.
    public func skipRepeats() -> Producer<Value, Failure> {
        skipRepeats(by: { $0 == $1 })
    }
}
