import Signals

/// The key of a `CursorSource` page is the cursor it was fetched with.
extension CursorSource: KeyedPageSource where Cursor: Codable & Hashable {
    /// The page at cursor `key` (`nil`: at `start`), with the cursors of the pages around it, by the
    /// source's rules (a cursor that repeats its page's ends that direction). Keeps every item: a keyed
    /// page is loaded from its key alone.
    public func page(at key: Cursor?) -> Producer<KeyedPage<Item, Cursor>, Failure> {
        let cursor = key ?? start
        let fetch = self.fetch
        return Producer.deferred {
            let response = LastResponse<CursorResponse<Item, Cursor>>()
            let source = CursorSource(start: cursor, deduplication: .keepAll, fetch: { fetch($0).map { response.record($0) } })
            return source.firstPage().map { page in
                KeyedPage(items: page.items, previous: page.previous == nil ? nil : response.value?.previousCursor,
                          next: page.next == nil ? nil : response.value?.nextCursor, totalCount: page.totalCount)
            }
        }
    }
}
