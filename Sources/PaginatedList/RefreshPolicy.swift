/// How `PaginatedListViewModel.refresh(_:)` brings a list up to date. Every policy keeps the held items
/// visible (and editable) until the new data lands, and none ever shows an item twice.
public enum RefreshPolicy: Equatable, Sendable {
    /// Loads the first page; when it lands, it replaces the list (`changes` sends `.reset`). What
    /// `refresh()` does.
    case replace
    /// Pull-to-refresh on a feed that grows at the top: loads pages from the top until one contains an
    /// item already held (it *overlaps*), then splices the new items above the held ones, updates the held
    /// items that came back in place, and removes the held items above the overlap that the feed no
    /// longer has. If no page within `maxPages` overlaps, `onGap` decides what happens to the held items.
    /// Pages with no items do not count towards `maxPages`; ten in a row stop the refresh, and the view
    /// model reports `PaginatedListDiagnostic.emptyPagesLimitReached`: the pages that held items are applied
    /// as when the budget is spent (`onGap`), and when none did, the list stays as it was.
    /// Overlaps are found by id: for items that are not `Identifiable`, it acts as `.replace`.
    case mergeOnTop(maxPages: Int, onGap: GapPolicy)
    /// Reloads as many pages from the top as the list holds, in order; when the last lands, the list
    /// becomes exactly their content in one transition, each page replacing the range of the page it
    /// reloads: new items inserted, moved ones moved, items no page brought back removed. A reload that
    /// fails or is cut off part-way leaves the list as it was. For feeds that re-rank. Unlike
    /// `PaginatedListViewModel.reload()`, which empties the list and starts over from the first page, the
    /// list never goes blank.
    case reloadAll
}

/// What `.mergeOnTop` does when more new items arrived than its page budget covers, so that the fresh
/// pages do not reach the items held.
public enum GapPolicy: Equatable, Sendable {
    /// The fresh pages replace the list.
    case replace
    /// The held items stay below the fresh ones, behind a gap: `PaginatedListViewModel.gap` gives the
    /// index of the first held item below it, and `fillGap()` loads the missing items.
    case keepGap
}
