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
///  input (Signal.Observer) ──strong──► Signal ──strong──► observers (until disposed or terminated)
///  observation disposable ──weak────► Signal
/// ```
/// A signal with no observers and nobody holding its input is freed. When the last reference to
/// the input goes away before a terminal event, the observers receive `interrupted`.
///
/// **Threading.** Observers run on the thread that delivers: the sender's, or the thread already
/// delivering when the event was sent. No lock is held while an observer runs.
public final class Signal<Value, Failure: Error> {
    /// One attached observer. Retained by the signal's list (and by in-flight deliveries) only.
    @usableFromInline
    final class Box: Sendable {
        @usableFromInline
        enum Action: Sendable {
            case events(@Sendable (Event<Value, Failure>) -> Void)
            case values(@Sendable (Value) -> Void)
        }

        @usableFromInline let action: Action
        /// Attach order, and the identity the observation's disposable refers to.
        @usableFromInline let token: UInt64
        /// The first sequence number this observer receives: it sees only events sent after it attached.
        @usableFromInline let since: UInt64
        /// Set (while holding the signal's lock) when the observation is disposed, so that a delivery
        /// already in progress on another thread skips this observer.
        @usableFromInline let disposed = Atomic<Bool>(false)

        @inlinable
        init(_ action: Action, token: UInt64, since: UInt64) {
            self.action = action
            self.token = token
            self.since = since
        }

