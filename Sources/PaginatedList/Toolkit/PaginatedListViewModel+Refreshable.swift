extension PaginatedListViewModel: Refreshable {
    /// Starts over from the first page: the same as `reload()` (`reset()`, then `loadNextPage()`, as one
    /// command). May be called from any thread; runs on the view model's scheduler.
    public func refresh() {
        reload()
    }
}
