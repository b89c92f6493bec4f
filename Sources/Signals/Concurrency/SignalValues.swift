
extension Signal where Value: Sendable {
    /// The values this signal sends from now on, as an `AsyncSequence`.
    ///
    /// Reading `values` observes the signal at once: every value sent after that is buffered (without
    /// bound) for the first iterator, even if the consuming task starts later. Any further iterator of
    /// the same sequence observes the signal when it is made. `failed` makes `next()` throw the error;
    /// `completed` and `interrupted` end the sequence. For `Failure == Never` the sequence does not
    /// throw: `for await value in signal.values`.
    ///
    /// Cancelling the consuming task, or dropping the iterator (leaving the loop), disposes the
    /// observation and ends the sequence; buffered values are dropped then. The observation does not
    /// keep the signal alive; the signal retains it until then.
    ///
    /// ```swift
    /// let (signal, input) = Signal<Int, Never>.pipe()
    /// let values = signal.values
    /// input.send(value: 1)
    /// input.sendCompleted()
    /// for await value in values { print(value) }   // 1
    /// ```
    public var values: Values { Values(self) }

    /// The values of a signal as an `AsyncSequence` that throws the signal's `Failure`; see `Signal.values`.
    ///
    /// The sequence is `Sendable` and may be iterated more than once; each iterator is a separate observation.
    public struct Values: AsyncSequence, Sendable {
        /// The element type: the signal's values.
        public typealias Element = Value

        @usableFromInline let signal: Signal
        /// The observation made when the sequence was created, for the first iterator to take.
        private let pending: FirstObservation<Value, Failure>

        init(_ signal: Signal) {
            self.signal = signal
            pending = FirstObservation(Self.observe(signal))
        }

        static func observe(_ signal: Signal) -> AsyncEventChannel<Value, Failure> {
            let channel = AsyncEventChannel<Value, Failure>()
            if let observation = signal.observe({ channel.receive($0) }) {
                channel.subscription.inner = observation
            }
            return channel
        }

        /// An iterator over the values: the observation made with the sequence, if no iterator took it
        /// yet, else a new one.
        public func makeAsyncIterator() -> Iterator {
            Iterator(AsyncIterationOwner(pending.take() ?? Self.observe(signal)))
        }

        /// Hands out the signal's values as they arrive; see `Signal.values`.
        ///
        /// Dropping every copy of the iterator disposes its observation.
        public struct Iterator: AsyncIteratorProtocol {
            private let owner: AsyncIterationOwner<Value, Failure>

            init(_ owner: AsyncIterationOwner<Value, Failure>) { self.owner = owner }

            /// The next value; `nil` once the signal completed or was interrupted, or the task was cancelled.
            ///
            /// - Throws: the signal's error, once, after every value sent before it.
            public mutating func next() async throws(Failure) -> Value? {
                try await next(isolation: nil)
            }

            /// The next value, resumed on `actor`; see `next()`.
            public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Value? {
                switch await owner.channel.next(isolation: actor) {
                case let .value(value): return value
                case let .failed(error): throw error
                case .finished: return nil
                }
            }
        }
    }
}

/// The observation a `Signal.Values` made when it was created, until an iterator takes it; cancelled
/// if none does before the sequence goes away.
final class FirstObservation<Value: Sendable, Failure: Error>: Sendable {
    private let channel: Locked<AsyncEventChannel<Value, Failure>?>

    init(_ channel: AsyncEventChannel<Value, Failure>) { self.channel = Locked(channel) }

    func take() -> AsyncEventChannel<Value, Failure>? {
        channel.withLock { channel in
            let taken = channel
            channel = nil
            return taken
        }
    }

    deinit { take()?.cancel() }
}
