/// Something that loads a list a page at a time: the commands a scroll view sends.
///
/// `nextPage()` moves on to the page after the current one and asks for it; `fetchPage()` asks for the
/// current page again, without moving: to load it the first time, or to retry it after a failure. Both
/// return at once; the page arrives however the conformer delivers it.
///
/// Conformers in this package: `Pager` (a page counter that calls back with the page to fetch) and
/// `PaginatedListViewModel` (which loads the pages of its page chain).
public protocol Pageable: AnyObject {
    /// Moves on to the next page and asks for it.
    func nextPage()

    /// Asks for the current page again, without moving on: the first load, or a retry after a failure.
    func fetchPage()
}
