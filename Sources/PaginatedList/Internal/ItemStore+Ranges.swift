/// Operations on runs of items, built on `ItemStore`'s single-item edits, each returning the changes that
/// take the old list to the new one.
extension ItemStore {
    /// The id of `item` as a key, when `Item` is `Identifiable`.
    func key(of item: Item) -> AnyHashable? {
        identity?(item)
    }

    /// Removes the items at `offsets` (ascending): one `.removed` change.
    mutating func remove(offsets: [Int]) -> [ItemListChange] {
        guard !offsets.isEmpty else { return [] }
        for offset in offsets.reversed() { _ = remove(at: offset) }
        return [.removed(offsets)]
    }

    /// Removes the first `count` items.
    mutating func removeFirst(_ count: Int) -> [ItemListChange] {
        remove(offsets: Array(0 ..< Swift.min(count, self.count)))
    }

    /// Removes the last `count` items.
    mutating func removeLast(_ count: Int) -> [ItemListChange] {
        let total = self.count
        return remove(offsets: Array(Swift.max(total - count, 0) ..< total))
    }

    /// Moves the item at `from` so that it sits at `to` afterwards.
    mutating func move(from: Int, to: Int) -> [ItemListChange] {
        guard from != to else { return [] }
        let item = items[from]
        _ = remove(at: from)
        _ = insert([item], at: to)
        return [.moved(from: from, to: to)]
    }

    /// `items` with repeated ids removed: each id once, at its first position, with its last value.
    func deduplicated(_ batch: [Item]) -> [Item] {
        guard identity != nil else { return batch }
        var slot: [AnyHashable: Int] = [:]
        var result: [Item] = []
        for item in batch {
            let key = key(of: item)!
            if let index = slot[key] {
                result[index] = item
            } else {
                slot[key] = result.count
                result.append(item)
            }
        }
        return result
    }
}
