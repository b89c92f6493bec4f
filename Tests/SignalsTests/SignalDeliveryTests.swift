import Foundation
import Signals
import Testing

/// How a live signal delivers values: to whom, in what order, on which thread, one at a time.
@Suite struct SignalDeliveryTests {
    @Test func eachValueReachesEveryObserverInAttachOrder() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<String>()
        for name in ["A", "B", "C"] {
            signal.observeValues { log.append("\(name)\($0)") }
        }
        input.send(value: 1)
        input.send(value: 2)
        #expect(log.all == ["A1", "B1", "C1", "A2", "B2", "C2"])
    }

    @Test func removingAnObserverKeepsTheOthersInAttachOrder() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<String>()
        signal.observeValues { log.append("A\($0)") }
        let b = signal.observeValues { log.append("B\($0)") }
        signal.observeValues { log.append("C\($0)") }
        signal.observeValues { log.append("D\($0)") }
        b?.dispose()
        signal.observeValues { log.append("E\($0)") }
        input.send(value: 1)
        #expect(log.all == ["A1", "C1", "D1", "E1"])
    }

    @Test func aLateObserverSeesNoEarlierValues() {
        let (signal, input) = Signal<Int, Never>.pipe()
        input.send(value: 1)
        let log = Log<Int>()
        signal.observeValues { log.append($0) }
        input.send(value: 2)
        #expect(log.all == [2])
    }

    @Test func observeReceivesValuesThenTheTerminalEvent() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let log = Log<Event<Int, TestError>>()
        signal.observe { log.append($0) }
        input.send(value: 1)
        input.send(error: .boom)
        #expect(log.all == [.value(1), .failed(.boom)])
    }

    @Test func observeValuesReceivesOnlyValues() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let log = Log<Int>()
        signal.observeValues { log.append($0) }
        input.send(value: 1)
        input.send(value: 2)
        input.send(error: .boom)
        #expect(log.all == [1, 2])
    }

    @Test func aSendToAnIdleSignalIsDeliveredBeforeSendReturns() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<Int>()
        signal.observeValues { log.append($0) }
        input.send(value: 7)
        #expect(log.all == [7])
    }

    @Test func aSendToAnIdleSignalIsDeliveredOnTheSendingThread() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let deliveredOn = Log<UInt>()
        let sentFrom = Log<UInt>()
        signal.observeValues { _ in deliveredOn.append(threadID()) }
        onThreads(1) { _ in
            sentFrom.append(threadID())
            input.send(value: 1)
        }
        #expect(deliveredOn.all == sentFrom.all)
    }

    @Test func observersNeverSeeTwoEventsAtOnceWhenManyThreadsSend() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let detector = OverlapDetector()
        let delivered = Counter()
        for _ in 0..<2 {
            signal.observeValues { _ in detector.during { delivered.increment() } }
        }
        onThreads(8) { _ in
            for value in 0..<500 { input.send(value: value) }
        }
        #expect(detector.overlaps == 0)
        #expect(delivered.value == 2 * 8 * 500)
    }

    @Test func everyObserverSeesTheEventsInTheSameOrder() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let first = Log<Int>()
        let second = Log<Int>()
        signal.observeValues { first.append($0) }
        signal.observeValues { second.append($0) }
        onThreads(8) { thread in
            for value in 0..<300 { input.send(value: thread * 1_000 + value) }
        }
        #expect(first.count == 8 * 300)
        #expect(first.all == second.all)
    }

    @Test func eachSendersValuesArriveInTheOrderItSentThem() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<Int>()
        signal.observeValues { log.append($0) }
        onThreads(8) { thread in
            for value in 0..<300 { input.send(value: thread * 1_000 + value) }
        }
        for thread in 0..<8 {
            let fromThread = log.all.filter { $0 / 1_000 == thread }.map { $0 % 1_000 }
            #expect(fromThread == Array(0..<300))
        }
    }

    @Test func aSenderThatFindsTheSignalBusyReturnsOnceItsEventIsQueued() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<Int>()
        let inFirst = DispatchSemaphore(value: 0)
        let releaseFirst = DispatchSemaphore(value: 0)
        signal.observeValues { value in
            if value == 1 {
                inFirst.signal()
                releaseFirst.wait()
            }
            log.append(value)
        }
        let firstSent = DispatchSemaphore(value: 0)
        Thread {
            input.send(value: 1)
            firstSent.signal()
        }.start()
        inFirst.wait()
        input.send(value: 2)          // returns although value 1 is still being delivered
        #expect(log.all == [])
        releaseFirst.signal()
        firstSent.wait()              // the delivering thread delivered 2 before its send returned
        #expect(log.all == [1, 2])
    }
}
