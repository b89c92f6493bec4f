import Synchronization

/// What an observer attached to a signal does with the events it receives.
@usableFromInline
enum ObserverAction<Value, Failure: Error> {
    /// Every event, values included (`observe`).
    case events(@Sendable (Event<Value, Failure>) -> Void)
    /// Values only; terminal events just end the observation (`observeValues`).
    case values(@Sendable (Value) -> Void)
    /// The package's operators: values to `values`, the terminal event to `termination`. The closures
    /// capture only `@Sendable` transforms and the downstream input, and are called only from the
    /// signal's serial delivery.
    case forwarding(values: (Value) -> Void, termination: (Event<Value, Failure>) -> Void)
}

/// A snapshot of an observer's atomic word (see `ObserverWord`).
@usableFromInline
struct ObserverWordValue: Equatable {
    @usableFromInline let rawValue: UInt64

    @inlinable
    init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Bit 0: the observation was disposed (or its signal terminated).
    @inlinable static var disposedBit: UInt64 { 1 }
    /// Bit 1: values are passed to the observer's `events` closure, as events.
    @inlinable static var valuesAsEventsBit: UInt64 { 2 }
    /// The token occupies the bits above these two.
    @inlinable static var tokenShift: UInt64 { 2 }

    @inlinable
    init(token: UInt64, valuesAsEvents: Bool) {
        rawValue = token << Self.tokenShift | (valuesAsEvents ? Self.valuesAsEventsBit : 0)
    }

    /// Attach order: the key the signal finds the observer by, and the number of the last event it misses.
    @inlinable var token: UInt64 { rawValue >> Self.tokenShift }
    /// Whether the observation was disposed (or the signal terminated).
    @inlinable var isDisposed: Bool { rawValue & Self.disposedBit != 0 }
    /// Whether values go to the `events` closure.
    @inlinable var takesValuesAsEvents: Bool { rawValue & Self.valuesAsEventsBit != 0 }
}

/// An observer's token and flags in one atomic word, so that a box fits a 64-byte block.
///
/// The token and `takesValuesAsEvents` are set once, under the signal's lock, before the box is
/// published in an observer list; `disposed` is set when the observation is disposed, so that a delivery
/// in progress on another thread skips the observer from then on.
@usableFromInline
struct ObserverWord: ~Copyable, Sendable {
    @usableFromInline let raw: Atomic<UInt64>

    @inlinable
    init(_ value: ObserverWordValue) { raw = Atomic(value.rawValue) }

    @inlinable
    func load() -> ObserverWordValue { ObserverWordValue(rawValue: raw.load(ordering: .relaxed)) }

    /// Sets the token; the observer is not published yet.
    @inlinable
    func setToken(_ token: UInt64) {
        let current = load()
        raw.store(ObserverWordValue(token: token, valuesAsEvents: current.takesValuesAsEvents).rawValue,
                  ordering: .relaxed)
    }

    @inlinable
    func markDisposed() { raw.bitwiseOr(ObserverWordValue.disposedBit, ordering: .releasing) }
}

// Inlinable throughout: the per-event path (see `SignalCore`, "Inlining").

/// One attached observer. The signal's state holds it with a manual retain, alone or through its observer
/// list (see `Observers`, and `SignalCore`, "Per-event path"); deliveries in progress use it unretained.
///
/// Immutable apart from the atomic word. `@unchecked Sendable`: the closures are the user's `@Sendable`
/// ones, or the package's forwarding closures (`ObserverAction.forwarding`), which only the signal's serial
/// delivery calls — its lock and delivery word order every call after the previous one.
@usableFromInline
final class ObserverBox<Value, Failure: Error>: @unchecked Sendable {
    /// Where values go, unless `takesValuesAsEvents` (then a no-op).
    @usableFromInline let values: (Value) -> Void
    /// Where terminal events go (and values, if `takesValuesAsEvents`); a no-op for an observer of values.
    @usableFromInline let events: (Event<Value, Failure>) -> Void
    @usableFromInline let word: ObserverWord

    // Non-optional closures: an optional generic closure is re-abstracted (allocated) per call.
    @inlinable
    init(_ action: ObserverAction<Value, Failure>) {
        switch action {
        case let .events(action):
            values = { _ in }
            events = action
            word = ObserverWord(ObserverWordValue(token: 0, valuesAsEvents: true))
        case let .values(action):
            values = action
            events = { _ in }
            word = ObserverWord(ObserverWordValue(token: 0, valuesAsEvents: false))
        case let .forwarding(values, termination):
            self.values = values
            events = termination
            word = ObserverWord(ObserverWordValue(token: 0, valuesAsEvents: false))
        }
    }

    /// Attach order (see `ObserverWordValue.token`).
    @inlinable
    var token: UInt64 { word.load().token }

    /// Whether the observation was disposed (or the signal terminated).
    @inlinable
    var isDisposed: Bool { word.load().isDisposed }

    /// Marks the observation disposed: a delivery in progress skips it from now on.
    @inlinable
    func markDisposed() { word.markDisposed() }

    /// Calls the observer with `value`, unless it was disposed.
    @inlinable
    func receive(value: Value) {
        let state = word.load()
        if state.isDisposed { return }
        if state.takesValuesAsEvents { events(.value(value)) } else { values(value) }
    }

    /// Calls the observer with `event` if it was attached before event number `sequence` and not disposed.
    @inlinable
    func receive(_ event: Event<Value, Failure>, numbered sequence: UInt64) {
        let state = word.load()
        guard !state.isDisposed, state.token < sequence else { return }
        if case let .value(value) = event, !state.takesValuesAsEvents {
            values(value)
        } else {
            events(event)
        }
    }
}
