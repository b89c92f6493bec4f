import Foundation

/// A scheduler that runs actions on a dispatch queue, asynchronously, and at wall-clock dates.
///
/// On a serial queue, actions run one at a time in the order they were scheduled.
public final class QueueScheduler: DateScheduler {
    /// The queue the actions run on.
    public let queue: DispatchQueue

    /// A scheduler on `queue`.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// A scheduler on a new serial queue labelled `label`.
    public convenience init(label: String = "PaginatedList.QueueScheduler", qos: DispatchQoS = .default) {
        self.init(queue: DispatchQueue(label: label, qos: qos))
    }

    /// A scheduler on the main queue (always asynchronous, unlike `UIScheduler`).
    public static let main = QueueScheduler(queue: .main)

    /// Now, on the wall clock.
    public var currentDate: Date { Date() }

    /// Enqueues `action` on the queue. Returns a disposable that cancels it if it has not started.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        let cancellation = AnyDisposable()
        queue.async {
            if !cancellation.isDisposed { action() }
        }
        return cancellation
    }

    /// Runs `action` on the queue at `date`. Returns a disposable that cancels it if it has not started.
    @discardableResult
    public func schedule(after date: Date, action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        let cancellation = AnyDisposable()
        let delay = max(0, date.timeIntervalSinceNow)
        queue.asyncAfter(deadline: .now() + delay) {
            if !cancellation.isDisposed { action() }
        }
        return cancellation
    }
}
