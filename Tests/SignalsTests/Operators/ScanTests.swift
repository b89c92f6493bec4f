import Signals
import Testing

@Test func signalScanSendsEveryAccumulation() {
    let (signal, input) = Signal<Int, TestError>.pipe()
    let recorder = signal.scan(10) { $0 + $1 }.recorded()
    for value in 1...3 { input.send(value: value) }
    #expect(recorder.values == [11, 13, 16])
}

@Test(arguments: Terminal.allCases)
func signalScanForwardsTheTerminalEvent(_ terminal: Terminal) {
    let (signal, input) = Signal<Int, TestError>.pipe()
    let recorder = signal.scan(0) { $0 + $1 }.recorded()
    input.send(value: 1)
    input.send(terminal.event())
    #expect(recorder.events == [.value(1), terminal.event()])
}

@Test func producerScanStartsFromTheInitialValueInEveryRun() {
    let producer = Producer<Int, TestError>(values: [1, 2]).scan(0) { $0 + $1 }
    let (first, _) = producer.startRecording()
    let (second, _) = producer.startRecording()
    #expect(first.events == [.value(1), .value(3), .completed])
    #expect(second.events == first.events)
}

@Test(arguments: Terminal.allCases)
func producerScanForwardsTheTerminalEvent(_ terminal: Terminal) {
    let probe = Probe<Int, TestError>()
    let (recorder, _) = probe.producer.scan(0) { $0 + $1 }.startRecording()
    probe.input.send(terminal.event())
    #expect(recorder.events == [terminal.event()])
}

@Test func producerScanDisposalEndsTheUpstreamRun() {
    let probe = Probe<Int, TestError>()
    let (recorder, disposable) = probe.producer.scan(0) { $0 + $1 }.startRecording()
    disposable.dispose()
    #expect(probe.ends == 1)
    #expect(recorder.events == [.interrupted])
}
