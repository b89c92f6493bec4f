import Foundation
import Signals
import Testing

/// `ImmediateScheduler`, `QueueScheduler` and `UIScheduler`. (`TestScheduler` is tested with
/// `PaginatedListTesting`.)
@Suite struct SchedulerTests {
    // MARK: ImmediateScheduler

    @Test func theImmediateSchedulerRunsTheActionOnTheCallersThreadBeforeScheduleReturns() {
        let ranOn = Log<UInt>()
        let disposable = ImmediateScheduler().schedule { ranOn.append(threadID()) }
        #expect(ranOn.all == [threadID()])
        #expect(disposable == nil)
    }

    // MARK: QueueScheduler

    @Test func aQueueSchedulerRunsActionsOnItsQueueInTheOrderTheyWereScheduled() {
        let key = DispatchSpecificKey<Int>()
        let queue = DispatchQueue(label: "QueueSchedulerTests")
        queue.setSpecific(key: key, value: 1)
        let scheduler = QueueScheduler(queue: queue)
        let log = Log<Int>()
        let onQueue = Counter()
        for index in 0..<100 {
            scheduler.schedule {
                if DispatchQueue.getSpecific(key: key) == 1 { onQueue.increment() }
                log.append(index)
            }
        }
        queue.sync {}
        #expect(log.all == Array(0..<100))
        #expect(onQueue.value == 100)
    }

    @Test func aQueueSchedulerRunsTheActionAsynchronously() {
        let queue = DispatchQueue(label: "QueueSchedulerTests")
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }                  // the queue is busy: nothing scheduled can run yet
        let ran = Flag()
        QueueScheduler(queue: queue).schedule { ran.set() }
        #expect(!ran.isSet)
        gate.signal()
        queue.sync {}
        #expect(ran.isSet)
    }

    @Test func aQueueSchedulerDoesNotRunAnActionDisposedBeforeItStarted() {
        let queue = DispatchQueue(label: "QueueSchedulerTests")
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        let ran = Flag()
        let disposable = QueueScheduler(queue: queue).schedule { ran.set() }
        disposable?.dispose()
        gate.signal()
        queue.sync {}
        #expect(!ran.isSet)
    }

    @Test func aQueueSchedulerRunsADatedActionOnItsQueue() {
        let queue = DispatchQueue(label: "QueueSchedulerTests")
        let scheduler = QueueScheduler(queue: queue)
        let done = DispatchSemaphore(value: 0)
        let ran = Flag()
        scheduler.schedule(after: .milliseconds(5)) {
            dispatchPrecondition(condition: .onQueue(queue))
            ran.set()
            done.signal()
        }
        done.wait()
        #expect(ran.isSet)
    }

    @Test func aQueueSchedulerDoesNotRunADatedActionDisposedBeforeItsDate() {
        let queue = DispatchQueue(label: "QueueSchedulerTests")
        let scheduler = QueueScheduler(queue: queue)
        let ran = Flag()
        scheduler.schedule(after: scheduler.currentDate.addingTimeInterval(0.05)) { ran.set() }?.dispose()
        let done = DispatchSemaphore(value: 0)
        scheduler.schedule(after: scheduler.currentDate.addingTimeInterval(0.1)) { done.signal() }
        done.wait()
        #expect(!ran.isSet)
    }
}

/// `UIScheduler`: at once on the main thread when nothing it scheduled is queued, else on the main queue,
/// in order. Swift Testing runs tests off the main thread; the main queue is reached through the main actor.
///
/// Serialized: whether `UIScheduler` runs an action at once depends on what it has queued process-wide.
@Suite(.serialized) struct UISchedulerTests {
    @Test func anActionScheduledOffTheMainThreadRunsOnTheMainQueue() async {
        let onMainQueue = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                UIScheduler().schedule { continuation.resume(returning: isOnMainQueue()) }
            }
        }
        #expect(onMainQueue)
    }

    @Test func anActionScheduledFromTheMainActorWithNothingQueuedRunsBeforeScheduleReturns() async {
        // Under `swift test` on Linux the main actor runs on whichever thread drains the main queue
        // (Swift Testing parks the main thread in `dispatchMain()`); `UIScheduler` recognises the main
        // queue, not only the main thread. "Nothing queued" is process-wide: tests running in parallel may
        // have UIScheduler actions waiting, so try until the queue is found empty.
        var ranAtOnce = false
        for _ in 0 ..< 50 where !ranAtOnce {
            await drainMainQueue()
            ranAtOnce = await MainActor.run { () -> Bool in
                let ran = Flag()
                let disposable = UIScheduler().schedule { ran.set() }
                return ran.isSet && disposable == nil
            }
        }
        #expect(ranAtOnce)
    }

    @Test func anActionScheduledOnTheMainThreadWaitsBehindActionsStillQueued() async {
        let log = Log<Int>()
        await MainActor.run {
            // The main thread is busy here, so an action scheduled from another thread stays queued.
            DispatchQueue.global().sync { _ = UIScheduler().schedule { log.append(1) } }
            UIScheduler().schedule { log.append(2) }
            #expect(log.all == [])
        }
        await drainMainQueue()
        #expect(log.all == [1, 2])
    }

    @Test func aQueuedActionDisposedBeforeItStartsDoesNotRun() async {
        let ran = Flag()
        await MainActor.run {
            DispatchQueue.global().sync { UIScheduler().schedule { ran.set() }?.dispose() }
        }
        await drainMainQueue()
        #expect(!ran.isSet)
    }

    /// Whether the caller runs on the main queue (on Linux under `dispatchMain()`, not the main thread).
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    private func isOnMainQueue() -> Bool {
        DispatchQueue.getSpecific(key: Self.mainQueueKey) == true
    }

    /// Returns once everything enqueued on the main queue so far has run.
    private func drainMainQueue() async {
        await withCheckedContinuation { continuation in
            DispatchQueue.main.async { continuation.resume() }
        }
    }
}
