extension Producer where Value: Sendable {
    /// The values of a new run of this producer, as an `AsyncSequence`: each iterator starts its own run.
    ///
    /// The run starts at the iterator's first `next()`, on that caller's thread (so a start handler that
    /// sends at once does so inside `next()`). Values are buffered without bound until they are asked
    /// for: none is lost, however slowly the consumer runs. `failed` makes `next()` throw the error, after
    /// every value sent before it; `completed` and `interrupted` end the sequence. For `Failure == Never`
    /// the sequence does not throw.
    ///
    /// Cancelling the consuming task, or dropping the iterator (leaving the loop early), disposes the
    /// run: its lifetime ends and it is interrupted; buffered values are dropped then.
    ///
    /// ```swift
    /// for await value in Producer<Int, Never>(values: 1...3).values { print(value) }   // 1 2 3
    /// ```
    public var values: Values { Values(self) }

    /// The values of a producer's runs as an `AsyncSequence` that throws the producer's `Failure`;
    /// see `Producer.values`.
    public struct Values: AsyncSequence {
        /// The element type: the producer's values.
        public typealias Element = Value

        @usableFromInline let producer: Producer

        init(_ producer: Producer) { self.producer = producer }

        /// An iterator that starts a new run of the producer at its first `next()`.
        public func makeAsyncIterator() -> Iterator { Iterator(producer) }

        /// Hands out the values of one run as they arrive; see `Producer.values`.
        ///
        /// Dropping every copy of the iterator disposes its run.
        public struct Iterator: AsyncIteratorProtocol {
            private enum State {
                case notStarted(Producer)
                case started(AsyncIterationOwner<Value, Failure>)
            }

            private var state: State

            init(_ producer: Producer) { state = .notStarted(producer) }

            /// The next value; `nil` once the run completed or was interrupted, or the task was cancelled.
            ///
            /// - Throws: the run's error, once, after every value sent before it.
            public mutating func next() async throws(Failure) -> Value? {
                try await next(isolation: nil)
            }

            /// The next value, resumed on `actor`; the first call starts the run on the caller's thread.
            public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Value? {
                let owner: AsyncIterationOwner<Value, Failure>
                switch state {
                case let .started(started):
                    owner = started
                case let .notStarted(producer):
                    let channel = AsyncEventChannel<Value, Failure>()
                    owner = AsyncIterationOwner(channel)
                    state = .started(owner)
                    if Task.isCancelled { return nil }   // `owner` goes away at once: nothing to run
                    channel.subscription.inner = producer.start { channel.receive($0) }
                }
                switch await owner.channel.next(isolation: actor) {
                case let .value(value): return value
                case let .failed(error): throw error
                case .finished: return nil
                }
            }
        }
    }
}
