
/// The hand-off between a stream's observer, called on any thread, and one async iterator.
///
/// Values are buffered without bound until the iterator asks for them, so no value is lost however
/// slowly the consumer runs. The terminal event is handed out after every buffered value. `cancel()`
/// (task cancellation, or the iterator going away) drops the buffer, resumes a waiting `next` with the
/// end, and disposes the subscription: the observation of a signal, or a producer's run.
///
/// No lock is held while a continuation is resumed or the subscription is disposed.
final class AsyncEventChannel<Value: Sendable, Failure: Error>: Sendable {
    /// What `next` hands to the iterator.
    enum Step: Sendable {
        case value(Value)
        case failed(Failure)
        case finished
    }

    enum Phase {
        /// Receiving events; `waiter` is the suspended `next`, present only while the buffer is empty.
        case open(waiter: UnsafeContinuation<Step, Never>?)
        /// The terminal step arrived; it is handed out once the buffer is drained.
        case closing(Step)
        /// The end was handed out, or the iteration was cancelled: `next` returns `finished`.
        case closed
    }

    struct State {
        /// Values waiting for the iterator; a value handed out leaves the buffer at once.
        var buffer = FIFO<Value>()
        var phase = Phase.open(waiter: nil)
    }

    private let state = Locked(State())
    /// The observation or run feeding this channel; disposed by `cancel()` (at once if set afterwards).
    let subscription = SerialDisposable()

    init() {}

    /// Takes one event from the stream. Called from the stream's serial delivery, on any thread.
    func receive(_ event: Event<Value, Failure>) {
        let step: Step
        switch event {
        case let .value(value): step = .value(value)
        case let .failed(error): step = .failed(error)
        case .completed, .interrupted: step = .finished
        }
        switch state.withLock({ $0.receive(step) }) {
        case .none: return
        case let .resume(waiter): waiter.resume(returning: step)
        }
    }

    /// The next buffered value, or the end; suspends until one arrives. If the calling task is (or gets)
    /// cancelled, cancels the channel and returns `finished`.
    func next(isolation actor: isolated (any Actor)?) async -> Step {
        if Task.isCancelled {
            cancel()
            return .finished
        }
        // Fast path: something is already buffered, or the stream has ended.
        if let ready = state.withLock({ $0.takeReady(orWait: nil) }) { return ready }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Step, Never>) in
                if let ready = state.withLock({ $0.takeReady(orWait: continuation) }) {
                    continuation.resume(returning: ready)
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Ends the iteration: drops buffered values, resumes a waiting `next` with `finished`, disposes
    /// the subscription. Idempotent.
    func cancel() {
        switch state.withLock({ $0.cancel() }) {
        case .none: break
        case let .resume(waiter): waiter.resume(returning: .finished)
        }
        subscription.dispose()
    }
}

extension AsyncEventChannel.State {
    /// What to do once the lock is released.
    enum WaiterAction {
        case none
        /// Resume the suspended `next`.
        case resume(UnsafeContinuation<AsyncEventChannel.Step, Never>)
    }

    /// Takes a step from the stream: hands it to the suspended `next`, if any, or buffers a value, or
    /// keeps the end for when the buffer is drained. Steps after the end are dropped.
    mutating func receive(_ step: AsyncEventChannel.Step) -> WaiterAction {
        guard case let .open(waiter) = phase else { return .none }
        if case let .value(value) = step {
            if let waiter {
                phase = .open(waiter: nil)
                return .resume(waiter)
            }
            buffer.append(value)
            return .none
        }
        guard let waiter else {
            phase = .closing(step)
            return .none
        }
        phase = .closed
        return .resume(waiter)
    }

    /// Ends the iteration: drops the buffer; a suspended `next` is resumed with the end.
    mutating func cancel() -> WaiterAction {
        defer {
            phase = .closed
            buffer.removeAll()
        }
        if case let .open(waiter?) = phase { return .resume(waiter) }
        return .none
    }

    /// A buffered value or the end, if there is one; otherwise records `waiter` (when given) as the
    /// suspended `next` and returns `nil`.
    mutating func takeReady(orWait waiter: UnsafeContinuation<AsyncEventChannel.Step, Never>?) -> AsyncEventChannel.Step? {
        if let value = buffer.popFirst() { return .value(value) }
        switch phase {
        case .open:
            if let waiter { phase = .open(waiter: waiter) }
            return nil
        case let .closing(step):
            phase = .closed
            return step
        case .closed:
            return .finished
        }
    }
}

/// Cancels its channel when the last iterator copy holding it goes away (a `for await` loop left
/// with `break`, `return` or a thrown error), so the subscription never outlives its consumer.
final class AsyncIterationOwner<Value: Sendable, Failure: Error>: Sendable {
    let channel: AsyncEventChannel<Value, Failure>

    init(_ channel: AsyncEventChannel<Value, Failure>) { self.channel = channel }

    deinit { channel.cancel() }
}
