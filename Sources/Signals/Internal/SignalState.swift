// Inlinable throughout, with `SignalCore` (see its "Inlining" paragraph), except `keepAlive` (no
// benchmark).

/// The lock-guarded state of a signal (see `SignalCore`), as a value with one mutating method per thing
/// that can happen to it. Each method runs under the signal's lock, changes the state, and returns what
/// the caller must do once the lock is released: deliver, release, drop. None of them calls user code.
///
/// Methods that consult or move the delivery word take it as an argument: only a lock holder moves it
/// out of `idle`, so what they read stays true until the lock is released.
@usableFromInline
struct SignalState<Value, Failure: Error> {
    @usableFromInline typealias Box = ObserverBox<Value, Failure>
    @usableFromInline typealias List = ObserverList<Value, Failure>

    @usableFromInline
    enum Phase {
        /// Accepting events.
        case alive
        /// A terminal event is queued: later sends are dropped, observers may still attach.
        case terminating
        /// The terminal event is delivered or being delivered: observers are released.
        case terminated
    }

    @usableFromInline var phase: Phase = .alive
    /// The attached observers; `nil` until the first attaches, and once the signal terminated. The state
    /// holds the list with one manual retain, so that reading it on the per-event path and in attach and
    /// detach costs no reference counting.
    @usableFromInline var observers: Unmanaged<List>?
    /// Numbers observers (at attach) and queued events (at send): an observer receives the events
    /// numbered after it.
    @usableFromInline var nextNumber: UInt64 = 0
    /// The lifetime of the producer run this signal carries: ended once the terminal event is delivered.
    @usableFromInline var runLifetime: Lifetime?
    /// What only some signals need: allocated on first use.
    @usableFromInline var extras: SignalExtras<Value, Failure>?

    @inlinable
    init() {}

    @inlinable
    var extrasForUpdate: SignalExtras<Value, Failure> {
        mutating get {
            if let extras { return extras }
            let created = SignalExtras<Value, Failure>()
            extras = created
            return created
        }
    }

    // MARK: - Observers

    /// What the caller releases once the lock is released: a detached observer's box and a replaced
    /// observer list. Releasing them runs no user code beyond the box's deinit (its closures' captures).
    @usableFromInline
    struct Released {
        @usableFromInline var box: Unmanaged<Box>?
        @usableFromInline var list: List?

        @inlinable
        init(box: Unmanaged<Box>? = nil, list: List? = nil) {
            self.box = box
            self.list = list
        }

        @inlinable
        consuming func release() {
            box?.release()
            withExtendedLifetime(list) {}
        }
    }

    /// The outcome of an attach.
    @usableFromInline
    enum Attachment {
        /// Attached with this token; release `released` outside the lock.
        case attached(token: UInt64, released: Released)
        /// The signal has terminated: nothing was attached.
        case rejected
    }

    /// Appends `box` (the list takes over the caller's reference) and numbers it.
    @inlinable
    mutating func attach(_ box: Unmanaged<Box>, _ delivery: borrowing DeliveryWord) -> Attachment {
        guard phase != .terminated else { return .rejected }
        let token = nextNumber
        nextNumber &+= 1
        box._withUnsafeGuaranteedRef { $0.word.setToken(token) }
        let released = mutateObservers(delivery, adding: 1) { $0.append(box) }
        return .attached(token: token, released: released)
    }

    /// The outcome of a detach.
    @usableFromInline
    enum Detachment {
        /// No observer has this token (it was detached already, or the signal terminated).
        case notAttached
        /// Detached; release `released` outside the lock, then run `delivery` (the detached observer's
        /// `interrupted`, when asked for), if any.
        case detached(released: Released, delivery: SignalCore<Value, Failure>.Delivery?)
    }

    /// Removes the observer `token` and marks it disposed. Its box is released by the caller if no delivery
    /// is in progress, or by the delivering thread once its delivery ends. With `interrupting`, the box is
    /// also sent `interrupted` alone, after the events already queued.
    @inlinable
    mutating func detach(_ token: UInt64, interrupting: Bool, _ delivery: borrowing DeliveryWord) -> Detachment {
        guard let index = observers?._withUnsafeGuaranteedRef({ $0.index(of: token) }) else { return .notAttached }
        var removed: Unmanaged<Box>!
        var released = mutateObservers(delivery, adding: 0) { removed = $0.remove(at: index) }
        if delivery.flagWorkLocked() {
            extrasForUpdate.deferredReleases.append(removed)
        } else {
            released.box = removed
        }
        if interrupting {
            return .detached(released: released, delivery: submit(.interrupted, to: removed.takeUnretainedValue(), delivery))
        }
        removed._withUnsafeGuaranteedRef { $0.markDisposed() }
        return .detached(released: released, delivery: nil)
    }

