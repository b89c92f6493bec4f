import Synchronization

/// The value, lock and change signal behind `MutableProperty`, `Property` and composed properties.
///
/// Locking rule: `lock` guards `current` and `isCompleted`. A change is *submitted* to `signal` while
/// `lock` is held, so that changes reach the signal in the order they were made, and *delivered* after
/// `lock` is released, so that observers never run under it (lock order: this lock, then the signal's).
@usableFromInline
final class PropertyStorage<Value>: @unchecked Sendable {
    @usableFromInline let lock = Lock()
    /// The thread inside `modify`'s body, or 0: turns a nested `modify` into a clear trap.
    @usableFromInline let modifyingThread = Atomic<UInt>(0)
    @usableFromInline let signal = Signal<Value, Never>()

    // Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var current: Value
    @usableFromInline @exclusivity(unchecked) var isCompleted = false

    @inlinable
    init(_ initial: Value) {
        current = initial
    }

    @inlinable
    var value: Value {
        checkNotInsideModify()
        return lock.locked { current }
    }

    @inlinable
    func set(_ newValue: Value) {
        checkNotInsideModify()
        let core = signal.core
        let start = lock.locked { () -> SignalState<Value, Never>.ValueStart in
            current = newValue
            return core.lock.locked { core.state.startValue(newValue, core.delivery) }
        }
        core.run(start, value: newValue)
    }

    @inlinable
    func modify<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        checkNotInsideModify()
        let outcome = lock.locked { () -> (Result<R, E>, SignalCore<Value, Never>.Delivery?) in
            modifyingThread.store(currentThreadID(), ordering: .relaxed)
            let result: Result<R, E>
            do throws(E) {
                result = .success(try body(&current))
            } catch {
                result = .failure(error)
            }
            modifyingThread.store(0, ordering: .relaxed)
            // Observers are told even if `body` threw: whatever it left in place is the new value.
            return (result, signal.core.submit(.value(current)))
        }
        if let delivery = outcome.1 { signal.core.deliver(delivery) }
        return try outcome.0.get()
    }

    @inlinable
    func checkNotInsideModify() {
        let thread = modifyingThread.load(ordering: .relaxed)
        if thread != 0 && thread == currentThreadID() {
            fatalError("MutableProperty: the body of modify(_:) read or changed the same property; "
                + "use the inout value it is given instead.")
        }
    }

    /// Sends `completed` to every observer; later changes are still stored but no longer sent.
    @usableFromInline
    func complete() {
        let delivery = lock.locked { () -> SignalCore<Value, Never>.Delivery? in
            guard !isCompleted else { return nil }
            isCompleted = true
            return signal.core.submit(.completed)
        }
        if let delivery { signal.core.deliver(delivery) }
    }

    /// Attaches `action` and delivers the current value to it first, then every change.
    @inlinable
    func attachWithCurrent(_ action: ObserverAction<Value, Never>) -> any Disposable {
        checkNotInsideModify()
        let attached = lock.locked { () -> (Observation<Value, Never>?, SignalCore<Value, Never>.Delivery?, Value?) in
            if isCompleted { return (nil, nil, current) }
            guard let (observation, delivery) = signal.core.attach(action, initial: .value(current)) else {
                return (nil, nil, nil)
            }
            return (observation, delivery, nil)
        }
        if let delivery = attached.1 { signal.core.deliver(delivery) }
        if let observation = attached.0 { return observation }
        // Completed: the current value, then `completed`, to this observer alone.
        if let last = attached.2 {
            switch action {
            case let .events(action):
                action(.value(last))
                action(.completed)
            case let .values(action):
                action(last)
            case let .forwarding(values, termination):
                values(last)
                termination(.completed)
            }
        }
        return AnyDisposable()
    }

    /// Reads the current value and attaches `action` for the changes after it, atomically.
    @usableFromInline
    func observeChanges(
        _ action: @escaping @Sendable (Event<Value, Never>) -> Void
    ) -> (current: Value, observation: (any Disposable)?) {
        lock.locked { (current, signal.observe(action)) }
    }

    /// The producer of the current value, then every change.
    @inlinable
    var producer: Producer<Value, Never> {
        Producer<Value, Never>({ [self] observer, lifetime in
            // Forward into the run: its signal adds the run's lifetime and disposal.
            let forward = Confined(observer)
            let observation = attachWithCurrent(.events { forward.value.send($0) })
            lifetime.add(observation)
        }, directAttach: { [self] action in attachWithCurrent(action) })
    }
}
