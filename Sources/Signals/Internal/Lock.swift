#if canImport(Darwin)
import Synchronization
#else
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#endif

// `locked` is inlinable: every send takes the lock (hot1 and every other row of `Benchmarks core`).

/// The package's lock: mutual exclusion only, with the guarded state kept beside it in the owning
/// object (which documents what the lock guards). `locked` may return non-`Sendable` values read from
/// or handed to that state. Critical sections are short and never call into user code.
///
/// On Apple platforms it is `Mutex` (an `os_unfair_lock`). Elsewhere it is a test-and-test-and-set
/// lock on one atomic word that spins briefly and then yields the processor: `Mutex` on Linux costs
/// about 15 times more per uncontended lock/unlock (measured: 33 ns against 2.2 ns), this package takes
/// a lock on every event, and the thread sanitizer does not see `Mutex`'s futex calls on Linux (it
/// reports every access guarded by one as a race), while it does see these atomics' acquire/release.
@usableFromInline
package struct Lock: ~Copyable, Sendable {
    #if canImport(Darwin)
    @usableFromInline let mutex = Mutex<Void>(())

    @inlinable
    package init() {}

    /// Runs `body` while holding the lock. `body` must not call into user code.
    @inlinable
    package func locked<R>(_ body: () throws -> R) rethrows -> R {
        var result: R?
        try mutex.withLock { _ in result = try body() }
        return result.unsafelyUnwrapped
    }
    #else
    /// Whether a thread holds the lock.
    @usableFromInline
    struct State: RawRepresentable, AtomicRepresentable, Equatable, Sendable {
        @usableFromInline let rawValue: UInt32

        @inlinable
        init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Nobody holds the lock.
        @inlinable static var unlocked: State { State(rawValue: 0) }
        /// A thread holds the lock.
        @inlinable static var locked: State { State(rawValue: 1) }
    }

    @usableFromInline let word = Atomic<State>(.unlocked)

    @inlinable
    package init() {}

    /// Runs `body` while holding the lock. `body` must not call into user code.
    @inlinable
    package func locked<R>(_ body: () throws -> R) rethrows -> R {
        if !word.compareExchange(expected: .unlocked, desired: .locked, ordering: .acquiring).exchanged {
            lockContended()
        }
        defer { word.store(.unlocked, ordering: .releasing) }
        return try body()
    }

    /// How many times a thread that finds the lock held tries again before it yields the processor.
    @usableFromInline static var spinsBeforeYielding: Int { 32 }

    @usableFromInline
    func lockContended() {
        var attempts = 0
        while true {
            if word.load(ordering: .relaxed) == .unlocked,
               word.compareExchange(expected: .unlocked, desired: .locked, ordering: .acquiring).exchanged {
                return
            }
            attempts += 1
            if attempts >= Self.spinsBeforeYielding { sched_yield() }
        }
    }
    #endif
}
