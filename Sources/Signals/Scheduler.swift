import Foundation

/// Runs actions: at once, on the main thread, on a dispatch queue, or in virtual time.
///
/// A scheduler runs the actions given to it one at a time, in the order they were scheduled.
public protocol Scheduler: Sendable {
    /// Runs `action` (now or later, depending on the scheduler).
    ///
    /// - Returns: a disposable that cancels `action` if it has not started yet, or `nil` if the action
    ///   already ran (or cannot be cancelled).
    @discardableResult
    func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)?
}

/// A scheduler that can also run actions at a point in time: what time-based operators
/// (`debounce`, `throttle`, `retry(upTo:interval:on:)`) need.
public protocol DateScheduler: Scheduler {
    /// The scheduler's notion of now (wall time, or virtual time for `TestScheduler`).
    var currentDate: Date { get }

    /// Runs `action` at `date` (at once if it has passed).
    ///
    /// - Returns: a disposable that cancels `action` if it has not started yet.
    @discardableResult
    func schedule(after date: Date, action: @escaping @Sendable () -> Void) -> (any Disposable)?
}

extension DateScheduler {
    /// Runs `action` after `delay` from `currentDate`.
    @discardableResult
    public func schedule(after delay: Duration, action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        schedule(after: currentDate.addingTimeInterval(delay.timeInterval), action: action)
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`. `package`: the modules of this package convert
    /// durations for `Date` and `Dispatch`; the public API adds nothing to a standard-library type.
    package var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
