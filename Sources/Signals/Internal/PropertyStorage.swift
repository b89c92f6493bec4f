import Synchronization

/// The value and change signal behind `MutableProperty`, `Property` and composed properties, under one lock.
///
/// Locking rule: the signal's lock (`core.lock`) guards `state` as well as the signal's own state. A change
/// stores the value and submits it to the signal in one locked section, so that changes reach the signal in
/// the order they were made, and is delivered after the lock is released, so that observers never run
/// under it. One lock/unlock per set: the same cost as a send.
@usableFromInline
final class PropertyStorage<Value>: @unchecked Sendable {
    @usableFromInline typealias Core = SignalCore<Value, Never>

    // Inlinable where a set, a start of `producer` or a read goes: propertySet (`Benchmarks core`,
    // `compare`). `modify` is not (no benchmark).

    @usableFromInline let core: Core
    /// The `Signal` around `core`, handed out as the property's `signal`.
    @usableFromInline let signal: Signal<Value, Never>
    /// The thread inside `modify`'s body, or `noThread`: turns a nested `modify` into a clear trap.
    @usableFromInline let modifyingThread = Atomic<ThreadID>(.noThread)
    /// Guarded by `core.lock`.
    @usableFromInline @exclusivity(unchecked) var state: PropertyState<Value>

    @inlinable
    init(_ initial: Value) {
        core = Core()
        signal = Signal(core: core)
        state = PropertyState(initial)
    }

    @inlinable
    var value: Value {
        checkNotInsideModify()
        return core.lock.locked { state.current }
    }

    // Setting is inlinable: propertySet (`Benchmarks core`, `compare`).
    @inlinable
    func set(_ newValue: Value) {
        checkNotInsideModify()
        core.run(core.lock.locked { state.set(newValue, &core.state, core.delivery) }, value: newValue)
    }

    @usableFromInline
    func modify<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        checkNotInsideModify()
        let modified = core.lock.locked { () -> PropertyState<Value>.Modification<R, E> in
            modifyingThread.store(.current, ordering: .relaxed)
            let result: Result<R, E>
            do throws(E) {
                result = .success(try body(&state.current))
            } catch {
                result = .failure(error)
            }
            modifyingThread.store(.noThread, ordering: .relaxed)
            // Observers are told even if `body` threw: whatever it left in place is the new value.
            let newValue = state.current
            return .init(result: result, newValue: newValue, start: state.set(newValue, &core.state, core.delivery))
        }
        core.run(modified.start, value: modified.newValue)
        return try modified.result.get()
    }

    @inlinable
    func checkNotInsideModify() {
        let thread = modifyingThread.load(ordering: .relaxed)
        if thread != .noThread && thread == .current {
            fatalError("MutableProperty: the body of modify(_:) read or changed the same property; "
                + "use the inout value it is given instead.")
        }
    }

    /// Sends `completed` to every observer; later changes are still stored but no longer sent.
    @usableFromInline
    func complete() {
        if let delivery = core.lock.locked({ state.complete(&core.state, core.delivery) }) {
            core.deliver(delivery)
        }
    }

    /// Stores `newValue` and queues its delivery without calling any observer; returns the delivery to
    /// run (`nil` if no observer is attached, or if another thread is delivering this property's changes
    /// and will deliver this one too). (Inlinable: see `StagedDelivery`.)
    @inlinable
    func stage(_ newValue: Value) -> Core.Delivery? {
        core.lock.locked { state.stage(newValue, &core.state, core.delivery) }
    }

    /// Attaches `action` and delivers the current value to it first, then every change.
    @inlinable
    func attachWithCurrent(_ action: ObserverAction<Value, Never>) -> any Disposable {
        checkNotInsideModify()
        let box = Unmanaged.passRetained(ObserverBox(action))
        switch core.lock.locked({ state.attachWithCurrent(box, &core.state, core.delivery) }) {
        case let .attached(token, released, delivery):
            released.release()
            if let delivery { core.deliver(delivery) }
            return Observation(core, token, interrupting: true)
        case let .completed(last):
            box.release()
            // The current value, then `completed`, to this observer alone.
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
            return AnyDisposable()
        }
    }

    /// Reads the current value and attaches `action` for the changes after it, atomically. On a completed
    /// property, `action` receives `interrupted` at once (the late-observer rule) and nothing is attached.
    @usableFromInline
    func observeChanges(
        _ action: @escaping @Sendable (Event<Value, Never>) -> Void
    ) -> (current: Value, observation: (any Disposable)?) {
        let box = Unmanaged.passRetained(ObserverBox<Value, Never>(.events(action)))
        var current: Value?
        let attachment = core.lock.locked { () -> SignalState<Value, Never>.Attachment in
            current = state.current
            return core.state.attach(box, core.delivery)
        }
        switch attachment {
        case let .attached(token, released):
            released.release()
            return (current!, Observation(core, token))
        case .rejected:
            box.release()
            action(.interrupted)
            return (current!, nil)
        }
    }

    /// The producer of the current value, then every change.
    @inlinable
    var producer: Producer<Value, Never> {
        Producer<Value, Never>({ [self] observer, lifetime in
            // Forward into the run: its signal adds the run's lifetime and disposal.
            let observation = attachWithCurrent(
                .forwarding(values: { observer.send(value: $0) }, termination: { observer.send($0) }))
            lifetime.add(observation)
        }, directAttach: { [self] action in attachWithCurrent(action) })
    }
}

