/// The error of a store-backed list: from the remote source, or from the store.
///
/// A store failure while paging (disk full, a read-only file, a damaged page) is `.store` on `lastError`,
/// and the rows the list holds stay; the failed page is retried as any page is.
public enum StoredListError<Remote: Error>: Error {
    /// The remote source failed (the network, the server).
    case remote(Remote)
    /// The store failed to read or write.
    case store(StoreError)
}

extension StoredListError: CustomStringConvertible {
    /// The store's error, or the remote's, described.
    public var description: String {
        switch self {
        case let .remote(error): String(describing: error)
        case let .store(error): error.description
        }
    }
}

extension StoredListError: Equatable where Remote: Equatable {}
extension StoredListError: Sendable where Remote: Sendable {}
