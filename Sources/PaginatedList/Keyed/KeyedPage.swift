/// One page of a keyed source: its items, and the keys of the pages around it.
///
/// Where a `Page` carries its neighbours as producers (closures, which cannot outlive the process), a
/// keyed page names them by key (a page number, an offset, a cursor, a URL): a store saves the keys with
/// the rows and goes on from them after a relaunch. `page(at:)` of the same source loads a neighbour from
/// its key.
public struct KeyedPage<Item, Key> {
    /// The items of this page, in display order.
    public let items: [Item]
    /// The key of the page before this one, or `nil` if nothing comes before it.
    public let previous: Key?
    /// The key of the page after this one, or `nil` if this page is the last.
    public let next: Key?
    /// How many items the whole feed holds, when the server says (a page-number API's total, a `count`
    /// field); `nil` when it does not. A store keeps the last value it was told.
    public let totalCount: Int?
    /// The validators of the response that carried this page (an HTTP `ETag` / `Last-Modified`), when the
    /// source has them: a store keeps those of the first page, to ask later whether the feed changed.
    public let validators: PageValidators?

    /// A page of `items` between the pages at `previous` (`nil`: nothing before it) and `next` (`nil`:
    /// this is the last page).
    public init(items: [Item], previous: Key? = nil, next: Key?) {
        self.init(items: items, previous: previous, next: next, totalCount: nil, validators: nil)
    }

    /// A page of `items` between the pages at `previous` and `next`, with the feed's `totalCount` and the
    /// response's `validators` when the source knows them.
    public init(items: [Item], previous: Key? = nil, next: Key?, totalCount: Int?, validators: PageValidators? = nil) {
        self.items = items
        self.previous = previous
        self.next = next
        self.totalCount = totalCount
        self.validators = validators
    }
}

extension KeyedPage: Sendable where Item: Sendable, Key: Sendable {}
extension KeyedPage: Equatable where Item: Equatable, Key: Equatable {}
