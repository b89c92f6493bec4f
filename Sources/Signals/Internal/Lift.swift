extension Producer {
    /// A producer whose every run starts this one and forwards what `transform` makes of its signal.
    ///
    /// The stateful operators live on `Signal` (whose serial delivery confines their state) and reach
    /// `Producer` through here. The upstream run is tied to the downstream run's lifetime: when the
    /// downstream run ends (terminated by the operator, or disposed), the upstream run is disposed.
    func lift<U, F>(_ transform: @escaping (Signal<Value, Failure>) -> Signal<U, F>) -> Producer<U, F> {
        Producer<U, F> { observer, lifetime in
            self.startWithSignal { signal, disposable in
                lifetime.add(disposable)
                transform(signal).attachForwarding(observer)
            }
        }
    }
}

/// A value handed from one thread to another exactly once, under a lock (`start(on:)`'s start handler).
final class Handoff<T>: @unchecked Sendable {
    let lock = Lock()
    /// Guarded by `lock`.
    var value: T?

    init(_ value: T) { self.value = value }

    /// Takes the value; `nil` if it was already taken.
    func take() -> T? {
        lock.locked { () -> T? in
            let taken = value
            value = nil
            return taken
        }
    }
}
