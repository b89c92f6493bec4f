/// The list a view model holds, with the rules of identity: when `Item` is `Identifiable`, no id is ever
/// held twice. Every operation returns the changes that take the old list to the new one, applied in order.
///
/// Rules (for `Identifiable` items; other items are never de-duplicated):
/// - A batch (a page, an insert) whose item has an id already held updates that held item in place
///   (`.updated`, at its position) instead of adding it; within one batch, a repeated id keeps one item,
///   at its first position in the batch, with its last value.
/// - Changes come in this order: the insertion, then `.updated` with the offsets in the new list; so a
///   view that applies them in order reads every new value from the new snapshot.
struct ItemStore<Item> {
    private(set) var items = ItemList<Item>()
    /// The id of an item, when `Item` is `Identifiable`.
    let identity: ((Item) -> AnyHashable)?
    /// The position of each held id.
    private var positions: [AnyHashable: Int] = [:]

    init() {
        identity = Self.makeIdentity()
    }

    var count: Int { items.count }
    var isEmpty: Bool { items.isEmpty }

    /// Whether items are found by identity.
    var isIdentified: Bool { identity != nil }

    /// The position of the item with `item`'s id, if held.
    func position(ofIDOf item: Item) -> Int? {
        guard let identity else { return nil }
        return positions[identity(item)]
    }

    /// The position of the item whose id is `key`, if held.
    func position(ofKey key: AnyHashable) -> Int? {
        positions[key]
    }

    // MARK: - Edits

    /// Adds `batch` after the last item.
    mutating func append(_ batch: [Item]) -> [ItemListChange] {
        insert(batch, at: items.count, asAppend: true)
    }

    /// Adds `batch` before the first item.
    mutating func prepend(_ batch: [Item]) -> [ItemListChange] {
        insert(batch, at: 0, asAppend: false)
    }

    /// Inserts `batch` at `index` (clamped to `0...count`).
    mutating func insert(_ batch: [Item], at index: Int) -> [ItemListChange] {
        insert(batch, at: min(max(index, 0), items.count), asAppend: false)
    }

    /// Replaces the item at `index` (which keeps its id).
    mutating func replace(at index: Int, with item: Item) -> [ItemListChange] {
        var array = Array(items)
        array[index] = item
        items = ItemList(array)
        return [.updated([index])]
    }

    /// Removes the item at `index`.
    mutating func remove(at index: Int) -> [ItemListChange] {
        var array = Array(items)
        array.remove(at: index)
        items = ItemList(array)
        reindex()
        return [.removed([index])]
    }

    /// Empties the list.
    mutating func removeAll() -> [ItemListChange] {
        guard !items.isEmpty else { return [] }
        items = ItemList()
        positions = [:]
        return [.reset]
    }

    // MARK: - Helpers

    private mutating func insert(_ batch: [Item], at index: Int, asAppend: Bool) -> [ItemListChange] {
        guard !batch.isEmpty else { return [] }
        guard let identity else {
            return splice(batch, at: index, asAppend: asAppend)
        }
        var updated: [Int: Item] = [:]
        var fresh: [Item] = []
        var freshSlot: [AnyHashable: Int] = [:]
        for item in batch {
            let key = identity(item)
            if let held = positions[key] {
                updated[held] = item
            } else if let slot = freshSlot[key] {
                fresh[slot] = item
            } else {
                freshSlot[key] = fresh.count
                fresh.append(item)
            }
        }
        if !updated.isEmpty {
            var array = Array(items)
            for (offset, item) in updated { array[offset] = item }
            items = ItemList(array)
        }
        var changes = splice(fresh, at: index, asAppend: asAppend)
        if !updated.isEmpty {
            changes.append(.updated(updated.keys.map { $0 >= index ? $0 + fresh.count : $0 }.sorted()))
        }
        return changes
    }

    private mutating func splice(_ fresh: [Item], at index: Int, asAppend: Bool) -> [ItemListChange] {
        guard !fresh.isEmpty else { return [] }
        if index == items.count {
            items.append(contentsOf: fresh)
            if let identity {
                for (offset, item) in fresh.enumerated() { positions[identity(item)] = index + offset }
            }
        } else {
            var array = Array(items)
            array.insert(contentsOf: fresh, at: index)
            items = ItemList(array)
            reindex()
        }
        let range = index ..< index + fresh.count
        return [asAppend ? .appended(range) : .inserted(range)]
    }

    private mutating func reindex() {
        guard let identity else { return }
        positions = [:]
        for (offset, item) in items.enumerated() { positions[identity(item)] = offset }
    }

    private static func makeIdentity() -> ((Item) -> AnyHashable)? {
        guard let type = Item.self as? any Identifiable.Type else { return nil }
        return identity(of: type)
    }

    private static func identity<T: Identifiable>(of _: T.Type) -> (Item) -> AnyHashable {
        { item in AnyHashable((item as! T).id) }
    }
}
