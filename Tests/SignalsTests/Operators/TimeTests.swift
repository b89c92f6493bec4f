import PaginatedListTesting
import Signals
import Testing

@Test func debounceSendsTheLatestValueAfterAQuietInterval() {
    let scheduler = TestScheduler()
    let (signal, input) = Signal<Int, TestError>.pipe()
    let recorder = signal.debounce(.seconds(1), on: scheduler).recorded()
    input.send(value: 1)
    scheduler.advance(by: .milliseconds(500))
    input.send(value: 2)
    scheduler.advance(by: .milliseconds(999))
    #expect(recorder.values == [])
    scheduler.advance(by: .milliseconds(1))
    #expect(recorder.values == [2])
}

@Test func debounceSendsTheWaitingValueAtOnceOnCompletion() {
    let scheduler = TestScheduler()
    let (signal, input) = Signal<Int, TestError>.pipe()
    let recorder = signal.debounce(.seconds(1), on: scheduler).recorded()
    input.send(value: 1)
    input.sendCompleted()
    #expect(recorder.events == [.value(1), .completed])
    #expect(scheduler.pendingCount == 0)
}

@Test(arguments: [Terminal.failed, .interrupted])
func debounceDropsTheWaitingValueOnFailureOrInterruption(_ terminal: Terminal) {
    let scheduler = TestScheduler()
    let (signal, input) = Signal<Int, TestError>.pipe()
    let recorder = signal.debounce(.seconds(1), on: scheduler).recorded()
    input.send(value: 1)
    input.send(terminal.event())
    scheduler.run()
    #expect(recorder.events == [terminal.event()])
}

@Test func producerDebounceDisposalCancelsTheWaitingValue() {
    let scheduler = TestScheduler()
    let probe = Probe<Int, TestError>()
    let (recorder, disposable) = probe.producer.debounce(.seconds(1), on: scheduler).startRecording()
    probe.input.send(value: 1)
    disposable.dispose()
    scheduler.run()
    #expect(recorder.events == [.interrupted])
    #expect(probe.ends == 1)
}

@Test func producerDebounceForwardsCompletion() {
    let scheduler = TestScheduler()
    let (recorder, _) = Producer<Int, TestError>(values: [1, 2, 3]).debounce(.seconds(1), on: scheduler).startRecording()
    #expect(recorder.events == [.value(3), .completed])
}

@Test func throttleSendsTheFirstValueAtOnceAndTheLatestAfterTheInterval() {
    let scheduler = TestScheduler()
    let (signal, input) = Signal<Int, TestError>.pipe()
    let recorder = signal.throttle(.seconds(1), on: scheduler).recorded()
    input.send(value: 1)
    scheduler.advance()
    #expect(recorder.values == [1])
    input.send(value: 2)
    input.send(value: 3)
    scheduler.advance(by: .milliseconds(999))
    #expect(recorder.values == [1])
    scheduler.advance(by: .milliseconds(1))
    #expect(recorder.values == [1, 3])
}

@Test func throttleSendsAValueAtOnceWhenTheIntervalHasPassed() {
    let scheduler = TestScheduler()
    let (signal, input) = Signal<Int, TestError>.pipe()
    let recorder = signal.throttle(.seconds(1), on: scheduler).recorded()
    input.send(value: 1)
    scheduler.advance(by: .seconds(3))
    input.send(value: 2)
    scheduler.advance()
    #expect(recorder.values == [1, 2])
}

@Test func throttleSendsTheWaitingValueAtOnceOnCompletion() {
    let scheduler = TestScheduler()
    let (signal, input) = Signal<Int, TestError>.pipe()
    let recorder = signal.throttle(.seconds(1), on: scheduler).recorded()
    input.send(value: 1)
    input.sendCompleted()
    #expect(recorder.events == [.value(1), .completed])
}

@Test(arguments: [Terminal.failed, .interrupted])
func throttleDropsTheWaitingValueOnFailureOrInterruption(_ terminal: Terminal) {
    let scheduler = TestScheduler()
    let (signal, input) = Signal<Int, TestError>.pipe()
    let recorder = signal.throttle(.seconds(1), on: scheduler).recorded()
    input.send(value: 1)
    input.send(terminal.event())
    scheduler.run()
    #expect(recorder.events == [terminal.event()])
}

@Test func producerThrottleDisposalCancelsTheWaitingValue() {
    let scheduler = TestScheduler()
    let probe = Probe<Int, TestError>()
    let (recorder, disposable) = probe.producer.throttle(.seconds(1), on: scheduler).startRecording()
    probe.input.send(value: 1)
    disposable.dispose()
    scheduler.run()
    #expect(recorder.events == [.interrupted])
    #expect(probe.ends == 1)
}
