import Foundation
import Signals
import Testing

/// The event grammar: values, then at most one terminal event, then nothing; and what termination releases.
@Suite struct SignalTerminationTests {
    static let terminals: [Event<Int, TestError>] = [.completed, .failed(.boom), .interrupted]

    @Test(arguments: terminals)
    func nothingIsDeliveredAfterATerminalEventEvenIfTheSenderKeepsSending(_ terminal: Event<Int, TestError>) {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let log = Log<Event<Int, TestError>>()
        signal.observe { log.append($0) }
        input.send(value: 1)
        input.send(terminal)
        input.send(value: 2)
        input.sendCompleted()
        input.send(error: .other)
        input.sendInterrupted()
        #expect(log.all == [.value(1), terminal])
    }

    @Test func exactlyOneTerminalEventIsDeliveredWhenCompletedAndInterruptedRace() {
        for _ in 0..<1_000 {
            let (signal, input) = Signal<Int, Never>.pipe()
            let log = Log<Event<Int, Never>>()
            signal.observe { log.append($0) }
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 { input.sendCompleted() } else { input.sendInterrupted() }
            }
            #expect(log.count == 1)
            #expect(log.all.allSatisfy { $0.isTerminating })
        }
    }

    @Test func aTerminalEventSentWhileAValueIsInFlightIsDeliveredAfterIt() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<Event<Int, Never>>()
        let inValue = DispatchSemaphore(value: 0)
        let releaseValue = DispatchSemaphore(value: 0)
        signal.observe { event in
            if event == .value(1) {
                inValue.signal()
                releaseValue.wait()
            }
            log.append(event)
        }
        let valueSent = DispatchSemaphore(value: 0)
        Thread {
            input.send(value: 1)
            valueSent.signal()
        }.start()
        inValue.wait()
        input.sendCompleted()
        #expect(log.all == [])
        releaseValue.signal()
        valueSent.wait()
        #expect(log.all == [.value(1), .completed])
    }

    @Test func observingATerminatedSignalDeliversInterruptedAtOnceAndReturnsNil() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        input.sendCompleted()
        let log = Log<Event<Int, TestError>>()
        let disposable = signal.observe { log.append($0) }
        #expect(disposable == nil)
        #expect(log.all == [.interrupted])
    }

    @Test func observingValuesOfATerminatedSignalReturnsNilAndNeverCallsTheObserver() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        input.send(error: .boom)
        let log = Log<Int>()
        let disposable = signal.observeValues { log.append($0) }
        #expect(disposable == nil)
        input.send(value: 1)
        #expect(log.all == [])
    }

    @Test func observingATerminatedSignalRetainsNothing() {
        let (signal, input) = Signal<Int, Never>.pipe()
        input.sendCompleted()
        weak var weakEventsCapture: Tracked?
        weak var weakValuesCapture: Tracked?
        do {
            let eventsCapture = Tracked()
            let valuesCapture = Tracked()
            weakEventsCapture = eventsCapture
            weakValuesCapture = valuesCapture
            signal.observe { _ in _ = eventsCapture }
            signal.observeValues { _ in _ = valuesCapture }
        }
        #expect(weakEventsCapture == nil)
        #expect(weakValuesCapture == nil)
    }

    @Test(arguments: terminals)
    func aTerminalEventReleasesEveryObserverAndItsCaptures(_ terminal: Event<Int, TestError>) {
        let (signal, input) = Signal<Int, TestError>.pipe()
        weak var weakFirst: Tracked?
        weak var weakSecond: Tracked?
        do {
            let first = Tracked()
            let second = Tracked()
            weakFirst = first
            weakSecond = second
            signal.observe { _ in _ = first }
            signal.observeValues { _ in _ = second }
        }
        #expect(weakFirst != nil)
        #expect(weakSecond != nil)
        input.send(terminal)
        #expect(weakFirst == nil)
        #expect(weakSecond == nil)
    }

    @Test func anObservationIsDisposedOnceItsSignalHasTerminated() throws {
        let (signal, input) = Signal<Int, Never>.pipe()
        let observation = try #require(signal.observe { _ in })
        #expect(!observation.isDisposed)
        input.sendCompleted()
        #expect(observation.isDisposed)
    }

    @Test func anObserverAttachedWhileATerminalEventIsQueuedReceivesThatTerminalEvent() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let late = Log<Event<Int, Never>>()
        signal.observeValues { value in
            guard value == 1 else { return }
            input.sendCompleted()                       // queued behind the current event
            signal.observe { late.append($0) }          // attaches before the terminal event is delivered
        }
        input.send(value: 1)
        #expect(late.all == [.completed])
    }
}
