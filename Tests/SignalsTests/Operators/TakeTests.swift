import Signals
import Testing

@Test func signalTakeFirstSendsTheFirstValuesThenCompletes() {
    let (signal, input) = Signal<Int, TestError>.pipe()
    let recorder = signal.take(first: 2).recorded()
    for value in 1...4 { input.send(value: value) }
    #expect(recorder.events == [.value(1), .value(2), .completed])
}

@Test(arguments: Terminal.allCases)
func signalTakeFirstForwardsAnEarlierTerminalEvent(_ terminal: Terminal) {
    let (signal, input) = Signal<Int, TestError>.pipe()
    let recorder = signal.take(first: 2).recorded()
    input.send(value: 1)
    input.send(terminal.event())
    #expect(recorder.events == [.value(1), terminal.event()])
}

@Test func signalTakeFirstStopsObservingTheSourceAfterTheLastValue() {
    let (signal, input) = Signal<Int, TestError>.pipe()
    weak var weakOutput: Signal<Int, TestError>?
    do {
        let output = signal.take(first: 1)
        weakOutput = output
        input.send(value: 1)
    }
    // The source no longer holds the operator's observer, which held the output's input.
    #expect(weakOutput == nil)
}

@Test func producerTakeFirstSendsTheFirstValuesThenCompletes() {
    let (recorder, _) = Producer<Int, TestError>(values: 1...10).take(first: 3).startRecording()
    #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
}

@Test func producerTakeFirstDisposesUpstreamAfterTheLastValue() {
    let probe = Probe<Int, TestError>()
    let (recorder, _) = probe.producer.take(first: 2).startRecording()
    probe.input.send(value: 1)
    #expect(probe.ends == 0)
    probe.input.send(value: 2)
    #expect(probe.ends == 1)
    #expect(recorder.events == [.value(1), .value(2), .completed])
}

@Test func producerTakeFirstZeroCompletesWithoutStartingUpstream() {
    let probe = Probe<Int, TestError>()
    let (recorder, _) = probe.producer.take(first: 0).startRecording()
    #expect(probe.starts == 0)
    #expect(recorder.events == [.completed])
}

@Test(arguments: Terminal.allCases)
func producerTakeFirstForwardsAnEarlierTerminalEvent(_ terminal: Terminal) {
    let probe = Probe<Int, TestError>()
    let (recorder, _) = probe.producer.take(first: 2).startRecording()
    probe.input.send(terminal.event())
    #expect(recorder.events == [terminal.event()])
}

@Test func producerTakeFirstDisposalEndsTheUpstreamRun() {
    let probe = Probe<Int, TestError>()
    let (recorder, disposable) = probe.producer.take(first: 2).startRecording()
    disposable.dispose()
    #expect(probe.ends == 1)
    #expect(recorder.events == [.interrupted])
}

@Test func signalTakeUntilCompletesWhenTheTriggerSendsAValue() {
    let (signal, input) = Signal<Int, TestError>.pipe()
    let (trigger, fire) = Signal<Void, Never>.pipe()
    let recorder = signal.take(until: trigger).recorded()
    input.send(value: 1)
    fire.send(value: ())
    input.send(value: 2)
    #expect(recorder.events == [.value(1), .completed])
}

@Test func signalTakeUntilCompletesWhenTheTriggerCompletes() {
    let (signal, input) = Signal<Int, TestError>.pipe()
    let (trigger, fire) = Signal<Void, Never>.pipe()
    let recorder = signal.take(until: trigger).recorded()
    fire.sendCompleted()
    #expect(recorder.events == [.completed])
    withExtendedLifetime(input) {}
}

@Test func signalTakeUntilIgnoresAnInterruptedTrigger() {
    let (signal, input) = Signal<Int, TestError>.pipe()
    let (trigger, fire) = Signal<Void, Never>.pipe()
    let recorder = signal.take(until: trigger).recorded()
    fire.sendInterrupted()
    input.send(value: 1)
    #expect(recorder.events == [.value(1)])
}

@Test(arguments: Terminal.allCases)
func signalTakeUntilForwardsTheSourcesTerminalEvent(_ terminal: Terminal) {
    let (signal, input) = Signal<Int, TestError>.pipe()
    let (trigger, _) = Signal<Void, Never>.pipe()
    let recorder = signal.take(until: trigger).recorded()
    input.send(terminal.event())
    #expect(recorder.events == [terminal.event()])
}

@Test func producerTakeUntilDisposesBothRunsWhenTheTriggerFires() {
    let probe = Probe<Int, TestError>()
    let trigger = Probe<Void, Never>()
    let (recorder, _) = probe.producer.take(until: trigger.producer).startRecording()
    probe.input.send(value: 1)
    trigger.input.send(value: ())
    #expect(recorder.events == [.value(1), .completed])
    #expect(probe.ends == 1)
    #expect(trigger.ends == 1)
}

@Test func producerTakeUntilAnImmediateTriggerCompletesBeforeUpstreamStarts() {
    let probe = Probe<Int, TestError>()
    let (recorder, _) = probe.producer.take(until: Producer<Void, Never>(value: ())).startRecording()
    #expect(recorder.events == [.completed])
    #expect(probe.starts == 0)
}

@Test(arguments: Terminal.allCases)
func producerTakeUntilForwardsTheSourcesTerminalEvent(_ terminal: Terminal) {
    let probe = Probe<Int, TestError>()
    let trigger = Probe<Void, Never>()
    let (recorder, _) = probe.producer.take(until: trigger.producer).startRecording()
    probe.input.send(terminal.event())
    #expect(recorder.events == [terminal.event()])
    #expect(trigger.ends == 1)
}

@Test func producerTakeUntilDisposalEndsBothRuns() {
    let probe = Probe<Int, TestError>()
    let trigger = Probe<Void, Never>()
    let (recorder, disposable) = probe.producer.take(until: trigger.producer).startRecording()
    disposable.dispose()
    #expect(recorder.events == [.interrupted])
    #expect(probe.ends == 1)
    #expect(trigger.ends == 1)
}

@Test func producerTakeUntilSignalCompletesWhenTheTriggerSends() {
    let probe = Probe<Int, TestError>()
    let (trigger, fire) = Signal<Int, Never>.pipe()
    let (recorder, _) = probe.producer.take(until: trigger).startRecording()
    fire.send(value: 0)
    #expect(recorder.events == [.completed])
    #expect(probe.ends == 1)
}
