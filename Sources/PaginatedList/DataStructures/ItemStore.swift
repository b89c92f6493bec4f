/// The list a view model holds, with the rules of identity: when `Item` is `Identifiable`, no id is ever
/// held twice. Every operation returns the changes that take the old list to the new one, applied in order.
///
/// Rules (for `Identifiable` items; other items are never de-duplicated):
/// - A batch (a page, an insert) whose item has an id already held updates that held item in place
///   (`.updated`, at its position) instead of adding it; within one batch, a repeated id keeps one item,
///   at its first position in the batch, with its last value.
/// - Changes come in this order: the insertion, then `.updated` with the offsets in the new list; so a
///   view that applies them in order reads every new value from the new snapshot.
///
/// Costs: the items are a persistent `ItemList` (a snapshot handed out is never written; an edit copies
/// only its path), and their ids are in `ItemIdentities`, which finds any id's position in O(log n). So finding an
/// item by id, replacing or removing it is O(log n); inserting or appending a batch of k items is
/// O(k + log n) (plus O(log n) for each held id the batch updates); removing k items is O(k + log n).
// Inlinable: a page or an edit specialises for the client's `Item` (`Benchmarks itemlist`, view model and edit rows).
@usableFromInline
struct ItemStore<Item> {
    @usableFromInline private(set) var _items = ItemList<Item>()
    /// The ids of `items` and their positions (`nil` when `Item` is not `Identifiable`). Written only
    /// while this store holds it alone (`uniqueIdentities()`), so a copied store keeps its own.
    @usableFromInline private(set) var _identities: ItemIdentities?

    @inlinable
    init() {
        _identities = Item.self is any Identifiable.Type ? ItemIdentities() : nil
    }

    /// `Item` as an `Identifiable` type, if it is one. In a client that knows its `Item`, the cast folds:
    /// the calls of `IdentityRules` that take it are then specialised for that type.
    @inlinable
    static var identifiable: (any Identifiable.Type)? { Item.self as? any Identifiable.Type }

    /// The items held (what the view model publishes).
    @inlinable
    var items: ItemList<Item> { _items }
    @inlinable
    var count: Int { _items.count }
    @inlinable
    var isEmpty: Bool { _items.isEmpty }

    /// Whether items are found by identity.
    var isIdentified: Bool { _identities != nil }

    /// The position of the item with `item`'s id, if held. O(log n).
    @inlinable
    func position(ofIDOf item: Item) -> Int? {
        guard let identities = _identities, let type = Self.identifiable else { return nil }
        return IdentityRules.position(ofIDOf: item, identities, _items, as: type)
    }

    /// The id of `item` as a key, when `Item` is `Identifiable`.
    @inlinable
    func key(of item: Item) -> AnyHashable? {
        guard let type = Self.identifiable else { return nil }
        return IdentityRules.key(of: item, as: type)
    }

    /// The position of the item whose id is `key`, if held. O(log n).
    @inlinable
    func position(ofKey key: AnyHashable) -> Int? {
        guard let identities = _identities, let type = Self.identifiable else { return nil }
        return IdentityRules.position(ofKey: key, identities, _items, as: type)
    }

    // MARK: - Edits

    /// Adds `batch` after the last item.
    @inlinable
    mutating func append(_ batch: [Item]) -> [ItemListChange] {
        insert(batch, at: _items.count, asAppend: true)
    }

    /// Adds `batch` before the first item.
    @inlinable
    mutating func prepend(_ batch: [Item]) -> [ItemListChange] {
        insert(batch, at: 0, asAppend: false)
    }

    /// Inserts `batch` at `index` (clamped to `0...count`).
    @inlinable
    mutating func insert(_ batch: [Item], at index: Int) -> [ItemListChange] {
        insert(batch, at: min(max(index, 0), _items.count), asAppend: false)
    }

    /// Replaces the item at `index` (which keeps its id). O(log n).
    @inlinable
    mutating func replace(at index: Int, with item: Item) -> [ItemListChange] {
        defer { _checkInvariants() }
        _items[index] = item
        return [.updated([index])]
    }

    /// Removes the item at `index`. O(log n).
    @inlinable
    mutating func remove(at index: Int) -> [ItemListChange] {
        defer { _checkInvariants() }
        _items.remove(at: index)
        uniqueIdentities()?.removed(index ..< index + 1)
        return [.removed([index])]
    }

