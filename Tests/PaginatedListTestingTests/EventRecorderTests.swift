import Foundation
import PaginatedListTesting
import Signals
import Testing

private enum Failure: Error, Equatable { case boom }

@Suite struct EventRecorderTests {
    @Test func recordingAProducerCapturesEveryEventOfTheRunInOrder() {
        let recorder = Producer<Int, Failure> { observer, _ in
            observer.send(value: 1)
            observer.send(value: 2)
            observer.send(error: .boom)
        }.record()
        #expect(recorder.events == [.value(1), .value(2), .failed(.boom)])
        #expect(recorder.values == [1, 2])
        #expect(recorder.terminal == .failed(.boom))
        #expect(recorder.isTerminated)
    }

    @Test func recordingASignalCapturesTheEventsSentAfterward() {
        let (signal, input) = Signal<Int, Never>.pipe()
        input.send(value: 0)
        let recorder = signal.record()
        input.send(value: 1)
        #expect(recorder.values == [1])
        #expect(!recorder.isTerminated)
        #expect(recorder.terminal == nil)
        input.sendCompleted()
        #expect(recorder.events == [.value(1), .completed])
    }

    @Test func recordingATerminatedSignalRecordsInterrupted() {
        let (signal, input) = Signal<Int, Never>.pipe()
        input.sendCompleted()
        #expect(signal.record().events == [.interrupted])
    }

    @Test func disposingAProducerRecorderInterruptsTheRun() {
        let recorder = Producer<Int, Never>.never.record()
        #expect(!recorder.isDisposed)
        recorder.dispose()
        #expect(recorder.isDisposed)
        #expect(recorder.events == [.interrupted])
    }

    @Test func disposingASignalRecorderStopsRecording() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.record()
        input.send(value: 1)
        recorder.dispose()
        input.send(value: 2)
        #expect(recorder.events == [.value(1)])
    }

    @Test func theRecordersObserverRecordsWhatItIsSent() {
        let recorder = EventRecorder<Int, Never>()
        Producer<Int, Never>(values: [1, 2]).start(recorder.observer)
        #expect(recorder.events == [.value(1), .value(2), .completed])
    }

    @Test func theRecorderRecordsEventsAfterATerminalEventButReportsTheFirstTerminal() {
        let recorder = EventRecorder<Int, Failure>()
        recorder.record(.completed)
        recorder.record(.value(1))
        recorder.record(.failed(.boom))
        #expect(recorder.events == [.completed, .value(1), .failed(.boom)])
        #expect(recorder.terminal == .completed)
    }

    @Test func aDisposableHeldAfterTheRecorderIsDisposedIsDisposedAtOnce() {
        let recorder = EventRecorder<Int, Never>()
        recorder.dispose()
        let source = AnyDisposable()
        recorder.hold(source)
        #expect(source.isDisposed)
    }

    @Test func eventsRecordedFromManyThreadsAreAllKept() {
        let recorder = EventRecorder<Int, Never>()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for value in 0..<250 { recorder.record(.value(thread * 1_000 + value)) }
        }
        #expect(recorder.values.count == 2_000)
        #expect(Set(recorder.values).count == 2_000)
    }

    @Test func terminatedReturnsTheTerminalEventOnceItIsRecorded() async {
        let recorder = Producer<Int, Never> { observer, _ in
            DispatchQueue.global().async {
                observer.send(value: 1)
                observer.sendCompleted()
            }
        }.record()
        let terminal = await recorder.terminated()
        #expect(terminal == .completed)
        #expect(recorder.values == [1])
    }

    @Test func terminatedReturnsAtOnceWhenTheStreamHasAlreadyEnded() async {
        let recorder = Producer<Int, Never>(value: 1).record()
        #expect(await recorder.terminated() == .completed)
    }
}
