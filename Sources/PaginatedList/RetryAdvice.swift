/// What an error says about retrying the request that failed: retry with the usual backoff, wait at
/// least a given time first, or do not retry because the same request cannot succeed.
///
/// An error gives its advice by conforming to `RetryAdvising`; `RetryPolicy.decision(after:failures:draw:)`
/// follows it. A value; `Sendable`.
public enum RetryAdvice: Equatable, Sendable {
    /// A retry may succeed: wait the policy's backoff.
    case retry
    /// A retry may succeed, but not before this delay from the failure (a server's `Retry-After`): wait
    /// at least this long, and at least the policy's backoff.
    case retryAfter(Duration)
    /// The same request cannot succeed (a `404`, a body that does not decode): no automatic retry, unless
    /// the policy `retriesEverything`.
    case doNotRetry
}

/// An error that knows whether retrying can help (`PaginatedListHTTP`'s `HTTPError` is one).
///
/// Errors that do not conform are retried with the policy's backoff.
public protocol RetryAdvising: Error {
    /// What retrying the failed request can achieve.
    var retryAdvice: RetryAdvice { get }
}
