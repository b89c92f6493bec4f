import Foundation
import Signals
import Testing

/// Cold producers: a run per start, with its own state, lifetime and disposal.
@Suite struct ProducerTests {
    @Test func theStartHandlerDoesNotRunUntilTheProducerIsStarted() {
        let starts = Counter()
        let producer = Producer<Int, Never> { observer, _ in
            starts.increment()
            observer.sendCompleted()
        }
        #expect(starts.value == 0)
        producer.start()
        #expect(starts.value == 1)
    }

    @Test func theStartHandlerRunsOncePerStart() {
        let starts = Counter()
        let producer = Producer<Int, Never> { observer, _ in
            starts.increment()
            observer.sendCompleted()
        }
        producer.start()
        producer.start()
        producer.start()
        #expect(starts.value == 3)
    }

    @Test func eachRunHasItsOwnState() {
        let producer = Producer<Int, Never> { observer, _ in
            var count = 0                      // state of this run only
            for _ in 0..<3 {
                count += 1
                observer.send(value: count)
            }
            observer.sendCompleted()
        }
        let first = Log<Int>()
        let second = Log<Int>()
        producer.startWithValues { first.append($0) }
        producer.startWithValues { second.append($0) }
        #expect(first.all == [1, 2, 3])
        #expect(second.all == [1, 2, 3])
    }

    @Test func theStartHandlerRunsOnTheCallersThreadBeforeStartReturns() {
        let handlerThread = Log<UInt>()
        let producer = Producer<Int, Never> { observer, _ in
            handlerThread.append(threadID())
            observer.sendCompleted()
        }
        producer.start()
        #expect(handlerThread.all == [threadID()])
    }

    @Test func startDeliversEveryEventOfTheRun() {
        let producer = Producer<Int, TestError> { observer, _ in
            observer.send(value: 1)
            observer.send(value: 2)
            observer.send(error: .boom)
        }
        let log = Log<Event<Int, TestError>>()
        producer.start { log.append($0) }
        #expect(log.all == [.value(1), .value(2), .failed(.boom)])
    }

    @Test func startWithValuesDeliversOnlyTheValues() {
        let producer = Producer<Int, TestError> { observer, _ in
            observer.send(value: 1)
            observer.send(error: .boom)
        }
        let log = Log<Int>()
        producer.startWithValues { log.append($0) }
        #expect(log.all == [1])
    }

    @Test func startingWithAnObserverForwardsEveryEventToIt() {
        let log = Log<Event<Int, Never>>()
        Producer<Int, Never>(values: [1, 2]).start(Signal<Int, Never>.Observer { log.append($0) })
        #expect(log.all == [.value(1), .value(2), .completed])
    }

    @Test func startWithSignalLetsObserversAttachBeforeTheHandlerRuns() {
        let log = Log<Int>()
        Producer<Int, Never>(values: [1, 2]).startWithSignal { signal, _ in
            signal.observeValues { log.append($0) }
        }
        #expect(log.all == [1, 2])
    }

    @Test func eventsAfterATerminalEventOfARunAreDropped() {
        let producer = Producer<Int, Never> { observer, _ in
            observer.sendCompleted()
            observer.send(value: 1)
            observer.sendInterrupted()
        }
        let log = Log<Event<Int, Never>>()
        producer.start { log.append($0) }
        #expect(log.all == [.completed])
    }

    // MARK: - Disposal

    @Test func disposingARunDeliversInterrupted() {
        let log = Log<Event<Int, Never>>()
        let disposable = Producer<Int, Never>.never.start { log.append($0) }
        disposable.dispose()
        #expect(log.all == [.interrupted])
    }