    /// Removes the items at `range` (in `0...count`). O(k + log n) for k items.
    @inlinable
    mutating func removeSubrange(_ range: Range<Int>) -> [ItemListChange] {
        guard !range.isEmpty else { return [] }
        defer { _checkInvariants() }
        _items.removeSubrange(range)
        uniqueIdentities()?.removed(range)
        return [.removed(Array(range))]
    }

    /// Empties the list.
    mutating func removeAll() -> [ItemListChange] {
        guard !_items.isEmpty else { return [] }
        defer { _checkInvariants() }
        _items = ItemList()
        if _identities != nil { _identities = ItemIdentities() }
        return [.reset]
    }

    /// What is wrong with the store, if anything: the list's structure, and the ids against the items.
    /// O(n); for tests.
    @usableFromInline
    func invariantViolations() -> [String] {
        var problems = _items.invariantViolations()
        guard let type = Self.identifiable else {
            if _identities != nil { problems.append("identities held for items without identity") }
            return problems
        }
        guard let identities = _identities else { return problems + ["no identities for Identifiable items"] }
        let list = Array(_items)
        problems += identities.invariantViolations(hashes: IdentityRules.hashes(list, as: type))
        guard problems.isEmpty else { return problems }
        for (position, item) in list.enumerated() where self.position(ofIDOf: item) != position {
            problems.append("position \(position): its id is found elsewhere")
        }
        return problems
    }

    // MARK: - Helpers

    @inlinable
    mutating func insert(_ batch: [Item], at index: Int, asAppend: Bool) -> [ItemListChange] {
        guard !batch.isEmpty else { return [] }
        defer { _checkInvariants() }
        // No local binding of `identities`: it would hold a second reference to them, and
        // `uniqueIdentities()` below would then copy them.
        guard _identities != nil, let type = Self.identifiable else {
            // Without identity every item is new and nothing is recorded: no batch to sort.
            return [place(batch, at: index, asAppend: asAppend)]
        }
        let hashes = IdentityRules.hashes(batch, as: type)
        // The common page (no id held, none twice) goes in as it is: its ids are checked and recorded in
        // one pass (`insertIfNew`). Shared identities are not written here: they are copied only if the
        // batch turns out to add items.
        if isKnownUniquelyReferenced(&_identities), _identities.unsafelyUnwrapped.insertIfNew(hashes: hashes, at: index) {
            return [place(batch, at: index, asAppend: asAppend)]
        }
        let sorted = IdentityRules.sort(batch, hashes: hashes, _identities.unsafelyUnwrapped, _items, as: type)
        for (offset, item) in sorted.updated { _items[offset] = item }
        var changes: [ItemListChange] = []
        if !sorted.fresh.isEmpty {
            changes.append(place(sorted.fresh, at: index, asAppend: asAppend))
            uniqueIdentities()?.insert(hashes: sorted.freshHashes, at: index)
        }
        if !sorted.updated.isEmpty {
            changes.append(.updated(sorted.updated.keys.map { $0 >= index ? $0 + sorted.fresh.count : $0 }.sorted()))
        }
        return changes
    }

    /// Puts `fresh` (items not held) into the list at `index`; returns the change that says so.
    @inlinable
    mutating func place(_ fresh: [Item], at index: Int, asAppend: Bool) -> ItemListChange {
        if index == _items.count {
            _items.append(contentsOf: fresh)
        } else {
            _items.insert(contentsOf: fresh, at: index)
        }
        let range = index ..< index + fresh.count
        return asAppend ? .appended(range) : .inserted(range)
    }

    /// The identities, copied first if another store shares them.
    @inlinable
    mutating func uniqueIdentities() -> ItemIdentities? {
        if _identities != nil && !isKnownUniquelyReferenced(&_identities) { _identities = _identities?.copy() }
        return _identities
    }
}

// Checked after every edit with `PAGINATEDLIST_INTERNAL_CHECKS` (O(n log n)).
extension ItemStore: InvariantChecking {
    @usableFromInline
    var invariantContext: String { "\(count) items" + (isIdentified ? ", identified" : "") }
}
