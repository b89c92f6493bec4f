/// Why an optimistic edit (`StoredFeed.mutate(id:_:send:)`) did not end with the server's value stored.
public enum MutationError<Remote: Error>: Error {
    /// The feed lists no item with that id: nothing was changed and `send` did not run.
    case notFound
    /// The store failed to write the edit (nothing was changed and `send` did not run) or its outcome (the
    /// edit stays pending, listed by `pendingEdits()`, until `rollback(id:)` or another mutation of the item).
    case store(StoreError)
    /// `send` failed: the edit was rolled back (every open list shows the server's last value again, with
    /// any other pending edit of the item on top).
    case remote(Remote)
}

extension MutationError: CustomStringConvertible {
    /// What went wrong, in one line.
    public var description: String {
        switch self {
        case .notFound: "the feed lists no item with that id"
        case let .store(error): error.description
        case let .remote(error): String(describing: error)
        }
    }
}

extension MutationError: Equatable where Remote: Equatable {}