    @Test func aNeverEndingProducerBehindFusedOperatorsRunsUntilDisposed() {
        let log = Log<Event<Int, TestError>>()
        let disposable = Producer<Int, Never>.never.map { $0 + 1 }.filter { $0 > 0 }.promoteError(TestError.self)
            .start { log.append($0) }
        #expect(log.all.isEmpty, "kept alive by keepAliveUntilTerminated, through every fused stage")
        disposable.dispose()
        #expect(log.all == [.interrupted])
    }

    @Test func aHandlerBehindAFusedOperatorThatKeepsItsObserverAliveSendsLater() {
        // Only a weak reference to the observer the handler got: the run lives because it was kept alive.
        final class WeakObserver: @unchecked Sendable {
            // `@unchecked Sendable`: written once, before the reference is shared.
            weak var observer: Signal<Int, Never>.Observer?
        }
        let held = WeakObserver()
        let log = Log<Event<Int, Never>>()
        _ = Producer<Int, Never> { observer, _ in
            observer.keepAliveUntilTerminated()
            held.observer = observer
        }.map { $0 * 10 }.start { log.append($0) }
        #expect(log.all.isEmpty)
        held.observer?.send(value: 1)
        held.observer?.sendCompleted()
        #expect(log.all == [.value(10), .completed])
    }

    @Test func disposingARunEndsItsLifetime() {
        let ended = Flag()
        let disposable = Producer<Int, Never> { observer, lifetime in
            lifetime.observeEnded { ended.set() }
            observer.keepAliveUntilTerminated()
        }.start()
        #expect(!ended.isSet)
        disposable.dispose()
        #expect(ended.isSet)
    }

    @Test func disposingARunReleasesWhatTheRunRetained() {
        weak var weakResource: Tracked?
        let disposable: any Disposable
        do {
            let resource = Tracked()
            weakResource = resource
            disposable = Producer<Int, Never> { observer, lifetime in
                lifetime.observeEnded {
                    _ = observer                       // keeps the run going
                    _ = resource
                }
            }.start()
        }
        #expect(weakResource != nil)
        disposable.dispose()
        #expect(weakResource == nil)
    }

    @Test func disposingARunReleasesTheObserverPassedToStart() {
        weak var weakCapture: Tracked?
        let disposable: any Disposable
        do {
            let capture = Tracked()
            weakCapture = capture
            disposable = Producer<Int, Never>.never.start { _ in _ = capture }
        }
        #expect(weakCapture != nil)
        disposable.dispose()
        #expect(weakCapture == nil)
    }

    @Test func valuesSentAfterTheRunIsDisposedAreIgnored() {
        let inputs = Log<Signal<Int, Never>.Observer>()
        let log = Log<Event<Int, Never>>()
        let disposable = Producer<Int, Never> { observer, _ in
            inputs.append(observer)
        }.start { log.append($0) }
        disposable.dispose()
        inputs.last?.send(value: 1)
        inputs.last?.sendCompleted()
        #expect(log.all == [.interrupted])
    }

    @Test func aRunDisposedFromInsideItsObserverStopsAProducerThatChecksItsLifetime() {
        let disposable = Log<any Disposable>()
        let log = Log<Int>()
        let producer = Producer<Int, Never>(values: 1...1_000)
        producer.startWithSignal { signal, runDisposable in
            disposable.append(runDisposable)
            signal.observeValues { value in
                log.append(value)
                if value == 2 { disposable.last?.dispose() }
            }
        }
        #expect(log.all == [1, 2])
    }

    @Test func aRunDisposableIsDisposedOnceTheRunHasTerminated() {
        let disposable = Producer<Int, Never>(value: 1).start()
        #expect(disposable.isDisposed)
    }

    @Test func droppingTheRunDisposableDoesNotInterruptTheRun() {
        let inputs = Log<Signal<Int, Never>.Observer>()
        let log = Log<Event<Int, Never>>()
        do {
            Producer<Int, Never> { observer, _ in inputs.append(observer) }.start { log.append($0) }
        }
        inputs.last?.send(value: 1)
        inputs.last?.sendCompleted()
        #expect(log.all == [.value(1), .completed])
    }

