import Foundation
import PaginatedList

/// What a store knows about a feed as a whole (the seed's Feed object): how fresh it is, whether its ends
/// are stored, and how long the server says it is.
public struct StoredFeedInfo: Equatable, Sendable {
    /// How many items the feed holds in the store.
    public var itemCount: Int
    /// How many pages they came in.
    public var pageCount: Int
    /// When the page a list opens at (the source's first page) was fetched (the store's `now` then);
    /// `nil` when none is stored.
    public var fetchedAt: Date?
    /// The validators of that page's response (to ask the server whether the feed changed).
    public var validators: PageValidators?
    /// Whether the top of the feed is stored (nothing lies before the first stored page).
    public var headComplete: Bool
    /// Whether the end of the feed is stored (the last stored page is the feed's last, with no gap above it).
    public var tailComplete: Bool
    /// How many items the server last said the feed holds, if it said.
    public var totalCount: Int?

    /// A description of a feed (for tests and previews).
    public init(itemCount: Int, pageCount: Int, fetchedAt: Date?, validators: PageValidators?, headComplete: Bool,
                tailComplete: Bool, totalCount: Int?) {
        self.itemCount = itemCount
        self.pageCount = pageCount
        self.fetchedAt = fetchedAt
        self.validators = validators
        self.headComplete = headComplete
        self.tailComplete = tailComplete
        self.totalCount = totalCount
    }
}
