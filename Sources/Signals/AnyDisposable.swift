
/// A disposable that runs a closure once, on the first `dispose()`.
///
/// The closure runs on the thread that calls `dispose()`, outside any lock, and is released
/// as soon as it has run: an `AnyDisposable` does not keep what its action captured alive after disposal.
public final class AnyDisposable: Disposable {
    /// The lock-guarded state: the action still to run, until the first `dispose()`.
    private enum State {
        /// Not disposed yet; `action` (if any) runs on the first `dispose()`.
        case pending(action: (@Sendable () -> Void)?)
        /// Disposed: the action ran (or there was none), and nothing is held.
        case disposed

        /// Marks the disposable disposed; returns the action to run outside the lock (`nil` if there is
        /// none, or it was disposed already).
        mutating func dispose() -> (@Sendable () -> Void)? {
            guard case let .pending(action) = self else { return nil }
            self = .disposed
            return action
        }
    }

    private let state: Locked<State>

    /// A disposable that runs `action` on the first `dispose()`.
    public init(_ action: @escaping @Sendable () -> Void) {
        state = Locked(.pending(action: action))
    }

    /// A disposable with no action: it only records that it was disposed.
    public init() {
        state = Locked(.pending(action: nil))
    }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool {
        state.withLock { if case .disposed = $0 { true } else { false } }
    }

    /// Runs the action if this is the first call; later calls do nothing.
    public func dispose() {
        state.withLock { $0.dispose() }?()
    }
}

/// A disposable that disposes what it wraps when it is deinitialised: tie work to an owner's lifetime
/// by storing one in the owner.
public final class ScopedDisposable<Inner: Disposable>: Disposable {
    /// The wrapped disposable.
    public let inner: Inner

    /// Wraps `inner`, which is disposed when this object is disposed or deinitialised.
    public init(_ inner: Inner) { self.inner = inner }

    /// Whether the wrapped disposable has been disposed.
    public var isDisposed: Bool { inner.isDisposed }

    /// Disposes the wrapped disposable.
    public func dispose() { inner.dispose() }

    deinit { inner.dispose() }
}
