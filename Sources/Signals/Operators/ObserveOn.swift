extension Signal where Value: Sendable {
    /// A signal that forwards every event of this one from an action scheduled on `scheduler`.
    ///
    /// Observers of the returned signal run on the scheduler (for `ImmediateScheduler`, at once), in
    /// the order the events were sent. Terminal events are scheduled too. Events already scheduled are
    /// delivered even if this signal terminates meanwhile. Requires `Sendable` values: they cross threads.
    public func observe(on scheduler: some Scheduler) -> Signal<Value, Failure> {
        let (output, input) = Signal.pipe()
        observe { event in
            scheduler.schedule { input.send(event) }
        }
        return output
    }
}

extension Producer where Value: Sendable {
    /// A producer whose events are forwarded from actions scheduled on `scheduler`.
    ///
    /// The start handler still runs on the thread that starts the run (see `start(on:)` to move it).
    /// Disposing the run stops delivery at once: events still scheduled are dropped.
    public func observe(on scheduler: some Scheduler) -> Producer<Value, Failure> {
        lift { $0.observe(on: scheduler) }
    }
}

extension Producer {
    /// A producer whose start handler runs in an action scheduled on `scheduler` instead of inside `start`.
    ///
    /// `start` returns at once. Disposing the run before the action ran cancels it: the start handler
    /// never runs. Until then the run is kept going (the scheduled action holds its input). The start
    /// handler is handed to the scheduler's thread once and never used on the caller's thread again:
    /// it must be safe to run there.
    public func start(on scheduler: some Scheduler) -> Producer<Value, Failure> {
        let upstream = startHandler
        return Producer { observer, lifetime in
            let pending = Handoff((upstream, observer))
            lifetime.observeEnded { _ = pending.take() }
            lifetime.add(scheduler.schedule {
                guard let (handler, observer) = pending.take(), !lifetime.hasEnded else { return }
                handler(observer, lifetime)
            })
        }
    }
}
