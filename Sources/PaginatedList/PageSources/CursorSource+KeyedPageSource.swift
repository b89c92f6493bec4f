import Signals

/// The key of a `CursorSource` page is the cursor it was fetched with.
extension CursorSource: KeyedPageSource where Cursor: Codable & Hashable {
    /// The page at cursor `key` (`nil`: at `start`), with the cursors of the pages around it, by the
    /// source's rules. A cursor that repeats the page's own ends that direction, whatever the page holds:
    /// following it would fetch the same page again, and a keyed page, loaded from its key alone, cannot
    /// tell whether that brings anything new. Keeps every item.
    public func page(at key: Cursor?) -> Producer<KeyedPage<Item, Cursor>, Failure> {
        let cursor = key ?? start
        let fetch = self.fetch
        return Producer.deferred {
            let response = LastResponse<CursorResponse<Item, Cursor>>()
            let source = CursorSource(start: cursor, deduplication: .keepAll, fetch: { fetch($0).map { response.record($0) } })
            return source.firstPage().map { page in
                func onward(_ neighbour: Cursor?) -> Cursor? {
                    neighbour == cursor ? nil : neighbour
                }
                return KeyedPage(items: page.items, previous: page.previous == nil ? nil : onward(response.value?.previousCursor),
                                 next: page.next == nil ? nil : onward(response.value?.nextCursor), totalCount: page.totalCount)
            }
        }
    }
}
