import Synchronization

/// The machinery behind a `Signal`: the observer list, the delivery queue and the termination state.
///
/// **Ownership.** The input (`Signal.Observer`) and every observation's disposable retain the core;
/// the core retains its attached observers (`Box`es) until they are detached or it terminates, and a
/// delivery in progress retains the list it delivers to. The public `Signal` is a shell around the core,
/// so a disposable never keeps the `Signal` alive, and a terminated core holds nothing. None of these
/// references is weak: the per-event path never touches a weak-reference side table.
///
/// **Locking rule.** `lock` guards every `var` of the core. The atomic `delivery` word says whether a
/// thread is delivering (`delivering`) and whether work waits for it (`pendingWork`). Only a thread
/// holding `lock` moves the word out of `idle` or out of `pendingWork`; the delivering thread moves it
/// from `delivering` back to `idle` without the lock (the uncontended path: one lock/unlock and one
/// compare-and-swap per event). A sender that finds a delivery in progress queues its event and
/// returns; the delivering thread drains the queue in FIFO order. No lock is held while an observer runs.
///
/// **Per-event path.** The observer list holds `Unmanaged` boxes, each retained once by the list, so that
/// a delivery iterates its snapshot of the list without retaining anything but the list's buffer. A box
/// detached while a delivery is in progress is released by the delivering thread once that delivery ends
/// (`deferredReleases`), never under it; while no delivery is in progress it is released at once, outside
/// the lock. Boxes are immutable apart from their atomic `disposed` flag: the flag is what a delivery
/// already in progress on another thread checks before calling an observer.
///
/// **Numbers.** One counter numbers both observers (at attach) and events (at send): an observer
/// receives the events numbered after it, that is, the events sent after it attached.
@usableFromInline
final class SignalCore<Value, Failure: Error>: @unchecked Sendable {
    @usableFromInline
    enum Action: Sendable {
        case events(@Sendable (Event<Value, Failure>) -> Void)
        case values(@Sendable (Value) -> Void)
    }

    /// One attached observer. The observer list holds each box with a manual retain (see "Per-event
    /// path" above); deliveries in progress use it unretained.
    @usableFromInline
    final class Box: Sendable {
        /// The action of an observer of every event (a no-op for an observer of values only).
        @usableFromInline let events: @Sendable (Event<Value, Failure>) -> Void
        /// The action of an observer of values only (a no-op for an observer of every event).
        @usableFromInline let values: @Sendable (Value) -> Void
        /// `token << 2 | valuesOnly << 1 | disposed`, in one word so that a box fits a 64-byte block.
        /// The token (attach order: the key the core finds the box by, and the number of the last event
        /// it misses) and `valuesOnly` never change; `disposed` is set when the observation is disposed,
        /// so that a delivery in progress skips this observer.
        @usableFromInline let word: Atomic<UInt64>

        @inlinable
        init(_ action: Action, token: UInt64) {
            // Non-optional closures: an optional generic closure is re-abstracted (allocated) per call.
            switch action {
            case let .events(action):
                events = action
                values = { _ in }
                word = Atomic(token << 2)
            case let .values(action):
                events = { _ in }
                values = action
                word = Atomic(token << 2 | 2)
            }
        }

        /// Attach order: the key the core finds the box by, and the number of the last event it misses.
        @inlinable
        var token: UInt64 { word.load(ordering: .relaxed) >> 2 }

        /// Whether the observation was disposed (or the signal terminated).
        @inlinable
        var isDisposed: Bool { word.load(ordering: .relaxed) & 1 != 0 }

        /// Marks the observation disposed: a delivery in progress skips it from now on.
        @inlinable
        func markDisposed() { word.bitwiseOr(1, ordering: .releasing) }

        /// Whether this observer should receive event number `sequence`: attached before it, not disposed.
        @inlinable
        func receives(_ sequence: UInt64) -> Bool {
            let word = word.load(ordering: .relaxed)
            return word & 1 == 0 && word >> 2 < sequence
        }

