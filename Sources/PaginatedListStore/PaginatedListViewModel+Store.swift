import PaginatedList
import Signals

extension PaginatedListViewModel {
    /// A list that shows `feed` and fills it from `remote`: the stored rows first, then the network, through
    /// the store.
    ///
    /// - The first `loadNextPage()` (or the mirror's first row) lands the stored page the feed opens at, with
    ///   no request to `remote` (contract 21); a feed with nothing stored asks `remote` for its first page.
    ///   Paging past the stored rows asks `remote` for the page at the last stored page's key (never the
    ///   first page again), at either end.
    /// - A page from `remote` is written in one transaction, items and keys, then shown as written (22): the
    ///   items that became its rows, with the source's values, which equal what a relaunch reads when
    ///   `Item`'s `Codable` round-trips (decoding what it encoded gives an equal value).
    /// - `revalidate` decides whether a refresh follows the landing of the stored rows (25); refreshes with
    ///   every `RefreshPolicy` write into the store, keep the stored rows visible until the fresh data lands,
    ///   and never touch another feed's rows. A `.replace` deletes the old rows in the transaction that
    ///   writes the new first page.
    /// - Pages dropped by `maxPages` are read back from the store, offline, in O(page), at any depth (28).
    /// - Edits (`update`, `remove(id:)`, `insert(_:at:)`) are written to the feed before the list shows them;
    ///   one that cannot be written leaves the list unchanged and is reported on `diagnostics`
    ///   (`.editNotStored`).
    /// - The list follows every write of the store (23, 24): another list's edit, a page of another feed
    ///   that brings a newer version of an item it holds, `PagingStore.update` / `remove`, a feed's edits,
    ///   each as one transition, in commit order; another process's writes at `PagingStore.checkForChanges()`
    ///   and at each `refresh()`.
    /// - A store failure while paging is `StoredListError.store` on `lastError`; the rows held stay (27).
    ///
    /// The list keeps `feed` (and so its store) alive. **Threads:** a page from `remote` is written on the
    /// thread that delivers it; stored pages are read on the thread that starts them, and a refresh's landing
    /// and every edit are written on the scheduler's thread (the main thread with `UIScheduler`), before the
    /// list changes. A refresh's write costs O(rows it replaces): a `.replace` deletes every stored row of the
    /// feed in that transaction. Any write may wait up to 5 s for another process's write lock on the file.
    // Inlinable, so that it hands the list the way to follow its store built in the app's module, for the
    // app's `Item` (see `follow:` below).
    @inlinable
    public convenience init<Remote: KeyedPageSource>(
        feed: StoredFeed<Item>, remote: Remote, revalidate: Revalidation = .always(.replace),
        scheduler: any Scheduler = UIScheduler(), retry: AutomaticRetry? = nil, maxPages: Int? = nil
    ) where Remote.Item == Item, Failure == StoredListError<Remote.Failure> {
        self.init(feed: feed, remote: remote, revalidate: revalidate, scheduler: scheduler, retry: retry,
                  maxPages: maxPages, remoteFailure: { .remote($0) }, storeFailure: { .store($0) },
                  follow: { $0.follow($1) })
    }

    /// A store-backed list whose failures are the app's own type (the demo's): `remoteFailure` and
    /// `storeFailure` make one of a failure of the remote source and of the store. `follow` hands the list
    /// a change of its store (`{ $0.follow($1) }`): written where `Item` is known, it runs specialised for
    /// it, which the list does for every commit that concerns it (`Benchmarks store`, one item, every list:
    /// each list's transition costs about a third of what it does through this module's generic code).
    @usableFromInline
    package convenience init<Remote: KeyedPageSource>(
        feed: StoredFeed<Item>, remote: Remote, revalidate: Revalidation, scheduler: any Scheduler, retry: AutomaticRetry?,
        maxPages: Int?, remoteFailure: @escaping @Sendable (Remote.Failure) -> Failure,
        storeFailure: @escaping @Sendable (StoreError) -> Failure,
        follow: @escaping @Sendable (PaginatedListViewModel<Item, Failure>, FollowedChange<Item, Failure>) -> Void
    ) where Remote.Item == Item {
        let keeper = StoredListKeeper(feed: feed, remote: remote, revalidation: revalidate, remoteFailure: remoteFailure,
                                      storeFailure: storeFailure, follow: follow)
        self.init(keeper: keeper, scheduler: scheduler, retry: retry, maxPages: maxPages)
        keeper.attach(self)
    }
}

extension PaginatedListViewModel where Item: Codable & Identifiable & Sendable, Item.ID: Codable & Sendable {
    /// Optimistic edit of the item with `id` in the feed this store-backed list shows: the same as the
    /// feed's `StoredFeed.mutate(id:_:send:)` (the list, and every other open list that holds the item,
    /// follow the store: the change at once, the server's value or the rollback when `send` answers).
    ///
    /// The list itself need not hold the item, nor stay alive: the mutation runs on the feed, and settles
    /// when `send` answers even when the list was released meanwhile. On a list that is not store-backed the
    /// producer fails with `.store` (kind `.cannotOpen`: there is no store to write to).
    public func mutate<E: Error>(
        id: Item.ID, _ change: @escaping @Sendable (inout Item) -> Void, send: @escaping @Sendable (Item) -> Producer<Item, E>
    ) -> Producer<Item, MutationError<E>> {
        guard let feed = (keeper as? any FeedKeeping)?.keptFeed as? StoredFeed<Item> else {
            return Producer(error: .store(StoreError(kind: .cannotOpen, path: "", message:
                "mutate(id:_:send:) needs a store-backed list (PaginatedListViewModel(feed:remote:...)); this list has no store")))
        }
        return feed.mutate(id: id, change, send: send)
    }
}

/// A keeper of a store-backed list, which knows its feed.
protocol FeedKeeping {
    /// The feed the list shows (a `StoredFeed` of the list's item type).
    var keptFeed: any Sendable { get }
}
