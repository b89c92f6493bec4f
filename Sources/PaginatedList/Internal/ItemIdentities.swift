/// The identities of an item store's items. This base class is for items that are not `Identifiable`:
/// no item is found by id and nothing is de-duplicated, so it holds nothing (copies of a store share it).
/// `IdentifiedItems` is the subclass for `Identifiable` items.
class ItemIdentities<Item> {
    /// The identities for `Item`: `IdentifiedItems` if `Item` is `Identifiable`, else this base class.
    static func make() -> ItemIdentities<Item> {
        guard let type = Item.self as? any Identifiable.Type else { return ItemIdentities() }
        return identified(type)
    }

    private static func identified<Element: Identifiable>(_: Element.Type) -> ItemIdentities<Item> {
        IdentifiedItems<Item, Element>()
    }

    /// Whether items are found by identity.
    var isIdentified: Bool { false }

    /// A copy to write to, sharing nothing with this one; this class holds nothing, so itself.
    func copy() -> ItemIdentities<Item> { self }

    /// Identities for an empty list; this class holds nothing, so itself.
    func emptied() -> ItemIdentities<Item> { self }

    /// The position of the item with `item`'s id, if held.
    func position(ofIDOf item: Item) -> Int? { nil }

    /// The position of the item whose id is `key`, if held.
    func position(ofKey key: AnyHashable) -> Int? { nil }

    /// `batch` sorted by the rules of identity: the held items it updates (by position, the last value
    /// for each), and the items to add (a repeated id keeps its first position and its last value).
    /// Without identity, every item is added.
    func sort(_ batch: [Item]) -> (updated: [Int: Item], fresh: [Item]) { ([:], batch) }

    /// Records that `fresh` (items `sort` returned as fresh) were inserted at `position`.
    func inserted(_ fresh: [Item], at position: Int) {}

    /// Records that the items at `range` were removed.
    func removed(_ range: Range<Int>) {}

    /// What is wrong with the identities against `items`, if anything; for tests.
    func invariantViolations(against items: ItemList<Item>) -> [String] { [] }
}

/// The identities of `Identifiable` items (`Item` is `Element`, known only at run time): an `IDPositions`
/// of their ids, typed, so that hashing and comparing ids goes through no `AnyHashable`.
final class IdentifiedItems<Item, Element: Identifiable>: ItemIdentities<Item> {
    private var positions = IDPositions<Element.ID>()

    override init() {
        precondition(Item.self == Element.self)
    }

    /// The id of `item`, which is an `Element` (the same type, as the initialiser checked).
    @inline(__always)
    private func id(of item: Item) -> Element.ID {
        withUnsafePointer(to: item) { UnsafeRawPointer($0).assumingMemoryBound(to: Element.self).pointee.id }
    }

    override var isIdentified: Bool { true }

    override func copy() -> ItemIdentities<Item> {
        let copy = IdentifiedItems()
        copy.positions = positions.copy()
        return copy
    }

    override func emptied() -> ItemIdentities<Item> { IdentifiedItems() }

    override func position(ofIDOf item: Item) -> Int? {
        positions.position(of: id(of: item))
    }

    override func position(ofKey key: AnyHashable) -> Int? {
        guard let id = key.base as? Element.ID else { return nil }
        return positions.position(of: id)
    }

    override func sort(_ batch: [Item]) -> (updated: [Int: Item], fresh: [Item]) {
        var updated: [Int: Item] = [:]
        var fresh: [Item] = []
        fresh.reserveCapacity(batch.count)
        var freshSlot: [Element.ID: Int] = [:]
        freshSlot.reserveCapacity(batch.count)
        for item in batch {
            let key = id(of: item)
            if let held = positions.position(of: key) {
                updated[held] = item
            } else if let slot = freshSlot[key] {
                fresh[slot] = item
            } else {
                freshSlot[key] = fresh.count
                fresh.append(item)
            }
        }
        return (updated, fresh)
    }

    override func inserted(_ fresh: [Item], at position: Int) {
        positions.insert(fresh.lazy.map(id(of:)), at: position)
    }

    override func removed(_ range: Range<Int>) {
        positions.removeSubrange(range)
    }

    override func invariantViolations(against items: ItemList<Item>) -> [String] {
        var problems = positions.invariantViolations()
        if positions.count != items.count { problems.append("\(positions.count) ids for \(items.count) items") }
        if !positions.allIDs().elementsEqual(items.lazy.map(id(of:))) { problems.append("the ids are not the items' ids, in order") }
        return problems
    }
}
