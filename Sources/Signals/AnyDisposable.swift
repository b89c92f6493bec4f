
/// A disposable that runs a closure once, on the first `dispose()`.
///
/// The closure runs on the thread that calls `dispose()`, outside any lock, and is released
/// as soon as it has run: an `AnyDisposable` does not keep what its action captured alive after disposal.
public final class AnyDisposable: Disposable {
    private let state: Locked<(@Sendable () -> Void)??>

    /// A disposable that runs `action` on the first `dispose()`.
    public init(_ action: @escaping @Sendable () -> Void) {
        state = Locked(.some(action))
    }

    /// A disposable with no action: it only records that it was disposed.
    public init() {
        state = Locked(.some(nil))
    }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool {
        state.withLock { $0 == nil }
    }

    /// Runs the action if this is the first call; later calls do nothing.
    public func dispose() {
        let action = state.withLock { current -> (@Sendable () -> Void)?? in
            let action = current
            current = nil
            return action
        }
        if case let .some(.some(action)) = action { action() }
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
