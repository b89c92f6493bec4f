/// Operations on runs of items, built on `ItemStore`'s single-item edits, each returning the changes that
/// take the old list to the new one. Out of line (not inlinable), but for the removals at the ends that
/// `maxPages` makes for every page landed: the rest only refreshes use.
extension ItemStore {
    /// Removes the items at `offsets` (ascending): one `.removed` change. Each contiguous run goes in one
    /// `removeSubrange`, last run first: O(k + r log n) for k items in r runs.
    mutating func remove(offsets: [Int]) -> [ItemListChange] {
        guard !offsets.isEmpty else { return [] }
        var end = offsets.count
        while end > 0 {
            var start = end - 1
            while start > 0, offsets[start - 1] == offsets[start] - 1 { start -= 1 }
            _ = removeSubrange(offsets[start] ..< offsets[end - 1] + 1)
            end = start
        }
        return [.removed(offsets)]
    }

    /// Removes the first `count` items (a page dropped at the top).
    @inlinable
    mutating func removeFirst(_ count: Int) -> [ItemListChange] {
        removeSubrange(0 ..< Swift.min(count, self.count))
    }

    /// Removes the last `count` items (a page dropped at the bottom).
    @inlinable
    mutating func removeLast(_ count: Int) -> [ItemListChange] {
        removeSubrange(Swift.max(self.count - count, 0) ..< self.count)
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
        guard isIdentified else { return batch }
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
