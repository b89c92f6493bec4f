/// The loading state of a `PaginatedListViewModel`: one value, so that `loading`, `lastError` and
/// `exhausted` (which derive from it) can never disagree.
public enum PaginatedListState<Failure: Error> {
    /// Not loading; `loadNextPage()` will load the pending page (the first one after creation or reset).
    case idle
    /// A page is loading; `loadNextPage()` does nothing until it lands or fails.
    case loading
    /// The last load failed; `loadNextPage()` retries the same page.
    case failed(Failure)
    /// The last page has landed; `loadNextPage()` does nothing until `reset()`.
    case exhausted

    /// Whether a page is loading.
    public var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }

    /// The error of the last load, if it failed.
    public var error: Failure? {
        if case let .failed(error) = self { return error }
        return nil
    }

    /// Whether the last page has landed.
    public var isExhausted: Bool {
        if case .exhausted = self { return true }
        return false
    }
}

extension PaginatedListState: Sendable {}
extension PaginatedListState: Equatable where Failure: Equatable {}