    /// Runs `body` on the observer list: in place if no delivery is in progress (and it has room for
    /// `adding` more), otherwise on a copy that replaces it. A list a delivery may be reading is handed to
    /// the delivering thread, which drops it once its delivery ends; any other replaced list is returned.
    @inlinable
    mutating func mutateObservers(
        _ delivery: borrowing DeliveryWord, adding: Int, _ body: (List) -> Void
    ) -> Released {
        guard let list = observers else {
            let created = List.make(capacity: 1)
            body(created)
            observers = .passRetained(created)
            return Released()
        }
        let isIdle = delivery.isIdleLocked
        let (count, slots) = list._withUnsafeGuaranteedRef { ($0.count, $0.slots) }
        if isIdle && count + adding <= slots {
            list._withUnsafeGuaranteedRef(body)
            return Released()
        }
        let copy = list._withUnsafeGuaranteedRef { $0.copy(capacity: count + adding > slots ? 2 * slots : slots) }
        body(copy)
        observers = .passRetained(copy)
        if !isIdle && delivery.flagWorkLocked() {
            extrasForUpdate.retiredLists.append(list.takeRetainedValue())
            return Released()
        }
        return Released(list: list.takeRetainedValue())
    }

    /// Whether the observer `token` is still attached.
    @inlinable
    func isAttached(_ token: UInt64) -> Bool {
        observers?._withUnsafeGuaranteedRef { $0.index(of: token) } != nil
    }

    // MARK: - Sending

    /// How the sender of a value goes on once the lock is released.
    @usableFromInline
    enum ValueStart {
        /// Nothing to do: the value was dropped (no observer, or the signal is terminating), or queued
        /// for the thread delivering.
        case none
        /// No delivery was in progress: deliver the value to this list, unretained (until the delivery
        /// ends, the list is replaced rather than mutated or freed), then `finish`.
        case deliver(Unmanaged<List>)
    }

    /// Submits a value: without a delivery in progress, the caller delivers it at once to the observers
    /// of this moment; otherwise it is queued for the delivering thread.
    @inlinable
    mutating func startValue(_ value: Value, _ delivery: borrowing DeliveryWord) -> ValueStart {
        guard phase == .alive else { return .none }
        // `flagWorkLocked` is `false` when the delivery in progress ended since `isIdleLocked` looked.
        if delivery.isIdleLocked || !delivery.flagWorkLocked() {
            guard let list = observers else { return .none }
            delivery.claimLocked()
            return .deliver(list)
        }
        enqueue(SignalCore.Pending(event: .value(value), target: nil, sequence: nextNumber))
        nextNumber &+= 1
        return .none
    }

    /// Queues `pending` for the delivering thread, which `flagWorkLocked` told.
    @inlinable
    mutating func enqueue(_ pending: SignalCore<Value, Failure>.Pending) {
        if pending.terminatesStream { phase = .terminating }
        extrasForUpdate.queue.append(pending)
    }

    /// Submits `event` for every observer (`target == nil`) or for `target` alone. Returns the delivery to
    /// run if the caller became the delivering thread; `nil` if the event was dropped (after a terminal
    /// event) or queued for the thread delivering.
    @inlinable
    mutating func submit(
        _ event: Event<Value, Failure>, to target: Box?, _ delivery: borrowing DeliveryWord
    ) -> SignalCore<Value, Failure>.Delivery? {
        switch phase {
        case .alive: break
        case .terminating: if target == nil { return nil }
        case .terminated: return nil
        }
        let pending = SignalCore<Value, Failure>.Pending(event: event, target: target, sequence: nextNumber)
        nextNumber &+= 1
        if delivery.flagWorkLocked() {
            enqueue(pending)
            return nil
        }
        delivery.claimLocked()
        return start(pending)
    }

    /// The delivery of `pending`; if `pending` ends the stream, it takes the observer list with it.
    @inlinable
    mutating func start(_ pending: SignalCore<Value, Failure>.Pending) -> SignalCore<Value, Failure>.Delivery {
        if pending.terminatesStream {
            phase = .terminated
            let released = observers?.takeRetainedValue()
            observers = nil
            return SignalCore.Delivery(pending: pending, observers: released)
        }
        return SignalCore.Delivery(pending: pending, observers: observers?.takeUnretainedValue())
    }

