import Signals
import Synchronization

extension Producer where Value: Sendable {
    /// Starts a run and calls `body` once, with its first event (a value, a failure, or the end of a run
    /// that sent no value); later events are ignored. The run is disposed when `lifetime` ends.
    ///
    /// `body` runs on the thread that sends the event. Used by sources that chain several requests
    /// into one page.
    func startFirst(in lifetime: Lifetime, _ body: @escaping @Sendable (Event<Value, Failure>) -> Void) {
        let once = OnceFlag()
        let run = start { event in
            guard once.claim() else { return }
            body(event)
        }
        lifetime.add(run)
    }
}

/// A flag that can be claimed once, from any thread.
final class OnceFlag: Sendable {
    private let claimed = Atomic<Bool>(false)

    /// `true` for the first caller only.
    func claim() -> Bool {
        !claimed.exchange(true, ordering: .acquiringAndReleasing)
    }
}

extension Producer {
    /// A producer that calls `make` on every start and runs what it returns, so that each start (a
    /// retry) makes a fresh request. Disposing the run disposes the inner one.
    static func deferred(_ make: @escaping () -> Producer) -> Producer {
        Producer { observer, lifetime in
            lifetime.add(make().start(observer))
        }
    }
}
