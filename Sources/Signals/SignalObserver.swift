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
        @usableFromInline
        enum Target {
            /// The input of `signal`: interrupts it on deinit.
            case signal(Signal)
            /// Forwards to a closure. The package's own transform observers use non-`@Sendable`
            /// closures that capture only `@Sendable` transforms and downstream observers.
            case action((Event<Value, Failure>) -> Void)
        }

        @usableFromInline
        let target: Target

        @inlinable
        init(_ signal: Signal) {
            target = .signal(signal)
        }

        @inlinable
        init(forwarding action: @escaping (Event<Value, Failure>) -> Void) {
            target = .action(action)
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
            switch target {
            case let .signal(signal): signal.send(event)
            case let .action(action): action(event)
            }
        }

        /// Sends a value.
        @inlinable
        public func send(value: Value) {
            send(.value(value))
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
            if case let .signal(signal) = target { signal.keepAlive(self) }
        }

        deinit {
            if case let .signal(signal) = target { signal.send(.interrupted) }
        }
    }
}

// The target is a lock-guarded `Signal`, or a closure that is `@Sendable` when a user supplied it
// (the package's own forwarding closures capture only `@Sendable` transforms and observers).
extension Signal.Observer: @unchecked Sendable where Value: Sendable {}
