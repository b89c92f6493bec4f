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
public final class Lifetime: Sendable {
    @usableFromInline
    let ended: Atomic<Bool>
    private let actions = CompositeDisposable()

    @usableFromInline
    init() {
        ended = Atomic(false)
    }

    /// Whether the lifetime has ended. Cheap (one atomic load): a loop may poll it per element.
    @inlinable
    public var hasEnded: Bool { ended.load(ordering: .acquiring) }

    /// Runs `action` when the lifetime ends, or at once if it already has.
    ///
    /// - Returns: a disposable that unregisters `action`, or `nil` if it already ran.
    @discardableResult
    public func observeEnded(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        actions.add(action)
    }

    /// Disposes `disposable` when the lifetime ends, or at once if it already has.
    ///
    /// - Returns: a disposable that unregisters it, or `nil` if it was disposed at once.
    @discardableResult
    public func add(_ disposable: (any Disposable)?) -> (any Disposable)? {
        actions.add(disposable)
    }

    /// Ends the lifetime: runs every registered action once. Later calls do nothing.
    @usableFromInline
    func end() {
        if ended.exchange(true, ordering: .acquiringAndReleasing) { return }
        actions.dispose()
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
