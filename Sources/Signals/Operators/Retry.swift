extension Producer {
    /// A producer that restarts this one when it fails, at most `count` times; the failure after the
    /// last retry is forwarded.
    ///
    /// Values of failed attempts are forwarded as they come (a retry may repeat them). Each restart
    /// happens on the thread that delivered the failure, after the failed attempt has ended. Completion
    /// and interruption end the run. Disposing the run disposes the current attempt.
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

/// The lock-guarded state of a run of `retry`: the retries left.
struct RetryState {
    var retriesLeft: Int

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
}

/// One run of `retry`: the attempts left, and the current attempt (or the scheduled retry).
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

    func attempt() {
        guard !current.isDisposed else { return }
        producer.startWithSignal { signal, disposable in
            current.inner = disposable
            signal.attachForwarding(Signal<Value, Failure>.Observer(forwarding: { [self] event in
                guard case .failed = event else { return downstream.send(event) }
                switch lock.locked({ state.failed() }) {
                case .retry: retry()
                case .forward: downstream.send(event)
                }
            }))
        }
    }

    func retry() {
        guard let (interval, scheduler) = delay else { return attempt() }
        current.inner = scheduler.schedule(after: interval) { [self] in attempt() }
    }
}
