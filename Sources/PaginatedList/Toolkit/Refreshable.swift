/// Something that can start over with fresh data: a list, a screen, a cache.
///
/// `refresh()` asks for fresh data and returns; what "fresh" means, and whether the work finishes
/// before `refresh()` returns, is up to the conformer (`PaginatedListViewModel` runs it on its
/// scheduler). The protocol is class-bound so that a `RefresherGroup` can hold its members weakly.
///
/// Conformers in this package: `Refresher` (a closure), `RefresherGroup` (many at once), `Pager` (back to
/// its first page) and `PaginatedListViewModel` (`refresh()`: the held items stay visible until the new
/// first page lands and replaces them; the list never goes blank).
public protocol Refreshable: AnyObject {
    /// Asks for fresh data. Which threads may call it is up to the conformer.
    func refresh()
}
