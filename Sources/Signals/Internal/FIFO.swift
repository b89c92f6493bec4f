/// A first-in, first-out queue on a ring buffer: the package's one queue for events, commands and pages
/// waiting for a busy consumer.
///
/// `append` and `popFirst` are amortised O(1). A popped element is moved out of its slot at once, so the
/// queue never keeps what it handed out. The capacity follows the backlog: it doubles when the buffer is
/// full and halves when the count falls to a quarter of it (never below the minimum capacity), so it stays
/// within a constant factor of the largest number of elements held at once, however many passed through.
/// A value type with copy-on-write storage; not thread-safe (guard it with the owner's lock).
///
/// `@usableFromInline` (not inlinable): the signal's inlinable queueing path calls it.
@usableFromInline
package struct FIFO<Element> {
    final class Storage: ManagedBuffer<Header, Element> {
        deinit {
            withUnsafeMutablePointers { header, elements in
                let head = header.pointee.head
                let count = header.pointee.count
                let capacity = header.pointee.capacity
                let firstRun = min(count, capacity - head)
                (elements + head).deinitialize(count: firstRun)
                elements.deinitialize(count: count - firstRun)
            }
        }
    }

    /// Where the elements are: `count` of them from slot `head`, wrapping at `capacity` (a power of two).
    struct Header {
        var head: Int
        var count: Int
        var capacity: Int

        init(capacity: Int) {
            head = 0
            count = 0
            self.capacity = capacity
        }
    }

    /// The smallest buffer the queue allocates or shrinks to.
    let minimumCapacity: Int
    /// `nil` until the first `append`, and after `removeAll()`.
    var storage: Storage?

    /// An empty queue; it allocates on the first `append`.
    @usableFromInline
    package init() {
        self.init(minimumCapacity: 4)
    }

    /// An empty queue that never shrinks below `minimumCapacity` once it has allocated (rounded up to a
    /// power of two, at least 1).
    @usableFromInline
    package init(minimumCapacity: Int) {
        var rounded = 1
        while rounded < minimumCapacity { rounded &<<= 1 }
        self.minimumCapacity = rounded
        storage = nil
    }

    /// The number of elements waiting.
    @usableFromInline
    package var count: Int { storage?.header.count ?? 0 }

    /// Whether no element is waiting.
    @usableFromInline
    package var isEmpty: Bool { count == 0 }

    /// The number of elements the buffer holds without growing (0 before the first `append`).
    @usableFromInline
    package var capacity: Int { storage?.header.capacity ?? 0 }

    /// The element `popFirst()` would return, without removing it.
    @usableFromInline
    package var first: Element? {
        guard let storage, storage.header.count > 0 else { return nil }
        return storage.withUnsafeMutablePointers { header, elements in elements[header.pointee.head] }
    }

    /// Adds `element` at the end. Amortised O(1).
    @usableFromInline
    package mutating func append(_ element: Element) {
        let current = count
        if storage == nil || current == capacity {
            resize(to: Swift.max(minimumCapacity, capacity * 2))
        } else if !isKnownUniquelyReferenced(&storage) {
            resize(to: capacity)
        }
        storage.unsafelyUnwrapped.withUnsafeMutablePointers { header, elements in
            let slot = (header.pointee.head + header.pointee.count) & (header.pointee.capacity - 1)
            (elements + slot).initialize(to: element)
            header.pointee.count += 1
        }
    }

    /// Removes and returns the first element, or returns `nil` if the queue is empty. The slot it
    /// occupied is deinitialised before this returns. Amortised O(1).
    @usableFromInline
    package mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        if !isKnownUniquelyReferenced(&storage) { resize(to: capacity) }
        let element = storage.unsafelyUnwrapped.withUnsafeMutablePointers { header, elements in
            let head = header.pointee.head
            header.pointee.head = (head + 1) & (header.pointee.capacity - 1)
            header.pointee.count -= 1
            return (elements + head).move()
        }
        let capacity = self.capacity
        if capacity > minimumCapacity && count <= capacity / 4 { resize(to: capacity / 2) }
        return element
    }

    /// Removes every element and frees the buffer.
    @usableFromInline
    package mutating func removeAll() {
        storage = nil
    }

    /// Moves (or, if the storage is shared, copies) the elements, in order, into a new buffer of
    /// `newCapacity` slots (a power of two, at least `count`).
    mutating func resize(to newCapacity: Int) {
        let created = unsafeDowncast(
            Storage.create(minimumCapacity: newCapacity) { _ in Header(capacity: newCapacity) }, to: Storage.self)
        guard let old = storage else {
            storage = created
            return
        }
        let unique = isKnownUniquelyReferenced(&storage)
        old.withUnsafeMutablePointers { oldHeader, oldElements in
            created.withUnsafeMutablePointers { newHeader, newElements in
                let head = oldHeader.pointee.head
                let count = oldHeader.pointee.count
                let firstRun = Swift.min(count, oldHeader.pointee.capacity - head)
                if unique {
                    newElements.moveInitialize(from: oldElements + head, count: firstRun)
                    (newElements + firstRun).moveInitialize(from: oldElements, count: count - firstRun)
                    oldHeader.pointee.count = 0
                } else {
                    newElements.initialize(from: oldElements + head, count: firstRun)
                    (newElements + firstRun).initialize(from: oldElements, count: count - firstRun)
                }
                newHeader.pointee.count = count
            }
        }
        storage = created
    }
}
