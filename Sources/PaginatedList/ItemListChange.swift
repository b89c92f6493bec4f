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

extension ItemListChange {
    /// Where the row at `row` (an offset before the change) is after it: `nil` when the change removed
    /// it or replaced the whole list.
    ///
    /// What keeps a scroll anchor (the row under the user's finger, a cursor) on its item while rows land
    /// or go above it: pass the anchor through every change of a transition, in order. Inserted rows at
    /// the anchor's offset go above it (a refresh's new items, a prepended page).
    public func position(ofRow row: Int) -> Int? {
        switch self {
        case let .appended(range), let .inserted(range):
            return range.lowerBound <= row ? row + range.count : row
        case let .removed(offsets):
            var below = 0
            for offset in offsets {
                if offset == row { return nil }
                if offset < row { below += 1 } else { break }
            }
            return row - below
        case .updated:
            return row
        case let .moved(from, to):
            if row == from { return to }
            let afterRemoval = row > from ? row - 1 : row
            return afterRemoval >= to ? afterRemoval + 1 : afterRemoval
        case .reset:
            return nil
        }
    }
}
