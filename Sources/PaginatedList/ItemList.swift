import Signals

/// The list a `PaginatedListViewModel` holds: a random-access collection of items that shares its
/// storage between snapshots, so that appending a page costs time proportional to the page, not to the
/// list, even when every earlier snapshot is kept.
///
/// A snapshot is a prefix of a shared, append-only storage made of segments that double in size and
/// never move. Appending to the newest snapshot writes into that storage after its end; appending to an
/// older snapshot (or any other mutation) copies first, as any value type would. Reading is lock-free;
/// indexing is O(1). Snapshots are immutable values: safe to read from any thread (`Sendable` when
/// `Item` is). Memory stays under twice the memory of the items, plus one small table per storage.
///
/// ```swift
/// var list: ItemList = [1, 2, 3]
/// let before = list
/// list.append(contentsOf: [4, 5])
/// print(Array(before), Array(list))   // [1, 2, 3] [1, 2, 3, 4, 5]
/// ```
public struct ItemList<Item>: RandomAccessCollection, ExpressibleByArrayLiteral {
    @usableFromInline var storage: Storage?
    /// The number of items of this snapshot: a prefix of `storage`.
    public private(set) var count: Int

    /// An empty list.
    public init() {
        storage = nil
        count = 0
    }

    /// A list of `items`, in order.
    public init<S: Sequence>(_ items: S) where S.Element == Item {
        self.init()
        append(contentsOf: items)
    }

    /// A list of the literal's elements.
    public init(arrayLiteral elements: Item...) {
        self.init(elements)
    }

    /// The position of the first item: always 0.
    public var startIndex: Int { 0 }
    /// One past the position of the last item: `count`.
    public var endIndex: Int { count }

    /// The item at `position`, which must be in `0..<count`. O(1).
    public subscript(position: Int) -> Item {
        precondition(position >= 0 && position < count, "ItemList index \(position) out of range 0..<\(count)")
        return storage.unsafelyUnwrapped.item(at: position)
    }

    /// Appends `items` at the end. O(number of items appended) when this is the newest snapshot of its
    /// storage; otherwise copies this snapshot first.
    public mutating func append<S: Sequence>(contentsOf items: S) where S.Element == Item {
        var iterator = items.makeIterator()
        guard let first = iterator.next() else { return }
        if storage == nil || !storage!.claimAppend(at: count) {
            let copy = Storage()
            for index in 0 ..< count { copy.write(self[index], at: index) }
            copy.publishedCount = count
            storage = copy
            _ = copy.claimAppend(at: count)
        }
        let target = storage!
        var end = count
        target.write(first, at: end)
        end += 1
        while let item = iterator.next() {
            target.write(item, at: end)
            end += 1
        }
        target.finishAppend(at: end)
        count = end
    }

    /// Appends one item. O(1) when this is the newest snapshot of its storage.
    public mutating func append(_ item: Item) {
        append(contentsOf: CollectionOfOne(item))
    }

    /// Removes every item (keeps nothing of the old storage).
    public mutating func removeAll() {
        storage = nil
        count = 0
    }

    /// The storage: segments of doubling size that never move, indexed by a fixed table.
    ///
    /// Locking rule: `lock` guards `publishedCount` and `appending`, the claim to write after the end.
    /// Slots below a snapshot's count are written before that snapshot exists and never again, so reading
    /// them needs no lock; the snapshot reaches other threads through whatever publishes it (a property's
    /// lock), which orders the writes before the reads.
    @usableFromInline
    final class Storage: @unchecked Sendable {
        static var firstSegmentShift: Int { 4 }   // the first segment holds 16 items
        static var segmentCount: Int { 56 }

        private let lock = Locked<Void>(())
        private var appending = false
        /// The count of the newest snapshot: the next append claim must start here.
        fileprivate var publishedCount = 0
        private let segments: UnsafeMutablePointer<UnsafeMutablePointer<Item>?>
        /// How many slots of the storage are initialised (to deinitialise on release).
        private var initialised = 0

        init() {
            segments = .allocate(capacity: Self.segmentCount)
            segments.initialize(repeating: nil, count: Self.segmentCount)
        }

        deinit {
            for index in 0 ..< initialised { slot(index).deinitialize(count: 1) }
            for segment in 0 ..< Self.segmentCount {
                segments[segment]?.deallocate()
            }
            segments.deallocate()
        }

        /// The segment holding `index`, and the offset in it. Segment k covers
        /// [16·(2^k − 1), 16·(2^(k+1) − 1)).
        @inline(__always)
        private static func locate(_ index: Int) -> (segment: Int, offset: Int) {
            let scaled = (index >> firstSegmentShift) + 1
            let segment = Int.bitWidth - 1 - scaled.leadingZeroBitCount
            let start = ((1 << segment) - 1) << firstSegmentShift
            return (segment, index - start)
        }

        @inline(__always)
        private func slot(_ index: Int) -> UnsafeMutablePointer<Item> {
            let (segment, offset) = Self.locate(index)
            return segments[segment].unsafelyUnwrapped + offset
        }

        func item(at index: Int) -> Item {
            slot(index).pointee
        }

        /// Claims the right to write after `count`: granted if `count` is the newest snapshot's and no other
        /// append is in progress.
        func claimAppend(at count: Int) -> Bool {
            lock.withLock { _ in
                guard !appending, publishedCount == count else { return false }
                appending = true
                return true
            }
        }

        /// Writes `item` at `index` (the caller holds the append claim, or owns a fresh storage).
        func write(_ item: Item, at index: Int) {
            let (segment, offset) = Self.locate(index)
            if segments[segment] == nil {
                segments[segment] = .allocate(capacity: (1 << segment) << Self.firstSegmentShift)
            }
            (segments[segment].unsafelyUnwrapped + offset).initialize(to: item)
            initialised = Swift.max(initialised, index + 1)
        }

        /// Ends the append claim: the newest snapshot now ends at `count`.
        func finishAppend(at count: Int) {
            lock.withLock { _ in
                publishedCount = count
                appending = false
            }
        }
    }
}

extension ItemList: Equatable where Item: Equatable {
    /// Whether both lists hold equal items in the same order.
    public static func == (lhs: ItemList, rhs: ItemList) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.storage === rhs.storage { return true }
        return lhs.elementsEqual(rhs)
    }
}

extension ItemList: Sendable where Item: Sendable {}

extension ItemList: CustomStringConvertible {
    /// The items, like an array's description.
    public var description: String { Array(self).description }
}