    /// What the delivering thread does next, and what it lets go of first.
    @usableFromInline
    enum Handoff {
        /// Deliver this next (the thread stays the delivering one).
        case deliver(SignalCore<Value, Failure>.Delivery, leftovers: SignalExtras<Value, Failure>.Leftovers)
        /// Nothing is queued: the thread is no longer the delivering one.
        case stop(leftovers: SignalExtras<Value, Failure>.Leftovers)
    }

    /// The delivering thread's slow path, after an event: takes the next queued event, or stops.
    @inlinable
    mutating func next(_ delivery: borrowing DeliveryWord) -> Handoff {
        let leftovers = extras?.takeLeftovers() ?? SignalExtras.Leftovers()
        guard let extras, let pending = extras.queue.popFirst() else {
            delivery.releaseLocked()
            return .stop(leftovers: leftovers)
        }
        if extras.queue.isEmpty { delivery.clearWorkLocked() }
        return .deliver(start(pending), leftovers: leftovers)
    }

    /// What the delivering thread does after the terminal event, outside the lock.
    @usableFromInline
    struct Termination {
        /// Extras that only the terminated signal held: boxes to release, objects kept alive, queued
        /// events for single observers (who receive `interrupted` instead).
        @usableFromInline var extras: SignalExtras<Value, Failure>?
        /// The run to end.
        @usableFromInline var runLifetime: Lifetime?

        @inlinable
        init(extras: SignalExtras<Value, Failure>?, runLifetime: Lifetime?) {
            self.extras = extras
            self.runLifetime = runLifetime
        }
    }

    /// After the terminal event was delivered: the state lets go of everything; the thread stops delivering.
    @inlinable
    mutating func finishTermination(_ delivery: borrowing DeliveryWord) -> Termination {
        let termination = Termination(extras: extras, runLifetime: runLifetime)
        extras = nil
        runLifetime = nil
        delivery.terminateLocked()
        return termination
    }

    // MARK: - What a signal holds until it terminates

    /// Whether `lifetime` was bound to the signal, or must end now (the signal has terminated).
    @usableFromInline
    enum LifetimeBinding {
        case bound
        case endNow
    }

    @inlinable
    mutating func endOnTermination(_ lifetime: Lifetime) -> LifetimeBinding {
        if phase == .terminated { return .endNow }
        runLifetime = lifetime
        return .bound
    }

    /// Whether `object` is kept until the signal terminates, or was refused (it has terminated).
    @usableFromInline
    enum KeepAlive {
        case kept
        case refused(AnyObject)
    }

    @usableFromInline
    mutating func keepAlive(_ object: AnyObject) -> KeepAlive {
        if phase == .terminated { return .refused(object) }
        extrasForUpdate.keptAlive.append(object)
        return .kept
    }
}

/// The parts of a signal's state that only some signals need, allocated on first use. Guarded by the
/// signal's lock, like the `SignalState` that holds it.
@usableFromInline
final class SignalExtras<Value, Failure: Error> {
    @usableFromInline typealias Box = ObserverBox<Value, Failure>

    /// Events sent while a delivery was in progress, waiting for the delivering thread.
    @usableFromInline var queue = FIFO<SignalCore<Value, Failure>.Pending>()
    /// Objects kept alive until termination (a run's input that its handler asked to keep).
    @usableFromInline var keptAlive: [AnyObject] = []
    /// Boxes detached during a delivery: the delivering thread releases them when it is done.
    @usableFromInline var deferredReleases: [Unmanaged<Box>] = []
    /// Observer lists replaced during a delivery (which may still be reading them): the delivering
    /// thread drops them when it is done.
    @usableFromInline var retiredLists: [ObserverList<Value, Failure>] = []

    @usableFromInline
    init() {}

    /// What the delivering thread lets go of, outside the lock, between two events.
    @usableFromInline
    struct Leftovers {
        @usableFromInline var boxes: [Unmanaged<Box>] = []
        @usableFromInline var lists: [ObserverList<Value, Failure>] = []

        @inlinable
        init() {}

        @inlinable
        consuming func release() {
            for box in boxes { box.release() }
            withExtendedLifetime(lists) {}
        }
    }

    @inlinable
    func takeLeftovers() -> Leftovers {
        var leftovers = Leftovers()
        if !deferredReleases.isEmpty { swap(&leftovers.boxes, &deferredReleases) }
        if !retiredLists.isEmpty { swap(&leftovers.lists, &retiredLists) }
        return leftovers
    }
}
