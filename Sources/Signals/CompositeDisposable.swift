
/// A disposable that disposes many: everything added to it is disposed when it is.
///
/// Adding to a composite that is already disposed disposes the added item at once. Items are
/// disposed in the order they were added, outside the lock, on the thread that calls `dispose()`.
/// `add` returns a handle that removes the item again (without disposing it), so that long-lived
/// composites do not accumulate finished work.
public final class CompositeDisposable: Disposable {
    /// The lock-guarded state: what was added, in order, with the token that removes it; `disposed` once
    /// `dispose()` ran (nothing is held then).
    private struct Entries {
        var items = Registrations<any Disposable>()
        var disposed = false

        /// The outcome of an `add`.
        enum Addition {
            /// Held; `token` removes it.
            case added(token: UInt64)
            /// The composite is disposed: dispose the item at once.
            case refused
        }

        mutating func add(_ disposable: any Disposable) -> Addition {
            guard !disposed else { return .refused }
            return .added(token: items.add(disposable))
        }

        /// Removes the item `token`; returns it, to release outside the lock.
        mutating func remove(_ token: UInt64) -> (any Disposable)? {
            items.remove(token)
        }

        /// Marks the composite disposed; returns the items to dispose, in order (none the second time).
        mutating func dispose() -> [Registrations<any Disposable>.Entry] {
            disposed = true
            return items.removeAll()
        }
    }
    private let state = Locked(Entries())

    /// An empty composite.
    public init() {}

    /// A composite holding `disposables`.
    public init<S: Sequence>(_ disposables: S) where S.Element == any Disposable {
        for disposable in disposables { add(disposable) }
    }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool { state.withLock { $0.disposed } }

    /// Adds `disposable`, or disposes it at once if the composite is already disposed.
    ///
    /// - Returns: a handle that removes `disposable` from the composite without disposing it, or
    ///   `nil` if `disposable` was `nil` or the composite is already disposed.
    @discardableResult
    public func add(_ disposable: (any Disposable)?) -> (any Disposable)? {
        guard let disposable else { return nil }
        switch state.withLock({ $0.add(disposable) }) {
        case let .added(token):
            return AnyDisposable { [weak self] in self?.remove(token) }
        case .refused:
            disposable.dispose()
            return nil
        }
    }

    /// Adds an action to run when the composite is disposed (at once if it already is).
    @discardableResult
    public func add(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        add(AnyDisposable(action))
    }

    private func remove(_ token: UInt64) {
        let removed = state.withLock { $0.remove(token) }
        withExtendedLifetime(removed) {}   // released outside the lock
    }

    /// Disposes every item added so far, in the order they were added.
    public func dispose() {
        for item in state.withLock({ $0.dispose() }) { item.element.dispose() }
    }
}
