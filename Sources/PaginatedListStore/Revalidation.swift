import PaginatedList

/// When a store-backed list asks the network whether its stored rows are still current.
///
/// Whatever the choice, the first `loadNextPage()` lands the stored rows with no request; revalidation is a
/// refresh after that (contract 15: the stored rows stay visible until the fresh data lands, and a failed
/// refresh keeps them). A feed with nothing stored loads its first page from the network instead, and is
/// not revalidated.
public enum Revalidation: Equatable, Sendable {
    /// Show the stored rows, and refresh with this policy at once.
    case always(RefreshPolicy)
    /// Refresh with the policy only when the stored first page was fetched longer ago than the duration
    /// (its fetch date against the store's `now` when the list opens).
    case ifOlderThan(Duration, RefreshPolicy)
    /// Show the stored rows only, until `refresh()`. Paging past them still loads from the network.
    case never
}
