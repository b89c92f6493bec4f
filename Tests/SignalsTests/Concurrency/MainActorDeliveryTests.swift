import Foundation
import Testing
import Signals

/// State only the main actor touches.
@MainActor
final class MainActorLog<T> {
    var entries: [T] = []
}

// Serialized: `UIScheduler` runs at once only when nothing it enqueued is still waiting, across the process.
@Suite(.serialized) struct MainActorDeliveryTests {
    @Test func observeValuesOnUISchedulerDeliversOnTheMainActorInOrder() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = await MainActorLog<Int>()
        let disposable = signal.observeValues(on: UIScheduler()) { value in
            dispatchPrecondition(condition: .onQueue(.main))
            log.entries.append(value)
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                for i in 1...100 { input.send(value: i) }
                continuation.resume()
            }
        }
        await MainActor.run {}   // the main queue has run everything enqueued before this
        #expect(await log.entries == Array(1...100))
        disposable?.dispose()
    }

    @Test func observeOnUISchedulerDeliversTheTerminalEvent() async {
        let (signal, input) = Signal<Int, AsyncTestError>.pipe()
        let log = await MainActorLog<Event<Int, AsyncTestError>>()
        signal.observe(on: UIScheduler()) { event in log.entries.append(event) }
        input.send(value: 1)
        input.send(error: AsyncTestError())
        await MainActor.run {}
        #expect(await log.entries == [.value(1), .failed(AsyncTestError())])
    }

    @Test @MainActor func onTheMainThreadWithNothingQueuedDeliveryIsImmediate() async {
        // Other suites may enqueue main-queue work through `UIScheduler` at any moment (the "nothing
        // queued" condition is process-wide): try a few times, draining the main queue before each.
        var immediate = false
        for _ in 0..<50 where !immediate {
            await MainActor.run {}
            let (signal, input) = Signal<Int, Never>.pipe()
            let log = MainActorLog<Int>()
            signal.observeValues(on: UIScheduler()) { log.entries.append($0) }
            input.send(value: 1)
            immediate = log.entries == [1]
        }
        #expect(immediate)
    }

    @Test func disposingOnTheMainActorDropsDeliveriesAlreadyEnqueued() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = await MainActorLog<Int>()
        let disposable = signal.observeValues(on: UIScheduler()) { log.entries.append($0) }!
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
        #expect(await log.entries == [1])
    }

    @Test func startWithValuesOnUISchedulerDeliversTheCurrentValueThenChanges() async {
        let property = MutableProperty(0)
        let log = await MainActorLog<Int>()
        let disposable = property.producer.startWithValues(on: UIScheduler()) { log.entries.append($0) }
        property.value = 1
        property.value = 2
        await MainActor.run {}
        #expect(await log.entries == [0, 1, 2])
        disposable.dispose()
    }

    @Test func disposingAStartWithEventsOnUISchedulerInterruptsTheRun() async {
        let lifetimes = AsyncRecorder<Lifetime>()
        let producer = Producer<Int, Never> { observer, lifetime in
            lifetimes.append(lifetime)
            observer.keepAliveUntilTerminated()
        }
        let log = await MainActorLog<Event<Int, Never>>()
        let disposable = producer.startWithEvents(on: UIScheduler()) { log.entries.append($0) }
        disposable.dispose()
        #expect(lifetimes.all.first?.hasEnded == true)
        #expect(disposable.isDisposed)
    }
}
