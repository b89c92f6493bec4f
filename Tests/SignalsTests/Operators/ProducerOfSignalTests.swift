import Signals
import Testing

// `Producer(signal)`: each run forwards what the signal sends from its start until it is disposed.

@Test func aRunForwardsTheValuesSentAfterItStartedThenTheTerminalEvent() {
    let (signal, input) = Signal<Int, TestError>.pipe()
    input.send(value: 0)
    let (recorder, _) = Producer(signal).startRecording()
    input.send(value: 1)
    input.send(value: 2)
    input.send(error: .boom)
    #expect(recorder.events == [.value(1), .value(2), .failed(.boom)])
}

@Test func disposingARunInterruptsItAndLeavesTheOtherRuns() {
    let (signal, input) = Signal<Int, TestError>.pipe()
    let producer = Producer(signal)
    let (first, firstRun) = producer.startRecording()
    let (second, _) = producer.startRecording()
    input.send(value: 1)
    firstRun.dispose()
    input.send(value: 2)
    #expect(first.events == [.value(1), .interrupted])
    #expect(second.events == [.value(1), .value(2)])
}

@Test func aRunStartedOnATerminatedSignalIsInterruptedAtOnce() {
    let (signal, input) = Signal<Int, TestError>.pipe()
    input.sendCompleted()
    let (recorder, _) = Producer(signal).startRecording()
    #expect(recorder.events == [.interrupted])
}
