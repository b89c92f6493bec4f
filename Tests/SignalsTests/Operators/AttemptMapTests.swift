import Signals
import Testing

private func parse(_ text: String) throws(TestError) -> Int {
    guard let number = Int(text) else { throw TestError(code: 9) }
    return number
}

@Test func signalAttemptMapSendsTheTransformedValues() {
    let (signal, input) = Signal<String, TestError>.pipe()
    let recorder = signal.attemptMap(parse).recorded()
    input.send(value: "1")
    input.send(value: "2")
    #expect(recorder.events == [.value(1), .value(2)])
}

@Test func signalAttemptMapFailsWithTheThrownErrorAndStopsTransforming() {
    let (signal, input) = Signal<String, TestError>.pipe()
    let calls = Log<String>()
    let recorder = signal.attemptMap { text throws(TestError) in
        calls.append(text)
        return try parse(text)
    }.recorded()
    input.send(value: "1")
    input.send(value: "x")
    input.send(value: "3")
    #expect(recorder.events == [.value(1), .failed(TestError(code: 9))])
    #expect(calls.all == ["1", "x"])
}

@Test func producerAttemptMapFailsTheRunAndDisposesTheUpstream() {
    let probe = Probe<String, TestError>()
    let (recorder, _) = probe.producer.attemptMap(parse).startRecording()
    probe.input.send(value: "7")
    probe.input.send(value: "seven")
    #expect(recorder.events == [.value(7), .failed(TestError(code: 9))])
    #expect(probe.ends == 1)
}

@Test func deferredMakesTheProducerAnewAtEveryStart() {
    let made = Counter()
    let producer = Producer<Int, TestError>.deferred {
        Producer(value: made.increment())
    }
    #expect(made.value == 0)
    let (first, _) = producer.startRecording()
    let (second, _) = producer.startRecording()
    #expect(first.events == [.value(1), .completed])
    #expect(second.events == [.value(2), .completed])
}

@Test func deferredDisposalDisposesTheInnerRun() {
    let probe = Probe<Int, TestError>()
    let (recorder, disposable) = Producer.deferred { probe.producer }.startRecording()
    disposable.dispose()
    #expect(probe.ends == 1)
    #expect(recorder.events == [.interrupted])
}

@Test func startFirstCallsItsBodyOnceWithTheFirstEvent() {
    let probe = Probe<Int, TestError>()
    let recorder = Recorder<Int, TestError>()
    let (lifetime, token) = Lifetime.make()
    probe.producer.startFirst(in: lifetime) { recorder.record($0) }
    probe.input.send(value: 1)
    probe.input.send(value: 2)
    probe.input.sendCompleted()
    #expect(recorder.events == [.value(1)])
    withExtendedLifetime(token) {}
}

@Test func startFirstDisposesTheRunWhenTheLifetimeEnds() {
    let probe = Probe<Int, TestError>()
    let (lifetime, token) = Lifetime.make()
    probe.producer.startFirst(in: lifetime) { _ in }
    #expect(probe.ends == 0)
    token.end()
    #expect(probe.ends == 1)
}
