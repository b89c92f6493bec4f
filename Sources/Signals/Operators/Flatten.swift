/// How `flatMap` runs the inner producers it makes of the outer stream's values.
public enum FlattenStrategy: Sendable, Hashable {
    /// Start every inner producer at once and forward the values of all of them, as they come.
    case merge
    /// Run the inner producers one after another, in the order of the outer values: each starts
    /// when the one before it has completed.
    case concat
    /// Run only the inner producer of the latest outer value: a new outer value disposes the
    /// running inner and starts the new one.
    case latest
}

extension Signal {
    /// A signal of the values of the producers `transform` makes of this signal's values, run
    /// according to `strategy`.
    ///
    /// Termination rules:
    /// - An inner failure (or interruption) fails (or interrupts) the result at once; the other inners
    ///   are disposed and this signal is no longer observed.
    /// - An inner that completes just ends (`.concat` then starts the next queued one).
    /// - When this signal completes, the result completes once no inner is left to run: every started
    ///   and queued inner has completed (`.merge`, `.concat`), or the latest one has (`.latest`).
    /// - When this signal fails or is interrupted, the result does the same at once, and every inner is
    ///   disposed (interrupted).
    ///
    /// `transform` runs on the thread delivering the outer value; inner producers start there too (a
    /// queued `.concat` inner starts on the thread that completed the one before it). Inner values may
    /// arrive on several threads: a lock orders them and they are delivered serially. The state lives
    /// as long as this signal or an inner run still feeds it.
    public func flatMap<U>(
        _ strategy: FlattenStrategy, _ transform: @escaping @Sendable (Value) -> Producer<U, Failure>
    ) -> Signal<U, Failure> {
        let state = FlattenOperator<U, Failure>(strategy)
        state.outerObservation.inner = observe { event in state.receiveOuter(event.map(transform)) }
        return state.output
    }
}

extension Producer {
    /// A producer of the values of the producers `transform` makes of this one's values, run according
    /// to `strategy`.
    ///
    /// Same termination rules as `Signal.flatMap(_:_:)`. Disposing the run interrupts the outer run and
    /// every inner run, and the queued ones are never started, also after the outer run completed with
    /// inners still running or queued.
    public func flatMap<U>(
        _ strategy: FlattenStrategy, _ transform: @escaping @Sendable (Value) -> Producer<U, Failure>
    ) -> Producer<U, Failure> {
        // Not `lift`: that ties the run's end to the outer run only, which has let go of the operator
        // once it completed; the inners would outlive a disposal of the run.
        Producer<U, Failure> { observer, lifetime in
            self.startWithSignal { signal, disposable in
                lifetime.add(disposable)
                let state = FlattenOperator<U, Failure>(strategy)
                lifetime.observeEnded { state.interrupt() }
                state.outerObservation.inner = signal.observe { event in state.receiveOuter(event.map(transform)) }
                state.output.attachForwarding(observer)
            }
        }
    }
}

/// One inner run of `flatMap`: its number (its events come back tagged with it) and the slot that
/// receives its disposable.
struct InnerRun {
    let id: UInt64
    let slot: SerialDisposable
}

/// `flatMap`'s lock-guarded state: the inner runs, the queue of `.concat`, and whether the outer stream
/// completed. Each method says what to do once the lock is released.
struct FlattenState<Value, Failure: Error> {
    typealias Inner = Producer<Value, Failure>
    typealias Output = OutputState<Value, Failure>

    let strategy: FlattenStrategy
    /// The inner runs that have started and not terminated (at most one for `.concat` and `.latest`).
    var running: [UInt64: SerialDisposable] = [:]
    /// `.concat`: the inners waiting for the running one to complete.
    var queued = FIFO<Inner>()
    var nextID: UInt64 = 0
    var outerCompleted = false
    /// `.concat`: a thread is in `runConcat`'s loop, which starts whatever gets queued meanwhile (so that
    /// inners completing synchronously do not recurse).
    var isStartingConcat = false

    init(_ strategy: FlattenStrategy) {
        self.strategy = strategy
    }

    /// Registers a new running inner.
    mutating func register() -> InnerRun {
        let id = nextID
        nextID &+= 1
        let slot = SerialDisposable()
        running[id] = slot
        return InnerRun(id: id, slot: slot)
    }

    /// Whether the output may complete now.
    var isDone: Bool {
        outerCompleted && running.isEmpty && queued.isEmpty && !isStartingConcat
    }

    /// What an outer value asks for.
    enum OuterValueAction {
        /// Nothing now: the output terminated, or `.concat` queued the inner.
        case none
        /// Dispose `replaced` (`.latest`'s previous inner), then start the inner as `run`.
        case start(InnerRun, replacing: [SerialDisposable])
        /// `.concat`: start the inner as `run`, then the queued ones (`runConcat`).
        case startConcat(InnerRun)
    }

    mutating func outerValue(_ inner: Inner, _ output: borrowing Output) -> OuterValueAction {
        guard !output.isTerminated else { return .none }
        switch strategy {
        case .merge:
            return .start(register(), replacing: [])
        case .latest:
            let replaced = Array(running.values)
            running = [:]
            return .start(register(), replacing: replaced)
        case .concat:
            if !running.isEmpty || isStartingConcat {
                queued.append(inner)
                return .none
            }
            isStartingConcat = true
            return .startConcat(register())
        }
    }

