import Synchronization

/// An object that counts how many of its kind are alive: items made of it show that a structure
/// releases every item it held (a leak leaves the count above 0; an extra release is a use after free,
/// which the address sanitizer stops at).
public final class Tracked: Hashable, CustomStringConvertible {
    private static let alive = Atomic<Int>(0)

    /// The number the object stands for.
    public let value: Int

    /// A new object for `value`.
    public init(_ value: Int) {
        self.value = value
        Self.alive.add(1, ordering: .relaxed)
    }

    deinit {
        Self.alive.subtract(1, ordering: .relaxed)
    }

    /// How many are alive now.
    public static var count: Int { alive.load(ordering: .relaxed) }

    public static func == (lhs: Tracked, rhs: Tracked) -> Bool { lhs.value == rhs.value }
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
    public var description: String { "\(value)" }
}
