
/// A disposable that disposes many: everything added to it is disposed when it is.
///
/// Adding to a composite that is already disposed disposes the added item at once. Items are
/// disposed in the order they were added, outside the lock, on the thread that calls `dispose()`.
/// `add` returns a handle that removes the item again (without disposing it), so that long-lived
/// composites do not accumulate finished work.
public final class CompositeDisposable: Disposable {
    private struct Entries {
        var items: [(token: UInt64, disposable: any Disposable)] = []
        var nextToken: UInt64 = 0
    }
    // nil once disposed
    private let state = Locked<Entries?>(Entries())

    /// An empty composite.
    public init() {}

    /// A composite holding `disposables`.
    public init<S: Sequence>(_ disposables: S) where S.Element == any Disposable {
        for disposable in disposables { add(disposable) }
    }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool { state.withLock { $0 == nil } }

    /// Adds `disposable`, or disposes it at once if the composite is already disposed.
    ///
    /// - Returns: a handle that removes `disposable` from the composite without disposing it, or
    ///   `nil` if `disposable` was `nil` or the composite is already disposed.
    @discardableResult
    public func add(_ disposable: (any Disposable)?) -> (any Disposable)? {
        guard let disposable else { return nil }
        let token = state.withLock { entries -> UInt64? in
            guard entries != nil else { return nil }
            let token = entries!.nextToken
            entries!.nextToken += 1
            entries!.items.append((token, disposable))
            return token
        }
        guard let token else {
            disposable.dispose()
            return nil
        }
        return AnyDisposable { [weak self] in self?.remove(token) }
    }

    /// Adds an action to run when the composite is disposed (at once if it already is).
    @discardableResult
    public func add(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        add(AnyDisposable(action))
    }

    private func remove(_ token: UInt64) {
        let removed = state.withLock { entries -> (any Disposable)? in
            guard let index = entries?.items.firstIndex(where: { $0.token == token }) else { return nil }
            return entries!.items.remove(at: index).disposable
        }
        withExtendedLifetime(removed) {}   // released outside the lock
    }

    /// Disposes every item added so far, in the order they were added.
    public func dispose() {
        let entries = state.withLock { entries -> Entries? in
            let taken = entries
            entries = nil
            return taken
        }
        for item in entries?.items ?? [] { item.disposable.dispose() }
    }
}
