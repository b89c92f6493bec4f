/// "The user is looking at rows `first...last`; load more when at most `prefetchDistance` rows lie beyond
/// them": what `loadPagesIfNeeded(visibleIndex:prefetchDistance:)` and
/// `loadPagesIfNeeded(visibleRows:prefetchDistance:)` ask, at both ends of the list.
// `@usableFromInline`: the view model's commands and pending loads carry one; the inlinable landing of a
// page asks it whether to load on (out of line: only after a prefetch request).
@usableFromInline
struct PrefetchRequest: Equatable, Sendable {
    /// The first row the user sees.
    private(set) var first: Int
    /// The last row index of the list at which the request still wants the next page:
    /// `last + prefetchDistance`, saturating.
    private(set) var reach: Int
    /// How many rows above `first` still count as "near the top".
    let distance: Int

    init(visibleIndex: Int, prefetchDistance: Int) {
        self.init(visibleRows: visibleIndex ... visibleIndex, prefetchDistance: prefetchDistance)
    }

    init(visibleRows: ClosedRange<Int>, prefetchDistance: Int) {
        distance = max(prefetchDistance, 0)
        first = visibleRows.lowerBound
        let (sum, overflow) = visibleRows.upperBound.addingReportingOverflow(distance)
        reach = overflow ? .max : sum
    }

    /// Whether a list of `count` items ends within the prefetch distance of the rows.
    @usableFromInline
    func wantsMore(count: Int) -> Bool {
        count - 1 <= reach
    }

    /// Whether the rows are within the prefetch distance of the top of the list.
    @usableFromInline
    var wantsPrevious: Bool {
        first <= distance
    }

    /// The same rows after `delta` items were inserted (positive) or removed (negative) above them.
    @usableFromInline
    func shifted(by delta: Int) -> PrefetchRequest {
        var shifted = self
        let (moved, overflow) = first.addingReportingOverflow(delta)
        shifted.first = overflow ? first : max(moved, 0)
        shifted.reach = Self.shift(reach, by: delta)
        return shifted
    }

    /// The same rows after an edit inserted (`delta` > 0) or removed (`delta` < 0) items at `row`: the rows
    /// below the edit move, those above it stay.
    @usableFromInline
    func edited(at row: Int, by delta: Int) -> PrefetchRequest {
        if delta > 0 ? row <= first : row < first { return shifted(by: delta) }
        var edited = self
        if row <= reach { edited.reach = Self.shift(reach, by: delta) }
        return edited
    }

    /// `reach` moved by `delta`, saturating: `.max` (no bound) stays, and it never goes below -1.
    private static func shift(_ reach: Int, by delta: Int) -> Int {
        guard reach != .max else { return .max }
        let (moved, overflow) = reach.addingReportingOverflow(delta)
        return overflow ? (delta > 0 ? .max : -1) : max(moved, -1)
    }
}
