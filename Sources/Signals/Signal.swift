import Synchronization

/// A hot stream of events: whoever holds its input sends, every attached observer receives.
///
/// Create one with `Signal.pipe()`. Observers attached with `observe` receive the events sent
/// after they were attached, in the order they were sent, serially: never two events at once,
/// whatever the number of sending threads. Observers are called in the order they were attached.
///
/// **Reentrancy.** An event sent while the signal is delivering another one — from inside one of
/// its observers, or from another thread — is queued and delivered to every observer after the
/// current event, in FIFO order. `send` never blocks waiting for delivery on another thread and never
/// nests: with observers A and B, if A sends 2 on seeing 1, the order is A1 B1 A2 B2. A sender that
/// finds the signal busy returns once its event is queued; the thread that is delivering delivers it.
///
/// **Termination.** After a terminal event (`failed`, `completed`, `interrupted`) is accepted, later
/// sends are dropped. Delivering the terminal event releases every observer at once. Observing a
/// signal that has already terminated calls the observer with `interrupted` at once, attaches nothing
/// and returns `nil`.
///
/// **Ownership.**
/// ```
///  Signal ──────────────────┐
///  input (Signal.Observer) ─┼──► core ──► observers (until disposed or the signal terminates)
///  observation disposable ──┘
/// ```
/// The input and the observations hold the signal's machinery, not the `Signal` itself: a disposable
/// never keeps a `Signal` alive, and once the signal has terminated the machinery holds nothing. A signal
/// with no observers and nobody holding its input is freed. When the last reference to the input goes
/// away before a terminal event, the observers receive `interrupted`.
///
/// **Threading.** Observers run on the thread that delivers: the sender's, or the thread already
/// delivering when the event was sent. No lock is held while an observer runs.
public final class Signal<Value, Failure: Error> {
    // Inlinable: `pipe`, `observe` and `observeValues`, which hot1, hot10 and observeDispose time
    // (`Benchmarks core`, `compare`); a client specialises them, and the core's paths, for its types.

    @usableFromInline
    let core: SignalCore<Value, Failure>

    @inlinable
    init(core: SignalCore<Value, Failure>) {
        self.core = core
    }

    @inlinable
    convenience init() {
        self.init(core: SignalCore())
    }

    /// A new signal and the input that sends on it.
    ///
    /// The signal lives while its input is held or it has observers; when the last reference to the
    /// input goes away before a terminal event, the observers receive `interrupted`.
    @inlinable
    public static func pipe() -> (output: Signal, input: Observer) {
        let core = SignalCore<Value, Failure>()
        return (Signal(core: core), Observer(core))
    }

    /// Attaches `action`, which receives every event sent from now on, until it is disposed or the
    /// signal terminates.
    ///
    /// The signal retains `action` until then; the returned disposable does not retain the signal.
    /// On a signal that has already terminated, `action` receives `interrupted` at once and `nil` is returned.
    @inlinable
    @discardableResult
    public func observe(_ action: @escaping @Sendable (Event<Value, Failure>) -> Void) -> (any Disposable)? {
        if let box = core.attach(.events(action)) { return box }
        action(.interrupted)
        return nil
    }

    /// Attaches `action`, which receives every value sent from now on; terminal events end the observation.
    ///
    /// Same ownership and threading as `observe(_:)`. On a terminated signal, returns `nil` and never calls `action`.
    @inlinable
    @discardableResult
    public func observeValues(_ action: @escaping @Sendable (Value) -> Void) -> (any Disposable)? {
        core.attach(.values(action))
    }

    /// Sends `event` to every observer, or queues it if a delivery is in progress.
    @inlinable
    func send(_ event: Event<Value, Failure>) {
        core.send(event)
    }

    /// What the thread that submitted an event must deliver (see `SignalCore`).
    @usableFromInline
    typealias Delivery = SignalCore<Value, Failure>.Delivery

    /// Accepts `event` without delivering it: returns the delivery to run once the caller's lock is
    /// released, or `nil` if the event was dropped or queued behind a delivery in progress.
    @inlinable
    func submit(_ event: Event<Value, Failure>) -> Delivery? {
        core.submit(event)
    }

    /// Runs a delivery that `submit` returned.
    @inlinable
    func deliver(_ delivery: Delivery) {
        core.deliver(delivery)
    }
}

// `Signal` is immutable; its core is thread-safe (every mutable stored property is guarded by its lock,
// and its delivery word is atomic). Values pass through it on the sending thread, or — when queued —
// from a sender that held a `Signal.Observer`, which is `Sendable` only when `Value` is.
extension Signal: @unchecked Sendable {}

extension Signal {
    /// The number of events the signal's queue of events waiting for a busy delivery holds without
    /// growing (0 when it has no buffer). For the package's tests: the queue must follow the backlog.
    package var pendingEventCapacity: Int {
        core.lock.locked { core.state.extras?.queue.capacity ?? 0 }
    }
}
