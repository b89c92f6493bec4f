/// "The user is looking at row `visibleIndex`; load more when at most `prefetchDistance` rows lie below
/// it": what `PaginatedListViewModel.loadNextPageIfNeeded(visibleIndex:prefetchDistance:)` asks.
struct PrefetchRequest: Equatable, Sendable {
    /// The last row index of the list at which the request still wants another page:
    /// `visibleIndex + prefetchDistance`, saturating.
    let reach: Int

    init(visibleIndex: Int, prefetchDistance: Int) {
        let (sum, overflow) = visibleIndex.addingReportingOverflow(max(prefetchDistance, 0))
        reach = overflow ? .max : sum
    }

    /// Whether a list of `count` items ends within the prefetch distance of the row.
    func wantsMore(count: Int) -> Bool {
        count - 1 <= reach
    }
}
