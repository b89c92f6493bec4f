
/// A disposable that holds at most one inner disposable: setting a new one disposes the old one.
///
/// Setting `inner` after the serial disposable is disposed disposes the new value at once.
/// Disposal of the replaced value runs outside the lock, on the thread that sets `inner`.
public final class SerialDisposable: Disposable {
    private struct Slot {
        var inner: (any Disposable)?
        var disposed = false
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
            let (old, disposeNew) = state.withLock { slot -> ((any Disposable)?, Bool) in
                if slot.disposed { return (nil, true) }
                let old = slot.inner
                slot.inner = newValue
                return (old, false)
            }
            old?.dispose()
            if disposeNew { newValue?.dispose() }
        }
    }

    /// Disposes the current inner disposable and every one set later.
    public func dispose() {
        let old = state.withLock { slot -> (any Disposable)? in
            guard !slot.disposed else { return nil }
            slot.disposed = true
            let old = slot.inner
            slot.inner = nil
            return old
        }
        old?.dispose()
    }
}