/// A property's own part of the state its signal's lock guards: the value, and whether the property
/// completed. Each method also updates the signal's state, in the same locked section, and says what to
/// do once the lock is released.
@usableFromInline
struct PropertyState<Value> {
    @usableFromInline typealias Signal = SignalState<Value, Never>

    @usableFromInline var current: Value
    @usableFromInline var isCompleted = false

    @inlinable
    init(_ initial: Value) {
        current = initial
    }

    /// Stores `newValue` and submits it to the signal (dropped there once the property completed).
    @inlinable
    mutating func set(_ newValue: Value, _ signal: inout Signal, _ delivery: borrowing DeliveryWord) -> Signal.ValueStart {
        current = newValue
        return signal.startValue(newValue, delivery)
    }

    /// What a `modify` did under the lock: what its body returned or threw, and the change to deliver.
    struct Modification<R, E: Error> {
        let result: Result<R, E>
        let newValue: Value
        let start: Signal.ValueStart
    }

    /// `set`, with the delivery queued for the caller to run later (see `StagedDelivery`, why inlinable).
    @inlinable
    mutating func stage(
        _ newValue: Value, _ signal: inout Signal, _ delivery: borrowing DeliveryWord
    ) -> SignalCore<Value, Never>.Delivery? {
        current = newValue
        // No observer and no delivery in progress: nothing to deliver (as `startValue` drops the value).
        // Skips making the event and the delivery, generic work a view model pays for every property it
        // publishes unobserved (`Benchmarks itemlist`, view model rows).
        if signal.phase == .alive, signal.observers.isEmpty, delivery.isIdleLocked { return nil }
        return signal.submit(.value(newValue), to: nil, delivery)
    }

    /// Completes the property's signal, once; returns the delivery to run.
    @usableFromInline
    mutating func complete(_ signal: inout Signal, _ delivery: borrowing DeliveryWord) -> SignalCore<Value, Never>.Delivery? {
        guard !isCompleted else { return nil }
        isCompleted = true
        return signal.submit(.completed, to: nil, delivery)
    }

    /// The outcome of attaching an observer that starts with the current value.
    @usableFromInline
    enum AttachmentWithCurrent {
        /// Attached with `token`; release `released`, then run `delivery` (the current value, for the new
        /// observer alone, queued ahead of every later change), if any.
        case attached(token: UInt64, released: Signal.Released, delivery: SignalCore<Value, Never>.Delivery?)
        /// The property completed: the new observer gets `last`, then `completed`, and is not attached.
        case completed(last: Value)
    }

    @inlinable
    mutating func attachWithCurrent(
        _ box: Unmanaged<ObserverBox<Value, Never>>, _ signal: inout Signal, _ delivery: borrowing DeliveryWord
    ) -> AttachmentWithCurrent {
        guard !isCompleted, case let .attached(token, released) = signal.attach(box, delivery) else {
            return .completed(last: current)
        }
        let initial = signal.submit(.value(current), to: box.takeUnretainedValue(), delivery)
        return .attached(token: token, released: released, delivery: initial)
    }
}