        @inlinable
        func receive(_ event: Event<Value, Failure>) {
            switch action {
            case let .events(action):
                action(event)
            case let .values(action):
                if case let .value(value) = event { action(value) }
            }
        }
    }

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
    }

    /// What a sender must do after submitting an event.
    @usableFromInline
    struct Delivery {
        @usableFromInline var pending: Pending
        @usableFromInline var observers: ContiguousArray<Box>

        @inlinable
        init(pending: Pending, observers: ContiguousArray<Box>) {
            self.pending = pending
            self.observers = observers
        }
    }

    @usableFromInline
    enum Phase {
        /// Accepting events.
        case alive
        /// A terminal event is queued: later sends are dropped, observers may still attach.
        case terminating
        /// The terminal event has been delivered (or is being delivered): observers are released.
        case terminated
    }

    // The delivery word: who is delivering, and whether work is queued.
    // Only a thread holding `lock` moves it away from `idle` or out of `pendingWork`;
    // the delivering thread moves it from `delivering` to `idle` without the lock (the fast path).
    @inlinable static var idle: Int { 0 }
    @inlinable static var delivering: Int { 1 }
    @inlinable static var pendingWork: Int { 2 }

    @usableFromInline let lock = Lock()
    @usableFromInline let delivery = Atomic<Int>(0)

    // Guarded by `lock`.
    @usableFromInline var observers: ContiguousArray<Box> = []
    @usableFromInline var nextToken: UInt64 = 0
    @usableFromInline var nextSequence: UInt64 = 0
    @usableFromInline var phase: Phase = .alive
    @usableFromInline var queue: ContiguousArray<Pending?> = []
    @usableFromInline var queueHead = 0
    /// The lifetime of a producer's run that this signal carries: ended once the terminal event is delivered.
    @usableFromInline var runLifetime: Lifetime?
    /// Objects kept alive until the signal terminates (a run's input that a start handler asked to keep).
    @usableFromInline var keptAlive: [AnyObject] = []

    @usableFromInline
    init() {}

    /// A new signal and the input that sends on it.
    ///
    /// The signal lives while its input is held or it has observers; when the last reference to the
    /// input goes away before a terminal event, the observers receive `interrupted`.
    @inlinable
    public static func pipe() -> (output: Signal, input: Observer) {
        let signal = Signal()
        return (signal, Observer(signal))
    }

    // MARK: - Observing

    /// Attaches `action`, which receives every event sent from now on, until it is disposed or the
    /// signal terminates.
    ///
    /// The signal retains `action` until then; the returned disposable does not retain the signal.
    /// On a signal that has already terminated, `action` receives `interrupted` at once and `nil` is returned.
    @inlinable
    @discardableResult
    public func observe(_ action: @escaping @Sendable (Event<Value, Failure>) -> Void) -> (any Disposable)? {
        if let token = attach(.events(action)) { return Observation(self, token) }
        action(.interrupted)
        return nil
    }

    /// Attaches `action`, which receives every value sent from now on; terminal events end the observation.
    ///
    /// Same ownership and threading as `observe(_:)`. On a terminated signal, returns `nil` and never calls `action`.
    @inlinable
    @discardableResult
    public func observeValues(_ action: @escaping @Sendable (Value) -> Void) -> (any Disposable)? {
        if let token = attach(.values(action)) { return Observation(self, token) }
        return nil
    }

    /// Attaches `action` for the events sent from now on; `nil` if the signal has terminated.
    @inlinable
    func attach(_ action: Box.Action) -> UInt64? {
        lock.locked { () -> UInt64? in
            guard phase != .terminated else { return nil }
            let token = nextToken
            nextToken &+= 1
            observers.append(Box(action, token: token, since: nextSequence))
            return token
        }
    }

    /// Attaches `action` and submits `initial` for it alone, ahead of every event sent later.
    ///
    /// Call while holding a lock that orders `initial` with later sends (a property's lock). Returns the
    /// token and, if the caller must deliver, the delivery to run once that lock is released.
    @inlinable
    func attach(_ action: Box.Action, initial: Event<Value, Failure>) -> (token: UInt64?, delivery: Delivery?) {
        lock.locked { () -> (UInt64?, Delivery?) in
            guard phase != .terminated else { return (nil, nil) }
            let token = nextToken
            nextToken &+= 1
            let box = Box(action, token: token, since: nextSequence)
            observers.append(box)
            return (token, enqueueLocked(initial, target: box))
        }
    }

    /// Whether the observer with `token` is still attached.
    @usableFromInline
    func isAttached(_ token: UInt64) -> Bool {
        lock.locked { index(of: token) != nil }
    }

    /// Detaches the observer with `token`; it is released outside the lock.
    @usableFromInline
    func detach(_ token: UInt64) {
        let removed = lock.locked { () -> Box? in
            guard let index = index(of: token) else { return nil }
            let box = observers.remove(at: index)
            box.disposed.store(true, ordering: .releasing)
            return box
        }
        withExtendedLifetime(removed) {}
    }

    /// Detaches the observer with `token` and sends it alone `interrupted`, after the events already
    /// sent (the run of a direct attachment ends this way). Does nothing if it is no longer attached.
    @usableFromInline
    func detachInterrupting(_ token: UInt64) {
        let (removed, delivery) = lock.locked { () -> (Box?, Delivery?) in
            guard let index = index(of: token) else { return (nil, nil) }
            let box = observers.remove(at: index)
            return (box, enqueueLocked(.interrupted, target: box))
        }
        if let delivery { deliver(delivery) }
        withExtendedLifetime(removed) {}
    }

    @usableFromInline
    func index(of token: UInt64) -> Int? {
        // Tokens increase in attach order, and the list keeps attach order: binary search.
        var low = 0
        var high = observers.count
        while low < high {
            let middle = (low + high) / 2
            let candidate = observers[middle].token
            if candidate == token { return middle }
            if candidate < token { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    // MARK: - Sending

    /// Sends `event` to every observer, or queues it if a delivery is in progress.
    @inlinable
    func send(_ event: Event<Value, Failure>) {
        if let delivery = submit(event) { deliver(delivery) }
    }

    /// Accepts `event` into the stream. Returns the delivery to run if the caller became the
    /// delivering thread; `nil` if the event was dropped (terminated) or queued for the thread delivering.
    @inlinable
    func submit(_ event: Event<Value, Failure>) -> Delivery? {
        lock.locked { enqueueLocked(event, target: nil) }
    }

    /// Must be called with `lock` held.
    @inlinable
    func enqueueLocked(_ event: Event<Value, Failure>, target: Box?) -> Delivery? {
        guard phase != .terminated, target != nil || phase == .alive else { return nil }
        let sequence = nextSequence
        nextSequence &+= 1
        let terminating = event.isTerminating && target == nil
        var state = delivery.load(ordering: .acquiring)
        if state == Self.delivering {
            let result = delivery.compareExchange(
                expected: Self.delivering, desired: Self.pendingWork, ordering: .acquiringAndReleasing)
            state = result.exchanged ? Self.pendingWork : result.original
        }
        if state == Self.idle {
            delivery.store(Self.delivering, ordering: .relaxed)
            let pending = Pending(event: event, target: target, sequence: sequence)
            if terminating {
                phase = .terminated
                let released = observers
                observers = []
                return Delivery(pending: pending, observers: released)
            }
            return Delivery(pending: pending, observers: observers)
        }
        if terminating { phase = .terminating }
        queue.append(Pending(event: event, target: target, sequence: sequence))
        return nil
    }

    /// Delivers `first`, then whatever was queued meanwhile, until the queue is empty.
    @inlinable
    func deliver(_ first: Delivery) {
        var current = first
        while true {
            let pending = current.pending
            if let target = pending.target {
                if !target.disposed.load(ordering: .relaxed) { target.receive(pending.event) }
                if pending.event.isTerminating { target.disposed.store(true, ordering: .releasing) }
            } else if pending.event.isTerminating {
                // Every attached observer receives the terminal event, even one attached after it was sent.
                for box in current.observers where !box.disposed.load(ordering: .relaxed) {
                    box.receive(pending.event)
                }
            } else {
                for box in current.observers
                where box.since <= pending.sequence && !box.disposed.load(ordering: .relaxed) {
                    box.receive(pending.event)
                }
            }
            if pending.target == nil && pending.event.isTerminating {
                finishTermination(current.observers)
                return
            }
            if delivery.compareExchange(
                expected: Self.delivering, desired: Self.idle, ordering: .acquiringAndReleasing
            ).exchanged {
                return
            }
            current = dequeue()
        }
    }

    /// Takes the next queued event; called by the delivering thread when it finds `pendingWork`.
    @usableFromInline
    func dequeue() -> Delivery {
        lock.locked { () -> Delivery in
            let pending = queue[queueHead].take()!
            queueHead += 1
            if queueHead == queue.count {
                queue.removeAll(keepingCapacity: true)
                queueHead = 0
                delivery.store(Self.delivering, ordering: .relaxed)
            }
            if pending.target == nil && pending.event.isTerminating {
                phase = .terminated
                let released = observers
                observers = []
                return Delivery(pending: pending, observers: released)
            }
            return Delivery(pending: pending, observers: observers)
        }
    }

    /// After the terminal event: marks the released observers disposed, ends a run's lifetime,
    /// releases what was kept alive. Everything is released outside the lock.
    @usableFromInline
    func finishTermination(_ released: ContiguousArray<Box>) {
        for box in released { box.disposed.store(true, ordering: .releasing) }
        let (lifetime, kept, leftovers) = lock.locked { () -> (Lifetime?, [AnyObject], ContiguousArray<Pending?>) in
            let lifetime = runLifetime
            runLifetime = nil
            let kept = keptAlive
            keptAlive = []
            // Events queued behind the terminal one are only single-observer initial values; drop them.
            let leftovers = queue
            queue = []
            queueHead = 0
            delivery.store(Self.idle, ordering: .releasing)
            return (lifetime, kept, leftovers)
        }
        lifetime?.end()
        withExtendedLifetime((kept, leftovers)) {}
    }

    /// Whether the terminal event has been delivered (or is being delivered).
    @usableFromInline
    var isTerminated: Bool {
        lock.locked { phase == .terminated }
    }

    /// Ends `lifetime` when this signal terminates (at once if it already has).
    @usableFromInline
    func endOnTermination(_ lifetime: Lifetime) {
        let endNow = lock.locked { () -> Bool in
            if phase == .terminated { return true }
            runLifetime = lifetime
            return false
        }
        if endNow { lifetime.end() }
    }

    /// Keeps `object` alive until this signal terminates (releases it at once if it already has).
    @usableFromInline
    func keepAlive(_ object: AnyObject) {
        let rejected = lock.locked { () -> AnyObject? in
            if phase == .terminated { return object }
            keptAlive.append(object)
            return nil
        }
        withExtendedLifetime(rejected) {}
    }
}

// `Signal` is thread-safe: every mutable stored property is guarded by `lock`, and `delivery` is atomic.
// Values pass through it on the sending thread, or — when queued — from a sender that held a
// `Signal.Observer`, which is `Sendable` only when `Value` is.
extension Signal: @unchecked Sendable {}

/// The disposable of one observation: detaches the observer. Holds its signal weakly.
@usableFromInline
final class Observation<Value, Failure: Error>: Disposable {
    @usableFromInline weak let signal: Signal<Value, Failure>?
    @usableFromInline let token: UInt64

    @inlinable
    init(_ signal: Signal<Value, Failure>, _ token: UInt64) {
        self.signal = signal
        self.token = token
    }

    @usableFromInline
    var isDisposed: Bool {
        guard let signal else { return true }
        return !signal.isAttached(token)
    }

    @inlinable
    func dispose() {
        signal?.detach(token)
    }
}

/// The disposable of a producer run that is a direct attachment to a signal (a property's producer):
/// detaches the observer after sending it `interrupted`. Holds its signal weakly.
@usableFromInline
final class InterruptingObservation<Value, Failure: Error>: Disposable {
    @usableFromInline weak let signal: Signal<Value, Failure>?
    @usableFromInline let token: UInt64

    @inlinable
    init(_ signal: Signal<Value, Failure>, _ token: UInt64) {
        self.signal = signal
        self.token = token
    }

    @usableFromInline
    var isDisposed: Bool {
        guard let signal else { return true }
        return !signal.isAttached(token)
    }

    @inlinable
    func dispose() {
        signal?.detachInterrupting(token)
    }
}
