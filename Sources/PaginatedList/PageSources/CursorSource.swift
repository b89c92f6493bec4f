import Signals

/// A page source for servers that page by cursor: each response names the cursor of the next page, and
/// may name the cursor of the page before it.
///
/// The first page is fetched with `fetch(start)` (`nil` by default: the top of the list), each later one
/// with the cursor the previous response gave; a response with a `nil` `nextCursor` is the last page.
/// The source drops items an earlier page of the same chain delivered, on either side of the first page,
/// by its `deduplication` (by default, by `id` when `Item` is `Identifiable`), and reports them as
/// `.sourceCorrection(.duplicatesDropped(count:))`.
///
/// **Both ways.** A response's `previousCursor` makes the page it came with carry the page before it as
/// its `previous`: `loadPreviousPage()` fetches `fetch(previousCursor)`, and so on up while responses give
/// one. So a list opened at a `start` cursor (a deep link, a chat's first unread message) grows both
/// ways. A page below the first carries its response's `previousCursor` as its `previous` too, and a page
/// above it its `nextCursor` as its `next`, so that a page dropped by `maxPages` is loaded again by the
/// page next to it. `fetch` gets the cursor as the API gave it: an API that pages backwards with another parameter
/// (`?before=` rather than `?after=`) needs a cursor that says which (an enum), made by `fetch` itself.
///
/// **Never loops.** A response whose `nextCursor` (or `previousCursor`) is the very cursor it was fetched
/// with, on a page that brought nothing new (no items, or only items delivered before), would fetch the
/// same page for ever: when `Cursor` is `Equatable`, the source ends the list in that direction there
/// instead (the page is the last, or the top). A repeated cursor on a page with new items is followed (a
/// server may re-issue a cursor whose item moved).
///
/// Each call of `firstPage()` starts a fresh chain. Every page producer is cold and independent: starting
/// it again (a retry) fetches the same cursor again. `fetch` may answer on any thread; its run is disposed
/// when the page's run is.
public struct CursorSource<Item: Sendable, Cursor: Sendable, Failure: Error>: PaginatedListDependency, Sendable {
    /// Fetches the page at `cursor` (`nil`: the first page).
    public typealias Fetch = @Sendable (_ cursor: Cursor?) -> Producer<CursorResponse<Item, Cursor>, Failure>

    /// The cursor of the page the list opens at (`nil`: the first page of the list).
    public let start: Cursor?
    let fetch: Fetch
    /// Which items are dropped as delivered by an earlier page of the chain.
    public let deduplication: DuplicatePolicy<Item>

    /// A source fetching pages with `fetch`, opening at the page of `start` (`nil`: the first page), that
    /// drops items an earlier page of the chain delivered by `deduplication` (`.automatic`: by `id` when
    /// `Item` is `Identifiable`), on either side of the first page.
    ///
    /// `start`: the cursor of the page the list opens at; the pages before it come through
    ///   the responses' `previousCursor`.
    public init(start: Cursor? = nil, deduplication: DuplicatePolicy<Item> = .automatic, fetch: @escaping Fetch) {
        self.start = start
        self.fetch = fetch
        self.deduplication = deduplication
    }

    /// The first page of a fresh chain: fetches `fetch(start)` when started.
    public func firstPage() -> Producer<Page<Item, Failure>, Failure> {
        let chain = PageChain<Item, Failure, Cursor?, CursorResponse<Item, Cursor>>(
            fetch: { [fetch] cursor in Producer.deferred { fetch(cursor) } }, items: { response, _ in response.items }
        ) { cursor, _, response, kept in
            func neighbour(_ next: Cursor?) -> Cursor?? {
                // A neighbour's place is a cursor (`.some`), never the `nil` that names the top of the list.
                Self.onward(next, from: cursor, stalls: kept.isEmpty).map(Optional.some)
            }
            return PageNeighbours(previous: neighbour(response.previousCursor), next: neighbour(response.nextCursor),
                                  totalCount: response.totalCount)
        }
        return chain.firstPage(at: start, deduplication.makeChain())
    }

    /// `cursor`, unless it is the cursor the page was fetched with and the page `stalls` (brought nothing
    /// new): then following it would fetch the same page again (`Equatable` cursors only).
    private static func onward(_ cursor: Cursor?, from current: Cursor?, stalls: Bool) -> Cursor? {
        guard let cursor else { return nil }
        if stalls, let current, let equatable = cursor as? any Equatable, equatable.isEqual(to: current) { return nil }
        return cursor
    }
}

extension Equatable {
    /// Whether `other` is a value of this type equal to this one.
    fileprivate func isEqual(to other: Any) -> Bool {
        (other as? Self) == self
    }
}
