import Signals

/// The key of an `ArraySource` page is its index (page *k* holds items `k * pageSize ..< (k + 1) * pageSize`).
extension ArraySource: KeyedPageSource {
    /// The page holding item `key * pageSize` (`nil`: the page holding item `start`), with the indices of
    /// the pages around it. `failure` is asked as for a chain, with `attempt` counting the starts of this
    /// producer. Keeps every item: a keyed page is loaded from its key alone.
    public func page(at key: Int?) -> Producer<KeyedPage<Item, Int>, Failure> {
        // A key read from a store may be any number: one past the last page (its start beyond `Int` too) opens
        // at the last page, as a `start` past the end does; a negative one at the first.
        let opening = key.map { key in
            let (offset, overflow) = key.multipliedReportingOverflow(by: pageSize)
            return overflow ? (key < 0 ? 0 : .max) : offset
        } ?? start
        let source = ArraySource(items, pageSize: pageSize, start: opening, latency: latency, on: scheduler,
                                 failure: failure, deduplication: .keepAll)
        let index = source.start / pageSize
        let total = items.count
        return source.firstPage().map { page in
            KeyedPage(items: page.items, previous: page.previous == nil ? nil : index - 1,
                      next: page.next == nil ? nil : index + 1, totalCount: total)
        }
    }
}
