// Inlinable throughout: the per-event, attach and detach paths (see `SignalCore`, "Inlining").

/// Where an observer list's elements are: `count` of the `capacity` slots, from the first.
@usableFromInline
struct ObserverListHeader {
    @usableFromInline var count: Int
    @usableFromInline let capacity: Int

    @inlinable
    init(capacity: Int) {
        count = 0
        self.capacity = capacity
    }
}

/// A signal's attached observers, in attach order (so tokens increase along the list), in one allocation
/// whose address is fixed for its whole life: a delivery holds the list unretained and reads its elements
/// in place.
///
/// The list holds each box with one manual retain, which the signal takes and gives back (`SignalState`);
/// freeing a list releases nothing. The signal never mutates a list that a delivery may be reading: it
/// replaces it with a copy (see `SignalState.mutate`).
@usableFromInline
final class ObserverList<Value, Failure: Error>:
    ManagedBuffer<ObserverListHeader, Unmanaged<ObserverBox<Value, Failure>>>
{
    @usableFromInline typealias Box = ObserverBox<Value, Failure>

    /// An empty list with room for `capacity` observers.
    @inlinable
    static func make(capacity: Int) -> ObserverList {
        unsafeDowncast(create(minimumCapacity: capacity) { _ in ObserverListHeader(capacity: capacity) },
                       to: ObserverList.self)
    }

    // The header is read through its pointer: `ManagedBuffer.header` is a class property, which costs a
    // dynamic exclusivity check per access.

    @inlinable
    var count: Int { withUnsafeMutablePointerToHeader { $0.pointee.count } }

    @inlinable
    var slots: Int { withUnsafeMutablePointerToHeader { $0.pointee.capacity } }

    /// Appends `box`; the list must not be full.
    @inlinable
    func append(_ box: Unmanaged<Box>) {
        withUnsafeMutablePointers { header, elements in
            (elements + header.pointee.count).initialize(to: box)
            header.pointee.count += 1
        }
    }

    /// Removes and returns the box at `index`; later boxes move up one slot.
    @inlinable
    func remove(at index: Int) -> Unmanaged<Box> {
        withUnsafeMutablePointers { header, elements in
            let removed = elements[index]
            let moved = header.pointee.count - index - 1
            (elements + index).update(from: elements + index + 1, count: moved)
            header.pointee.count -= 1
            return removed
        }
    }

    /// A new list with the same boxes (no retain taken) and room for `capacity` (at least `count`).
    @inlinable
    func copy(capacity: Int) -> ObserverList {
        let copy = ObserverList.make(capacity: capacity)
        withUnsafeMutablePointers { header, elements in
            copy.withUnsafeMutablePointers { copyHeader, copyElements in
                copyElements.initialize(from: elements, count: header.pointee.count)
                copyHeader.pointee.count = header.pointee.count
            }
        }
        return copy
    }

    /// The index of the box with `token`. Tokens increase along the list: binary search.
    @inlinable
    func index(of token: UInt64) -> Int? {
        withUnsafeMutablePointers { header, elements in
            var low = 0
            var high = header.pointee.count
            while low < high {
                let middle = (low + high) / 2
                let candidate = elements[middle]._withUnsafeGuaranteedRef { $0.token }
                if candidate == token { return middle }
                if candidate < token { low = middle + 1 } else { high = middle }
            }
            return nil
        }
    }

    /// Calls every observer not disposed with `value`. The boxes are used unretained: the list's
    /// references keep them alive until the delivery ends.
    // Always inlined into `deliverOutOfLine(value:)`.
    @inlinable @inline(__always)
    func deliver(value: Value) {
        withUnsafeMutablePointers { header, elements in
            for index in 0..<header.pointee.count {
                elements[index]._withUnsafeGuaranteedRef { $0.receive(value: value) }
            }
        }
    }

    /// `deliver(value:)`, called rather than inlined: the per-event path of a signal with several
    /// observers (`Observers.deliver(value:)`).
    // Never inlined: with the loop inlined beside the one-observer path, hot10 (`Benchmarks core`,
    // `compare`) spent a register reload per observer, and the one-observer rows (hot1, cold5map,
    // propertySet, producer start) 3 to 7 instructions more per event.
    @inlinable @inline(never)
    func deliverOutOfLine(value: Value) { deliver(value: value) }

    /// Calls every observer attached before event number `sequence` and not disposed with `event`.
    @inlinable
    func deliver(_ event: Event<Value, Failure>, numbered sequence: UInt64) {
        withUnsafeMutablePointers { header, elements in
            for index in 0..<header.pointee.count {
                elements[index]._withUnsafeGuaranteedRef { $0.receive(event, numbered: sequence) }
            }
        }
    }

    /// Calls `body` with every box, in order.
    @inlinable
    func forEach(_ body: (Unmanaged<Box>) -> Void) {
        withUnsafeMutablePointers { header, elements in
            for index in 0..<header.pointee.count { body(elements[index]) }
        }
    }
}