        /// Calls the observer's action with `event`.
        @inlinable
        func receive(_ event: Event<Value, Failure>) {
            if word.load(ordering: .relaxed) & 2 != 0 {
                if case let .value(value) = event { values(value) }
            } else {
                events(event)
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

        @inlinable
        var terminatesStream: Bool { target == nil && event.isTerminating }
    }

    /// What the thread that became the deliverer must deliver.
    @usableFromInline
    struct Delivery {
        @usableFromInline var pending: Pending
        @usableFromInline var observers: ContiguousArray<Unmanaged<Box>>

        @inlinable
        init(pending: Pending, observers: ContiguousArray<Unmanaged<Box>>) {
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
        /// The terminal event is delivered or being delivered: observers are released.
        case terminated
    }

    /// State that only some signals need, allocated on first use.
    @usableFromInline
    final class Extras {
        /// The lifetime of the producer run this signal carries: ended once the terminal event is delivered.
        @usableFromInline @exclusivity(unchecked) var runLifetime: Lifetime?
        /// Events sent while a delivery was in progress, waiting for the delivering thread.
        @usableFromInline @exclusivity(unchecked) var queue = FIFO<Pending>()
        /// Objects kept alive until termination (a run's input that its handler asked to keep).
        @usableFromInline @exclusivity(unchecked) var keptAlive: [AnyObject] = []
        /// Boxes detached during a delivery: the delivering thread releases them when it is done.
        @usableFromInline @exclusivity(unchecked) var deferredReleases: [Unmanaged<Box>] = []
        /// Observer lists replaced during a delivery (which may still be reading them): the delivering
        /// thread drops them when it is done. Dropping a list does not release its boxes.
        @usableFromInline @exclusivity(unchecked) var retiredLists: [ContiguousArray<Unmanaged<Box>>] = []

        @usableFromInline init() {}
    }

    @inlinable static var idle: UInt32 { 0 }
    @inlinable static var delivering: UInt32 { 1 }
    @inlinable static var pendingWork: UInt32 { 2 }

    @usableFromInline let lock = Lock()
    @usableFromInline let delivery = Atomic<UInt32>(0)

    // Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var phase: Phase = .alive
    @usableFromInline @exclusivity(unchecked) var observers: ContiguousArray<Unmanaged<Box>> = []
    /// The elements of `observers`, for the uncontended send, which reads them without retaining the
    /// list: while a delivery may be reading it, the list is never mutated in place (see `mutateObservers`).
    @usableFromInline @exclusivity(unchecked) var observerElements: UnsafeBufferPointer<Unmanaged<Box>> =
        UnsafeBufferPointer(start: nil, count: 0)
    /// Numbers observers (at attach) and events (at send).
    @usableFromInline @exclusivity(unchecked) var nextNumber: UInt64 = 0
    @usableFromInline @exclusivity(unchecked) var extras: Extras?

    @inlinable
    init() {}

    deinit {
        // A core freed before terminating (a property's signal, say) still owns its list's references.
        for box in observers { box.release() }
        for box in extras?.deferredReleases ?? [] { box.release() }
    }

    // MARK: - Attaching and detaching

    /// Attaches `action` for the events sent from now on; `nil` if the signal has terminated.
    @inlinable
    func attach(_ action: Action) -> Observation<Value, Failure>? {
        let attached = lock.locked { () -> (token: UInt64, retired: ContiguousArray<Unmanaged<Box>>?)? in
            guard phase != .terminated else { return nil }
            let token = nextNumber
            nextNumber &+= 1
            let box = Box(action, token: token)
            return (token, mutateObservers { $0.append(.passRetained(box)) })
        }
        guard let token = attached?.token else { return nil }
        return Observation(self, token)
    }

    /// Attaches `action` and submits `initial` for it alone, ahead of every event sent later. Disposing the
    /// returned disposable sends it `interrupted`. Call while holding a lock that orders `initial` with
    /// later sends (a property's lock); run the returned delivery, if any, once that lock is released.
    @inlinable
    func attach(_ action: Action, initial: Event<Value, Failure>) -> (token: UInt64?, delivery: Delivery?) {
        lock.locked { () -> (UInt64?, Delivery?) in
            guard phase != .terminated else { return (nil, nil) }
            let token = nextNumber
            nextNumber &+= 1
            let box = Box(action, token: token)
            // A list retired here holds unretained references only: dropping it runs no user code.
            _ = mutateObservers { $0.append(.passRetained(box)) }
            return (token, enqueueLocked(initial, target: box))
        }
    }

    /// Detaches the observer `token`; it is released outside the lock (or when the delivery in progress ends).
    @inlinable
    func detach(_ token: UInt64) {
        let removed = lock.locked { () -> (box: Unmanaged<Box>?, list: ContiguousArray<Unmanaged<Box>>?)? in
            guard let index = index(of: token) else { return nil }
            var box: Unmanaged<Box>!
            let list = mutateObservers { box = $0.remove(at: index) }
            box._withUnsafeGuaranteedRef { $0.markDisposed() }
            return (releaseLocked(box), list)
        }
        removed?.box?.release()
        withExtendedLifetime(removed?.list) {}
    }

    /// Detaches the observer `token` and sends it alone `interrupted`, after the events already sent.
    @inlinable
    func detachInterrupting(_ token: UInt64) {
        let (removed, list, delivery) = lock.locked {
            () -> (Unmanaged<Box>?, ContiguousArray<Unmanaged<Box>>?, Delivery?) in
            guard let index = index(of: token) else { return (nil, nil, nil) }
            var box: Unmanaged<Box>!
            let list = mutateObservers { box = $0.remove(at: index) }
            let removed = releaseLocked(box)
            return (removed, list, enqueueLocked(.interrupted, target: box.takeUnretainedValue()))
        }
        removed?.release()
        withExtendedLifetime(list) {}
        if let delivery { deliver(delivery) }
    }

    /// The list's reference to a detached box: returned, to be released at once outside the lock, if no
    /// delivery is in progress; otherwise handed to the delivering thread. Must be called with `lock` held.
    @inlinable
    func releaseLocked(_ box: Unmanaged<Box>) -> Unmanaged<Box>? {
        guard flagWorkLocked() else { return box }
        extrasLocked.deferredReleases.append(box)
        return nil
    }

    /// Whether the observer `token` is still attached.
    @inlinable
    func isAttached(_ token: UInt64) -> Bool {
        lock.locked { index(of: token) != nil }
    }

    /// Mutates the observer list: in place if no delivery is in progress; otherwise on a copy, retiring the
    /// old list to the delivering thread (which may be reading it). Must be called with `lock` held.
    /// Returns a retired list to drop outside the lock (`nil` if the delivering thread will drop it).
    @inlinable
    func mutateObservers(
        _ body: (inout ContiguousArray<Unmanaged<Box>>) -> Void
    ) -> ContiguousArray<Unmanaged<Box>>? {
        var retired: ContiguousArray<Unmanaged<Box>>?
        if delivery.load(ordering: .acquiring) == Self.idle {
            body(&observers)
        } else {
            var copy = ContiguousArray<Unmanaged<Box>>()
            copy.reserveCapacity(observers.count + 1)
            copy.append(contentsOf: observers)
            body(&copy)
            swap(&copy, &observers)
            retired = retireLocked(copy)
        }
        observerElements = observers.withUnsafeBufferPointer { $0 }
        return retired
    }

    /// Hands a replaced observer list to the delivering thread, or returns it (to drop outside the lock) if
    /// the delivery ended meanwhile. Must be called with `lock` held.
    @inlinable
    func retireLocked(_ list: ContiguousArray<Unmanaged<Box>>) -> ContiguousArray<Unmanaged<Box>>? {
        guard flagWorkLocked() else { return list }
        extrasLocked.retiredLists.append(list)
        return nil
    }

    /// Tells the delivering thread, if there is one, that work waits for it (it will take the lock before
    /// it stops); `false` if no delivery is in progress. Must be called with `lock` held: only a lock
    /// holder moves the delivery word out of `idle`, so the answer holds until the lock is released.
    @inlinable
    func flagWorkLocked() -> Bool {
        var state = delivery.load(ordering: .acquiring)
        if state == Self.delivering {
            let result = delivery.compareExchange(
                expected: Self.delivering, desired: Self.pendingWork, ordering: .acquiringAndReleasing)
            state = result.exchanged ? Self.pendingWork : result.original
        }
        return state != Self.idle
    }

    /// `extras`, allocated on first use. Must be called with `lock` held.
    @inlinable
    var extrasLocked: Extras {
        if let extras { return extras }
        let created = Extras()
        extras = created
        return created
    }

    /// Must be called with `lock` held. Tokens increase along the list: binary search.
    @inlinable
    func index(of token: UInt64) -> Int? {
        var low = 0
        var high = observers.count
        while low < high {
            let middle = (low + high) / 2
            let candidate = observers[middle]._withUnsafeGuaranteedRef { $0.token }
            if candidate == token { return middle }
            if candidate < token { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    // MARK: - Sending

    /// How a sender goes on after submitting an event under the lock.
    @usableFromInline
    enum Start {
        /// Nothing to deliver: the event was dropped, or queued for the thread delivering.
        case none
        /// The uncontended value: deliver it to these observers, numbered `sequence`. The list is not
        /// retained: until this delivery ends it is replaced rather than mutated (see `mutateObservers`).
        case value(UnsafeBufferPointer<Unmanaged<Box>>, sequence: UInt64)
        /// Anything else: run this delivery.
        case delivery(Delivery)
    }

    /// Sends `event`: delivers it now, or queues it behind the delivery in progress.
    @inlinable
    func send(_ event: Event<Value, Failure>) {
        run(begin(event), event)
    }

    /// Sends a value: the uncontended case without building a `Start` (nothing to destroy afterwards);
    /// anything else goes through `send(_:)`.
    @inlinable
    func send(value: Value) {
        let start = lock.locked { () -> (observers: UnsafeBufferPointer<Unmanaged<Box>>, sequence: UInt64)? in
            guard phase == .alive, delivery.load(ordering: .acquiring) == Self.idle else { return nil }
            delivery.store(Self.delivering, ordering: .relaxed)
            let sequence = nextNumber
            nextNumber &+= 1
            return (observerElements, sequence)
        }
        guard let start else { return send(.value(value)) }
        Self.deliver(.value(value), to: start.observers, numbered: start.sequence)
        if delivery.compareExchange(
            expected: Self.delivering, desired: Self.idle, ordering: .acquiringAndReleasing
        ).exchanged {
            return
        }
        if let next = nextDelivery() { deliver(next) }
    }

    /// Submits `event` under the lock; `run` must be called with the result once the caller's own lock
    /// (if any) is released. The uncontended value costs one lock/unlock and retains nothing.
    @inlinable
    func begin(_ event: Event<Value, Failure>) -> Start {
        lock.locked { () -> Start in
            if case .value = event, phase == .alive, delivery.load(ordering: .acquiring) == Self.idle {
                delivery.store(Self.delivering, ordering: .relaxed)
                let sequence = nextNumber
                nextNumber &+= 1
                return .value(observerElements, sequence: sequence)
            }
            if let delivery = enqueueLocked(event, target: nil) { return .delivery(delivery) }
            return .none
        }
    }

    /// Delivers what `begin` started, then whatever was queued meanwhile.
    @inlinable
    func run(_ start: consuming Start, _ event: Event<Value, Failure>) {
        switch consume start {
        case .none:
            return
        case let .value(observers, sequence):
            Self.deliver(event, to: observers, numbered: sequence)
            if delivery.compareExchange(
                expected: Self.delivering, desired: Self.idle, ordering: .acquiringAndReleasing
            ).exchanged {
                return
            }
            if let next = nextDelivery() { deliver(next) }
        case let .delivery(delivery):
            deliver(delivery)
        }
    }

    /// Accepts `event` into the stream. Returns the delivery to run if the caller became the delivering
    /// thread; `nil` if the event was dropped (after a terminal event) or queued.
    @inlinable
    func submit(_ event: Event<Value, Failure>) -> Delivery? {
        lock.locked { enqueueLocked(event, target: nil) }
    }

    /// Must be called with `lock` held.
    @inlinable
    func enqueueLocked(_ event: Event<Value, Failure>, target: Box?) -> Delivery? {
        switch phase {
        case .alive: break
        case .terminating: if target == nil { return nil }
        case .terminated: return nil
        }
        let pending = Pending(event: event, target: target, sequence: nextNumber)
        nextNumber &+= 1
        guard flagWorkLocked() else {
            delivery.store(Self.delivering, ordering: .relaxed)
            return startLocked(pending)
        }
        if pending.terminatesStream { phase = .terminating }
        extrasLocked.queue.append(pending)
        return nil
    }

    /// The delivery of `pending`, taking the observer list with it if `pending` ends the stream.
    @inlinable
    func startLocked(_ pending: Pending) -> Delivery {
        if pending.terminatesStream {
            phase = .terminated
            let released = observers
            observers = []
            observerElements = UnsafeBufferPointer(start: nil, count: 0)
            return Delivery(pending: pending, observers: released)
        }
        return Delivery(pending: pending, observers: observers)
    }

    /// Calls every observer of `observers` attached before event number `sequence` and not disposed.
    /// The boxes are used unretained: the list's references keep them alive until the delivery ends.
    @inlinable
    static func deliver<Observers: Sequence<Unmanaged<Box>>>(
        _ event: Event<Value, Failure>, to observers: Observers, numbered sequence: UInt64
    ) {
        for unmanaged in observers {
            unmanaged._withUnsafeGuaranteedRef { box in
                if box.receives(sequence) { box.receive(event) }
            }
        }
    }

    /// Delivers `first`, then whatever was queued meanwhile, until nothing is left.
    @inlinable
    func deliver(_ first: Delivery) {
        var current = first
        while true {
            let pending = current.pending
            if let target = pending.target {
                if !target.isDisposed { target.receive(pending.event) }
                if pending.event.isTerminating { target.markDisposed() }
            } else if pending.event.isTerminating {
                // Every attached observer receives the terminal event, even one attached after it was sent.
                Self.deliver(pending.event, to: current.observers, numbered: .max)
                finishTermination(current.observers)
                return
            } else {
                Self.deliver(pending.event, to: current.observers, numbered: pending.sequence)
            }
            if delivery.compareExchange(
                expected: Self.delivering, desired: Self.idle, ordering: .acquiringAndReleasing
            ).exchanged {
                return
            }
            guard let next = nextDelivery() else { return }
            current = next
        }
    }

    /// The delivering thread's slow path: takes the next queued event, or returns to idle.
    @usableFromInline
    func nextDelivery() -> Delivery? {
        var deferred: [Unmanaged<Box>] = []
        var retired: [ContiguousArray<Unmanaged<Box>>] = []
        let next = lock.locked { () -> Delivery? in
            if let extras {
                if !extras.deferredReleases.isEmpty {
                    deferred = extras.deferredReleases
                    extras.deferredReleases = []
                }
                if !extras.retiredLists.isEmpty {
                    retired = extras.retiredLists
                    extras.retiredLists = []
                }
            }
            guard let extras, let pending = extras.queue.popFirst() else {
                delivery.store(Self.idle, ordering: .releasing)
                return nil
            }
            if extras.queue.isEmpty { delivery.store(Self.delivering, ordering: .relaxed) }
            return startLocked(pending)
        }
        for box in deferred { box.release() }
        withExtendedLifetime(retired) {}
        return next
    }

    /// After the terminal event: marks the released observers disposed, ends a run's lifetime, releases
    /// what was kept alive, and sends `interrupted` to observers whose own events were queued behind the
    /// terminal one. Everything is released outside the lock.
    @usableFromInline
    func finishTermination(_ released: ContiguousArray<Unmanaged<Box>>) {
        for box in released {
            box._withUnsafeGuaranteedRef { $0.markDisposed() }
        }
        let leftovers = lock.locked { () -> (Extras?, FIFO<Pending>) in
            let extras = self.extras
            self.extras = nil
            let queued = extras?.queue ?? FIFO()
            delivery.store(Self.idle, ordering: .releasing)
            return (extras, queued)
        }
        for box in released { box.release() }
        for box in leftovers.0?.deferredReleases ?? [] { box.release() }
        leftovers.0?.runLifetime?.end()
        var queued = leftovers.1
        while let pending = queued.popFirst() {
            guard let target = pending.target, !target.isDisposed else { continue }
            target.markDisposed()
            target.receive(.interrupted)
        }
        withExtendedLifetime(leftovers) {}
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
            extrasLocked.runLifetime = lifetime
            return false
        }
        if endNow { lifetime.end() }
    }

    /// Keeps `object` alive until this signal terminates (releases it at once if it already has).
    @usableFromInline
    func keepAlive(_ object: AnyObject) {
        let rejected = lock.locked { () -> AnyObject? in
            if phase == .terminated { return object }
            extrasLocked.keptAlive.append(object)
            return nil
        }
        withExtendedLifetime(rejected) {}
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
        if interrupting { core.detachInterrupting(token) } else { core.detach(token) }
    }
}
