import Signals

/// Opt-in automatic retry for a `PaginatedListViewModel`: a `RetryPolicy`, the `DateScheduler` that
/// times the waits, and the random source of the jitter.
///
/// After a page fails, the view model asks the policy what to do (`RetryPolicy.decision(after:failures:draw:)`:
/// it listens to a `RetryAdvising` error, waiting at least a server's `Retry-After` and not retrying what
/// cannot succeed), waits the delay decided on `scheduler`, then retries the page as a command on its own
/// scheduler (as if `loadNextPage()` were called). A manual `loadNextPage()` during
/// the wait retries at once and cancels the wait; `reset()` and the release of the view model cancel it.
/// Consecutive failures of a page count towards `policy.maxRetries`; a page that lands resets the count.
///
/// **Offline.** Given a `connectivity` property (`NetworkConnectivity.isConnected` on Apple platforms, or
/// any `Property<Bool>` an app keeps), a page that fails while it is `false` does not back off: it waits,
/// without counting towards `maxRetries` (`PaginatedListDiagnostic.waitingForConnectivity`), and is retried
/// as soon as the connectivity turns `true`. A retry whose delay passes while offline waits the same way,
/// and a waiting retry is not delayed further when the connectivity comes back: it runs at once. Meanwhile
/// the page's load state is `.failed` with its error, as for any retry that waits; `loadNextPage()` still
/// retries at once.
public struct AutomaticRetry: Sendable {
    /// How many retries, and the delays between them.
    public let policy: RetryPolicy
    /// Where the waits are timed (a `QueueScheduler` in an app, a `TestScheduler` in tests).
    public let scheduler: any DateScheduler
    /// Whether the device can reach the network, if the app watches it: while `false`, failed pages wait
    /// for it to turn `true` instead of backing off. `nil`: always assumed online.
    public let connectivity: Property<Bool>?
    /// The jitter's random source: each view model takes its own copy.
    let generator: any RandomNumberGenerator & Sendable

    /// Retries by `policy`, timed on `scheduler`, with jitter drawn from the system's random generator.
    public init(_ policy: RetryPolicy = RetryPolicy(), on scheduler: any DateScheduler) {
        self.init(policy, on: scheduler, using: SystemRandomNumberGenerator())
    }

    /// Retries by `policy`, timed on `scheduler`, except while `connectivity` is `false`: then a failed page
    /// waits for it to turn `true` and is retried at once (see "Offline" above). Jitter comes from
    /// `generator` (the system's random generator by default), each view model drawing from its own copy.
    public init<G: RandomNumberGenerator & Sendable>(
        _ policy: RetryPolicy = RetryPolicy(), on scheduler: any DateScheduler, connectivity: Property<Bool>,
        using generator: G = SystemRandomNumberGenerator()
    ) {
        self.policy = policy
        self.scheduler = scheduler
        self.generator = generator
        self.connectivity = connectivity
    }

    /// Retries by `policy`, timed on `scheduler`, with jitter drawn from `generator` (a seeded one makes
    /// the delays reproducible). Each view model given this value draws from its own copy of `generator`.
    public init<G: RandomNumberGenerator & Sendable>(_ policy: RetryPolicy = RetryPolicy(), on scheduler: any DateScheduler,
                                                     using generator: G) {
        self.policy = policy
        self.scheduler = scheduler
        self.generator = generator
        connectivity = nil
    }
}