    @Test func aHandlerThatDropsItsObserverWithoutATerminalEventInterruptsTheRun() {
        let log = Log<Event<Int, Never>>()
        Producer<Int, Never> { observer, _ in observer.send(value: 1) }.start { log.append($0) }
        #expect(log.all == [.value(1), .interrupted])
    }

    @Test func aRunWhoseObserverIsCapturedByPendingWorkStaysAliveUntilItSends() {
        let work = Log<@Sendable () -> Void>()
        let log = Log<Event<Int, Never>>()
        Producer<Int, Never> { observer, _ in
            work.append {                      // sends later, from work that captured the observer
                observer.send(value: 1)
                observer.sendCompleted()
            }
        }.start { log.append($0) }
        #expect(log.all == [])
        work.last?()
        #expect(log.all == [.value(1), .completed])
    }

    @Test(arguments: [Event<Int, TestError>.completed, .failed(.boom), .interrupted])
    func aTerminalEventEndsTheRunsLifetime(_ terminal: Event<Int, TestError>) {
        let ended = Flag()
        Producer<Int, TestError> { observer, lifetime in
            lifetime.observeEnded { ended.set() }
            observer.send(terminal)
        }.start()
        #expect(ended.isSet)
    }

    @Test func aCompletedRunReleasesWhatItRetained() {
        weak var weakResource: Tracked?
        do {
            let resource = Tracked()
            weakResource = resource
            Producer<Int, Never> { observer, lifetime in
                lifetime.observeEnded { _ = resource }
                observer.sendCompleted()
            }.start { _ in _ = resource }
        }
        #expect(weakResource == nil)
    }

    // MARK: - Factories

    @Test func aValueProducerSendsTheValueThenCompletes() {
        let log = Log<Event<Int, Never>>()
        Producer<Int, Never>(value: 7).start { log.append($0) }
        #expect(log.all == [.value(7), .completed])
    }

    @Test func anErrorProducerFailsAtOnce() {
        let log = Log<Event<Int, TestError>>()
        Producer<Int, TestError>(error: .boom).start { log.append($0) }
        #expect(log.all == [.failed(.boom)])
    }

    @Test func aValuesProducerSendsTheElementsInOrderThenCompletes() {
        let log = Log<Event<Int, Never>>()
        Producer<Int, Never>(values: [3, 1, 2]).start { log.append($0) }
        #expect(log.all == [.value(3), .value(1), .value(2), .completed])
    }

    @Test func aValuesProducerRestartsFromTheFirstElementOnEveryStart() {
        let producer = Producer<Int, Never>(values: [1, 2])
        let log = Log<Int>()
        producer.startWithValues { log.append($0) }
        producer.startWithValues { log.append($0) }
        #expect(log.all == [1, 2, 1, 2])
    }

    @Test func theEmptyProducerCompletesWithoutAValue() {
        let log = Log<Event<Int, Never>>()
        Producer<Int, Never>.empty.start { log.append($0) }
        #expect(log.all == [.completed])
    }

    @Test func theNeverProducerSendsNothingAndDoesNotEndUntilDisposed() {
        let log = Log<Event<Int, Never>>()
        let disposable = Producer<Int, Never>.never.start { log.append($0) }
        #expect(log.all == [])
        #expect(!disposable.isDisposed)
        disposable.dispose()
        #expect(log.all == [.interrupted])
    }

    @Test func aResultProducerSendsTheSuccessOrFailsWithTheFailure() {
        let success = Log<Event<Int, TestError>>()
        let failure = Log<Event<Int, TestError>>()
        Producer<Int, TestError>(result: .success(1)).start { success.append($0) }
        Producer<Int, TestError>(result: .failure(.boom)).start { failure.append($0) }
        #expect(success.all == [.value(1), .completed])
        #expect(failure.all == [.failed(.boom)])
    }
}
