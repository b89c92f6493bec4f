/// What a cursor endpoint answers: the page's items and the cursor of the page after it.
///
/// A `nil` `nextCursor` ends the list.
public struct CursorResponse<Item, Cursor> {
    /// The items of the page, in order.
    public var items: [Item]
    /// The cursor to pass for the next page, or `nil` if this page is the last.
    public var nextCursor: Cursor?

    /// A response with `items`, followed by the page `nextCursor` names (`nil`: the last page).
    public init(items: [Item], nextCursor: Cursor?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

extension CursorResponse: Sendable where Item: Sendable, Cursor: Sendable {}
extension CursorResponse: Equatable where Item: Equatable, Cursor: Equatable {}
