import Foundation
import Signals
import Testing

/// Disposing an observation: what it stops, when it takes effect, what it releases.
@Suite struct SignalDisposalTests {
    @Test func disposingAnObservationStopsDeliveryToThatObserver() throws {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<Event<Int, Never>>()
        let observation = try #require(signal.observe { log.append($0) })
        input.send(value: 1)
        observation.dispose()
        input.send(value: 2)
        input.sendCompleted()
        #expect(log.all == [.value(1)])
    }

    @Test func disposingOneObservationLeavesTheOthersObserving() throws {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<String>()
        signal.observeValues { log.append("A\($0)") }
        let b = try #require(signal.observeValues { log.append("B\($0)") })
        signal.observeValues { log.append("C\($0)") }
        b.dispose()
        input.send(value: 1)
        #expect(log.all == ["A1", "C1"])
    }

    @Test func anObservationReportsItIsDisposedAfterDispose() throws {
        let (signal, input) = Signal<Int, Never>.pipe()
        let observation = try #require(signal.observe { _ in })
        #expect(!observation.isDisposed)
        observation.dispose()
        #expect(observation.isDisposed)
        withExtendedLifetime(input) {}
    }

    @Test func disposingAnObservationTwiceIsHarmless() throws {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<String>()
        let a = try #require(signal.observeValues { log.append("A\($0)") })
        signal.observeValues { log.append("B\($0)") }
        a.dispose()
        a.dispose()
        input.send(value: 1)
        #expect(log.all == ["B1"])
    }

    @Test func disposingAnObservationReleasesTheObserverAndItsCaptures() throws {
        let (signal, input) = Signal<Int, Never>.pipe()
        weak var weakCapture: Tracked?
        var observation: (any Disposable)?
        do {
            let capture = Tracked()
            weakCapture = capture
            observation = signal.observe { _ in _ = capture }
        }
        #expect(weakCapture != nil)
        try #require(observation).dispose()
        #expect(weakCapture == nil)
        withExtendedLifetime(input) {}
    }

    @Test func aDisposalFromInsideTheObserversOwnCallbackTakesEffectBeforeTheNextEvent() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<Int>()
        let observation = Log<any Disposable>()
        observation.append(signal.observeValues { value in
            log.append(value)
            observation.last?.dispose()
        }!)
        input.send(value: 1)
        input.send(value: 2)
        #expect(log.all == [1])
    }

    @Test func aDisposalFromInsideTheOwnCallbackAlsoSkipsAnEventAlreadyQueued() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<String>()
        let observation = Log<any Disposable>()
        observation.append(signal.observeValues { value in
            log.append("A\(value)")
            if value == 1 {
                input.send(value: 2)              // queued behind the current event
                observation.last?.dispose()
            }
        }!)
        signal.observeValues { log.append("B\($0)") }
        input.send(value: 1)
        #expect(log.all == ["A1", "B1", "B2"])
    }

    @Test func disposingALaterObserverMidDeliverySkipsItForTheCurrentEventAlready() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<String>()
        let b = Log<any Disposable>()
        signal.observeValues { value in
            log.append("A\(value)")
            b.last?.dispose()
        }
        b.append(signal.observeValues { log.append("B\($0)") }!)
        signal.observeValues { log.append("C\($0)") }
        input.send(value: 1)
        input.send(value: 2)
        #expect(log.all == ["A1", "C1", "A2", "C2"])
    }

    @Test func disposingAnEarlierObserverMidDeliveryStopsItFromTheNextEvent() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<String>()
        let a = Log<any Disposable>()
        a.append(signal.observeValues { log.append("A\($0)") }!)
        signal.observeValues { value in
            log.append("B\(value)")
            a.last?.dispose()
        }
        input.send(value: 1)
        input.send(value: 2)
        #expect(log.all == ["A1", "B1", "B2"])
    }

    @Test func afterDisposeReturnsAtMostTheEventAlreadyInFlightReachesTheObserver() throws {
        let (signal, input) = Signal<Int, Never>.pipe()
        let received = Counter()
        let observation = try #require(signal.observeValues { _ in received.increment() })
        let senderDone = Flag()
        let sender = DispatchGroup()
        sender.enter()
        Thread {
            for _ in 0..<20_000 { input.send(value: 0) }
            senderDone.set()
            sender.leave()
        }.start()
        while received.value < 100 && !senderDone.isSet {}
        observation.dispose()
        let atDispose = received.value
        sender.wait()
        #expect(received.value - atDispose <= 1)
    }
}
