import Signals

/// A page source for servers that page by cursor: each response names the cursor of the next page.
///
/// The first page is fetched with `fetch(nil)`, each later one with the cursor the previous response
/// gave; a response with a `nil` `nextCursor` is the last page. When `Item` is `Identifiable` the source
/// drops items an earlier page of the same chain delivered (reported as
/// `.sourceCorrection(.duplicatesDropped(count:))`).
///
/// Each call of `firstPage()` starts a fresh chain. Every page producer is cold and independent: starting
/// it again (a retry) fetches the same cursor again. `fetch` may answer on any thread; its run is disposed
/// when the page's run is.
public struct CursorSource<Item: Sendable, Cursor: Sendable, Failure: Error>: PaginatedListDependency, Sendable {
    /// Fetches the page at `cursor` (`nil`: the first page).
    public typealias Fetch = @Sendable (_ cursor: Cursor?) -> Producer<CursorResponse<Item, Cursor>, Failure>

    private let fetch: Fetch
    private let deduplication: @Sendable () -> Deduplication<Item>

    /// A source fetching pages with `fetch`; keeps every item the server sends.
    public init(fetch: @escaping Fetch) {
        self.init(fetch: fetch, deduplication: { .none })
    }

    init(fetch: @escaping Fetch, deduplication: @escaping @Sendable () -> Deduplication<Item>) {
        self.fetch = fetch
        self.deduplication = deduplication
    }

    /// The first page of a fresh chain: fetches `fetch(nil)` when started.
    public func firstPage() -> Producer<Page<Item, Failure>, Failure> {
        page(at: nil, deduplication())
    }

    private func page(at cursor: Cursor?, _ deduplication: Deduplication<Item>) -> Producer<Page<Item, Failure>, Failure> {
        Producer.deferred { [fetch] in fetch(cursor) }.map { [self] response in
            let admission = deduplication.admit(response.items)
            let next = response.nextCursor.map { page(at: $0, admission.next) }
            return Page(items: admission.kept, next: next, diagnostics: .init(droppedDuplicates: admission.dropped))
        }
    }
}

extension CursorSource where Item: Identifiable, Item.ID: Sendable {
    /// A source fetching pages with `fetch` that drops items an earlier page of the chain delivered (by `id`).
    public init(fetch: @escaping Fetch) {
        self.init(fetch: fetch, deduplication: { .byIdentity })
    }
}
