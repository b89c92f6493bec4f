/// What a page-number endpoint answers: the page's items, and the totals if the server reports them.
///
/// `PageNumberSource` ends the list at a short or empty page, or when `totalPages` or `totalItems`
/// says the page was the last.
public struct PageNumberResponse<Item> {
    /// The items of the page, in order.
    public var items: [Item]
    /// The number of pages the server reports, if it does.
    public var totalPages: Int?
    /// The number of items the server reports, if it does.
    public var totalItems: Int?

    /// A response with `items` and, optionally, the server's totals.
    public init(items: [Item], totalPages: Int? = nil, totalItems: Int? = nil) {
        self.items = items
        self.totalPages = totalPages
        self.totalItems = totalItems
    }
}

extension PageNumberResponse: Sendable where Item: Sendable {}
extension PageNumberResponse: Equatable where Item: Equatable {}
