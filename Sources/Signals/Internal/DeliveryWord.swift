import Synchronization

// Inlinable throughout: every send reads or moves the word (see `SignalCore`, "Inlining").

/// Whether a thread is delivering a signal's events, and whether work waits for it.
@usableFromInline
struct DeliveryStatus: RawRepresentable, AtomicRepresentable, Equatable, Sendable {
    @usableFromInline let rawValue: UInt32

    @inlinable
    init(rawValue: UInt32) { self.rawValue = rawValue }

    /// No thread is delivering: the next sender delivers its event itself.
    @inlinable static var idle: DeliveryStatus { DeliveryStatus(rawValue: 0) }
    /// A thread is delivering and nothing waits for it: it may stop without taking the lock.
    @inlinable static var delivering: DeliveryStatus { DeliveryStatus(rawValue: 1) }
    /// A thread is delivering and work waits for it (a queued event, a detached observer to release, a
    /// replaced observer list to drop): it takes the lock before it stops.
    @inlinable static var workPending: DeliveryStatus { DeliveryStatus(rawValue: 2) }
    /// The terminal event has been delivered: nothing will ever be delivered again. (The state's phase
    /// says so too; this status lets a signal's input skip its last `interrupted` without the lock.)
    @inlinable static var terminated: DeliveryStatus { DeliveryStatus(rawValue: 3) }
}

/// The atomic word beside a signal's lock that says who delivers (see `SignalCore`, "Locking rule").
///
/// Only a thread holding the signal's lock moves the word out of `idle` or out of `workPending`; the
/// delivering thread moves it from `delivering` back to `idle` without the lock. The methods whose
/// names end in `Locked` must be called with the lock held.
@usableFromInline
struct DeliveryWord: ~Copyable, Sendable {
    @usableFromInline let status: Atomic<DeliveryStatus>

    @inlinable
    init() { status = Atomic(.idle) }

    /// Whether no thread is delivering. While the lock is held, the answer holds until it is released.
    @inlinable
    var isIdleLocked: Bool { status.load(ordering: .acquiring) == .idle }

    /// Makes the caller the delivering thread; the word must be `idle`.
    @inlinable
    func claimLocked() { status.store(.delivering, ordering: .relaxed) }

    /// Tells the delivering thread, if there is one, that work waits for it: it will take the lock before
    /// it stops. Returns `false` if no delivery is in progress (the caller deals with the work itself).
    @inlinable
    func flagWorkLocked() -> Bool {
        var current = status.load(ordering: .acquiring)
        if current == .delivering {
            let result = status.compareExchange(
                expected: .delivering, desired: .workPending, ordering: .acquiringAndReleasing)
            current = result.exchanged ? .workPending : result.original
        }
        return current != .idle
    }

    /// The delivering thread has taken every piece of work that waited: it may stop without the lock again.
    @inlinable
    func clearWorkLocked() { status.store(.delivering, ordering: .relaxed) }

    /// The delivering thread stops.
    @inlinable
    func releaseLocked() { status.store(.idle, ordering: .releasing) }

    /// The delivering thread has delivered the terminal event and stops, for good. After this, the signal's
    /// state never consults the word again (its phase is `terminated`).
    @inlinable
    func terminateLocked() { status.store(.terminated, ordering: .releasing) }

    /// Whether the terminal event has been delivered. Exact when `true`; `false` may be out of date.
    @inlinable
    var hasTerminated: Bool { status.load(ordering: .acquiring) == .terminated }

    /// The delivering thread, done with an event, stops without taking the lock: `true` if nothing waited.
    /// `false` if work waits: the thread must take the lock and take that work (`nextDelivery`).
    @inlinable
    func finish() -> Bool {
        status.compareExchange(expected: .delivering, desired: .idle, ordering: .acquiringAndReleasing).exchanged
    }
}
