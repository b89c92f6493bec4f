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
        let state = FlattenState<U, Failure>(strategy)
        state.outerObservation.inner = observe { event in state.receiveOuter(event.map(transform)) }
        return state.output
    }
}

extension Producer {
    /// A producer of the values of the producers `transform` makes of this one's values, run according
    /// to `strategy`.
    ///
    /// Same termination rules as `Signal.flatMap(_:_:)`. Disposing the run interrupts the outer run,
    /// which disposes every inner run and the queued ones are never started.
    public func flatMap<U>(
        _ strategy: FlattenStrategy, _ transform: @escaping @Sendable (Value) -> Producer<U, Failure>
    ) -> Producer<U, Failure> {
        lift { $0.flatMap(strategy, transform) }
    }
}

/// `flatMap`'s state, fed by the outer signal and every inner run; everything mutable is guarded by `lock`.
@usableFromInline
final class FlattenState<Value, Failure: Error>: LockedOutput<Value, Failure>, @unchecked Sendable {
    typealias Inner = Producer<Value, Failure>
    typealias Output = Signal<Value, Failure>

    let strategy: FlattenStrategy
    /// The observation of the outer signal, disposed once the output terminated.
    let outerObservation = SerialDisposable()

    // Guarded by `lock`.
    /// The inner runs that have started and not terminated (at most one for `.concat` and `.latest`).
    var running: [UInt64: SerialDisposable] = [:]
    /// `.concat`: the inners waiting for the running one to complete.
    var queued = FIFO<Inner>()
    var nextID: UInt64 = 0
    var outerCompleted = false
    /// `.concat`: a thread is in `runConcat`'s loop, which starts whatever gets queued meanwhile
    /// (so that inners completing synchronously do not recurse).
    var isStartingConcat = false

    /// What an outer value asks for, decided under `lock` and done after it.
    enum OuterAction {
        case none
        case start(UInt64, SerialDisposable, replacing: [SerialDisposable])
        case concat(UInt64, SerialDisposable)
    }

    init(_ strategy: FlattenStrategy) {
        self.strategy = strategy
    }

    /// Registers a new running inner; must be called with `lock` held.
    func registerLocked() -> (UInt64, SerialDisposable) {
        let id = nextID
        nextID &+= 1
        let slot = SerialDisposable()
        running[id] = slot
        return (id, slot)
    }

    /// Whether the result may complete now; must be called with `lock` held.
    var isDoneLocked: Bool {
        outerCompleted && running.isEmpty && queued.isEmpty && !isStartingConcat
    }

    func receiveOuter(_ event: Event<Inner, Failure>) {
        switch event {
        case let .value(inner):
            let action = lock.locked { () -> OuterAction in
                guard !isTerminated else { return .none }
                switch strategy {
                case .merge:
                    let (id, slot) = registerLocked()
                    return .start(id, slot, replacing: [])
                case .latest:
                    let replaced = Array(running.values)
                    running = [:]
                    let (id, slot) = registerLocked()
                    return .start(id, slot, replacing: replaced)
                case .concat:
                    if !running.isEmpty || isStartingConcat {
                        queued.append(inner)
                        return .none
                    }
                    let (id, slot) = registerLocked()
                    isStartingConcat = true
                    return .concat(id, slot)
                }
            }
            switch action {
            case .none:
                break
            case let .start(id, slot, replaced):
                for old in replaced { old.dispose() }
                start(inner, id, slot)
            case let .concat(id, slot):
                runConcat(inner, id, slot)
            }
        case .completed:
            let terminated = lock.locked { () -> (Output.Delivery?, Output.Observer?)? in
                outerCompleted = true
                return isDoneLocked ? terminateLocked(.completed) : nil
            }
            finish(terminated)
        case let .failed(error):
            finish(lock.locked { terminateLocked(.failed(error)) })
        case .interrupted:
            finish(lock.locked { terminateLocked(.interrupted) })
        }
    }

    func receiveInner(_ id: UInt64, _ event: Event<Value, Failure>) {
        switch event {
        case let .value(value):
            deliver(lock.locked { running[id] == nil ? nil : sendLocked(value) })
        case .completed:
            let terminated = lock.locked { () -> (Output.Delivery?, Output.Observer?)? in
                guard running.removeValue(forKey: id) != nil else { return nil }
                return isDoneLocked ? terminateLocked(.completed) : nil
            }
            finish(terminated)
            if strategy == .concat { startQueued() }
        case let .failed(error):
            finish(lock.locked { running.removeValue(forKey: id) == nil ? nil : terminateLocked(.failed(error)) })
        case .interrupted:
            finish(lock.locked { running.removeValue(forKey: id) == nil ? nil : terminateLocked(.interrupted) })
        }
    }

    /// Starts `inner`, whose events come back tagged with `id`; `slot` receives its disposable.
    func start(_ inner: Inner, _ id: UInt64, _ slot: SerialDisposable) {
        slot.inner = inner.start(Signal<Value, Failure>.Observer(forwarding: { [self] event in
            receiveInner(id, event)
        }))
    }

    /// `.concat`: starts the next queued inner if none is running and no other thread is starting one.
    func startQueued() {
        let next = lock.locked { () -> (Inner, UInt64, SerialDisposable)? in
            guard !isTerminated, running.isEmpty, !isStartingConcat, let inner = queued.popFirst() else { return nil }
            isStartingConcat = true
            let (id, slot) = registerLocked()
            return (inner, id, slot)
        }
        if let (inner, id, slot) = next { runConcat(inner, id, slot) }
    }

    /// `.concat`: starts `first`, then, as long as each inner completes during its own start, the next
    /// queued one, in a loop; ends with `isStartingConcat` cleared.
    func runConcat(_ first: Inner, _ firstID: UInt64, _ firstSlot: SerialDisposable) {
        var next: (Inner, UInt64, SerialDisposable)? = (first, firstID, firstSlot)
        while let (inner, id, slot) = next {
            start(inner, id, slot)
            var terminated: (Output.Delivery?, Output.Observer?)?
            next = lock.locked { () -> (Inner, UInt64, SerialDisposable)? in
                if !isTerminated && running.isEmpty, let inner = queued.popFirst() {
                    let (id, slot) = registerLocked()
                    return (inner, id, slot)
                }
                isStartingConcat = false
                if !isTerminated && isDoneLocked { terminated = terminateLocked(.completed) }
                return nil
            }
            finish(terminated)
        }
    }

    /// After a locked section that may have terminated the output: delivers, releases the input,
    /// disposes every inner and the outer observation.
    func finish(_ terminated: (Output.Delivery?, Output.Observer?)?) {
        guard let (delivery, released) = terminated else { return }
        deliver(delivery)
        withExtendedLifetime(released) {}
        let inners = lock.locked { () -> [SerialDisposable] in
            let inners = Array(running.values)
            running = [:]
            queued.removeAll()
            return inners
        }
        for inner in inners { inner.dispose() }
        outerObservation.dispose()
    }
}
