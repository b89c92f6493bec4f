import Signals

/// A `Refreshable` that refreshes many at once: pull-to-refresh on a screen that shows several lists.
///
/// **Ownership.** The group holds its members *weakly*: it never keeps a list or a screen alive, so a
/// screen can own the group and add itself or its view models to it without a retain cycle. A member that
/// has been freed is skipped and dropped. Keep a `Refresher` you add alive yourself (as a property of its
/// owner), or add the closure with `add(_:)`, which the group retains.
///
/// **Threading.** Every method may be called from any thread. Members are `Sendable` because `refresh()`
/// calls them on its caller's thread. The member list is guarded by a lock, never held while a member's
/// `refresh()` runs: a member may add to or remove from the group while it refreshes (the change applies
/// to the next `refresh()`).
///
/// ```swift
/// let group = RefresherGroup()
/// group.add(feed)        // weakly
/// group.add(favourites)  // weakly
/// group.refresh()        // refreshes both, in the order they were added
/// ```
public final class RefresherGroup: Refreshable, Sendable {
    private enum Member: Sendable {
        /// A member held weakly, found by its identity.
        case object(WeakMember, ObjectIdentifier)
        /// A closure the group retains.
        case action(@Sendable () -> Void)

        /// Whether this is a weakly held member that has been freed.
        var isReleased: Bool {
            if case let .object(box, _) = self { box.member == nil } else { false }
        }
    }

    private final class WeakMember: Sendable {
        weak let member: (any Refreshable & Sendable)?

        init(_ member: any Refreshable & Sendable) {
            self.member = member
        }
    }

    private let members = Locked<[Member]>([])

    /// An empty group.
    public init() {}

    /// A group of `members`, held weakly, refreshed in the order given.
    public convenience init(_ members: [any Refreshable & Sendable]) {
        self.init()
        for member in members { add(member) }
    }

    /// Adds `member`, held weakly; it is refreshed after the members added before it.
    ///
    /// Adding a member that is already in the group does nothing.
    public func add(_ member: any Refreshable & Sendable) {
        let id = ObjectIdentifier(member)
        members.withLock { members in
            members.removeAll { $0.isReleased }
            let known = members.contains { if case let .object(_, other) = $0 { other == id } else { false } }
            if !known { members.append(.object(WeakMember(member), id)) }
        }
    }

    /// Adds `action`, which the group retains (capture weakly what it should not keep alive).
    public func add(_ action: @escaping @Sendable () -> Void) {
        members.withLock { $0.append(.action(action)) }
    }

    /// Removes `member`, if the group holds it.
    public func remove(_ member: any Refreshable & Sendable) {
        let id = ObjectIdentifier(member)
        members.withLock { members in
            members.removeAll { member in
                if case let .object(box, other) = member { other == id || box.member == nil } else { false }
            }
        }
    }

    /// The number of members still alive (closures added with `add(_:)` included).
    public var count: Int {
        members.withLock { members in members.filter { !$0.isReleased }.count }
    }

    /// Refreshes every member still alive, on the caller's thread, in the order they were added; drops
    /// the members that have been freed.
    public func refresh() {
        let snapshot = members.withLock { members in
            members.removeAll { $0.isReleased }
            return members
        }
        for member in snapshot {
            switch member {
            case let .object(box, _): box.member?.refresh()
            case let .action(action): action()
            }
        }
    }
}
