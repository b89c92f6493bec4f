/// What an offset/limit endpoint answers: the window's items and, if the server says, how the feed goes
/// on after it (Django REST framework's `count` and `next`, a `has_more`).
///
/// `OffsetSource` reads a window shorter than it asked for as the end of the feed only when nothing says
/// more remains: servers that cap the page size (GitHub's `per_page` ≤ 100, DRF's `max_limit`) serve fewer
/// items than asked, without an error. `totalItems` and `hasMore` settle a short window at once (and a
/// window that reaches the total ends the list without a request for an empty one); without them the
/// source settles it with its next request. A negative total is taken as not said.
public struct OffsetResponse<Item> {
    /// The window's items, in feed order.
    public var items: [Item]
    /// The number of items in the whole feed when the server answered, if it reports one (DRF's `count`).
    public var totalItems: Int?
    /// Whether items follow the window (`true`: a `next` link, `has_more`), if the server says.
    public var hasMore: Bool?
    /// The feed's total to show on `PaginatedListViewModel.totalCount`, when it is given apart from
    /// `totalItems` (which also settles the end of the list); `nil`: `totalItems` is shown.
    public var totalCount: Int?

    /// A window of `items` and, optionally, what the server says about the rest of the feed (`totalCount`:
    /// a total only shown, see the property).
    public init(items: [Item], totalItems: Int? = nil, hasMore: Bool? = nil, totalCount: Int? = nil) {
        self.items = items
        self.totalItems = totalItems
        self.hasMore = hasMore
        self.totalCount = totalCount
    }

    /// The total to show: `totalCount`, else `totalItems`; `nil` for a negative one (not said).
    var shownTotal: Int? {
        (totalCount ?? totalItems).flatMap { $0 < 0 ? nil : $0 }
    }

    /// Whether the server says items follow position `end` (just after the window's last item, for a
    /// window read from `offset` with `end = offset + items.count`): `hasMore` if it says, else whether the
    /// total lies beyond `end`; `nil` when it says neither (a negative total says nothing).
    func more(after end: Int) -> Bool? {
        hasMore ?? totalItems.flatMap { $0 < 0 ? nil : end < $0 }
    }
}

extension OffsetResponse: Sendable where Item: Sendable {}
extension OffsetResponse: Equatable where Item: Equatable {}
