import Synchronization

extension Signal where Value: Sendable {
    /// Attaches `action`, a `@MainActor` closure, which receives every event sent from now on on the main
    /// actor, through `scheduler`.
    ///
    /// An event sent on the main thread while nothing is queued on the main queue by a `UIScheduler` is
    /// delivered at once, inside `send`; any other is enqueued on the main queue, keeping the order of
    /// events (on Linux the main queue runs only while the main run loop or `dispatchMain()` does).
    /// The signal retains `action` until the observation is disposed or the signal terminates; once the
    /// returned disposable is disposed on the main actor, `action` is not called again, even for events
    /// already enqueued. On a signal that has already terminated, `action` receives `interrupted`
    /// (through `scheduler`) and `nil` is returned.
    ///
    /// ```swift
    /// signal.observe(on: UIScheduler()) { event in label.text = "\(event)" }
    /// ```
    @discardableResult
    public func observe(
        on scheduler: UIScheduler, _ action: @escaping @MainActor (Event<Value, Failure>) -> Void
    ) -> (any Disposable)? {
        let delivery = MainActorDelivery(scheduler: scheduler, action)
        delivery.observation = observe { event in delivery.schedule(event) }
        return delivery.observation == nil ? nil : delivery
    }

    /// Attaches `action`, a `@MainActor` closure, which receives every value sent from now on on the main
    /// actor, through `scheduler`; terminal events end the observation.
    ///
    /// Same ordering, threading and disposal contract as `observe(on:_:)`. On a terminated signal,
    /// returns `nil` and never calls `action`.
    @discardableResult
    public func observeValues(
        on scheduler: UIScheduler, _ action: @escaping @MainActor (Value) -> Void
    ) -> (any Disposable)? {
        let delivery = MainActorDelivery<Value, Failure>(scheduler: scheduler) { event in
            if case let .value(value) = event { action(value) }
        }
        delivery.observation = observeValues { value in delivery.schedule(.value(value)) }
        return delivery.observation == nil ? nil : delivery
    }
}

extension Producer where Value: Sendable {
    /// Starts a run and calls `action`, a `@MainActor` closure, with its every event on the main actor,
    /// through `scheduler`.
    ///
    /// The start handler still runs on the caller's thread, inside this call; only delivery moves. Events
    /// sent on the main thread while nothing is queued reach `action` at once (so a property's current
    /// value arrives before this returns, when started on the main thread); others are enqueued on the
    /// main queue in order.
    ///
    /// - Returns: the run's disposable: disposing it interrupts the run, and once disposed on the main
    ///   actor, `action` is not called again, even for events already enqueued.
    @discardableResult
    public func startWithEvents(
        on scheduler: UIScheduler, _ action: @escaping @MainActor (Event<Value, Failure>) -> Void
    ) -> any Disposable {
        let delivery = MainActorDelivery(scheduler: scheduler, action)
        delivery.observation = start { event in delivery.schedule(event) }
        return delivery
    }

    /// Starts a run and calls `action`, a `@MainActor` closure, with its every value on the main actor,
    /// through `scheduler`; terminal events end it silently.
    ///
    /// Same contract as `startWithEvents(on:_:)`.
    ///
    /// ```swift
    /// viewModel.items.producer.startWithValues(on: UIScheduler()) { items in table.reload(items) }
    /// ```
    @discardableResult
    public func startWithValues(
        on scheduler: UIScheduler, _ action: @escaping @MainActor (Value) -> Void
    ) -> any Disposable {
        let delivery = MainActorDelivery<Value, Failure>(scheduler: scheduler) { event in
            if case let .value(value) = event { action(value) }
        }
        delivery.observation = startWithValues { value in delivery.schedule(.value(value)) }
        return delivery
    }
}

/// Moves events to the main actor through a `UIScheduler`, and is the disposable of that observation:
/// disposing it disposes the observation (or run) and stops deliveries already enqueued.
final class MainActorDelivery<Value: Sendable, Failure: Error>: Disposable {
    private let scheduler: UIScheduler
    private let action: @MainActor (Event<Value, Failure>) -> Void
    private let disposed = Atomic<Bool>(false)
    /// The observation or run being delivered; set once, right after attaching.
    private let inner = Locked<(any Disposable)?>(nil)

    init(scheduler: UIScheduler, _ action: @escaping @MainActor (Event<Value, Failure>) -> Void) {
        self.scheduler = scheduler
        self.action = action
    }

    var observation: (any Disposable)? {
        get { inner.withLock { $0 } }
        set {
            // Disposed before the attachment returned: dispose the attachment at once.
            let late = inner.withLock { inner -> (any Disposable)? in
                inner = newValue
                return disposed.load(ordering: .acquiring) ? newValue : nil
            }
            late?.dispose()
        }
    }

    /// Runs the action with `event` on the main actor, unless disposed by then.
    func schedule(_ event: Event<Value, Failure>) {
        scheduler.schedule { [self] in
            guard !disposed.load(ordering: .acquiring) else { return }
            MainActor.assumeIsolated { action(event) }
        }
    }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        inner.withLock { $0 }?.dispose()
    }
}
