/// Something that can be cancelled: an observation, a producer's run, a scheduled action.
///
/// `dispose()` is idempotent and thread-safe: the first call does the work, later calls do nothing.
/// After `dispose()` returns, `isDisposed` is `true`. Dropping the last reference to a disposable
/// does *not* dispose it (use `ScopedDisposable` for that).
public protocol Disposable: AnyObject, Sendable {
    /// Whether `dispose()` has been called (or the work it cancels has ended on its own).
    var isDisposed: Bool { get }
    /// Cancels the work. Safe to call more than once and from any thread.
    func dispose()
}
