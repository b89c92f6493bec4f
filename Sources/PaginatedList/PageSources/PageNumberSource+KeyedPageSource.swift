import Signals

/// The key of a `PageNumberSource` page is its number, as the server counts.
extension PageNumberSource: KeyedPageSource {
    /// Page `key` (`nil`: `startPage`), with the numbers of the pages around it, by the source's rules (the
    /// end of the list, an empty page past the end), and the response's `totalCount` (else its `totalItems`)
    /// as `totalCount`.
    /// Keeps every item: a keyed page is loaded from its key alone.
    public func page(at key: Int?) -> Producer<KeyedPage<Item, Int>, Failure> {
        // Bounded as `startPage` is (a key read from a store may be any number), so that `number ± 1` cannot overflow.
        let number = Swift.min(Swift.max(key ?? startPage, firstPageIndex), firstPageIndex + Self.maxPages)
        let fetch = self.fetch
        let source = PageNumberSource(
            firstPageIndex: firstPageIndex, startPage: number, pageSize: pageSize, endOfList: endOfList,
            deduplication: .keepAll, fetch: fetch
        )
        // A fresh chain each start (a retry starts over).
        return Producer.deferred {
            source.firstPage().map { page in
                KeyedPage(items: page.items, previous: page.previous == nil ? nil : number - 1,
                          next: page.next == nil ? nil : number + 1, totalCount: page.totalCount)
            }
        }
    }
}
