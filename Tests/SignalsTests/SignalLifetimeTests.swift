import Signals
import Testing

/// Who keeps a signal alive, who it keeps alive, and what happens when the input goes away.
@Suite struct SignalLifetimeTests {
    @Test func releasingThePipeInputInterruptsTheObservers() {
        let log = Log<Event<Int, Never>>()
        do {
            let (signal, input) = Signal<Int, Never>.pipe()
            signal.observe { log.append($0) }
            input.send(value: 1)
        }
        #expect(log.all == [.value(1), .interrupted])
    }

    @Test func releasingThePipeInputReleasesTheObservers() {
        weak var weakCapture: Tracked?
        do {
            let (signal, input) = Signal<Int, Never>.pipe()
            let capture = Tracked()
            weakCapture = capture
            signal.observe { _ in _ = capture }
            withExtendedLifetime(input) {}
        }
        #expect(weakCapture == nil)
    }

    @Test func releasingThePipeInputAfterATerminalEventSendsNothingMore() {
        let log = Log<Event<Int, Never>>()
        do {
            let (signal, input) = Signal<Int, Never>.pipe()
            signal.observe { log.append($0) }
            input.sendCompleted()
        }
        #expect(log.all == [.completed])
    }

    @Test func aSignalWithNoObserversAndNoInputIsFreed() {
        weak var weakSignal: Signal<Int, Never>?
        do {
            let (signal, _) = Signal<Int, Never>.pipe()
            weakSignal = signal
        }
        #expect(weakSignal == nil)
    }

    @Test func aSignalWhoseInputIsReleasedIsFreedDespiteItsObservers() {
        weak var weakSignal: Signal<Int, Never>?
        do {
            let (signal, input) = Signal<Int, Never>.pipe()
            weakSignal = signal
            #expect(signal.observe { _ in } != nil)
            #expect(signal.observeValues { _ in } != nil)
            withExtendedLifetime(input) {}
        }
        #expect(weakSignal == nil)
    }

    @Test func anObservationDisposableDoesNotKeepItsSignalAlive() {
        weak var weakSignal: Signal<Int, Never>?
        var observation: (any Disposable)?
        do {
            let (signal, input) = Signal<Int, Never>.pipe()
            weakSignal = signal
            observation = signal.observe { _ in }
            withExtendedLifetime(input) {}
        }
        #expect(observation != nil)
        #expect(weakSignal == nil)
        #expect(observation?.isDisposed == true)
        observation?.dispose()   // harmless once the signal is gone
    }

    @Test func theInputKeepsTheSignalAndItsObserversWorking() {
        let log = Log<Int>()
        let input: Signal<Int, Never>.Observer
        do {
            let (signal, pipeInput) = Signal<Int, Never>.pipe()
            signal.observeValues { log.append($0) }
            input = pipeInput
        }
        input.send(value: 1)
        #expect(log.all == [1])
    }

    @Test func theSignalRetainsAnObserverUntilItIsDisposedOrTheSignalTerminates() {
        let (signal, input) = Signal<Int, Never>.pipe()
        weak var weakCapture: Tracked?
        do {
            let capture = Tracked()
            weakCapture = capture
            signal.observe { _ in _ = capture }
        }
        input.send(value: 1)
        #expect(weakCapture != nil)
        input.sendInterrupted()
        #expect(weakCapture == nil)
    }

    @Test func anObserverThatCapturesTheInputIsReleasedWhenTheSignalTerminates() {
        // input → signal → observer → input is a cycle until the terminal event breaks it.
        weak var weakSignal: Signal<Int, Never>?
        do {
            let (signal, input) = Signal<Int, Never>.pipe()
            weakSignal = signal
            signal.observeValues { value in if value == 0 { input.sendCompleted() } }
            input.send(value: 0)
        }
        #expect(weakSignal == nil)
    }
}
