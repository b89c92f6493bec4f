/// A thread-safe, observable value: read it, set it, `modify` it atomically, observe its changes.
///
/// `producer` sends the current value, then every change; `signal` sends changes only. Every set or
/// `modify` sends the new value exactly once, even when it equals the old one (use `skipRepeats`).
///
/// **Locking.** `modify`'s body runs under the property's lock, so concurrent `modify`s never lose
/// an update; reading, setting or modifying the same property from inside the body traps with a clear
/// message. Observers are always called after the lock is released, in the order the changes were made,
/// so an observer may read `value`, observe, or set the property again (the new change is delivered
/// after the current one, to every observer: each observer's last-seen value ends equal to `value`).
///
/// **Ownership.** When a `MutableProperty` is freed, its observers receive `completed`. A `Property`
/// view keeps its `MutableProperty` alive.
///
/// ```swift
/// let count = MutableProperty(0)
/// count.producer.startWithValues { print($0) }   // 0
/// count.value = 1                                // 1
/// count.modify { $0 += 1 }                       // 2
/// ```
public final class MutableProperty<Value> {
    // Inlinable: `init`, `value`, `producer` and `signal`, which propertySet times (`Benchmarks core`,
    // `compare`); not `modify` (no benchmark).

    @usableFromInline
    let storage: PropertyStorage<Value>

    /// A property holding `initialValue`.
    @inlinable
    public init(_ initialValue: Value) {
        storage = PropertyStorage(initialValue)
    }

    /// The current value. Setting it notifies every observer once, after the lock is released.
    @inlinable
    public var value: Value {
        get { storage.value }
        set { storage.set(newValue) }
    }

    /// Mutates the value in place under the property's lock and returns what `body` returns.
    ///
    /// Observers are notified once, after the lock is released, also when `body` throws (with whatever
    /// value it left). `body` must not touch this property (that traps).
    @discardableResult
    public func modify<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        try storage.modify(body)
    }

    /// Sends the current value, then every change, until the property is freed (then `completed`).
    @inlinable
    public var producer: Producer<Value, Never> { storage.producer }

    /// Sends every change (not the current value); completes when the property is freed.
    @inlinable
    public var signal: Signal<Value, Never> { storage.signal }

    deinit { storage.complete() }
}

// All state lives in `storage`, which is lock-guarded.
extension MutableProperty: @unchecked Sendable where Value: Sendable {}
