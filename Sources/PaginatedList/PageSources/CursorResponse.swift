/// What a cursor endpoint answers: the page's items, the cursor of the page after it and, if the API
/// gives one, the cursor of the page before it.
///
/// A `nil` `nextCursor` ends the list; a `nil` `previousCursor` says nothing comes before the page (or that
/// the API does not page backwards).
public struct CursorResponse<Item, Cursor> {
    /// The items of the page, in order.
    public var items: [Item]
    /// The cursor to pass for the next page, or `nil` if this page is the last.
    public var nextCursor: Cursor?
    /// The cursor to pass for the page before this one, or `nil` if nothing comes before it (or the API
    /// gives no such cursor). `CursorSource` follows it for `loadPreviousPage()`.
    public var previousCursor: Cursor?
    /// How many items the whole feed holds, if the API says (`PaginatedListViewModel.totalCount`); `nil`
    /// when it does not. Only shown: cursors end the list.
    public var totalCount: Int?

    /// A response with `items`, followed by the page `nextCursor` names (`nil`: the last page), with no
    /// page before it.
    public init(items: [Item], nextCursor: Cursor?) {
        self.init(items: items, previousCursor: nil, nextCursor: nextCursor)
    }

    /// A response with `items`, between the pages `previousCursor` and `nextCursor` name (`nil`: nothing
    /// on that side), and the feed's `totalCount` if the API says (`nil` by default).
    public init(items: [Item], previousCursor: Cursor?, nextCursor: Cursor?, totalCount: Int? = nil) {
        self.items = items
        self.previousCursor = previousCursor
        self.nextCursor = nextCursor
        self.totalCount = totalCount
    }
}

extension CursorResponse: Sendable where Item: Sendable, Cursor: Sendable {}
extension CursorResponse: Equatable where Item: Equatable, Cursor: Equatable {}
