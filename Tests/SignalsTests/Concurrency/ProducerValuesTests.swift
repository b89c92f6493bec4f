import Foundation
import Testing
import Signals

@Suite struct ProducerValuesTests {
    @Test func iteratingSendsEveryValueThenEnds() async {
        var seen: [Int] = []
        for await value in Producer<Int, Never>(values: 1...3).values { seen.append(value) }
        #expect(seen == [1, 2, 3])
    }

    @Test func eachIteratorStartsItsOwnRun() async {
        let starts = Counter()
        let producer = Producer<Int, Never> { observer, _ in
            starts.increment()
            observer.send(value: starts.value)
            observer.sendCompleted()
        }
        let values = producer.values
        var first: [Int] = []
        for await value in values { first.append(value) }
        var second: [Int] = []
        for await value in values { second.append(value) }
        #expect(first == [1])
        #expect(second == [2])
    }

    @Test func theRunStartsAtTheFirstNextNotWhenTheIteratorIsMade() async {
        let starts = Counter()
        let producer = Producer<Int, Never> { observer, _ in
            starts.increment()
            observer.sendCompleted()
        }
        var iterator = producer.values.makeAsyncIterator()
        #expect(starts.value == 0)
        _ = await iterator.next()
        #expect(starts.value == 1)
    }

    @Test func failureIsThrownAfterTheValuesSentBeforeIt() async {
        let producer = Producer<Int, TestError> { observer, _ in
            observer.send(value: 1)
            observer.send(error: TestError(code: 3))
        }
        var seen: [Int] = []
        do throws(TestError) {
            for try await value in producer.values { seen.append(value) }
            Issue.record("expected a failure")
        } catch {
            #expect(error == TestError(code: 3))
        }
        #expect(seen == [1])
    }

    @Test func interruptionEndsTheSequenceWithoutError() async throws {
        let producer = Producer<Int, TestError> { observer, _ in
            observer.send(value: 1)
            observer.sendInterrupted()
        }
        var seen: [Int] = []
        for try await value in producer.values { seen.append(value) }
        #expect(seen == [1])
    }

    @Test func valuesSentLaterFromAnotherThreadAreDelivered() async {
        let producer = Producer<Int, Never> { observer, _ in
            DispatchQueue.global().async {
                for i in 0..<1000 { observer.send(value: i) }
                observer.sendCompleted()
            }
        }
        var seen: [Int] = []
        for await value in producer.values { seen.append(value) }
        #expect(seen == Array(0..<1000))
    }

    @Test func cancellingTheConsumingTaskEndsTheRunsLifetime() async {
        let started = AsyncStream<Lifetime>.makeStream()
        let producer = Producer<Int, Never> { observer, lifetime in
            observer.keepAliveUntilTerminated()
            started.continuation.yield(lifetime)
        }
        let consumer = Task { for await _ in producer.values {} }
        var lifetimes = started.stream.makeAsyncIterator()
        let lifetime = await lifetimes.next()!
        #expect(!lifetime.hasEnded)
        consumer.cancel()
        #expect(await waitUntilEnded(lifetime))
        await consumer.value
    }

    @Test func cancellingTheConsumingTaskInterruptsTheRun() async {
        let events = Log<Event<Int, Never>>()
        let started = AsyncStream<Void>.makeStream()
        let producer = Producer<Int, Never> { observer, _ in
            observer.keepAliveUntilTerminated()
            started.continuation.yield()
        }.tapped { events.append($0) }
        let consumer = Task { for await _ in producer.values {} }
        var iterator = started.stream.makeAsyncIterator()
        _ = await iterator.next()
        consumer.cancel()
        await consumer.value
        #expect(events.all == [.interrupted])
    }

    @Test func leavingTheLoopEarlyDisposesTheRun() async {
        let lifetimes = Log<Lifetime>()
        let producer = Producer<Int, Never> { observer, lifetime in
            lifetimes.append(lifetime)
            observer.send(value: 1)
            observer.keepAliveUntilTerminated()
        }
        for await _ in producer.values { break }
        #expect(lifetimes.all.first?.hasEnded == true)
    }

    @Test func aTaskCancelledBeforeIteratingNeverStartsTheRun() async {
        let starts = Counter()
        let producer = Producer<Int, Never> { observer, _ in
            starts.increment()
            observer.sendCompleted()
        }
        let consumer = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            for await _ in producer.values {}
        }
        await consumer.value
        #expect(starts.value == 0)
    }
}

extension Producer where Value: Sendable {
    /// Calls `event` with every event of each run, on the sending thread (a test tap).
    func tapped(_ event: @escaping @Sendable (Event<Value, Failure>) -> Void) -> Producer {
        let upstream = self
        return Producer { observer, lifetime in
            let disposable = upstream.start { received in
                event(received)
                observer.send(received)
            }
            lifetime.add(disposable)
        }
    }
}
