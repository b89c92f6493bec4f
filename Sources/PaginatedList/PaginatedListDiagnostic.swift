/// Something a view model noticed and handled that an app may want to log: misbehaving page producers,
/// results that arrived too late to matter, and corrections page sources made.
public enum PaginatedListDiagnostic: Equatable, Sendable {
    /// A producer sent another page after its first one; the view model took the first and ignored this one.
    case extraPageIgnored
    /// A producer failed after it had sent its page; the page stays, the failure is ignored.
    case failureAfterPageIgnored
    /// A producer completed without sending a page; the same producer stays pending and is retried by
    /// the next `loadNextPage()`.
    case completedWithoutPage
    /// A producer interrupted itself before sending a page; the same producer stays pending and is
    /// retried by the next `loadNextPage()`.
    case interruptedWithoutPage
    /// A page arrived for a load that `reset()` had cut off; it was discarded.
    case stalePageDiscarded
    /// A page failed and the view model's `AutomaticRetry` will retry it: retry number `retry` (1 for the
    /// first after a success) starts after `delay`, unless `loadNextPage()` retries first or `reset()`
    /// cancels it.
    case retryScheduled(retry: Int, delay: Duration)
    /// A page failed `failures` times in a row and its automatic retries are used up; `loadNextPage()`
    /// retries it.
    case retriesExhausted(failures: Int)
    /// `count` pages in a row landed with no items although more pages followed, so the view model stopped
    /// loading on its own (a page with no items that is not the last loads the next at once, up to a bound
    /// per command, so that a list whose observers wait for new items is never stranded and never loops).
    /// The next `loadNextPage()` (or prefetch request) goes on from where it stopped.
    case emptyPagesLimitReached(count: Int)
    /// A page failed with an error that says the same request cannot succeed (`RetryAdvice.doNotRetry`,
    /// an HTTP 404, say): the view model's `AutomaticRetry` does not retry it; `loadNextPage()` does.
    case retryNotAttempted
    /// A page source corrected its position in a feed that changed while it was paged: `count` items
    /// were dropped as already loaded (`.duplicatesDropped`), or it stepped back to close a gap.
    case sourceCorrection(SourceCorrection)

    /// A correction a page source made while paging a feed that changes underneath.
    public enum SourceCorrection: Equatable, Sendable {
        /// Items already loaded came back again (items were inserted above the loaded range); dropped.
        case duplicatesDropped(count: Int)
        /// The page did not overlap the last item held (items were deleted above); the source stepped back
        /// `by` positions to re-synchronise.
        case resynchronised(by: Int)
        /// No overlap could be found within the bound; the source continued from where it was.
        case resynchronisationFailed
        /// Items the source expected were gone when it fetched them (deleted since an ID snapshot was
        /// taken); `count` of them were skipped.
        case missingItemsSkipped(count: Int)
    }
}
