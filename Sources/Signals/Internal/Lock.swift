import Synchronization

/// The package's lock: a `Mutex` used only for mutual exclusion, with state kept beside it in the
/// owning object (which documents what the lock guards). Unlike `Mutex.withLock`, `locked` may
/// return non-`Sendable` values read from or handed to the guarded state.
@usableFromInline
struct Lock: ~Copyable, Sendable {
    @usableFromInline let mutex = Mutex<Void>(())

    @inlinable
    init() {}

    /// Runs `body` while holding the lock. `body` must not call into user code.
    @inlinable
    func locked<R>(_ body: () throws -> R) rethrows -> R {
        var result: R?
        try mutex.withLock { _ in result = try body() }
        return result.unsafelyUnwrapped
    }
}
