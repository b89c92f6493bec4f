/// The machinery behind a `Signal`: the observer list, the delivery queue and the termination state.
///
/// **Ownership.** The input (`Signal.Observer`) and every observation's disposable retain the core;
/// the core retains its attached observers (`ObserverBox`es) until they are detached or it terminates:
/// one alone, or in an observer list once a second attaches (`Observers`). The public `Signal` is a shell
/// around the core, so a disposable never keeps the `Signal` alive, and a terminated core holds nothing.
/// None of these references is weak: the per-event path never touches a weak-reference side table.
///
/// **Locking rule.** `lock` guards `state` (a `SignalState`: each of its methods says what to do once the
/// lock is released). The atomic `delivery` word says whether a thread is delivering and whether work
/// waits for it (`DeliveryWord`). A sender that finds a delivery in progress queues its event and returns;
/// the delivering thread drains the queue in FIFO order. No lock is held while an observer runs.
///
/// **Per-event path.** The uncontended value costs one lock/unlock and one compare-and-swap, and retains
/// nothing: the state holds its one box, or its observer list (`ObserverList`, one allocation at a fixed
/// address) and the list its boxes, with manual retains, and the delivery reads them unretained. That is
/// safe because while a delivery may be reading a list, the list is replaced rather than mutated, and a
/// replaced list or a detached box is released by the delivering thread once it is done (`SignalExtras`).
/// Boxes are immutable apart from their atomic word, whose `disposed` flag is what a delivery already in
/// progress on another thread checks before calling an observer. A signal with one observer (every
/// producer run started with an action, most pipes and properties) has no list at all: one allocation
/// fewer per observation and per producer start.
///
/// **Numbers.** One counter numbers both observers (at attach) and queued events (at send): an observer
/// receives the queued events numbered after it, that is, the events sent after it attached. An event
/// delivered at once goes to the list of that moment, whose observers all attached before it.
///
/// **Inlining.** The paths the `Benchmarks` core suite and `../shared/bench/compare` time (send, attach
/// and detach, property set, producer start) are `@inlinable`, so that a client specialises them for its
/// value type: unspecialised, they cost several times more. The slow paths (a queued event, termination)
/// are not.
@usableFromInline
final class SignalCore<Value, Failure: Error>: @unchecked Sendable {
    @usableFromInline typealias Box = ObserverBox<Value, Failure>
    @usableFromInline typealias List = ObserverList<Value, Failure>

    /// An event waiting to be delivered, and to whom: every observer, or only `target`.
    @usableFromInline
    struct Pending {
        @usableFromInline var event: Event<Value, Failure>
        @usableFromInline var target: Box?
        @usableFromInline var sequence: UInt64

        @inlinable
        init(event: Event<Value, Failure>, target: Box?, sequence: UInt64) {
            self.event = event
            self.target = target
            self.sequence = sequence
        }

        @inlinable
        var terminatesStream: Bool { target == nil && event.isTerminating }
    }

    /// What the thread that became the deliverer must deliver: an event, and the observers of that moment
    /// (unretained; for the terminal event, with the references the state held, which the delivery
    /// gives back).
    @usableFromInline
    struct Delivery {
        @usableFromInline var pending: Pending
        @usableFromInline var observers: Observers<Value, Failure>

        @inlinable
        init(pending: Pending, observers: Observers<Value, Failure>) {
            self.pending = pending
            self.observers = observers
        }
    }

    @usableFromInline let lock = Lock()
    @usableFromInline let delivery = DeliveryWord()
    /// Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var state = SignalState<Value, Failure>()

    @inlinable
    init() {}

    /// The core of a producer's run, with `action` attached and `lifetime` ended on termination. Nothing
    /// else holds the core yet: the state is set without the lock.
    @inlinable
    init(run lifetime: Lifetime, observedBy action: ObserverAction<Value, Failure>) {
        state.runLifetime = lifetime
        _ = state.attach(.passRetained(Box(action)), delivery)
    }

    deinit {
        // A terminated core holds nothing: return before touching (and looking up the metadata of) the
        // generic parts of its state, as every producer run that ended does.
        if delivery.hasTerminated { return }
        // A core freed before terminating (a property's signal, say) still owns its observers' references.
        state.observers.release()
        for box in state.extras?.deferredReleases ?? [] { box.release() }
    }

    // MARK: - Attaching and detaching

    /// Attaches `action` for the events sent from now on; `nil` if the signal has terminated.
    @inlinable
    func attach(_ action: ObserverAction<Value, Failure>) -> Observation<Value, Failure>? {
        let box = Unmanaged.passRetained(Box(action))
        switch lock.locked({ state.attach(box, delivery) }) {
        case let .attached(token, released):
            released.release()
            return Observation(self, token)
        case .rejected:
            box.release()
            return nil
        }
    }

    /// Detaches the observer `token`; it is released outside the lock (or when the delivery in progress
    /// ends). With `interrupting`, it alone receives `interrupted` first, after the events already sent.
    @inlinable
    func detach(_ token: UInt64, interrupting: Bool) {
        switch lock.locked({ state.detach(token, interrupting: interrupting, delivery) }) {
        case .notAttached:
            return
        case let .detached(released, started):
            released.release()
            if let started { deliver(started) }
        }
    }

    /// Whether the observer `token` is still attached.
    @inlinable
    func isAttached(_ token: UInt64) -> Bool {
        lock.locked { state.isAttached(token) }
    }

    // MARK: - Sending

    /// Sends `event`: delivers it now, or queues it behind the delivery in progress.
    @inlinable
    func send(_ event: Event<Value, Failure>) {
        if case let .value(value) = event { return send(value: value) }
        if let started = submit(event) { deliver(started) }
    }

