/// What `AutomaticRetry` does after a page failed: retry after a delay, or stop (and why).
///
/// Made by `RetryPolicy.decision(after:failures:draw:)`, a pure function: the view model calls it once
/// for each failed load and follows it. A value; `Sendable`.
public enum RetryDecision: Equatable, Sendable {
    /// Retry the page after this delay from the failure.
    case retry(after: Duration)
    /// Do not retry automatically; `loadNextPage()` still retries the page.
    case stop(Stop)

    /// Why no automatic retry is made.
    public enum Stop: Equatable, Sendable {
        /// The page failed `failures` times in a row: more than the policy's `maxRetries`.
        case retriesExhausted(failures: Int)
        /// The error says the same request cannot succeed (`RetryAdvice.doNotRetry`).
        case cannotSucceed

        /// The diagnostic the view model reports for this stop.
        public var diagnostic: PaginatedListDiagnostic {
            switch self {
            case let .retriesExhausted(failures): .retriesExhausted(failures: failures)
            case .cannotSucceed: .retryNotAttempted
            }
        }
    }
}
