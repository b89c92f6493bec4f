/// One mutation of a view model's `items`, for views that apply batch updates instead of reloading.
///
/// Ranges and offsets refer to the list right *after* the change, except `removed`, whose offsets refer
/// to the list before it. One transition may send several changes (an insert that brings new and held
/// items sends `.inserted`, then `.updated`); the values of inserted and updated items are those of the
/// `items` snapshot of the same transition. A view that applies every change in order stays equal to
/// `items`.
public enum ItemListChange: Equatable, Sendable {
    /// Items were appended at `range` (a page landed).
    case appended(Range<Int>)
    /// Items were inserted at `range` (for instance new items at the front after a refresh).
    case inserted(Range<Int>)
    /// The items at these offsets (in the list before the change) were removed.
    case removed([Int])
    /// The items at these offsets were replaced by newer versions of themselves.
    case updated([Int])
    /// One item moved from offset `from` (in the list before the change) to offset `to` (in the list after it).
    case moved(from: Int, to: Int)
    /// The whole list was replaced (emptied by `reset()`, say): reload everything.
    case reset
}
