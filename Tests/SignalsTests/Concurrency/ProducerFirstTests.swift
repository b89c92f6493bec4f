import Testing
import Signals

@Suite struct ProducerFirstTests {
    @Test func firstReturnsTheFirstValue() async {
        #expect(await Producer<Int, Never>(values: [4, 5, 6]).first() == 4)
    }

    @Test func firstDisposesTheRunOnceTheValueHasArrived() async {
        let lifetimes = Log<Lifetime>()
        let producer = Producer<Int, Never> { observer, lifetime in
            lifetimes.append(lifetime)
            observer.send(value: 1)
            observer.keepAliveUntilTerminated()
        }
        #expect(await producer.first() == 1)
        #expect(lifetimes.all.first?.hasEnded == true)
    }

    @Test func firstStopsASynchronousProducerAtItsFirstValue() async {
        let sent = Locked(0)
        // (A thousand, not an endless sequence: a `first()` that ran it to its end fails this test rather
        // than hang it.)
        let many = Producer<Int, Never> { observer, lifetime in
            for value in 1 ... 1_000 where !lifetime.hasEnded {
                sent.withLock { $0 += 1 }
                observer.send(value: value)
            }
            observer.sendCompleted()
        }
        #expect(await many.first() == 1)
        #expect(sent.withLock { $0 } == 1)
    }

    @Test func firstReturnsNilWhenTheRunCompletesWithoutAValue() async {
        #expect(await Producer<Int, Never>.empty.first() == nil)
    }

    @Test func firstReturnsNilWhenTheRunIsInterruptedBeforeAValue() async {
        let producer = Producer<Int, Never> { observer, _ in observer.sendInterrupted() }
        #expect(await producer.first() == nil)
    }

    @Test func firstThrowsTheFailureOfARunThatFailsBeforeAValue() async {
        await #expect(throws: TestError(code: 5)) {
            try await Producer<Int, TestError>(error: TestError(code: 5)).first()
        }
    }

    @Test func cancellingTheAwaitingTaskDisposesTheRunAndReturnsNil() async {
        let started = AsyncStream<Lifetime>.makeStream()
        let producer = Producer<Int, Never> { observer, lifetime in
            observer.keepAliveUntilTerminated()
            started.continuation.yield(lifetime)
        }
        let waiting = Task { await producer.first() }
        var lifetimes = started.stream.makeAsyncIterator()
        let lifetime = await lifetimes.next()!
        waiting.cancel()
        #expect(await waiting.value == nil)
        #expect(lifetime.hasEnded)
    }
}
