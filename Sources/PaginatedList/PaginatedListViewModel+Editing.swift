import Signals

extension PaginatedListViewModel where Item: Identifiable {
    /// Replaces the held item that has `item`'s id by `item`, in place; nothing if no held item has that id.
    ///
    /// A command like the others: queued, run on the scheduler, one transition (`items` sends once,
    /// `changes` sends `.updated` with the item's offset). May be called from any thread.
    @inlinable
    public func update(_ item: Item) {
        core.submit(.update(item))
    }

    /// Changes the held item whose id is `id` with `change`, in place; nothing if no held item has that id.
    ///
    /// `change` runs on the view model's scheduler, once, with no lock held. It must not change the item's
    /// id: that is a precondition failure whose message names `update(id:_:)` and both ids. One
    /// transition, as `update(_:)`.
    @inlinable
    public func update(id: Item.ID, _ change: @escaping @Sendable (inout Item) -> Void) {
        core.submit(.modify(key: AnyHashable(id), change: change))
    }

    /// Removes the held item whose id is `id`; nothing if no held item has that id.
    ///
    /// One transition: `items` sends once, `changes` sends `.removed` with the item's offset (before the
    /// removal). May be called from any thread.
    @inlinable
    public func remove(id: Item.ID) {
        core.submit(.remove(key: AnyHashable(id)))
    }

    /// Inserts `items` at `index` (clamped to `0...count`), in order: the user posted something, say.
    ///
    /// No id is ever held twice: an item whose id is already held updates that item in place (it keeps its
    /// position) instead of being inserted, and an id repeated in `items` keeps one item, at its first
    /// position, with its last value. One transition: `items` sends once; `changes` sends `.inserted` for
    /// the new ones, then `.updated` for the held items that came back (at their offsets after the
    /// insertion). May be called from any thread.
    @inlinable
    public func insert(_ items: [Item], at index: Int) {
        core.submit(.insert(items, at: index))
    }
}

extension PaginatedListViewModel {
    /// Brings the list up to date by `policy`, keeping the held items visible and editable until the new
    /// data lands (see `RefreshPolicy`); `refresh()` is `refresh(.replace)`.
    ///
    /// Cuts off an append or prepend in flight; `loadStates.refresh` is `.loading` meanwhile and
    /// `loadNextPage()` / `loadPreviousPage()` do nothing. A failed refresh keeps the list as it is and
    /// reports on `loadStates.refresh` and `lastError`. No id is ever held twice. `.mergeOnTop` finds where
    /// the fresh pages join the held items by their ids: for items that are not `Identifiable` it acts as
    /// `.replace`. May be called from any thread; runs on the scheduler.
    public func refresh(_ policy: RefreshPolicy) {
        core.submit(.refresh(Self.mode(of: policy), check: nil))
    }

    /// `refresh(policy)`, asking `changed` first whether the feed changed since the list loaded (an HTTP
    /// `If-None-Match` or `If-Modified-Since` request that may answer 304, a version number): `false` ends
    /// the refresh with no page request and no change to the list.
    public func refresh(_ policy: RefreshPolicy = .replace, ifChanged changed: Producer<Bool, Failure>) {
        core.submit(.refresh(Self.mode(of: policy), check: changed))
    }

    private static func mode(of policy: RefreshPolicy) -> ViewModelStorage<Item, Failure>.Machine.RefreshMode {
        switch policy {
        case .replace: .replace
        case let .mergeOnTop(maxPages, onGap):
            Item.self is any Identifiable.Type ? .mergeOnTop(maxPages: maxPages, onGap: onGap) : .replace
        case .reloadAll: .reloadAll
        }
    }
}

extension PaginatedListViewModel where Item: Identifiable {
    /// Applies partial records to the held items in one transition: for each patch, `apply` changes the
    /// held item whose id is `id(patch)` (patches for ids not held are skipped). `items` sends once and
    /// `changes` sends one `.updated` with every offset changed: a counters endpoint or a server diff
    /// patches like counts without re-fetching whole items.
    ///
    /// `apply` runs on the view model's scheduler, once per patch, with no lock held; it must not change
    /// the item's id: that is a precondition failure whose message names `update(_:id:apply:)` and both
    /// ids. May be called from any thread.
    public func update<Patch: Sendable>(
        _ patches: [Patch], id: (Patch) -> Item.ID, apply: @escaping @Sendable (inout Item, Patch) -> Void
    ) where Item: SendableMetatype {
        let changes = patches.map { patch in (key: AnyHashable(id(patch)), change: Self.change(apply, with: patch)) }
        guard !changes.isEmpty else { return }
        core.submit(.patch(changes))
    }

    private static func change<Patch: Sendable>(
        _ apply: @escaping @Sendable (inout Item, Patch) -> Void, with patch: Patch
    ) -> @Sendable (inout Item) -> Void where Item: SendableMetatype {
        { item in apply(&item, patch) }
    }
}
