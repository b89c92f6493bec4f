import Signals

/// What a `QueryPaginatedList` does when the user comes back to a query whose view model it kept: its
/// items show at once either way; this says whether they are then brought up to date.
///
/// A revalidation is a refresh (`PaginatedListViewModel.refresh(_:)`): it never blanks the list, and a
/// query whose first page never landed loads it instead. Policies other than `.replace` need
/// `Identifiable` items: for other items they act as `.replace`.
public enum QueryRevalidation: Sendable {
    /// Shows the kept items as they are, without a request (the user refreshes when they want).
    case never
    /// Refreshes by the policy each time the query comes back (stale-while-revalidate; the default, with
    /// `.replace`).
    case always(RefreshPolicy)
    /// Refreshes by the policy when the query comes back and its first page landed at least the duration
    /// ago, on the scheduler's clock (the list's own refreshes count as loading it again).
    case ifOlderThan(Duration, policy: RefreshPolicy, on: any DateScheduler)
}
