import Signals
import Testing

@Test func signalOnRunsTheValueSideEffectBeforeForwarding() {
    let (signal, input) = Signal<Int, TestError>.pipe()
    let log = Log<String>()
    signal.on(value: { log.append("on \($0)") }).observeValues { log.append("got \($0)") }
    input.send(value: 1)
    #expect(log.all == ["on 1", "got 1"])
}

@Test(arguments: Terminal.allCases)
func signalOnRunsTheTerminalSideEffectThenTerminated(_ terminal: Terminal) {
    let (signal, input) = Signal<Int, TestError>.pipe()
    let log = Log<String>()
    let recorder = signal.on(
        failed: { log.append("failed \($0.code)") },
        completed: { log.append("completed") },
        interrupted: { log.append("interrupted") },
        terminated: { log.append("terminated") }
    ).recorded()
    input.send(terminal.event())
    let expected = [Terminal.failed: "failed 7", .completed: "completed", .interrupted: "interrupted"][terminal]!
    #expect(log.all == [expected, "terminated"])
    #expect(recorder.events == [terminal.event()])
}

@Test func producerOnRunsStartedBeforeTheUpstreamStarts() {
    let log = Log<String>()
    Producer<Int, TestError> { observer, _ in log.append("handler"); observer.sendCompleted() }
        .on(started: { log.append("started") })
        .start()
    #expect(log.all == ["started", "handler"])
}

@Test func producerOnRunsDisposedAfterTheRunTerminates() {
    let log = Log<String>()
    let (recorder, _) = Producer<Int, TestError>(value: 1)
        .on(value: { log.append("value \($0)") }, completed: { log.append("completed") },
            terminated: { log.append("terminated") }, disposed: { log.append("disposed") })
        .startRecording()
    #expect(log.all == ["value 1", "completed", "terminated", "disposed"])
    #expect(recorder.events == [.value(1), .completed])
}

@Test func producerOnRunsInterruptedAndDisposedWhenTheRunIsDisposed() {
    let probe = Probe<Int, TestError>()
    let log = Log<String>()
    let disposable = probe.producer
        .on(interrupted: { log.append("interrupted") }, disposed: { log.append("disposed") })
        .start()
    disposable.dispose()
    #expect(log.all == ["interrupted", "disposed"])
    #expect(probe.ends == 1)
}

@Test(arguments: [Terminal.failed, .interrupted])
func producerOnForwardsTheTerminalEvent(_ terminal: Terminal) {
    let probe = Probe<Int, TestError>()
    let log = Log<String>()
    let (recorder, _) = probe.producer.on(terminated: { log.append("terminated") }).startRecording()
    probe.input.send(terminal.event())
    #expect(recorder.events == [terminal.event()])
    #expect(log.all == ["terminated"])
}
