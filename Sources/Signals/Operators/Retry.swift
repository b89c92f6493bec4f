extension Producer {
    /// A producer that restarts this one when it fails, at most `count` times; the failure after the
    /// last retry is forwarded.
    ///
    /// Values of failed attempts are forwarded as they come (a retry may repeat them). Each restart
    /// happens after the failed attempt has ended (the cleanups it registered with `lifetime.observeEnded`
    /// ran), on the thread that delivered the failure; an attempt that fails while it is starting is
    /// restarted by the thread that started it, in a loop, so that retries of a producer that fails
    /// synchronously do not nest on the stack. Completion and interruption end the run. Disposing the run
    /// disposes the current attempt.
    public func retry(upTo count: Int) -> Producer<Value, Failure> {
        retry(upTo: count, delay: nil)
    }

    /// A producer that restarts this one `interval` after it fails, on `scheduler`, at most `count`
    /// times; the failure after the last retry is forwarded.
    ///
    /// Retries start in actions scheduled on `scheduler`. Disposing the run while a retry is waiting
    /// cancels it. Otherwise as `retry(upTo:)`.
    public func retry(upTo count: Int, interval: Duration, on scheduler: some DateScheduler) -> Producer<Value, Failure> {
        retry(upTo: count, delay: (interval, scheduler))
    }

    func retry(upTo count: Int, delay: (Duration, any DateScheduler)?) -> Producer<Value, Failure> {
        Producer { observer, lifetime in
            let run = RetryRun(self, retries: count, delay: delay, downstream: observer)
            lifetime.add(run.current)
            run.attempt()
        }
    }
}

/// The lock-guarded state of a run of `retry`: the retries left, and who starts the next attempt.
struct RetryState {
    var retriesLeft: Int
    /// A thread is in `RetryRun.attempt`'s loop: it starts the retry an attempt asks for meanwhile.
    var isStarting = false
    /// An attempt that failed (and ended) while `isStarting` asked for a retry.
    var retryAsked = false

    /// What to do with a failure.
    enum Decision {
        /// Start the producer again (after the delay, if any).
        case retry
        /// No retry left: forward the failure.
        case forward
    }

    mutating func failed() -> Decision {
        guard retriesLeft > 0 else { return .forward }
        retriesLeft -= 1
        return .retry
    }

    /// Whether the caller starts the attempt now (else the thread in the loop will).
    mutating func enter() -> Bool {
        guard !isStarting else {
            retryAsked = true
            return false
        }
        isStarting = true
        return true
    }

    /// After an attempt started: whether to start another (one was asked for meanwhile).
    mutating func again() -> Bool {
        if retryAsked {
            retryAsked = false
            return true
        }
        isStarting = false
        return false
    }
}

/// One run of `retry`: the attempts left, and the current attempt (or the scheduled retry).
///
/// A failed attempt asks for the next one from its lifetime's end, so the next starts after the failed
/// one has ended (its cleanups ran). Attempts start in a loop (`attempt()`): an attempt that fails while
/// it starts (a synchronous producer) has the loop start the next, so retries do not nest on the stack.
final class RetryRun<Value, Failure: Error>: @unchecked Sendable {
    // `@unchecked Sendable`: `state` is only touched with `lock` held; the rest is immutable or Sendable.
    let lock = Lock()
    /// Guarded by `lock`.
    var state: RetryState
    let producer: Producer<Value, Failure>
    let delay: (Duration, any DateScheduler)?
    /// Reached by one attempt at a time: the next starts only after the previous one ended.
    let downstream: Signal<Value, Failure>.Observer
    /// The current attempt's run, or the retry waiting on the scheduler; disposed with the run.
    let current = SerialDisposable()

    init(_ producer: Producer<Value, Failure>, retries: Int, delay: (Duration, any DateScheduler)?,
         downstream: Signal<Value, Failure>.Observer) {
        self.producer = producer
        state = RetryState(retriesLeft: max(0, retries))
        self.delay = delay
        self.downstream = downstream
    }

    /// Starts an attempt, and the attempts asked for while it started.
    func attempt() {
        guard lock.locked({ state.enter() }) else { return }
        repeat { start() } while lock.locked({ state.again() })
    }

    /// Starts one attempt (as `startWithSignal` does, keeping its lifetime to retry once it has ended).
    private func start() {
        guard !current.isDisposed else { return }
        let core = SignalCore<Value, Failure>()
        let lifetime = Lifetime()
        current.inner = core
        Signal(core: core).attachForwarding(Signal<Value, Failure>.Observer(forwarding: { [self] event in
            guard case .failed = event else { return downstream.send(event) }
            switch lock.locked({ state.failed() }) {
            case .retry: lifetime.observeEnded { [self] in retry() }
            case .forward: downstream.send(event)
            }
        }))
        core.endOnTermination(lifetime)
        if !lifetime.hasEnded { producer.startHandler(Signal.Observer(core), lifetime) }
    }

    func retry() {
        guard let (interval, scheduler) = delay else { return attempt() }
        current.inner = scheduler.schedule(after: interval) { [self] in attempt() }
    }
}
