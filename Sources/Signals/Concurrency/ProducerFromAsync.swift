extension Producer where Value: Sendable {
    /// A producer whose every run calls `operation` in a new `Task`, then sends its result and completes,
    /// or fails with the error it throws.
    ///
    /// The task starts when the run starts, on the global concurrent executor (not the caller's actor).
    /// Interrupting or disposing the run cancels the task; whatever the operation does after that (return
    /// a value, throw `CancellationError`) is dropped, because the run has already ended. The task keeps
    /// the run going until the operation returns. For an operation that may throw anything, the failure
    /// type is `any Error`: `Producer<Data, any Error> { try await load() }`.
    ///
    /// ```swift
    /// let answer = Producer<Int, Never> { await compute() }
    /// ```
    public init(operation: @escaping @Sendable () async throws(Failure) -> Value) {
        self.init { observer, lifetime in
            let task = Task {
                do throws(Failure) {
                    let value = try await operation()
                    observer.send(value: value)
                    observer.sendCompleted()
                } catch {
                    observer.send(error: error)
                }
            }
            lifetime.observeEnded { task.cancel() }
        }
    }

    /// A producer whose every run iterates `sequence` in a new `Task`, sending each element, then
    /// `completed`, or `failed` with the error the sequence throws.
    ///
    /// Each run makes its own iterator, on the global concurrent executor. Interrupting or disposing the
    /// run cancels the task: iteration stops at the sequence's next cancellation check, and nothing it
    /// produces afterwards is sent. The task keeps the run going until iteration ends.
    ///
    /// ```swift
    /// let ticks = Producer(values: AsyncStream<Int> { continuation in /* … */ })
    /// ```
    public init<S: AsyncSequence & Sendable>(values sequence: S) where S.Element == Value, S.Failure == Failure {
        self.init { observer, lifetime in
            let task = Task {
                var iterator = sequence.makeAsyncIterator()
                do throws(Failure) {
                    while let value = try await iterator.next(isolation: nil) {
                        if Task.isCancelled { return }
                        observer.send(value: value)
                    }
                    observer.sendCompleted()
                } catch {
                    observer.send(error: error)
                }
            }
            lifetime.observeEnded { task.cancel() }
        }
    }
}
