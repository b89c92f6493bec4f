import Signals
import Testing

@Test func signalSkipRepeatsDropsConsecutiveEqualValues() {
    let (signal, input) = Signal<Int, TestError>.pipe()
    let recorder = signal.skipRepeats().recorded()
    for value in [1, 1, 2, 2, 1] { input.send(value: value) }
    #expect(recorder.values == [1, 2, 1])
}

@Test func signalSkipRepeatsByUsesTheGivenEquivalence() {
    let (signal, input) = Signal<String, TestError>.pipe()
    let recorder = signal.skipRepeats { $0.lowercased() == $1.lowercased() }.recorded()
    for value in ["a", "A", "b"] { input.send(value: value) }
    #expect(recorder.values == ["a", "b"])
}

@Test(arguments: Terminal.allCases)
func signalSkipRepeatsForwardsTheTerminalEvent(_ terminal: Terminal) {
    let (signal, input) = Signal<Int, TestError>.pipe()
    let recorder = signal.skipRepeats().recorded()
    input.send(terminal.event())
    #expect(recorder.events == [terminal.event()])
}

@Test func producerSkipRepeatsForgetsThePreviousValueBetweenRuns() {
    let producer = Producer<Int, TestError>(values: [1, 1, 2]).skipRepeats()
    let (first, _) = producer.startRecording()
    let (second, _) = producer.startRecording()
    #expect(first.events == [.value(1), .value(2), .completed])
    #expect(second.events == first.events)
}

@Test(arguments: Terminal.allCases)
func producerSkipRepeatsForwardsTheTerminalEvent(_ terminal: Terminal) {
    let probe = Probe<Int, TestError>()
    let (recorder, _) = probe.producer.skipRepeats().startRecording()
    probe.input.send(terminal.event())
    #expect(recorder.events == [terminal.event()])
}

@Test func producerSkipRepeatsDisposalEndsTheUpstreamRun() {
    let probe = Probe<Int, TestError>()
    let (recorder, disposable) = probe.producer.skipRepeats { $0 == $1 }.startRecording()
    disposable.dispose()
    #expect(probe.ends == 1)
    #expect(recorder.events == [.interrupted])
}
