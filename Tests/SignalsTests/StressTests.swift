import Foundation
import Signals
import Testing

/// Eight threads sending, observing and disposing on shared signals and properties: no lost or duplicated
/// event, serial delivery, one terminal event, no crash (and nothing for the thread sanitizer to report).
///
/// Iteration counts keep each test well under three seconds in debug builds under the thread sanitizer.
@Suite struct StressTests {
    static let threads = 8

    /// Checks that `log` holds, for every sender, exactly its values `0..<count` in order
    /// (values are encoded as `sender * 1_000_000 + index`).
    static func expectEverySenderComplete(_ log: [Int], senders: Range<Int>, count: Int,
                                          sourceLocation: SourceLocation = #_sourceLocation) {
        var next = [Int: Int]()
        var misordered = 0
        for value in log {
            let (sender, index) = value.quotientAndRemainder(dividingBy: 1_000_000)
            if next[sender, default: 0] != index { misordered += 1 }
            next[sender] = index + 1
        }
        #expect(misordered == 0, sourceLocation: sourceLocation)
        #expect(log.count == senders.count * count, sourceLocation: sourceLocation)
        for sender in senders {
            #expect(next[sender] == count, "sender \(sender)", sourceLocation: sourceLocation)
        }
    }

    @Test func eightSendingThreadsLoseAndDuplicateNoValueAndNeverOverlap() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let detector = OverlapDetector()
        let logs = (0..<3).map { _ in Log<Int>() }
        for log in logs {
            signal.observeValues { value in detector.during { log.append(value) } }
        }
        let perThread = 2_000
        onThreads(Self.threads) { sender in
            for index in 0..<perThread { input.send(value: sender * 1_000_000 + index) }
        }
        #expect(detector.overlaps == 0)
        for log in logs {
            Self.expectEverySenderComplete(log.all, senders: 0..<Self.threads, count: perThread)
        }
    }

    @Test func observingAndDisposingWhileOthersSendLosesNothingForTheObserversThatStay() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let detector = OverlapDetector()
        let permanent = Log<Int>()
        signal.observeValues { value in detector.during { permanent.append(value) } }
        let senders = 4
        let perThread = 1_000
        let churned = Counter()
        onThreads(Self.threads) { thread in
            if thread < senders {
                for index in 0..<perThread { input.send(value: thread * 1_000_000 + index) }
            } else {
                for _ in 0..<300 {
                    let observation = signal.observeValues { _ in detector.during { churned.increment() } }
                    observation?.dispose()
                }
            }
        }
        #expect(detector.overlaps == 0)
        Self.expectEverySenderComplete(permanent.all, senders: 0..<senders, count: perThread)
    }

    @Test func aTerminalEventAmongConcurrentSendsIsDeliveredOnceAndLast() {
        for _ in 0..<20 {
            let (signal, input) = Signal<Int, TestError>.pipe()
            let detector = OverlapDetector()
            let log = Log<Event<Int, TestError>>()
            signal.observe { event in detector.during { log.append(event) } }
            onThreads(Self.threads) { thread in
                for index in 0..<100 {
                    if index == 50 {
                        switch thread {
                        case 0: input.sendCompleted()
                        case 1: input.sendInterrupted()
                        case 2: input.send(error: .boom)
                        default: break
                        }
                    }
                    input.send(value: index)
                }
            }
            let events = log.all
            #expect(detector.overlaps == 0)
            #expect(events.filter(\.isTerminating).count == 1)
            #expect(events.last?.isTerminating == true)
        }
    }

    @Test func sendsThatFeedBackBetweenTwoSignalsFromEightThreadsNeitherDeadlockNorLoseEvents() {
        let (ping, pingInput) = Signal<Int, Never>.pipe()
        let (pong, pongInput) = Signal<Int, Never>.pipe()
        let delivered = Counter()
        let pingDetector = OverlapDetector()
        let pongDetector = OverlapDetector()
        // A value's low digit counts its hops: ping → pong → ping → pong, then it stops.
        ping.observeValues { value in
            pingDetector.during {
                delivered.increment()
                if value % 10 < 3 { pongInput.send(value: value + 1) }
            }
        }
        pong.observeValues { value in
            pongDetector.during {
                delivered.increment()
                if value % 10 < 3 { pingInput.send(value: value + 1) }
            }
        }
        let perThread = 500
        onThreads(Self.threads) { thread in
            for index in 0..<perThread {
                if thread.isMultiple(of: 2) {
                    pingInput.send(value: index * 10)
                } else {
                    pongInput.send(value: index * 10)
                }
            }
        }
        #expect(pingDetector.overlaps == 0)
        #expect(pongDetector.overlaps == 0)
        #expect(delivered.value == Self.threads * perThread * 4)
    }

    @Test func concurrentModifiesReadsAndObservationsOfAPropertyLoseNoChange() {
        let property = MutableProperty(0)
        let detector = OverlapDetector()
        let changes = Log<Int>()
        property.signal.observeValues { value in detector.during { changes.append(value) } }
        let modifiers = 4
        let perThread = 1_000
        let regressions = Counter()
        onThreads(Self.threads) { thread in
            switch thread {
            case 0..<modifiers:
                for _ in 0..<perThread { property.modify { $0 += 1 } }
            case modifiers..<(modifiers + 2):
                // Observers that come and go: each sees the current value, then only later ones.
                for _ in 0..<100 {
                    let last = Log<Int>()
                    let run = property.producer.startWithValues { value in
                        if let previous = last.last, value <= previous { regressions.increment() }
                        last.append(value)
                    }
                    run.dispose()
                }
            default:
                var previous = 0
                for _ in 0..<2_000 {
                    let value = property.value
                    if value < previous { regressions.increment() }
                    previous = value
                }
            }
        }
        #expect(detector.overlaps == 0)
        #expect(regressions.value == 0)
        #expect(property.value == modifiers * perThread)
        #expect(changes.all == Array(1...(modifiers * perThread)))
    }

    @Test func producerRunsStartedAndDisposedFromEightThreadsEachEndWithExactlyOneTerminalEvent() {
        let queue = DispatchQueue(label: "StressTests.producer", attributes: .concurrent)
        let logs = Log<Log<Event<Int, Never>>>()
        onThreads(Self.threads) { _ in
            // `Producer` is not `Sendable` (its start handler need not be): one per thread.
            let producer = Producer<Int, Never> { observer, _ in
                queue.async {
                    for value in 0..<5 { observer.send(value: value) }
                    observer.sendCompleted()
                }
            }
            for _ in 0..<150 {
                let log = Log<Event<Int, Never>>()
                logs.append(log)
                producer.start { log.append($0) }.dispose()
            }
        }
        queue.sync(flags: .barrier) {}
        var malformed = 0
        for log in logs.all {
            let events = log.all
            let terminals = events.filter(\.isTerminating)
            if terminals.count != 1 || events.last?.isTerminating != true { malformed += 1 }
        }
        #expect(logs.count == Self.threads * 150)
        #expect(malformed == 0)
    }
}
