extension EventTransformation where Output == Value, OutputFailure == Failure {
    /// `on`: runs the side effects for each event, then forwards it unchanged.
    @inlinable
    static func on(
        value: (@Sendable (Value) -> Void)?,
        failed: (@Sendable (Failure) -> Void)?,
        completed: (@Sendable () -> Void)?,
        interrupted: (@Sendable () -> Void)?,
        terminated: (@Sendable () -> Void)?
    ) -> Self {
        Self(values: { downstream in
            { received in
                value?(received)
                downstream.send(value: received)
            }
        }, termination: { ended in
            switch ended {
            case let .failed(error): failed?(error)
            case .completed: completed?()
            case .interrupted: interrupted?()
            }
            terminated?()
            return ended
        })
    }
}

extension Signal {
    /// A signal that runs the given side effects for each event, then forwards it.
    ///
    /// Every closure is optional and runs on the delivering thread, serially, before the event is
    /// forwarded: `value` for values; `failed`, `completed` or `interrupted` for the terminal event,
    /// then `terminated` for any of them. The returned signal terminates when this one does.
    public func on(
        value: (@Sendable (Value) -> Void)? = nil,
        failed: (@Sendable (Failure) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil,
        interrupted: (@Sendable () -> Void)? = nil,
        terminated: (@Sendable () -> Void)? = nil
    ) -> Signal<Value, Failure> {
        transformed(by: .on(value: value, failed: failed, completed: completed, interrupted: interrupted,
                            terminated: terminated))
    }
}

extension Producer {
    /// A producer that runs the given side effects around each run, then forwards its events.
    ///
    /// Every closure is optional. `started` runs on the thread that starts the run, before the upstream
    /// starts. The event closures run as for `Signal.on(value:failed:completed:interrupted:terminated:)`,
    /// serially. `disposed` runs once the run has ended, for whatever reason (terminal event or disposal),
    /// on the thread that ended it, after the upstream run was disposed.
    public func on(
        started: (@Sendable () -> Void)? = nil,
        value: (@Sendable (Value) -> Void)? = nil,
        failed: (@Sendable (Failure) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil,
        interrupted: (@Sendable () -> Void)? = nil,
        terminated: (@Sendable () -> Void)? = nil,
        disposed: (@Sendable () -> Void)? = nil
    ) -> Producer<Value, Failure> {
        Producer { observer, lifetime in
            started?()
            self.startWithSignal { signal, disposable in
                lifetime.add(disposable)
                if let disposed { lifetime.observeEnded(disposed) }
                signal.on(value: value, failed: failed, completed: completed, interrupted: interrupted,
                          terminated: terminated)
                    .attachForwarding(observer)
            }
        }
    }
}
