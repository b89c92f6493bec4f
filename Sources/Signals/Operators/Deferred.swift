import Synchronization

extension Producer {
    /// A producer that calls `make` at every start and runs the producer it returns, so that each start
    /// (a retry, say) builds its work anew: a fresh request, a fresh page number.
    ///
    /// `make` runs inside `start`, on the caller's thread. Disposing the run disposes the inner run.
    public static func deferred(_ make: @escaping () -> Producer) -> Producer {
        Producer { observer, lifetime in
            lifetime.add(make().start(observer))
        }
    }
}

extension Producer {
    /// Starts a run and calls `body` once, with its first event (a value, a failure, or the end of a run
    /// that sent no value); later events are ignored. The run is disposed when `lifetime` ends.
    ///
    /// `body` runs on the thread that sends the event. For the package's page sources, which chain several
    /// requests into one page.
    package func startFirst(in lifetime: Lifetime, _ body: @escaping @Sendable (Event<Value, Failure>) -> Void) {
        let once = FirstEventGate()
        lifetime.add(start { event in
            if once.claim() { body(event) }
        })
    }
}

/// Lets one event through, from any thread.
final class FirstEventGate: Sendable {
    private let claimed = Atomic<Bool>(false)

    /// `true` for the first caller only.
    func claim() -> Bool {
        !claimed.exchange(true, ordering: .acquiringAndReleasing)
    }
}
