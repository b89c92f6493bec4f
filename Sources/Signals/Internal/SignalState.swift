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
    /// The attached observers: none until the first attaches, and once the signal terminated; one without
    /// a list (as a producer's run has); a list once a second one attaches. Held with manual retains (see
    /// `Observers`), so that reading them on the per-event path and in attach and detach costs no
    /// reference counting.
    @usableFromInline var observers = Observers<Value, Failure>.none
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

    /// Appends `box` (the state takes over the caller's reference) and numbers it.
    @inlinable
    mutating func attach(_ box: Unmanaged<Box>, _ delivery: borrowing DeliveryWord) -> Attachment {
        guard phase != .terminated else { return .rejected }
        let token = nextNumber
        nextNumber &+= 1
        box._withUnsafeGuaranteedRef { $0.word.setToken(token) }
        if let list = observers.list {
            return .attached(token: token, released: mutate(list, delivery, adding: 1) { $0.append(box) })
        }
        guard let first = observers.sole else {
            observers = .one(box)
            return .attached(token: token, released: Released())
        }
        // A delivery in progress may be reading `first` alone: it stays alive (the list holds it now), and
        // nothing it reads changes.
        let list = List.make(capacity: 2)
        list.append(first)
        list.append(box)
        observers = .list(.passRetained(list))
        return .attached(token: token, released: Released())
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
        var removed: Unmanaged<Box>
        var released: Released
        if let list = observers.list {
            guard let index = list._withUnsafeGuaranteedRef({ $0.index(of: token) }) else { return .notAttached }
            var taken: Unmanaged<Box>?
            released = mutate(list, delivery, adding: 0) { taken = $0.remove(at: index) }
            removed = taken.unsafelyUnwrapped
        } else if let box = observers.sole, box._withUnsafeGuaranteedRef({ $0.token }) == token {
            // A delivery in progress may be reading the box alone: it is released as below.
            observers = .none
            removed = box
            released = Released()
        } else {
            return .notAttached
        }
        if interrupting {
            if delivery.flagWorkLocked() {
                extrasForUpdate.deferredReleases.append(removed)
            } else {
                released.box = removed
            }
            return .detached(released: released, delivery: submit(.interrupted, to: removed.takeUnretainedValue(), delivery))
        }
        if delivery.flagWorkLocked() {
            // A delivery in progress may be reading a list that still holds the box: it must skip it, and
            // the delivering thread releases it when it is done.
            removed._withUnsafeGuaranteedRef { $0.markDisposed() }
            extrasForUpdate.deferredReleases.append(removed)
        } else {
            // No delivery in progress, so no list being read and no queued event holds the box: it goes
            // at once, and nobody will look at its disposed flag (an atomic read-modify-write saved).
            released.box = removed
        }
        return .detached(released: released, delivery: nil)
    }

    /// Runs `body` on `list`, the observer list: in place if no delivery is in progress (and it has room
    /// for `adding` more), otherwise on a copy that replaces it. A list a delivery may be reading is handed
    /// to the delivering thread, which drops it once its delivery ends; any other replaced list is returned.
    @inlinable
    mutating func mutate(
        _ list: Unmanaged<List>, _ delivery: borrowing DeliveryWord, adding: Int, _ body: (List) -> Void
    ) -> Released {
        let isIdle = delivery.isIdleLocked
        let (count, slots) = list._withUnsafeGuaranteedRef { ($0.count, $0.slots) }
        if isIdle && count + adding <= slots {
            list._withUnsafeGuaranteedRef(body)
            return Released()
        }
        let copy = list._withUnsafeGuaranteedRef { $0.copy(capacity: count + adding > slots ? 2 * slots : slots) }
        body(copy)
        observers = .list(.passRetained(copy))
        if !isIdle && delivery.flagWorkLocked() {
            extrasForUpdate.retiredLists.append(list.takeRetainedValue())
            return Released()
        }
        return Released(list: list.takeRetainedValue())
    }

    /// Whether the observer `token` is still attached.
    @inlinable
    func isAttached(_ token: UInt64) -> Bool {
        observers.contains(token)
    }

    // MARK: - Sending

    /// How the sender of a value goes on once the lock is released.
    @usableFromInline
    enum ValueStart {
        /// Nothing to do: the value was dropped (no observer, or the signal is terminating), or queued
        /// for the thread delivering.
        case none
        /// No delivery was in progress: deliver the value to these observers, unretained (until the
        /// delivery ends, a list is replaced rather than mutated or freed, and a detached box is kept), then
        /// `finish`.
        case deliver(Observers<Value, Failure>)
    }

    /// Submits a value: without a delivery in progress, the caller delivers it at once to the observers
    /// of this moment; otherwise it is queued for the delivering thread.
    @inlinable
    mutating func startValue(_ value: Value, _ delivery: borrowing DeliveryWord) -> ValueStart {
        guard phase == .alive else { return .none }
        // `flagWorkLocked` is `false` when the delivery in progress ended since `isIdleLocked` looked.
        if delivery.isIdleLocked || !delivery.flagWorkLocked() {
            if observers.isEmpty { return .none }
            delivery.claimLocked()
            return .deliver(observers)
        }
        enqueue(SignalCore.Pending(event: .value(value), target: nil, sequence: nextNumber))
        nextNumber &+= 1
        return .none
    }

    /// Queues `pending` for the delivering thread, which `flagWorkLocked` told.
    // Never inlined: the slow path of a send, kept out of the per-event path, which stays small enough to
    // be inlined into its lock's closure (propertySet, `Benchmarks core` and `compare`).
    @inlinable @inline(never)
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

    /// The delivery of `pending`, to the observers of this moment (unretained); if `pending` ends the
    /// stream, the delivery takes the observers, with the state's references, with it.
    @inlinable
    mutating func start(_ pending: SignalCore<Value, Failure>.Pending) -> SignalCore<Value, Failure>.Delivery {
        let current = observers
        if pending.terminatesStream {
            phase = .terminated
            observers = .none
        }
        return SignalCore.Delivery(pending: pending, observers: current)
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

// Inlinable throughout: the per-event, attach and detach paths (see `SignalCore`, "Inlining").

/// A signal's attached observers, as its state holds them: none, one alone (no list: a producer's run, and
/// most signals, have one observer), or a list (`ObserverList`).
///
/// The state holds one manual retain on the box of `.one`, or on the list of `.list` (which holds one
/// on each of its boxes): `Observers` is a plain value that copies no reference count, and a copy handed
/// to a delivery is read unretained (see `SignalCore`, "Per-event path").
@usableFromInline
struct Observers<Value, Failure: Error> {
    /// The one observer, when there is no list.
    @usableFromInline var sole: Unmanaged<ObserverBox<Value, Failure>>?
    /// The list, once a second observer attached.
    @usableFromInline var list: Unmanaged<ObserverList<Value, Failure>>?

    @inlinable
    init(sole: Unmanaged<ObserverBox<Value, Failure>>? = nil, list: Unmanaged<ObserverList<Value, Failure>>? = nil) {
        self.sole = sole
        self.list = list
    }

    @inlinable static var none: Observers { Observers() }
    @inlinable static func one(_ box: Unmanaged<ObserverBox<Value, Failure>>) -> Observers { Observers(sole: box) }
    @inlinable static func list(_ list: Unmanaged<ObserverList<Value, Failure>>) -> Observers { Observers(list: list) }

    @inlinable var isEmpty: Bool { sole == nil && list == nil }

    /// Calls every observer not disposed with `value`.
    // Always inlined, also into `SignalCore.forward(value:)`, with the one observer's call inlined and a
    // list's loop called (see `ObserverList.deliverOutOfLine(value:)`). callgrind, instructions per
    // event, against a list for every signal: hot1 61 -> 53, cold5map 317 -> 317, propertySet 58 -> 45,
    // hot10 268 -> 303 (`Benchmarks core`, `compare`).
    @inlinable @inline(__always)
    func deliver(value: Value) {
        if let sole {
            sole._withUnsafeGuaranteedRef { $0.receive(value: value) }
        } else if let list {
            list._withUnsafeGuaranteedRef { $0.deliverOutOfLine(value: value) }
        }
    }

    /// Calls every observer attached before event number `sequence` and not disposed with `event`.
    @inlinable
    func deliver(_ event: Event<Value, Failure>, numbered sequence: UInt64) {
        if let list {
            list._withUnsafeGuaranteedRef { $0.deliver(event, numbered: sequence) }
        } else if let sole {
            sole._withUnsafeGuaranteedRef { $0.receive(event, numbered: sequence) }
        }
    }

    /// Calls `body` with every box, in attach order.
    @inlinable
    func forEach(_ body: (Unmanaged<ObserverBox<Value, Failure>>) -> Void) {
        if let list {
            list._withUnsafeGuaranteedRef { $0.forEach(body) }
        } else if let sole {
            body(sole)
        }
    }

    /// Whether the observer `token` is among them.
    @inlinable
    func contains(_ token: UInt64) -> Bool {
        if let list { return list._withUnsafeGuaranteedRef { $0.index(of: token) } != nil }
        if let sole { return sole._withUnsafeGuaranteedRef { $0.token } == token }
        return false
    }

    /// Gives back the references the state held: every box's, and the list's.
    @inlinable
    func release() {
        if let list {
            list._withUnsafeGuaranteedRef { $0.forEach { $0.release() } }
            list.release()
        } else if let sole {
            sole.release()
        }
    }
}
