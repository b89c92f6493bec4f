
/// A disposable that holds at most one inner disposable: setting a new one disposes the old one.
///
/// Setting `inner` after the serial disposable is disposed disposes the new value at once.
/// Disposal of the replaced value runs outside the lock, on the thread that sets `inner`.
public final class SerialDisposable: Disposable {
    /// The lock-guarded state: the current inner disposable, and whether this one was disposed.
    private struct Slot {
        var inner: (any Disposable)?
        var disposed = false

        /// What to dispose once the lock is released after a replacement.
        enum Replacement {
            /// The previous inner (if any): it was replaced.
            case old((any Disposable)?)
            /// The new value: this disposable was disposed already, so it never holds it.
            case new
        }

        mutating func replace(with newValue: (any Disposable)?) -> Replacement {
            if disposed { return .new }
            defer { inner = newValue }
            return .old(inner)
        }

        /// Marks the slot disposed; returns the inner to dispose (none if it was disposed already).
        mutating func dispose() -> (any Disposable)? {
            guard !disposed else { return nil }
            disposed = true
            defer { inner = nil }
            return inner
        }
    }
    private let state = Locked(Slot())

    /// A serial disposable holding `inner`.
    public init(_ inner: (any Disposable)? = nil) {
        state.withLock { $0.inner = inner }
    }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool { state.withLock { $0.disposed } }

    /// The current inner disposable. Setting it disposes the previous one.
    public var inner: (any Disposable)? {
        get { state.withLock { $0.inner } }
        set {
            switch state.withLock({ $0.replace(with: newValue) }) {
            case let .old(old): old?.dispose()
            case .new: newValue?.dispose()
            }
        }
    }

    /// Disposes the current inner disposable and every one set later.
    public func dispose() {
        state.withLock { $0.dispose() }?.dispose()
    }
}
