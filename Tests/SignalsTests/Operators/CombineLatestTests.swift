import Signals
import Testing

@Test func signalCombineLatestSendsPairsOnceBothHaveSent() {
    let (letters, sendLetter) = Signal<String, TestError>.pipe()
    let (numbers, sendNumber) = Signal<Int, TestError>.pipe()
    let recorder = Signal.combineLatest(letters, numbers).map { "\($0)\($1)" }.recorded()
    sendLetter.send(value: "a")
    sendLetter.send(value: "b")
    sendNumber.send(value: 1)
    sendLetter.send(value: "c")
    sendNumber.send(value: 2)
    #expect(recorder.values == ["b1", "c1", "c2"])
}

@Test func signalCombineLatestCompletesOnlyWhenBothComplete() {
    let (a, sendA) = Signal<Int, TestError>.pipe()
    let (b, sendB) = Signal<Int, TestError>.pipe()
    let recorder = a.combineLatest(with: b).map { $0 + $1 }.recorded()
    sendA.send(value: 1)
    sendA.sendCompleted()
    sendB.send(value: 2)
    #expect(recorder.events == [.value(3)])
    sendB.sendCompleted()
    #expect(recorder.events == [.value(3), .completed])
}

@Test(arguments: [Terminal.failed, .interrupted])
func signalCombineLatestEndsAsSoonAsEitherSourceFailsOrIsInterrupted(_ terminal: Terminal) {
    let (a, sendA) = Signal<Int, TestError>.pipe()
    let (b, sendB) = Signal<Int, TestError>.pipe()
    let recorder = Signal.combineLatest(a, b).map { $0 + $1 }.recorded()
    sendB.send(terminal.event())
    #expect(recorder.events == [terminal.event()])
    withExtendedLifetime(sendA) {}
}

@Test func producerCombineLatestStartsBothAndCombines() {
    let (recorder, _) = Producer.combineLatest(Producer<Int, TestError>(value: 1), Producer<Int, TestError>(values: [10, 20]))
        .map { $0 + $1 }
        .startRecording()
    #expect(recorder.events == [.value(11), .value(21), .completed])
}

@Test(arguments: [Terminal.failed, .interrupted])
func producerCombineLatestDisposesTheOtherRunWhenOneEnds(_ terminal: Terminal) {
    let a = Probe<Int, TestError>()
    let b = Probe<Int, TestError>()
    let (recorder, _) = a.producer.combineLatest(with: b.producer).map { $0 + $1 }.startRecording()
    a.input.send(terminal.event())
    #expect(recorder.events == [terminal.event()])
    #expect(b.ends == 1)
}

@Test func producerCombineLatestDoesNotStartTheSecondWhenTheFirstFailsAtOnce() {
    let b = Probe<Int, TestError>()
    let (recorder, _) = Producer.combineLatest(Producer<Int, TestError>(error: TestError()), b.producer)
        .map { $0 + $1 }.startRecording()
    #expect(recorder.events == [.failed(TestError())])
    #expect(b.starts == 0)
}

@Test func producerCombineLatestDisposalEndsBothRuns() {
    let a = Probe<Int, TestError>()
    let b = Probe<Int, TestError>()
    let (recorder, disposable) = Producer.combineLatest(a.producer, b.producer).map { $0 + $1 }.startRecording()
    disposable.dispose()
    #expect(recorder.events == [.interrupted])
    #expect(a.ends == 1 && b.ends == 1)
}
