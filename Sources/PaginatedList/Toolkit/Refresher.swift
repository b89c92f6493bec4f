/// A `Refreshable` made of a closure: `refresh()` calls it.
///
/// **Threading.** `refresh()` may be called from any thread and calls the action on the caller's thread,
/// so the action is `@Sendable`. A refresher holds its action (and what the action captures) for as long
/// as it lives: capture the objects it refreshes weakly when they own it.
///
/// ```swift
/// let refresher = Refresher { [weak list] in list?.reload() }
/// refresher.refresh()
/// ```
public final class Refresher: Refreshable, Sendable {
    private let action: @Sendable () -> Void

    /// A refresher that calls `action` on every `refresh()`.
    public init(_ action: @escaping @Sendable () -> Void) {
        self.action = action
    }

    /// Calls the action, on the caller's thread.
    public func refresh() {
        action()
    }
}
