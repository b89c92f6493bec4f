extension Signal {
    /// The sending side of a signal, or of a producer's run: `send(value:)`, then at most one terminal event.
    ///
    /// The input of a pipe (and the observer a producer's start handler receives) sends into its
    /// signal: the signal enforces the event grammar and serial delivery, so an `Observer` may be
    /// used from any thread (it is `Sendable` when `Value` is). When the last reference to such an
    /// input goes away before a terminal event, the signal's observers receive `interrupted`.
    ///
    /// An `Observer` made from a closure (`Observer(_:)`) simply forwards every event to it.
    public final class Observer {
        // Inlinable: the sending methods, on every row of `Benchmarks core` and `compare` (hot1, hot10,
        // cold5map through `forward(value:)`, the end of every producer start).

        // Both references are retained once by this observer (in `init`, released in `deinit`) and used
        // unretained on the per-event path, so that sending costs no reference counting.

        /// The core of the signal this is the input of; interrupted on deinit. `nil` for a closure observer.
        @usableFromInline
        let unretainedCore: Unmanaged<SignalCore<Value, Failure>>?
        /// The closures of a closure observer; `nil` for an input.
        @usableFromInline
        let unretainedForwarding: Unmanaged<Forwarding>?

        /// What a closure observer calls. The package's own forwarding observers use non-`@Sendable`
        /// closures that capture only `@Sendable` transforms and downstream observers. Kept apart from
        /// `Observer` so that an input stays small; the closures are not optional because an optional
        /// generic closure is re-abstracted (allocated) per call.
        @usableFromInline
        final class Forwarding {
            /// Every event.
            @usableFromInline let event: (Event<Value, Failure>) -> Void
            /// What `event` does with a `.value`, without building and matching an `Event` (fused
            /// operators chain these, one call per stage).
            @usableFromInline let value: (Value) -> Void
            /// A fused stage's: the observer it sends into (the next stage's, down to the run's input), which
            /// keeps an object alive until the run terminates. `nil` for other closure observers. (A
            /// reference, not a closure: no allocation per stage and run.)
            @usableFromInline let keepAliveTarget: (any KeepingAlive)?

            @inlinable
            init(
                event: @escaping (Event<Value, Failure>) -> Void, value: @escaping (Value) -> Void,
                keepAliveTarget: (any KeepingAlive)? = nil
            ) {
                self.event = event
                self.value = value
                self.keepAliveTarget = keepAliveTarget
            }
        }

        @inlinable
        init(_ core: SignalCore<Value, Failure>) {
            self.unretainedCore = .passRetained(core)
            self.unretainedForwarding = nil
        }

        @inlinable
        init(forwarding action: @escaping (Event<Value, Failure>) -> Void) {
            self.unretainedCore = nil
            self.unretainedForwarding = .passRetained(Forwarding(event: action, value: { action(.value($0)) }))
        }

        /// A closure observer whose values take `values` (which must do what `action` does with them);
        /// `keepAliveTarget`, a fused stage's (see `Forwarding.keepAliveTarget`).
        @inlinable
        init(
            forwarding action: @escaping (Event<Value, Failure>) -> Void, values: @escaping (Value) -> Void,
            keepAliveTarget: (any KeepingAlive)? = nil
        ) {
            self.unretainedCore = nil
            self.unretainedForwarding = .passRetained(Forwarding(event: action, value: values, keepAliveTarget: keepAliveTarget))
        }

        /// The core of the signal this is the input of, or `nil` for a closure observer.
        @usableFromInline
        var core: SignalCore<Value, Failure>? { unretainedCore?.takeUnretainedValue() }

        /// An observer that calls `action` with every event it is sent.
        ///
        /// `action` runs on the sending thread. No grammar is enforced here: start a producer with it
        /// (`producer.start(observer)`) and the run's signal drops what follows a terminal event.
        public convenience init(_ action: @escaping @Sendable (Event<Value, Failure>) -> Void) {
            self.init(forwarding: action)
        }

        /// Sends `event`.
        @inlinable
        public func send(_ event: Event<Value, Failure>) {
            if let unretainedCore {
                unretainedCore._withUnsafeGuaranteedRef { $0.send(event) }
            } else {
                unretainedForwarding.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.event(event) }
            }
        }

        /// Sends a value.
        @inlinable
        public func send(value: Value) {
            if let unretainedCore {
                unretainedCore._withUnsafeGuaranteedRef { $0.send(value: value) }
            } else {
                unretainedForwarding.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.value(value) }
            }
        }

        /// Sends a value from a stage of a fused producer: as `send(value:)`, with the signal's path called
        /// rather than inlined (`SignalCore.forward(value:)`).
        @inlinable
        func forward(value: Value) {
            if let unretainedCore {
                unretainedCore._withUnsafeGuaranteedRef { $0.forward(value: value) }
            } else {
                unretainedForwarding.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.value(value) }
            }
        }

        /// Sends `failed(error)`: the stream ends with an error.
        @inlinable
        public func send(error: Failure) {
            send(.failed(error))
        }

        /// Sends `completed`: the stream ends normally.
        @inlinable
        public func sendCompleted() {
            send(.completed)
        }

        /// Sends `interrupted`: the stream is cut off.
        @inlinable
        public func sendInterrupted() {
            send(.interrupted)
        }

        /// Keeps this observer alive until its stream terminates: for a start handler that will send later
        /// from work that does not otherwise capture it. The observer a start handler receives behind a fused
        /// operator (`map`, `filter`, … on a producer) is kept alive until the run terminates, as the run's
        /// own input would be. Has no effect on an observer made with `init(_:)`.
        public func keepAliveUntilTerminated() {
            keepAlive(self)
        }

        /// Keeps `object` alive until the stream this observer sends into terminates (through the stages of
        /// a fused producer, down to its run's input); nothing for a plain closure observer.
        @usableFromInline
        func keepAlive(_ object: AnyObject) {
            if let core {
                core.keepAlive(object)
            } else {
                unretainedForwarding.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.keepAliveTarget?.keepAlive(object) }
            }
        }

        deinit {
            if let unretainedCore {
                // Unspecialised here: skip the send (and its generic metadata look-ups, which a call keeps
                // out of this path) when the stream has already ended, as every producer run that sent its
                // terminal event has.
                unretainedCore._withUnsafeGuaranteedRef { core in
                    if !core.delivery.hasTerminated { core.interruptForLostInput() }
                }
                unretainedCore.release()
            }
            unretainedForwarding?.release()
        }
    }
}

// The target is a lock-guarded signal core, or a closure that is `@Sendable` when a user supplied it
// (the package's own forwarding closures capture only `@Sendable` transforms and observers).
extension Signal.Observer: @unchecked Sendable where Value: Sendable {}

/// What a fused stage's observer hands `keepAliveUntilTerminated()` on to: the observer it sends into.
@usableFromInline
protocol KeepingAlive: AnyObject {
    /// Keeps `object` alive until the stream this sends into terminates.
    func keepAlive(_ object: AnyObject)
}

extension Signal.Observer: KeepingAlive {}
