/// A scheduler that runs every action at once, on the caller's thread, before `schedule` returns.
public struct ImmediateScheduler: Scheduler {
    /// The immediate scheduler.
    public init() {}

    /// Runs `action` now. Returns `nil`: there is nothing left to cancel.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        action()
        return nil
    }
}
