extension EventTransformation where OutputFailure == Failure {
    /// `attemptMap`: `transform` applied to every value; the error it throws fails the stream, and later
    /// values are dropped without calling it. Stateful (it remembers the failure): serialised by a signal,
    /// never fused.
    @inlinable
    static func attemptMap(_ transform: @escaping @Sendable (Value) throws(Failure) -> Output) -> Self {
        Self { downstream in
            let hasFailed = Confined(false)
            return { value in
                guard !hasFailed.value else { return }
                do throws(Failure) {
                    downstream.send(value: try transform(value))
                } catch {
                    hasFailed.value = true
                    downstream.send(error: error)
                }
            }
        }
    }
}

extension Signal {
    /// A signal of `transform` applied to every value; the first error `transform` throws fails it.
    ///
    /// `transform` runs on the delivering thread, once per value, and not again after it threw. Terminal
    /// events of this signal pass through. The returned signal terminates when this one does, or when
    /// `transform` throws.
    @inlinable
    public func attemptMap<U>(_ transform: @escaping @Sendable (Value) throws(Failure) -> U) -> Signal<U, Failure> {
        transformed(by: .attemptMap(transform))
    }
}

extension Producer {
    /// A producer of `transform` applied to every value; the first error `transform` throws fails the run.
    ///
    /// Runs behind a serializing signal (see `Signal.attemptMap`); when `transform` throws, the upstream run
    /// is disposed.
    public func attemptMap<U>(_ transform: @escaping @Sendable (Value) throws(Failure) -> U) -> Producer<U, Failure> {
        lift { $0.attemptMap(transform) }
    }
}
