import PaginatedListTesting
import Signals
import Testing

@Test func signalObserveOnDeliversOnlyWhenTheSchedulerRuns() {
    let scheduler = TestScheduler()
    let (signal, input) = Signal<Int, TestError>.pipe()
    let recorder = signal.observe(on: scheduler).recorded()
    input.send(value: 1)
    input.sendCompleted()
    #expect(recorder.events.isEmpty)
    scheduler.advance()
    #expect(recorder.events == [.value(1), .completed])
}

@Test(arguments: Terminal.allCases)
func producerObserveOnForwardsTheTerminalEventOnTheScheduler(_ terminal: Terminal) {
    let scheduler = TestScheduler()
    let probe = Probe<Int, TestError>()
    let (recorder, _) = probe.producer.observe(on: scheduler).startRecording()
    probe.input.send(terminal.event())
    #expect(recorder.events.isEmpty)
    scheduler.advance()
    #expect(recorder.events == [terminal.event()])
}

@Test func producerObserveOnDisposalDropsScheduledEvents() {
    let scheduler = TestScheduler()
    let probe = Probe<Int, TestError>()
    let (recorder, disposable) = probe.producer.observe(on: scheduler).startRecording()
    probe.input.send(value: 1)
    disposable.dispose()
    scheduler.advance()
    #expect(recorder.events == [.interrupted])
    #expect(probe.ends == 1)
}

@Test func startOnRunsTheStartHandlerOnTheScheduler() {
    let scheduler = TestScheduler()
    let probe = Probe<Int, TestError>()
    let (recorder, _) = probe.producer.start(on: scheduler).startRecording()
    #expect(probe.starts == 0)
    scheduler.advance()
    #expect(probe.starts == 1)
    probe.input.send(value: 1)
    probe.input.sendCompleted()
    #expect(recorder.events == [.value(1), .completed])
}

@Test func startOnDisposalBeforeTheSchedulerRanCancelsTheStart() {
    let scheduler = TestScheduler()
    let probe = Probe<Int, TestError>()
    let (recorder, disposable) = probe.producer.start(on: scheduler).startRecording()
    disposable.dispose()
    scheduler.run()
    #expect(probe.starts == 0)
    #expect(recorder.events == [.interrupted])
}

@Test func startOnKeepsTheRunGoingUntilTheHandlerRan() {
    let scheduler = TestScheduler()
    let (recorder, _) = Producer<Int, TestError>(value: 1).start(on: scheduler).startRecording()
    #expect(recorder.events.isEmpty)
    scheduler.advance()
    #expect(recorder.events == [.value(1), .completed])
}

@Test(arguments: [Terminal.failed, .interrupted])
func startOnForwardsTheTerminalEvent(_ terminal: Terminal) {
    let scheduler = TestScheduler()
    let probe = Probe<Int, TestError>()
    let (recorder, _) = probe.producer.start(on: scheduler).startRecording()
    scheduler.advance()
    probe.input.send(terminal.event())
    #expect(recorder.events == [terminal.event()])
}