    /// Sends a value: the uncontended value is delivered to the observer list of the moment, without
    /// queueing or retaining anything.
    @inlinable
    func send(value: Value) {
        run(lock.locked { state.startValue(value, delivery) }, value: value)
    }

    /// `send(value:)`, called rather than inlined: for the stages of a fused producer, which send either
    /// into the next stage or into the run's signal, and stay small when this path is a call.
    // Never inlined, with `run` and `Observers.deliver(value:)` always inlined into it: cold5map
    // (`Benchmarks core`, `compare`) measured 313 instructions per value so, 353 when every stage inlines
    // the signal's path, 333 when this function calls `run`.
    @inlinable @inline(never)
    func forward(value: Value) {
        send(value: value)
    }

    /// Goes on after `SignalState.startValue`, once the lock is released. (Always inlined: see `forward`.)
    @inlinable @inline(__always)
    func run(_ start: consuming SignalState<Value, Failure>.ValueStart, value: Value) {
        switch consume start {
        case .none:
            return
        case let .deliver(observers):
            observers.deliver(value: value)
            if delivery.finish() { return }
            if let next = nextDelivery() { deliver(next) }
        }
    }

    /// Sends `interrupted`: the last reference to the input went away before a terminal event. Never
    /// inlined, so that the input's `deinit`, unspecialised, builds an event (looking up its generic
    /// metadata) only when it has one to send (`Benchmarks core`: producer start).
    @inline(never)
    func interruptForLostInput() {
        send(.interrupted)
    }

    /// Accepts `event` into the stream. Returns the delivery to run if the caller became the delivering
    /// thread; `nil` if the event was dropped (after a terminal event) or queued.
    @inlinable
    func submit(_ event: Event<Value, Failure>) -> Delivery? {
        lock.locked { state.submit(event, to: nil, delivery) }
    }

    // The slow paths below are inlinable too: every producer run ends through them, and producer start
    // (`Benchmarks core`, the `producerStart` row of the A/B runs) spent most of its time looking up
    // generic metadata in them, unspecialised.

    /// Delivers `first`, then whatever was queued meanwhile, until nothing is left.
    @inlinable
    func deliver(_ first: Delivery) {
        var current = first
        while true {
            let pending = current.pending
            if let target = pending.target {
                target.receive(pending.event, numbered: .max)
                if pending.event.isTerminating { target.markDisposed() }
            } else if pending.event.isTerminating {
                // Every attached observer receives the terminal event, even one attached after it was sent.
                current.observers.deliver(pending.event, numbered: .max)
                finishTermination(current.observers)
                return
            } else {
                current.observers.deliver(pending.event, numbered: pending.sequence)
            }
            if delivery.finish() { return }
            guard let next = nextDelivery() else { return }
            current = next
        }
    }

    /// The delivering thread's slow path: takes the next queued event, or stops delivering.
    @inlinable
    func nextDelivery() -> Delivery? {
        switch lock.locked({ state.next(delivery) }) {
        case let .deliver(next, leftovers):
            leftovers.release()
            return next
        case let .stop(leftovers):
            leftovers.release()
            return nil
        }
    }

    /// After the terminal event: marks the released observers disposed, ends a run's lifetime, releases
    /// what was kept alive, and sends `interrupted` to observers whose own events were queued behind the
    /// terminal one. Everything is released outside the lock.
    @inlinable
    func finishTermination(_ released: Observers<Value, Failure>) {
        released.forEach { $0._withUnsafeGuaranteedRef { $0.markDisposed() } }
        let termination = lock.locked { state.finishTermination(delivery) }
        released.release()
        termination.extras?.takeLeftovers().release()
        termination.runLifetime?.end()
        if var queued = termination.extras?.queue {
            while let pending = queued.popFirst() {
                guard let target = pending.target, !target.isDisposed else { continue }
                target.receive(.interrupted, numbered: .max)
                target.markDisposed()
            }
        }
        withExtendedLifetime(termination) {}
    }

    /// Whether the terminal event has been delivered (or is being delivered).
    @usableFromInline
    var isTerminated: Bool {
        lock.locked { state.phase == .terminated }
    }

    /// Whether no terminal event has been sent yet (none is queued or being delivered).
    @usableFromInline
    var isAlive: Bool {
        lock.locked { state.phase == .alive }
    }

    /// Ends `lifetime` when this signal terminates (at once if it already has).
    @inlinable
    func endOnTermination(_ lifetime: Lifetime) {
        switch lock.locked({ state.endOnTermination(lifetime) }) {
        case .bound: return
        case .endNow: lifetime.end()
        }
    }

    /// Keeps `object` alive until this signal terminates (releases it at once if it already has).
    @usableFromInline
    func keepAlive(_ object: AnyObject) {
        switch lock.locked({ state.keepAlive(object) }) {
        case .kept: return
        case let .refused(object): withExtendedLifetime(object) {}
        }
    }
}

/// The disposable of one observation: detaches the observer. For a producer run attached directly to a
/// signal (a property's producer), it first sends that observer alone `interrupted`, as disposing a run
/// does. Retains the signal's core, not the `Signal`.
@usableFromInline
final class Observation<Value, Failure: Error>: Disposable {
    @usableFromInline let core: SignalCore<Value, Failure>
    @usableFromInline let token: UInt64
    @usableFromInline let interrupting: Bool

    @inlinable
    init(_ core: SignalCore<Value, Failure>, _ token: UInt64, interrupting: Bool = false) {
        self.core = core
        self.token = token
        self.interrupting = interrupting
    }

    @usableFromInline
    var isDisposed: Bool { !core.isAttached(token) }

    @inlinable
    func dispose() {
        core.detach(token, interrupting: interrupting)
    }
}
