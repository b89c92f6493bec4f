/// A value guarded by the package's `Lock`: the package's replacement for `Synchronization.Mutex`.
///
/// `Mutex` is not visible to the thread sanitizer on Linux and is slow there (see `Lock`); every module
/// of the package (and its tests) uses `Locked` instead. `withLock` may hand non-`Sendable` values in
/// and out. The value lives in its own allocation, made once in `init`.
package struct Locked<Value>: ~Copyable, @unchecked Sendable {
    // `@unchecked`: `storage` is only read or written inside `lock.locked`.
    private let lock = Lock()
    private let storage: UnsafeMutablePointer<Value>

    /// A lock guarding `value`.
    package init(_ value: Value) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    /// Runs `body` with exclusive access to the value. `body` must not call into user code.
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try lock.locked { try body(&storage.pointee) }
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }
}
