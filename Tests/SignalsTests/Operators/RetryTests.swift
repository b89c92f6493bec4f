import PaginatedListTesting
import Signals
import Synchronization
import Testing

/// A producer that fails its first `failures` runs (after sending the attempt number), then succeeds.
private func flaky(failures: Int, attempts: Log<String>) -> Producer<Int, TestError> {
    Producer { observer, _ in
        attempts.append("attempt")
        let attempt = attempts.all.count
        observer.send(value: attempt)
        if attempt <= failures { observer.send(error: TestError(code: attempt)) } else { observer.sendCompleted() }
    }
}

@Test func retryRestartsAfterAFailure() {
    let attempts = Log<String>()
    let (recorder, _) = flaky(failures: 2, attempts: attempts).retry(upTo: 2).startRecording()
    #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
}

@Test func retryForwardsTheFailureAfterTheLastRetry() {
    let attempts = Log<String>()
    let (recorder, _) = flaky(failures: 5, attempts: attempts).retry(upTo: 1).startRecording()
    #expect(recorder.events == [.value(1), .value(2), .failed(TestError(code: 2))])
    #expect(attempts.all.count == 2)
}

@Test func retryStartsTheNextAttemptAfterTheFailedOneHasEnded() {
    let active = Locked(0)
    let activeAtStart = Log<Int>()
    let producer = Producer<Int, TestError> { observer, lifetime in
        active.withLock { $0 += 1 }
        lifetime.observeEnded { active.withLock { $0 -= 1 } }
        activeAtStart.append(active.withLock { $0 })
        observer.send(error: TestError(code: 1))
    }
    let (recorder, _) = producer.retry(upTo: 2).startRecording()
    #expect(recorder.events == [.failed(TestError(code: 1))])
    #expect(activeAtStart.all == [1, 1, 1])
}

@Test func retriesOfAProducerThatFailsAsItStartsDoNotNest() {
    let depth = Locked((current: 0, deepest: 0))
    let producer = Producer<Int, TestError> { observer, _ in
        depth.withLock { $0.current += 1; $0.deepest = max($0.deepest, $0.current) }
        observer.send(error: TestError(code: 1))
        depth.withLock { $0.current -= 1 }
    }
    let (recorder, _) = producer.retry(upTo: 1_000).startRecording()
    #expect(recorder.events == [.failed(TestError(code: 1))])
    #expect(depth.withLock { $0.deepest } == 1)
}

@Test func retryDoesNotRestartAnInterruptedRun() {
    let probe = Probe<Int, TestError>()
    let (recorder, _) = probe.producer.retry(upTo: 3).startRecording()
    probe.input.sendInterrupted()
    #expect(recorder.events == [.interrupted])
    #expect(probe.starts == 1)
}

@Test func retryDisposalDisposesTheCurrentAttempt() {
    let probe = Probe<Int, TestError>()
    let (recorder, disposable) = probe.producer.retry(upTo: 3).startRecording()
    probe.input.send(error: TestError())
    disposable.dispose()
    #expect(probe.starts == 2)
    #expect(probe.ends == 2)
    #expect(recorder.events == [.interrupted])
}

@Test func retryWithIntervalWaitsOnTheScheduler() {
    let scheduler = TestScheduler()
    let attempts = Log<String>()
    let (recorder, _) = flaky(failures: 1, attempts: attempts)
        .retry(upTo: 1, interval: .seconds(5), on: scheduler).startRecording()
    scheduler.advance(by: .seconds(4))
    #expect(attempts.all.count == 1)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.events == [.value(1), .value(2), .completed])
}

@Test func retryWithIntervalDisposalCancelsTheWaitingRetry() {
    let scheduler = TestScheduler()
    let attempts = Log<String>()
    let (recorder, disposable) = flaky(failures: 1, attempts: attempts)
        .retry(upTo: 1, interval: .seconds(5), on: scheduler).startRecording()
    disposable.dispose()
    scheduler.run()
    #expect(attempts.all.count == 1)
    #expect(recorder.events == [.value(1), .interrupted])
}
