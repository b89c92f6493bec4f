import PaginatedListTesting
import Signals
import Testing

/// An object whose release the tests watch through a weak reference.
private final class Element {
    let number: Int
    init(_ number: Int) { self.number = number }
}

@Suite("FIFO")
struct FIFOTests {
    @Test func popsElementsInTheOrderTheyWereAppended() {
        var queue = FIFO<Int>()
        for number in 0..<10 { queue.append(number) }
        var popped: [Int] = []
        while let number = queue.popFirst() { popped.append(number) }
        #expect(popped == Array(0..<10))
    }

    @Test func anEmptyQueueHasNoFirstElementAndPopsNil() {
        var queue = FIFO<Int>()
        #expect(queue.isEmpty)
        #expect(queue.first == nil)
        #expect(queue.popFirst() == nil)
        queue.append(1)
        _ = queue.popFirst()
        #expect(queue.popFirst() == nil)
        #expect(queue.isEmpty)
    }

    @Test func firstIsTheElementPopFirstReturnsNext() {
        var queue = FIFO<Int>()
        queue.append(7)
        queue.append(8)
        #expect(queue.first == 7)
        #expect(queue.count == 2)
        _ = queue.popFirst()
        #expect(queue.first == 8)
    }

    @Test func keepsOrderAcrossWrapAroundAndGrowthOfTheRing() {
        var queue = FIFO<Int>(minimumCapacity: 4)
        var expected: [Int] = []
        var next = 0
        // Three in, two out, repeatedly: the head walks around the ring while the buffer grows.
        for _ in 0..<100 {
            for _ in 0..<3 {
                queue.append(next)
                expected.append(next)
                next += 1
            }
            for _ in 0..<2 { #expect(queue.popFirst() == expected.removeFirst()) }
        }
        #expect(queue.count == expected.count)
        while let number = queue.popFirst() { #expect(number == expected.removeFirst()) }
        #expect(expected.isEmpty)
    }

    @Test func matchesAnArrayModelUnderRandomAppendsAndPops() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SplitMix64(seed: seed)
        var queue = FIFO<Int>(minimumCapacity: 1)
        var model: [Int] = []
        for step in 0..<20_000 {
            if random.next() % 100 < 55 {
                queue.append(step)
                model.append(step)
            } else {
                let popped = queue.popFirst()
                let expected = model.isEmpty ? nil : model.removeFirst()
                #expect(popped == expected, "seed \(seed), step \(step)")
                if popped != expected { return }
            }
            #expect(queue.count == model.count, "seed \(seed), step \(step)")
            #expect(queue.first == model.first, "seed \(seed), step \(step)")
        }
    }

    @Test func aCopyIsIndependentOfTheOriginal() {
        var original = FIFO<Int>()
        for number in 0..<5 { original.append(number) }
        var copy = original
        _ = copy.popFirst()
        copy.append(99)
        original.append(5)
        var fromOriginal: [Int] = []
        while let number = original.popFirst() { fromOriginal.append(number) }
        var fromCopy: [Int] = []
        while let number = copy.popFirst() { fromCopy.append(number) }
        #expect(fromOriginal == [0, 1, 2, 3, 4, 5])
        #expect(fromCopy == [1, 2, 3, 4, 99])
    }

    @Test func aPoppedElementIsReleasedWhileTheQueueStillHoldsOthers() {
        var queue = FIFO<Element>()
        weak var released: Element?
        do {
            let element = Element(0)
            released = element
            queue.append(element)
        }
        queue.append(Element(1))
        queue.append(Element(2))
        _ = queue.popFirst()
        #expect(released == nil)
        #expect(queue.count == 2)
        #expect(queue.first?.number == 1)
    }

    @Test func elementsLeftInTheQueueAreReleasedWithIt() {
        weak var left: Element?
        do {
            var queue = FIFO<Element>()
            let element = Element(0)
            left = element
            for number in 1..<6 { queue.append(Element(number)) }
            queue.append(element)
            _ = queue.popFirst()
            #expect(left != nil)
        }
        #expect(left == nil)
    }

    @Test func removeAllReleasesEveryElementAndTheBuffer() {
        var queue = FIFO<Element>()
        weak var held: Element?
        do {
            let element = Element(0)
            held = element
            queue.append(element)
        }
        queue.removeAll()
        #expect(held == nil)
        #expect(queue.isEmpty)
        #expect(queue.capacity == 0)
        queue.append(Element(1))
        #expect(queue.popFirst()?.number == 1)
    }

    @Test func capacityGrowsWithTheBacklogAndShrinksWhenItDrains() {
        var queue = FIFO<Int>(minimumCapacity: 4)
        for number in 0..<1000 { queue.append(number) }
        #expect(queue.capacity >= 1000)
        #expect(queue.capacity <= 2 * 1000)
        for _ in 0..<998 { _ = queue.popFirst() }
        #expect(queue.count == 2)
        #expect(queue.capacity <= 4 * 2 + 4)
        #expect(queue.popFirst() == 998)
        #expect(queue.popFirst() == 999)
        #expect(queue.capacity == 4)
    }

    @Test func neverShrinksBelowItsMinimumCapacity() {
        var queue = FIFO<Int>(minimumCapacity: 64)
        queue.append(1)
        #expect(queue.capacity == 64)
        for number in 0..<1000 { queue.append(number) }
        while queue.popFirst() != nil {}
        #expect(queue.capacity == 64)
    }

    /// A consumer that never catches up: every pop is preceded by an append, so the queue never drains.
    /// The buffer must follow the backlog (here 100 elements), not the number of elements processed.
    @Test func aSustainedBacklogOfAMillionEventsKeepsTheCapacityBoundedByTheBacklog() {
        let backlog = 100
        var queue = FIFO<Int>()
        for number in 0..<backlog { queue.append(number) }
        var largestCapacity = queue.capacity
        var expected = 0
        for number in backlog..<1_000_000 {
            queue.append(number)
            #expect(queue.popFirst() == expected)
            expected += 1
            largestCapacity = max(largestCapacity, queue.capacity)
        }
        #expect(queue.count == backlog)
        #expect(largestCapacity <= 2 * (backlog + 1))
    }
}