    /// The outer stream completed: the output completes if no inner is left to run.
    mutating func outerCompleted(_ output: inout Output) -> OutputAction<Value, Failure> {
        outerCompleted = true
        return isDone ? output.terminate(.completed) : .none
    }

    /// An event of the inner run `id`. Events of an inner that is no longer running are dropped.
    mutating func innerEvent(
        _ id: UInt64, _ event: Event<Value, Failure>, _ output: inout Output
    ) -> OutputAction<Value, Failure> {
        switch event {
        case let .value(value):
            return running[id] == nil ? .none : output.send(value)
        case .completed:
            guard running.removeValue(forKey: id) != nil else { return .none }
            return isDone ? output.terminate(.completed) : .none
        case .failed, .interrupted:
            guard running.removeValue(forKey: id) != nil else { return .none }
            return output.terminate(event)
        }
    }

    /// What `.concat` starts next.
    enum ConcatStep {
        /// Start `inner` as `run`.
        case start(Inner, InnerRun)
        /// Nothing to start now; then do `action` (the output's completion, if it is done).
        case stop(OutputAction<Value, Failure>)
    }

    /// `runConcat`'s loop, after it started an inner: the next queued inner if none is running (the one
    /// started completed during its start), or the end of the loop.
    mutating func nextConcat(_ output: inout Output) -> ConcatStep {
        if !output.isTerminated && running.isEmpty, let inner = queued.popFirst() {
            return .start(inner, register())
        }
        isStartingConcat = false
        return .stop(!output.isTerminated && isDone ? output.terminate(.completed) : .none)
    }

    /// What `.concat` starts after an inner completed.
    enum NextQueued {
        case none
        /// Start `inner` as `run`, then the queued ones (`runConcat`).
        case start(Inner, InnerRun)
    }

    /// `.concat`, after an inner completed: the next queued inner, if none is running and no other thread
    /// is starting one.
    mutating func nextQueued(_ output: borrowing Output) -> NextQueued {
        guard !output.isTerminated, running.isEmpty, !isStartingConcat, let inner = queued.popFirst() else {
            return .none
        }
        isStartingConcat = true
        return .start(inner, register())
    }

    /// After the output terminated: the inner runs to dispose; the queue is dropped.
    mutating func takeInners() -> [SerialDisposable] {
        let inners = Array(running.values)
        running = [:]
        queued.removeAll()
        return inners
    }
}

/// `flatMap`'s output, fed by the outer signal and every inner run.
final class FlattenOperator<Value, Failure: Error>: OperatorOutput<Value, Failure>, @unchecked Sendable {
    typealias Inner = Producer<Value, Failure>

    let strategy: FlattenStrategy
    /// Guarded by `lock`.
    var state: FlattenState<Value, Failure>
    /// The observation of the outer signal, disposed once the output terminated.
    let outerObservation = SerialDisposable()

    init(_ strategy: FlattenStrategy) {
        self.strategy = strategy
        state = FlattenState(strategy)
    }

    func receiveOuter(_ event: Event<Inner, Failure>) {
        switch event {
        case let .value(inner):
            switch lock.locked({ state.outerValue(inner, outputState) }) {
            case .none:
                break
            case let .start(run, replaced):
                for old in replaced { old.dispose() }
                start(inner, run)
            case let .startConcat(run):
                runConcat(inner, run)
            }
        case .completed:
            finish(lock.locked { state.outerCompleted(&outputState) })
        case let .failed(error):
            finish(lock.locked { outputState.terminate(.failed(error)) })
        case .interrupted:
            finish(lock.locked { outputState.terminate(.interrupted) })
        }
    }

    func receiveInner(_ id: UInt64, _ event: Event<Value, Failure>) {
        finish(lock.locked { state.innerEvent(id, event, &outputState) })
        guard case .completed = event, strategy == .concat else { return }
        if case let .start(inner, run) = lock.locked({ state.nextQueued(outputState) }) { runConcat(inner, run) }
    }

    /// Starts `inner` as `run`: its events come back tagged with `run.id`.
    func start(_ inner: Inner, _ run: InnerRun) {
        let id = run.id
        run.slot.inner = inner.start(Signal<Value, Failure>.Observer(forwarding: { [self] event in
            receiveInner(id, event)
        }))
    }

    /// `.concat`: starts `first`, then, as long as each inner completes during its own start, the next
    /// queued one, in a loop (inners that complete synchronously do not recurse).
    func runConcat(_ first: Inner, _ firstRun: InnerRun) {
        var inner = first
        var run = firstRun
        while true {
            start(inner, run)
            switch lock.locked({ state.nextConcat(&outputState) }) {
            case let .start(next, nextRun):
                inner = next
                run = nextRun
            case let .stop(action):
                finish(action)
                return
            }
        }
    }

    /// Interrupts the output (nothing if it terminated): every inner is disposed, the queue dropped.
    func interrupt() {
        finish(lock.locked { outputState.terminate(.interrupted) })
    }

    /// Does `action`; if the output terminated, disposes every inner and the outer observation.
    func finish(_ action: OutputAction<Value, Failure>) {
        guard perform(action) else { return }
        for inner in lock.locked({ state.takeInners() }) { inner.dispose() }
        outerObservation.dispose()
    }
}
