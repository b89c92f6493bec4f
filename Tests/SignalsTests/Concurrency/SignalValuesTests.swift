import Foundation
import Testing
import Signals

@Suite struct SignalValuesTests {
    @Test func aValueHandedOutIsReleasedWhileLaterOnesAreStillBuffered() async {
        let (signal, input) = Signal<Tracked, Never>.pipe()
        let values = signal.values
        weak var handedOut: Tracked?
        do {
            let first = Tracked()
            handedOut = first
            input.send(value: first)
        }
        input.send(value: Tracked())
        input.send(value: Tracked())
        var iterator = values.makeAsyncIterator()
        _ = await iterator.next()
        #expect(handedOut == nil)
        #expect(await iterator.next() != nil)
    }

    @Test func valuesSentAfterReadingValuesAreDeliveredInOrderWithoutTry() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        let values = signal.values
        input.send(value: 1)
        input.send(value: 2)
        input.sendCompleted()
        var seen: [Int] = []
        for await value in values { seen.append(value) }
        #expect(seen == [1, 2])
    }

    @Test func valuesSentBeforeReadingValuesAreNotDelivered() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        input.send(value: 0)
        let values = signal.values
        input.send(value: 1)
        input.sendCompleted()
        var seen: [Int] = []
        for await value in values { seen.append(value) }
        #expect(seen == [1])
    }

    @Test func failureIsThrownAfterTheValuesSentBeforeIt() async {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let values = signal.values
        input.send(value: 1)
        input.send(error: TestError(code: 7))
        var seen: [Int] = []
        do throws(TestError) {
            for try await value in values { seen.append(value) }
            Issue.record("expected a failure")
        } catch {
            #expect(error == TestError(code: 7))
        }
        #expect(seen == [1])
    }

    @Test func interruptionEndsTheSequenceWithoutError() async throws {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let values = signal.values
        input.send(value: 1)
        input.sendInterrupted()
        var seen: [Int] = []
        for try await value in values { seen.append(value) }
        #expect(seen == [1])
    }

    @Test func valuesSentLaterFromAnotherThreadResumeTheWaitingConsumer() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        let values = signal.values
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) {
            input.send(value: 1)
            input.sendCompleted()
        }
        var seen: [Int] = []
        for await value in values { seen.append(value) }
        #expect(seen == [1])
    }

    @Test func noValueIsLostWhenTheConsumerIsSlowerThanTheSender() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        let values = signal.values
        let count = 10_000
        DispatchQueue.global().async {
            for i in 0..<count { input.send(value: i) }
            input.sendCompleted()
        }
        var seen: [Int] = []
        for await value in values {
            if value % 1000 == 0 { await Task.yield() }
            seen.append(value)
        }
        #expect(seen == Array(0..<count))
    }

    @Test func aSecondIteratorOfTheSameSequenceObservesFromWhenItWasMade() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        let values = signal.values
        var first = values.makeAsyncIterator()
        input.send(value: 1)
        var second = values.makeAsyncIterator()
        input.send(value: 2)
        input.sendCompleted()
        #expect(await first.next() == 1)
        #expect(await first.next() == 2)
        #expect(await first.next() == nil)
        #expect(await second.next() == 2)
        #expect(await second.next() == nil)
    }

    @Test func cancellingTheConsumingTaskEndsTheSequence() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        let values = signal.values
        let consumer = Task {
            var seen: [Int] = []
            for await value in values { seen.append(value) }
            return seen
        }
        input.send(value: 1)
        consumer.cancel()
        let seen = await firstResult { await consumer.value }
        #expect(seen != nil)   // the loop ended
        withExtendedLifetime(input) {}
    }

    @Test func readingValuesOnATerminatedSignalGivesAnEmptySequence() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        input.sendCompleted()
        var count = 0
        for await _ in signal.values { count += 1 }
        #expect(count == 0)
    }
}
