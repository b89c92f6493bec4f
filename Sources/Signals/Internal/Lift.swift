extension Producer {
    /// A producer whose every run starts this one and forwards what `transform` makes of its signal.
    ///
    /// The stateful operators live on `Signal` (whose serial delivery confines their state) and reach
    /// `Producer` through here. The upstream run is tied to the downstream run's lifetime: when the
    /// downstream run ends (terminated by the operator, or disposed), the upstream run is disposed.
    @inlinable
    func lift<U, F>(_ transform: @escaping (Signal<Value, Failure>) -> Signal<U, F>) -> Producer<U, F> {
        Producer<U, F> { observer, lifetime in
            self.startWithSignal { signal, disposable in
                lifetime.add(disposable)
                transform(signal).attachForwarding(observer)
            }
        }
    }
}

extension Signal {
    /// Submits `events` in order; returns the delivery to run once the caller's lock is released.
    ///
    /// Operators fed by more than one signal (or by a scheduler) submit under their own lock, so that
    /// events reach the output in the order the operator decided them (lock order: theirs, then this signal's).
    @inlinable
    func submit(_ first: Event<Value, Failure>, _ second: Event<Value, Failure>) -> Delivery? {
        let delivery = submit(first)
        return submit(second) ?? delivery
    }
}

/// The output of an operator fed by several signals or by a scheduler: a pipe whose events are
/// submitted while the operator's `lock` is held and delivered after it is released.
///
/// Subclasses keep their own state beside it, guarded by the same `lock`.
@usableFromInline
class LockedOutput<Value, Failure: Error>: @unchecked Sendable {
    @usableFromInline let lock = Lock()
    @usableFromInline let output: Signal<Value, Failure>
    /// The pipe's input: held while the operator runs, released (outside the lock) once it terminated.
    /// Guarded by `lock`.
    @usableFromInline var input: Signal<Value, Failure>.Observer?
    /// Guarded by `lock`.
    @usableFromInline var isTerminated = false

    @usableFromInline
    init() {
        let (output, input) = Signal<Value, Failure>.pipe()
        self.output = output
        self.input = input
    }

    /// Delivers what a locked section submitted; call after releasing `lock`.
    @inlinable
    func deliver(_ delivery: Signal<Value, Failure>.Delivery?) {
        if let delivery { output.deliver(delivery) }
    }

    /// Marks the operator terminated and submits `event`; must be called with `lock` held.
    /// Returns the delivery and the input, which the caller releases after unlocking.
    @inlinable
    func terminateLocked(
        _ event: Event<Value, Failure>, after value: Value? = nil
    ) -> (Signal<Value, Failure>.Delivery?, Signal<Value, Failure>.Observer?)? {
        guard !isTerminated else { return nil }
        isTerminated = true
        let released = input
        input = nil
        if let value { return (output.submit(.value(value), event), released) }
        return (output.submit(event), released)
    }

    /// Submits a value unless terminated; must be called with `lock` held.
    @inlinable
    func sendLocked(_ value: Value) -> Signal<Value, Failure>.Delivery? {
        isTerminated ? nil : output.submit(.value(value))
    }
}

/// A value handed from one thread to another exactly once, under a lock (`start(on:)`'s start handler).
@usableFromInline
final class Handoff<T>: @unchecked Sendable {
    @usableFromInline let lock = Lock()
    /// Guarded by `lock`.
    @usableFromInline var value: T?

    @inlinable
    init(_ value: T) { self.value = value }

    /// Takes the value; `nil` if it was already taken.
    @inlinable
    func take() -> T? {
        lock.locked { () -> T? in
            let taken = value
            value = nil
            return taken
        }
    }
}
