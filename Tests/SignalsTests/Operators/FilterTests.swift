import Signals
import Testing

@Test func signalFilterSendsOnlyIncludedValues() {
    let (signal, input) = Signal<Int, TestError>.pipe()
    let recorder = signal.filter { $0.isMultiple(of: 2) }.recorded()
    for value in 1...5 { input.send(value: value) }
    #expect(recorder.values == [2, 4])
}

@Test(arguments: Terminal.allCases)
func signalFilterForwardsTheTerminalEvent(_ terminal: Terminal) {
    let (signal, input) = Signal<Int, TestError>.pipe()
    let recorder = signal.filter { _ in false }.recorded()
    input.send(terminal.event())
    #expect(recorder.events == [terminal.event()])
}

@Test func producerFilterSendsOnlyIncludedValues() {
    let (recorder, _) = Producer<Int, TestError>(values: 1...5).filter { $0 > 3 }.startRecording()
    #expect(recorder.events == [.value(4), .value(5), .completed])
}

@Test(arguments: Terminal.allCases)
func producerFilterForwardsTheTerminalEvent(_ terminal: Terminal) {
    let probe = Probe<Int, TestError>()
    let (recorder, _) = probe.producer.filter { _ in true }.startRecording()
    probe.input.send(terminal.event())
    #expect(recorder.events == [terminal.event()])
}

@Test func producerFilterDisposalEndsTheUpstreamRun() {
    let probe = Probe<Int, TestError>()
    let (recorder, disposable) = probe.producer.filter { _ in true }.startRecording()
    disposable.dispose()
    #expect(probe.ends == 1)
    #expect(recorder.events == [.interrupted])
}

@Test func signalCompactMapDropsNilResults() {
    let (signal, input) = Signal<String, TestError>.pipe()
    let recorder = signal.compactMap { Int($0) }.recorded()
    for text in ["1", "x", "3"] { input.send(value: text) }
    #expect(recorder.values == [1, 3])
}

@Test(arguments: Terminal.allCases)
func signalCompactMapForwardsTheTerminalEvent(_ terminal: Terminal) {
    let (signal, input) = Signal<String, TestError>.pipe()
    let recorder = signal.compactMap { Int($0) }.recorded()
    input.send(terminal.event())
    #expect(recorder.events == [terminal.event()])
}

@Test func producerCompactMapDropsNilResults() {
    let (recorder, _) = Producer<String, TestError>(values: ["1", "x", "3"]).compactMap { Int($0) }.startRecording()
    #expect(recorder.events == [.value(1), .value(3), .completed])
}

@Test(arguments: Terminal.allCases)
func producerCompactMapForwardsTheTerminalEvent(_ terminal: Terminal) {
    let probe = Probe<String, TestError>()
    let (recorder, _) = probe.producer.compactMap { Int($0) }.startRecording()
    probe.input.send(terminal.event())
    #expect(recorder.events == [terminal.event()])
}

@Test func producerCompactMapDisposalEndsTheUpstreamRun() {
    let probe = Probe<String, TestError>()
    let (recorder, disposable) = probe.producer.compactMap { Int($0) }.startRecording()
    disposable.dispose()
    #expect(probe.ends == 1)
    #expect(recorder.events == [.interrupted])
}

struct WrappedError: Error, Equatable {
    var inner: TestError
}

@Test func signalMapErrorTransformsTheFailure() {
    let (signal, input) = Signal<Int, TestError>.pipe()
    let recorder = signal.mapError { WrappedError(inner: $0) }.recorded()
    input.send(value: 1)
    input.send(error: TestError(code: 3))
    #expect(recorder.events == [.value(1), .failed(WrappedError(inner: TestError(code: 3)))])
}

@Test func producerMapErrorTransformsTheFailure() {
    let (recorder, _) = Producer<Int, TestError>(error: TestError(code: 2))
        .mapError { WrappedError(inner: $0) }.startRecording()
    #expect(recorder.events == [.failed(WrappedError(inner: TestError(code: 2)))])
}

@Test(arguments: [Terminal.completed, .interrupted])
func producerMapErrorForwardsOtherTerminalEvents(_ terminal: Terminal) {
    let probe = Probe<Int, TestError>()
    let recorder = Recorder<Int, WrappedError>()
    probe.producer.mapError { WrappedError(inner: $0) }.start { recorder.record($0) }
    probe.input.send(terminal.event())
    #expect(recorder.events == [terminal == .completed ? .completed : .interrupted])
}

@Test func producerMapErrorDisposalEndsTheUpstreamRun() {
    let probe = Probe<Int, TestError>()
    let disposable = probe.producer.mapError { WrappedError(inner: $0) }.start()
    disposable.dispose()
    #expect(probe.ends == 1)
}

@Test func ignoreErrorsTurnsAFailureIntoCompletion() {
    let (signal, input) = Signal<Int, TestError>.pipe()
    let recorder = signal.ignoreErrors().recorded()
    let (producerRecorder, _) = Producer<Int, TestError>(error: TestError()).ignoreErrors().startRecording()
    input.send(value: 1)
    input.send(error: TestError())
    #expect(recorder.events == [.value(1), .completed])
    #expect(producerRecorder.events == [.completed])
}

@Test func promoteErrorLetsANeverFailingStreamMeetAFailingOne() {
    let (signal, input) = Signal<Int, Never>.pipe()
    let recorder = signal.promoteError(TestError.self).recorded()
    let (producerRecorder, _) = Producer<Int, Never>(value: 1).promoteError(TestError.self).startRecording()
    input.send(value: 1)
    input.sendCompleted()
    #expect(recorder.events == [.value(1), .completed])
    #expect(producerRecorder.events == [.value(1), .completed])
}
