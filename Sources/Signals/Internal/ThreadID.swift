import Synchronization
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// `noThread` is inlinable: every property set compares the word with it (propertySet, `Benchmarks core`
// and `compare`); `current` is not (only `modify` and a nested access read it).

/// A thread, or no thread (`noThread`): what an atomic word that names a thread holds (`PropertyStorage`'s
/// `modifyingThread`).
@usableFromInline
struct ThreadID: RawRepresentable, AtomicRepresentable, Equatable, Sendable {
    @usableFromInline let rawValue: UInt

    @inlinable
    init(rawValue: UInt) { self.rawValue = rawValue }

    /// No thread (no thread's identifier is 0).
    @inlinable static var noThread: ThreadID { ThreadID(rawValue: 0) }

    /// The calling thread.
    @usableFromInline static var current: ThreadID {
        #if canImport(Darwin)
        return ThreadID(rawValue: UInt(bitPattern: pthread_self()))
        #else
        return ThreadID(rawValue: UInt(pthread_self()))
        #endif
    }
}
