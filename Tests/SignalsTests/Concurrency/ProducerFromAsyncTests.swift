import Testing
import Signals

@Suite struct ProducerFromAsyncTests {
    @Test func operationResultIsSentThenTheRunCompletes() async {
        let producer = Producer<Int, Never> { () async in 42 }
        var seen: [Int] = []
        for await value in producer.values { seen.append(value) }
        #expect(seen == [42])
    }

    @Test func typedErrorOfTheOperationFailsTheRun() async {
        let producer = Producer<Int, TestError> { () async throws(TestError) -> Int in throw TestError(code: 9) }
        await #expect(throws: TestError(code: 9)) { try await producer.first() }
    }

    @Test func untypedThrowingOperationMakesAnAnyErrorProducer() async {
        let producer = Producer { () async throws -> Int in throw TestError(code: 4) }
        let failure: Producer<Int, any Error> = producer
        await #expect(throws: TestError(code: 4)) { try await failure.first() }
    }

    @Test func eachRunCallsTheOperationAgain() async {
        let calls = Counter()
        let producer = Producer<Int, Never> { () async -> Int in
            calls.increment()
            return calls.value
        }
        #expect(await producer.first() == 1)
        #expect(await producer.first() == 2)
    }

    @Test func disposingTheRunCancelsTheOperationsTask() async {
        let sawCancellation = AsyncStream<Bool>.makeStream()
        let running = AsyncStream<Void>.makeStream()
        let producer = Producer<Int, Never> { () async -> Int in
            running.continuation.yield()
            // Awaits cancellation: sleeps "forever" unless the task is cancelled.
            try? await Task.sleep(for: .seconds(3600))
            sawCancellation.continuation.yield(Task.isCancelled)
            return 0
        }
        let events = Log<Event<Int, Never>>()
        let disposable = producer.start { events.append($0) }
        var runningIterator = running.stream.makeAsyncIterator()
        await runningIterator.next()
        disposable.dispose()
        let cancelled = await firstElement(of: sawCancellation.stream)
        #expect(cancelled == true)
        #expect(events.all == [.interrupted])   // the value returned after cancellation is dropped
    }

    @Test func asyncSequenceElementsAreSentThenTheRunCompletes() async {
        let producer = Producer(values: AsyncStream<Int> { continuation in
            for i in 1...3 { continuation.yield(i) }
            continuation.finish()
        })
        var seen: [Int] = []
        for await value in producer.values { seen.append(value) }
        #expect(seen == [1, 2, 3])
    }

    @Test func asyncSequenceErrorFailsTheRun() async {
        let stream = AsyncThrowingStream<Int, any Error> { continuation in
            continuation.yield(1)
            continuation.finish(throwing: TestError(code: 2))
        }
        let producer = Producer(values: stream)
        var seen: [Int] = []
        await #expect(throws: TestError(code: 2)) {
            for try await value in producer.values { seen.append(value) }
        }
        #expect(seen == [1])
    }

    @Test func disposingTheRunCancelsTheIterationOfTheAsyncSequence() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let terminated = AsyncStream<Void>.makeStream()
        continuation.onTermination = { _ in
            terminated.continuation.yield()
        }
        let producer = Producer(values: stream)
        let disposable = producer.start()
        disposable.dispose()
        let ended: Void? = await firstElement(of: terminated.stream)
        #expect(ended != nil)
    }
}
