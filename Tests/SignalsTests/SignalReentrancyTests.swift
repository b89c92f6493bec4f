import Signals
import Testing

/// Events sent from inside an observer are queued, never nested, and delivered to everyone FIFO.
@Suite struct SignalReentrancyTests {
    @Test func aValueSentFromInsideAnObserverReachesEveryObserverAfterTheCurrentEvent() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<String>()
        signal.observeValues { value in
            log.append("A\(value)")
            if value == 1 { input.send(value: 2) }
        }
        signal.observeValues { log.append("B\($0)") }
        input.send(value: 1)
        #expect(log.all == ["A1", "B1", "A2", "B2"])
    }

    @Test func nestedSendsAreDeliveredInTheOrderTheyWereSent() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<String>()
        signal.observeValues { value in
            log.append("A\(value)")
            if value == 1 {
                input.send(value: 2)
                input.send(value: 3)
            }
        }
        signal.observeValues { value in
            log.append("B\(value)")
            if value == 1 { input.send(value: 4) }
            if value == 2 { input.send(value: 5) }
        }
        input.send(value: 1)
        #expect(log.all == ["A1", "B1", "A2", "B2", "A3", "B3", "A4", "B4", "A5", "B5"])
    }

    @Test func aNestedSendReturnsBeforeItsEventIsDelivered() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<String>()
        signal.observeValues { value in
            log.append("A\(value)")
            if value == 1 {
                input.send(value: 2)
                log.append("sent 2")
            }
        }
        input.send(value: 1)
        #expect(log.all == ["A1", "sent 2", "A2"])
    }

    @Test func aTerminalEventSentFromInsideAnObserverIsDeliveredAfterTheCurrentEvent() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<String>()
        signal.observe { event in
            log.append("A:\(event)")
            if event == .value(1) { input.sendCompleted() }
        }
        signal.observe { log.append("B:\($0)") }
        input.send(value: 1)
        #expect(log.all == ["A:value(1)", "B:value(1)", "A:completed", "B:completed"])
    }

    @Test func aValueSentFromInsideAnObserverAfterANestedTerminalEventIsDropped() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<Event<Int, Never>>()
        signal.observe { event in
            log.append(event)
            if event == .value(1) {
                input.sendCompleted()
                input.send(value: 2)
            }
        }
        input.send(value: 1)
        #expect(log.all == [.value(1), .completed])
    }

    @Test func anObserverAttachedFromInsideAnObserverReceivesOnlyLaterEvents() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let late = Log<Int>()
        signal.observeValues { value in
            if value == 1 {
                input.send(value: 2)                        // queued before the new observer attaches
                signal.observeValues { late.append($0) }
                input.send(value: 3)                        // queued after
            }
        }
        input.send(value: 1)
        input.send(value: 4)
        #expect(late.all == [3, 4])
    }

    @Test func feedbackBetweenTwoSignalsDoesNotDeadlockOrNest() {
        let (ping, pingInput) = Signal<Int, Never>.pipe()
        let (pong, pongInput) = Signal<Int, Never>.pipe()
        let log = Log<String>()
        ping.observeValues { value in
            log.append("ping\(value)")
            if value < 6 { pongInput.send(value: value + 1) }
        }
        pong.observeValues { value in
            log.append("pong\(value)")
            if value < 6 { pingInput.send(value: value + 1) }
        }
        pingInput.send(value: 1)
        #expect(log.all == ["ping1", "pong2", "ping3", "pong4", "ping5", "pong6"])
    }

    @Test func feedbackThatReturnsToTheDeliveringSignalIsQueuedBehindTheCurrentEvent() {
        let (ping, pingInput) = Signal<Int, Never>.pipe()
        let (pong, pongInput) = Signal<Int, Never>.pipe()
        let log = Log<String>()
        ping.observeValues { value in
            log.append("A\(value)")
            if value == 1 { pongInput.send(value: 2) }
        }
        ping.observeValues { log.append("B\($0)") }
        pong.observeValues { pingInput.send(value: $0) }   // back into ping, which is delivering 1
        pingInput.send(value: 1)
        #expect(log.all == ["A1", "B1", "A2", "B2"])
    }
}
