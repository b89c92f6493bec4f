/// What went wrong with a store: opening its file, reading or writing it, or decoding what it held.
///
/// Every failure of `PagingStore` and `StoredFeed` is one; a store-backed list reports it as
/// `StoredListError.store` on `lastError`, and keeps the rows it holds. An error at open leaves the file
/// byte for byte as it was.
public struct StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kinds of failure, each with what to do about it.
    public enum Kind: Equatable, Sendable {
        /// The file cannot be opened or created (a missing folder, no permission).
        case cannotOpen
        /// The file is not an SQLite database (random bytes, another format): not this store's.
        case notADatabase
        /// The file is an SQLite database of another application (its `application_id` is not this store's).
        case foreignDatabase
        /// The file was written by a newer version of this store (its `user_version` is higher than this
        /// version knows): open it with that version, or with another file.
        case schemaTooNew
        /// The file is damaged (truncated, overwritten): SQLite or the store's checks found it inconsistent.
        case corrupt
        /// A stored item or key could not be decoded as the type asked for (the type changed incompatibly
        /// since it was written).
        case decoding
        /// The disk (or the database's size limit) is full: the write was rolled back.
        case full
        /// The file or its folder is read-only: the write was rolled back.
        case readOnly
        /// Another SQLite failure; `message` says which.
        case sqlite
    }

    /// What kind of failure it is.
    public let kind: Kind
    /// The path of the store's file.
    public let path: String
    /// One line: what SQLite or the decoder said, and what the store was doing.
    public let message: String

    /// An error of `kind` for the store at `path` (for tests of code that handles store errors).
    public init(kind: Kind, path: String, message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    /// The kind, the path and the message, on one line.
    public var description: String {
        "StoreError.\(kind) (\(path)): \(message)"
    }
}
