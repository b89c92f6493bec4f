/// The state of one kind of load of a `PaginatedListViewModel`: a refresh, the previous page, or the next page.
///
/// One value per kind, so that "is it loading", "did it fail" and "is there more" can never disagree.
public enum LoadState<Failure: Error> {
    /// Not loading. The load can start (or, for `LoadStates.prepend` before the first page has landed,
    /// there is nothing to load before yet).
    case idle
    /// A load of this kind is in flight; another request of the same kind does nothing until it ends.
    case loading
    /// The last load of this kind failed with the error; loading that kind again retries the same page.
    case failed(Failure)
    /// Nothing more to load in this direction: the last page (`append`) or the first page (`prepend`) is held.
    case complete

    /// Whether a load of this kind is in flight.
    public var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }

    /// The error of the last load of this kind, if it failed.
    public var error: Failure? {
        if case let .failed(error) = self { return error }
        return nil
    }

    /// Whether there is nothing more to load in this direction.
    public var isComplete: Bool {
        if case .complete = self { return true }
        return false
    }

    /// Whether both values are the same case, whatever their errors (errors need not be `Equatable`).
    func hasSameCase(as other: LoadState) -> Bool {
        switch (self, other) {
        case (.idle, .idle), (.loading, .loading), (.failed, .failed), (.complete, .complete): return true
        default: return false
        }
    }
}

extension LoadState: Sendable where Failure: Sendable {}
extension LoadState: Equatable where Failure: Equatable {}

/// The states of a `PaginatedListViewModel`'s three kinds of load, published as one value: a refresh,
/// the page before the first item held (`prepend`), and the page after the last (`append`).
///
/// `loading`, `lastError` and `exhausted` are views of it: `loading` is true while any kind loads,
/// `exhausted` is `append.isComplete`.
public struct LoadStates<Failure: Error> {
    /// The state of the refresh (`refresh()`, `refresh(_:)`): `.idle` unless one is loading or the last one failed.
    public var refresh: LoadState<Failure>
    /// The state of loading the page before the first item held: `.idle` until the first page has landed,
    /// `.complete` when nothing lies before the first item held.
    public var prepend: LoadState<Failure>
    /// The state of loading the page after the last item held: `.complete` when the list is exhausted.
    public var append: LoadState<Failure>

    /// The three states.
    public init(refresh: LoadState<Failure>, prepend: LoadState<Failure>, append: LoadState<Failure>) {
        self.refresh = refresh
        self.prepend = prepend
        self.append = append
    }

    /// Nothing loading, nothing failed, nothing complete: the states of a new or reset view model.
    public static var idle: LoadStates { LoadStates(refresh: .idle, prepend: .idle, append: .idle) }

    /// Whether any kind of load is in flight.
    public var isLoading: Bool { refresh.isLoading || prepend.isLoading || append.isLoading }

    /// Whether every part is the same case as `other`'s, whatever their errors.
    func hasSameCases(as other: LoadStates) -> Bool {
        refresh.hasSameCase(as: other.refresh) && prepend.hasSameCase(as: other.prepend) && append.hasSameCase(as: other.append)
    }
}

extension LoadStates: Sendable where Failure: Sendable {}
extension LoadStates: Equatable where Failure: Equatable {}
