import Foundation
import Testing
import Signals

// Serialized: `UIScheduler` runs at once only when nothing it enqueued is still waiting, across the process.
@Suite(.serialized) struct MainActorDeliveryTests {
    @Test func observeValuesOnUISchedulerDeliversOnTheMainActorInOrder() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<Int>()
        let disposable = signal.observeValues(on: UIScheduler()) { value in
            dispatchPrecondition(condition: .onQueue(.main))
            log.append(value)
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                for i in 1...100 { input.send(value: i) }
                continuation.resume()
            }
        }
        await MainActor.run {}   // the main queue has run everything enqueued before this
        #expect(log.all == Array(1...100))
        disposable?.dispose()
    }

    @Test func observeOnUISchedulerDeliversTheTerminalEvent() async {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let log = Log<Event<Int, TestError>>()
        signal.observe(on: UIScheduler()) { event in log.append(event) }
        input.send(value: 1)
        input.send(error: TestError())
        await MainActor.run {}
        #expect(log.all == [.value(1), .failed(TestError())])
    }

    @Test @MainActor func onTheMainThreadWithNothingQueuedDeliveryIsImmediate() async {
        // Other suites may enqueue main-queue work through `UIScheduler` at any moment (the "nothing
        // queued" condition is process-wide): try a few times, draining the main queue before each.
        var immediate = false
        for _ in 0..<50 where !immediate {
            await MainActor.run {}
            let (signal, input) = Signal<Int, Never>.pipe()
            let log = Log<Int>()
            signal.observeValues(on: UIScheduler()) { log.append($0) }
            input.send(value: 1)
            immediate = log.all == [1]
        }
        #expect(immediate)
    }

    @Test func disposingOnTheMainActorDropsDeliveriesAlreadyEnqueued() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<Int>()
        let disposable = signal.observeValues(on: UIScheduler()) { log.append($0) }!
        // Enqueue the dispose behind value 1 and ahead of value 2 on the main queue.
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                input.send(value: 1)
                DispatchQueue.main.async { MainActor.assumeIsolated { disposable.dispose() } }
                input.send(value: 2)
                continuation.resume()
            }
        }
        await MainActor.run {}
        #expect(log.all == [1])
    }

    @Test func startWithValuesOnUISchedulerDeliversTheCurrentValueThenChanges() async {
        let property = MutableProperty(0)
        let log = Log<Int>()
        let disposable = property.producer.startWithValues(on: UIScheduler()) { log.append($0) }
        property.value = 1
        property.value = 2
        await MainActor.run {}
        #expect(log.all == [0, 1, 2])
        disposable.dispose()
    }

    @Test func disposingAStartWithEventsOnUISchedulerInterruptsTheRun() async {
        let lifetimes = Log<Lifetime>()
        let producer = Producer<Int, Never> { observer, lifetime in
            lifetimes.append(lifetime)
            observer.keepAliveUntilTerminated()
        }
        let log = Log<Event<Int, Never>>()
        let disposable = producer.startWithEvents(on: UIScheduler()) { log.append($0) }
        disposable.dispose()
        #expect(lifetimes.all.first?.hasEnded == true)
        #expect(disposable.isDisposed)
    }
}
