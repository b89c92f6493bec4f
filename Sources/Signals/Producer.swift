/// A cold stream: a recipe for work that runs anew, with its own state, each time it is started.
///
/// `start` creates a *run*: a fresh signal, whose input (a `Signal.Observer`) and `Lifetime` are handed
/// to the start handler, on the caller's thread, before `start` returns. The run ends when a terminal event
/// is sent, when the returned disposable is disposed (observers receive `interrupted`), or when nothing
/// holds the run's input any more (also `interrupted`). Its lifetime ends then: actions the handler
/// registered with `lifetime.observeEnded` run, and everything the run retained is released.
///
/// A handler that sends later keeps the input: captured by the work it schedules, or with
/// `lifetime.observeEnded { _ = observer }` / `observer.keepAliveUntilTerminated()`. Dropping the
/// returned disposable does not interrupt the run.
///
/// ```swift
/// let numbers = Producer<Int, Never> { observer, lifetime in
///     for i in 1...3 where !lifetime.hasEnded { observer.send(value: i) }
///     observer.sendCompleted()
/// }
/// numbers.startWithValues { print($0) }   // 1 2 3
/// ```
public struct Producer<Value, Failure: Error> {
    // Inlinable: the initialisers and `start…` methods, which cold5map and producer start time
    // (`Benchmarks core`, `compare`): a start handler made in a client is specialised there, and sends
    // through the specialised path of the run's input.

    @usableFromInline
    let startHandler: (Signal<Value, Failure>.Observer, Lifetime) -> Void

    /// A shortcut for `start(_:)` and `startWithValues(_:)` with no operator in between: attaches the
    /// action directly to an existing stream (a property's signal) instead of creating a run's signal.
    /// It must behave exactly like `startHandler` would.
    @usableFromInline
    let directAttach: ((ObserverAction<Value, Failure>) -> any Disposable)?

    /// A producer whose every run calls `startHandler` with the run's input and lifetime.
    ///
    /// The handler runs synchronously inside `start`, on the caller's thread.
    @inlinable
    public init(_ startHandler: @escaping (Signal<Value, Failure>.Observer, Lifetime) -> Void) {
        self.startHandler = startHandler
        self.directAttach = nil
    }

    @inlinable
    init(
        _ startHandler: @escaping (Signal<Value, Failure>.Observer, Lifetime) -> Void,
        directAttach: @escaping (ObserverAction<Value, Failure>) -> any Disposable
    ) {
        self.startHandler = startHandler
        self.directAttach = directAttach
    }

    /// A producer that sends `value`, then completes.
    @inlinable
    public init(value: Value) {
        self.init { observer, _ in
            observer.send(value: value)
            observer.sendCompleted()
        }
    }

    /// A producer that fails with `error` at once.
    @inlinable
    public init(error: Failure) {
        self.init { observer, _ in observer.send(error: error) }
    }

    /// A producer that sends the elements of `values` in order, then completes.
    ///
    /// Iteration stops early if the run is disposed (the lifetime is checked before every element).
    @inlinable
    public init<S: Sequence>(values: S) where S.Element == Value {
        self.init { observer, lifetime in
            for value in values {
                if lifetime.hasEnded { return }
                observer.send(value: value)
            }
            observer.sendCompleted()
        }
    }

    /// A producer that sends `result`'s value and completes, or fails with its error.
    @inlinable
    public init(result: Result<Value, Failure>) {
        switch result {
        case let .success(value): self.init(value: value)
        case let .failure(error): self.init(error: error)
        }
    }

    /// A producer that completes at once without a value.
    @inlinable
    public static var empty: Producer {
        Producer { observer, _ in observer.sendCompleted() }
    }

    /// A producer that never sends anything; its run ends only when it is disposed.
    @inlinable
    public static var never: Producer {
        Producer { observer, _ in observer.keepAliveUntilTerminated() }
    }

    // MARK: - Starting

    /// Starts a run and calls `action` with its every event, on the thread that sends it.
    ///
    /// - Returns: the run's disposable: disposing it interrupts the run; dropping it does not.
    @inlinable
    @discardableResult
    public func start(_ action: @escaping @Sendable (Event<Value, Failure>) -> Void = { _ in }) -> any Disposable {
        if let directAttach { return directAttach(.events(action)) }
        return run(observedBy: .events(action))
    }

    /// Starts a run and calls `action` with its every value; terminal events end it silently.
    ///
    /// - Returns: the run's disposable (see `start(_:)`).
    @inlinable
    @discardableResult
    public func startWithValues(_ action: @escaping @Sendable (Value) -> Void) -> any Disposable {
        if let directAttach { return directAttach(.values(action)) }
        return run(observedBy: .values(action))
    }

    /// Starts a run that forwards every event to `observer`.
    @inlinable
    @discardableResult
    public func start(_ observer: Signal<Value, Failure>.Observer) -> any Disposable {
        run(observedBy: .forwarding(values: { observer.send(value: $0) }, termination: { observer.send($0) }))
    }

    /// Starts a run and hands its signal to `setup` before the start handler runs, so that
    /// `setup` can attach observers (or compose operators) without missing an event.
    ///
    /// - Returns: the run's disposable (see `start(_:)`).
    @inlinable
    @discardableResult
    public func startWithSignal(_ setup: (Signal<Value, Failure>, any Disposable) -> Void) -> any Disposable {
        let core = SignalCore<Value, Failure>()
        setup(Signal(core: core), core)
        let lifetime = Lifetime()
        core.endOnTermination(lifetime)
        if !lifetime.hasEnded { startHandler(Signal.Observer(core), lifetime) }
        return core
    }

    /// A run with `action` as its one observer: a signal core (no `Signal` around it, which nobody could
    /// reach), its input and its lifetime. The core is the run's disposable.
    // Inlinable: producer start (`Benchmarks core`) costs twice as much unspecialised.
    @inlinable
    func run(observedBy action: ObserverAction<Value, Failure>) -> any Disposable {
        let lifetime = Lifetime()
        let core = SignalCore<Value, Failure>(run: lifetime, observedBy: action)
        startHandler(Signal.Observer(core), lifetime)
        return core
    }
}

extension Signal {
    /// Forwards every event to a closure observer (used when a run is started with one).
    @usableFromInline
    func attachForwarding(_ observer: Observer) {
        // The observer is called only from this signal's serial delivery.
        let forward = Confined(observer)
        observe { forward.value.send($0) }
    }
}

/// The disposable of a producer's run is its signal's core: disposing it interrupts the run. It holds
/// nothing once the run has terminated. It reads as disposed from the moment a terminal event is sent
/// (`dispose()` during a delivery queues the interruption behind it; the run is disposed all the same).
extension SignalCore: Disposable {
    @usableFromInline
    var isDisposed: Bool { !isAlive }

    @usableFromInline
    func dispose() { send(.interrupted) }
}
