extension PaginatedListViewModel: Pageable {
    /// Loads the next page: the same as `loadNextPage()` (nothing while a page is loading or the list
    /// is exhausted). May be called from any thread; runs on the view model's scheduler.
    public func nextPage() {
        loadNextPage()
    }

    /// Loads the pending page: the first page of a new or reset list, or the page that failed. The
    /// view model keeps one pending page, so this is `loadNextPage()` too.
    public func fetchPage() {
        loadNextPage()
    }
}
