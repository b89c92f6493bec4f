import Foundation
import Synchronization

/// A scheduler that runs actions on the main thread, at once when it can.
///
/// When `schedule` is called on the main thread (or on the main queue, which the main actor runs on)
/// and no action it enqueued earlier is still waiting,
/// the action runs at once, before `schedule` returns. Otherwise it is enqueued on the main queue,
/// behind the actions enqueued before it: order is kept. On Linux the main queue is drained by the
/// main run loop (`RunLoop.main.run()`) or `dispatchMain()`.
public struct UIScheduler: Scheduler {
    /// Actions enqueued on the main queue and not yet started, across every `UIScheduler`.
    private static let queued = Atomic<Int>(0)

    /// Marks the main queue, so that code running on it is recognised even off the main thread: after
    /// `dispatchMain()` on Linux (as test runners do), the main queue is drained by a worker thread.
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether the caller runs on the main thread or on the main queue (the main actor's executor).
    /// For the package's own modules (`ObservablePaginatedList`).
    package static var isOnMainQueue: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) == true
    }

    /// The main-thread scheduler.
    public init() {}

    /// Runs `action` on the main thread: at once if possible, else enqueued on the main queue.
    ///
    /// - Returns: `nil` if `action` ran at once; else a disposable that cancels it if it has not started.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        if Self.isOnMainQueue && Self.queued.load(ordering: .acquiring) == 0 {
            action()
            return nil
        }
        Self.queued.add(1, ordering: .acquiringAndReleasing)
        let cancellation = AnyDisposable()
        DispatchQueue.main.async {
            Self.queued.subtract(1, ordering: .acquiringAndReleasing)
            if !cancellation.isDisposed { action() }
        }
        return cancellation
    }
}
