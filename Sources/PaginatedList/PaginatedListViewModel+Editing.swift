extension PaginatedListViewModel where Item: Identifiable {
    /// Replaces the held item that has `item`'s id by `item`, in place; nothing if no held item has that id.
    ///
    /// A command like the others: queued, run on the scheduler, one transition (`items` sends once,
    /// `changes` sends `.updated` with the item's offset). May be called from any thread.
    public func update(_ item: Item) {
        core.submit(.update(item))
    }

    /// Changes the held item whose id is `id` with `change`, in place; nothing if no held item has that id.
    ///
    /// `change` runs on the view model's scheduler, once, with no lock held. It must not change the item's
    /// id: that is a precondition failure. One transition, as `update(_:)`.
    public func update(id: Item.ID, _ change: @escaping @Sendable (inout Item) -> Void) {
        core.submit(.modify(key: AnyHashable(id), change: change))
    }

    /// Removes the held item whose id is `id`; nothing if no held item has that id.
    ///
    /// One transition: `items` sends once, `changes` sends `.removed` with the item's offset (before the
    /// removal). May be called from any thread.
    public func remove(id: Item.ID) {
        core.submit(.remove(key: AnyHashable(id)))
    }

    /// Inserts `items` at `index` (clamped to `0...count`), in order: the user posted something, say.
    ///
    /// No id is ever held twice: an item whose id is already held updates that item in place (it keeps its
    /// position) instead of being inserted, and an id repeated in `items` keeps one item, at its first
    /// position, with its last value. One transition: `items` sends once; `changes` sends `.updated` for
    /// the held items that came back, then `.inserted` for the new ones. May be called from any thread.
    public func insert(_ items: [Item], at index: Int) {
        core.submit(.insert(items, at: index))
    }
}
