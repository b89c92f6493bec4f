/// What a page-number endpoint answers: the page's items, and the totals and next-page flag if the server
/// reports them.
///
/// `PageNumberSource` ends the list at an empty page, when `hasMore` is `false`, when `totalPages` or
/// `totalItems` says the page was the last, or at a page shorter than the server's page size when nothing
/// says more remains. A total or `hasMore` that says more remain keeps a short page from ending the list:
/// the server capped the page size. A negative total is taken as not said.
public struct PageNumberResponse<Item> {
    /// The items of the page, in order.
    public var items: [Item]
    /// The number of pages the server reports, if it does.
    public var totalPages: Int?
    /// The number of items the server reports, if it does.
    public var totalItems: Int?
    /// Whether pages follow this one, if the server says (`true`: a `next` link, `has_more`; `false`: this
    /// page is the last).
    public var hasMore: Bool?
    /// The feed's total to show on `PaginatedListViewModel.totalCount`, when it is given apart from
    /// `totalItems` (which also settles the end of the list); `nil`: `totalItems` is shown. `totalPages`
    /// alone is never shown as a count of items: the last page may be short, so it would be a guess.
    public var totalCount: Int?

    /// A response with `items` and, optionally, the server's totals and whether pages follow (`totalCount`:
    /// a total only shown, see the property).
    public init(items: [Item], totalPages: Int? = nil, totalItems: Int? = nil, hasMore: Bool? = nil,
                totalCount: Int? = nil) {
        self.items = items
        self.totalPages = totalPages
        self.totalItems = totalItems
        self.hasMore = hasMore
        self.totalCount = totalCount
    }
}

extension PageNumberResponse {
    /// The response with a negative `totalPages` or `totalItems` taken as not said: a server's nonsense
    /// neither ends nor extends the list (nor overflows what the source counts from it).
    var withoutNegativeTotals: Self {
        guard (totalPages ?? 0) < 0 || (totalItems ?? 0) < 0 else { return self }
        var response = self
        if let totalPages, totalPages < 0 { response.totalPages = nil }
        if let totalItems, totalItems < 0 { response.totalItems = nil }
        return response
    }
}

extension PageNumberResponse: Sendable where Item: Sendable {}
extension PageNumberResponse: Equatable where Item: Equatable {}
