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
    /// The next `loadNextPage()` (or prefetch request) goes on from where it stopped. Also reported by a
    /// `.mergeOnTop` refresh that loaded that many empty pages in a row: it stops there, applying the pages
    /// that held items as when its budget is spent (the list stays as it was when none did).
    case emptyPagesLimitReached(count: Int)
    /// A page failed with an error that says the same request cannot succeed (`RetryAdvice.doNotRetry`,
    /// an HTTP 404, say): the view model's `AutomaticRetry` does not retry it; `loadNextPage()` does.
    case retryNotAttempted
    /// A page failed while the connectivity given to the view model's `AutomaticRetry` was `false`: it
    /// waits, without backing off and without counting towards `RetryPolicy.maxRetries`, and is retried as
    /// soon as the connectivity turns `true` (or by `loadNextPage()` before then).
    case waitingForConnectivity
    /// A store-backed list could not write an edit (`update`, `remove(id:)`, `insert(_:at:)`) to its store
    /// (a full disk, a read-only file): the list is unchanged. The value describes the store's error.
    case editNotStored(String)
    /// A page source corrected its position in a feed that changed while it was paged, or could not: what
    /// it did, and (`SourceCorrection.impact`) whether the list it built may miss items or show some out of
    /// order, so an app can react (refresh, say).
    case sourceCorrection(SourceCorrection)

    /// A correction a page source made while paging a feed that changes underneath, with what it means for
    /// the list the user sees (`impact`). The cases describe a page loaded downwards; on a page loaded
    /// upwards (through `Page.previous`, a list opened in the middle), "above" and "below" swap.
    public enum SourceCorrection: Equatable, Sendable {
        /// Items already shown came back where the source expected new ones (items were inserted above the
        /// items shown, or an item shown was re-ranked below them); `count` were dropped.
        /// Impact: `.nothingLost`.
        case duplicatesDropped(count: Int)
        /// The items shown last were found `by` positions higher than expected (items above them were
        /// deleted, or re-ranked below them); the source went on from there instead of leaving a hole.
        /// Impact: `.nothingLost`.
        case resynchronised(by: Int)
        /// The source could not find any item it had shown within its search bound (more items were
        /// deleted above, or inserted near its position, than it searches); it went on from the last window
        /// it read. Items between may never be shown, and items it showed may rank above items shown
        /// before them. Impact: `.possiblyLost`.
        case resynchronisationFailed
        /// Items the source expected were gone when it fetched them (deleted since an ID snapshot was
        /// taken); `count` of them were skipped. They are no longer in the feed. Impact: `.nothingLost`.
        case missingItemsSkipped(count: Int)
        /// The source saw `count` items it had not shown ranked above the last item it shows (inserted, or
        /// re-ranked, between items already shown); showing them would put them out of order, so they were
        /// not shown. A refresh shows them. Impact: `.possiblyLost`.
        case itemsAboveSkipped(count: Int)
        /// The source found `count` items it had already shown ranked below items it shows now (items
        /// re-ranked downwards, or new items inserted just above the last item shown): the list shows
        /// those items in an order the feed no longer has. Nothing is missing and nothing is shown twice.
        /// Impact: `.orderNotGuaranteed`.
        case shownOutOfOrder(count: Int)
        /// The feed grew above the source's position faster than the source could page it: every item
        /// this page's requests returned had been shown already, so the page has no new items although
        /// the list goes on. The source asks for larger windows (within its bounds) and goes on from
        /// further down with the next page; a refresh shows the new items at the top.
        /// Impact: `.nothingLost`.
        case feedOutpaced
        /// The list ended before the place where the server had said it would go on: the page after the
        /// last one read lay past the end of the feed (the server answered that it does not exist — a 404
        /// for a page number beyond the last, as Django REST framework and Laravel send — or sent it
        /// empty), or held fewer items than the last total promised. The feed shrank while it was paged,
        /// and the source ended the list there instead of failing. Items that were below the pages read
        /// and moved up into them (deleted items above the reading position pull them up) were not shown:
        /// at most `possiblySkipped` of them (`nil`: the source cannot tell how many). A refresh shows
        /// them. Impact: `.possiblyLost`.
        case feedShrank(possiblySkipped: Int?)

        /// What a correction means for the list the user sees, from harmless to most severe (the cases
        /// are ordered: `impact > .nothingLost` asks for a look, a refresh say).
        public enum Impact: Comparable, Sendable {
            /// Every item the feed holds between the items shown before and the items shown now was shown,
            /// once, in the feed's order.
            case nothingLost
            /// Nothing is missing and nothing is shown twice, but some items are shown in an order the feed
            /// no longer has.
            case orderNotGuaranteed
            /// Items may be missing from the list (skipped as above the items shown, or between windows the
            /// source could not join); a refresh shows them. Order may differ too.
            case possiblyLost
        }

        /// What this correction means for the list the user sees.
        public var impact: Impact {
            switch self {
            case .duplicatesDropped, .resynchronised, .missingItemsSkipped, .feedOutpaced: .nothingLost
            case .shownOutOfOrder: .orderNotGuaranteed
            case .resynchronisationFailed, .itemsAboveSkipped, .feedShrank: .possiblyLost
            }
        }
    }
}
