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
        /// The core of the signal this is the input of; interrupted on deinit. `nil` for a closure observer.
        @usableFromInline
        let core: SignalCore<Value, Failure>?
        /// `core`, unretained, for the per-event path: `core` keeps it alive as long as this observer.
        @usableFromInline
        let unretainedCore: Unmanaged<SignalCore<Value, Failure>>?
        /// The closure of a closure observer (a no-op for an input). The package's own forwarding
        /// observers use non-`@Sendable` closures that capture only `@Sendable` transforms and downstream
        /// observers. Not optional: an optional generic closure is re-abstracted (allocated) per call.
        @usableFromInline
        let forward: (Event<Value, Failure>) -> Void
        /// The value path of a closure observer: what `forward` does with a `.value`, without building and
        /// matching an `Event` (fused operators chain these, one call per stage).
        @usableFromInline
        let forwardValue: (Value) -> Void

        @inlinable
        init(_ core: SignalCore<Value, Failure>) {
            self.core = core
            self.unretainedCore = .passUnretained(core)
            self.forward = { _ in }
            self.forwardValue = { _ in }
        }

        @inlinable
        init(forwarding action: @escaping (Event<Value, Failure>) -> Void) {
            self.core = nil
            self.unretainedCore = nil
            self.forward = action
            self.forwardValue = { action(.value($0)) }
        }

        /// A closure observer whose values take `values` (which must do what `action` does with them).
        @inlinable
        init(forwarding action: @escaping (Event<Value, Failure>) -> Void, values: @escaping (Value) -> Void) {
            self.core = nil
            self.unretainedCore = nil
            self.forward = action
            self.forwardValue = values
        }

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
                forward(event)
            }
        }

        /// Sends a value.
        @inlinable
        public func send(value: Value) {
            if let unretainedCore {
                unretainedCore._withUnsafeGuaranteedRef { $0.send(.value(value)) }
            } else {
                forwardValue(value)
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
        /// from work that does not otherwise capture it. Has no effect on a closure observer.
        public func keepAliveUntilTerminated() {
            core?.keepAlive(self)
        }

        deinit {
            core?.send(.interrupted)
        }
    }
}

// The target is a lock-guarded signal core, or a closure that is `@Sendable` when a user supplied it
// (the package's own forwarding closures capture only `@Sendable` transforms and observers).
extension Signal.Observer: @unchecked Sendable where Value: Sendable {}
