import Signals

extension PaginatedListViewModel {
    /// A view model over a keyed source, in memory: the list opens at the page at `start` (`nil`: the
    /// source's first page), and each page's `previous` and `next` keys load the pages around it.
    ///
    /// Behaves as `init(dependency:scheduler:retry:maxPages:)` with a dependency whose first page is
    /// `source.page(at: start)`: starts no request until `loadNextPage()`; a page dropped by `maxPages` is
    /// loaded again from its key. To keep the pages across launches, use a store
    /// (`PaginatedListStore`).
    public convenience init<Source: KeyedPageSource>(
        source: Source, start: Source.Key? = nil, scheduler: any Scheduler = UIScheduler(),
        retry: AutomaticRetry? = nil, maxPages: Int? = nil
    ) where Source.Item == Item, Source.Failure == Failure {
        self.init(dependency: KeyedPageChain(source: source, start: start), scheduler: scheduler, retry: retry,
                  maxPages: maxPages)
    }
}

/// The page chain of a keyed source: each page's neighbours are the producers of their keys.
struct KeyedPageChain<Source: KeyedPageSource>: PaginatedListDependency {
    let source: Source
    let start: Source.Key?

    func firstPage() -> Producer<Page<Source.Item, Source.Failure>, Source.Failure> {
        Self.page(at: start, of: source)
    }

    static func page(at key: Source.Key?, of source: Source) -> Producer<Page<Source.Item, Source.Failure>, Source.Failure> {
        source.page(at: key).map { keyed in
            Page(items: keyed.items,
                 previous: keyed.previous.map { page(at: $0, of: source) },
                 next: keyed.next.map { page(at: $0, of: source) },
                 totalCount: keyed.totalCount)
        }
    }
}
