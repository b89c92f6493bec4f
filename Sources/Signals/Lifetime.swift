import Synchronization

/// The span during which some work should go on: a producer's run, an owner's existence.
///
/// A lifetime ends once, when its `Token` is deinitialised (or, for a producer's run, when the run
/// terminates or is disposed). Actions registered with `observeEnded` run then, in the order they
/// were registered, on the thread that ended the lifetime, outside any lock; they are released after
/// running. Registering on a lifetime that has already ended runs the action at once.
///
/// ```swift
/// let (lifetime, token) = Lifetime.make()
/// lifetime.observeEnded { print("ended") }
/// _ = token   // dropping the last reference to `token` prints "ended"
/// ```
public final class Lifetime: @unchecked Sendable {
    // `@unchecked Sendable`: `state` is only read or written with `lock` held; `ended` is atomic.

    /// Set once, when the lifetime ends (before the actions run).
    @usableFromInline let ended: Atomic<Bool>
    @usableFromInline let lock = Lock()
    /// Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var state = LifetimeState()

    // Creating a lifetime is part of every producer start (`Benchmarks core`: producer start).
    @inlinable
    init() {
        ended = Atomic(false)
    }

    /// Whether the lifetime has ended. Cheap (one atomic load): a loop may poll it per element.
    // Inlinable: `Producer(values:)` polls it per element (cold5map, `Benchmarks core`).
    @inlinable
    public var hasEnded: Bool { ended.load(ordering: .acquiring) }

    /// Runs `action` when the lifetime ends, or at once if it already has.
    ///
    /// - Returns: a disposable that unregisters `action`, or `nil` if it already ran.
    @discardableResult
    public func observeEnded(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        register(.action(action))
    }

    /// Disposes `disposable` when the lifetime ends, or at once if it already has.
    ///
    /// - Returns: a disposable that unregisters it, or `nil` if it was disposed at once.
    @discardableResult
    public func add(_ disposable: (any Disposable)?) -> (any Disposable)? {
        guard let disposable else { return nil }
        return register(.dispose(disposable))
    }

    private func register(_ ending: LifetimeState.Ending) -> (any Disposable)? {
        switch lock.locked({ state.register(ending, ended) }) {
        case let .registered(token):
            return AnyDisposable { [weak self] in self?.unregister(token) }
        case .alreadyEnded:
            ending.run()
            return nil
        }
    }

    private func unregister(_ token: UInt64) {
        let removed = lock.locked { state.unregister(token) }
        withExtendedLifetime(removed) {}   // released outside the lock
    }

    /// Ends the lifetime: runs every registered action once, in order. Later calls do nothing.
    @usableFromInline
    func end() {
        guard let endings = lock.locked({ state.end(ended) }) else { return }
        for entry in endings { entry.element.run() }
    }

    /// A new lifetime and the token that keeps it going: the lifetime ends when the token is released.
    public static func make() -> (lifetime: Lifetime, token: Token) {
        let lifetime = Lifetime()
        return (lifetime, Token(lifetime))
    }

    /// A lifetime that never ends.
    public static var forever: Lifetime {
        Lifetime()
    }

    /// Keeps its lifetime going: when the last reference to the token goes away, the lifetime ends.
    ///
    /// Store the token in the object whose existence the lifetime stands for.
    public final class Token: Sendable {
        @usableFromInline
        let lifetime: Lifetime

        @usableFromInline
        init(_ lifetime: Lifetime) { self.lifetime = lifetime }

        /// Ends the lifetime now, before the token is released.
        public func end() { lifetime.end() }

        deinit { lifetime.end() }
    }
}

/// The lock-guarded state of a `Lifetime`: what to do when it ends. Each method says what the caller does
/// once the lock is released.
@usableFromInline
struct LifetimeState {
    /// One thing to do when the lifetime ends.
    @usableFromInline
    enum Ending {
        case action(@Sendable () -> Void)
        case dispose(any Disposable)

        func run() {
            switch self {
            case let .action(action): action()
            case let .dispose(disposable): disposable.dispose()
            }
        }
    }

    /// What is registered, in order, with the token that unregisters it.
    var endings = Registrations<Ending>()

    @usableFromInline
    init() {}

    /// The outcome of a registration.
    enum Registration {
        /// Registered: `token` unregisters it.
        case registered(token: UInt64)
        /// The lifetime has ended: run the ending at once.
        case alreadyEnded
    }

    mutating func register(_ ending: Ending, _ ended: borrowing Atomic<Bool>) -> Registration {
        if ended.load(ordering: .relaxed) { return .alreadyEnded }
        return .registered(token: endings.add(ending))
    }

    /// Removes the ending `token`; returns it, to be released outside the lock (`nil` if it ran or was
    /// removed already).
    mutating func unregister(_ token: UInt64) -> Ending? {
        endings.remove(token)
    }

    /// Marks the lifetime ended; returns the endings to run, in order (`nil` if it had already ended).
    mutating func end(_ ended: borrowing Atomic<Bool>) -> [Registrations<Ending>.Entry]? {
        if ended.exchange(true, ordering: .acquiringAndReleasing) { return nil }
        return endings.removeAll()
    }
}
