/// Watches objects through weak references, to check that the code under test frees them.
///
/// ```swift
/// let leaks = LeakChecker()
/// do {
///     let model = SearchModel()
///     leaks.watch(model)
///     model.start()
/// }
/// #expect(leaks.alive.isEmpty)
/// ```
///
/// Watch inside a scope (`do { … }`) and check after it: in debug builds a local variable keeps its
/// object alive until the end of its scope. Not thread-safe: use one checker from one task or thread.
public final class LeakChecker {
    private struct Watched {
        weak var object: AnyObject?
        let description: String
    }

    private var watched: [Watched] = []

    /// A checker that watches nothing yet.
    public init() {}

    /// Watches `object` without retaining it. `name` (by default, the object's type) and the call's
    /// location describe it in `alive`.
    public func watch(_ object: AnyObject, name: String? = nil, fileID: String = #fileID, line: Int = #line) {
        let name = name ?? String(describing: type(of: object))
        watched.append(Watched(object: object, description: "\(name) (watched at \(fileID):\(line))"))
    }

    /// Descriptions of the watched objects that are still alive, in the order they were watched.
    public var alive: [String] {
        watched.filter { $0.object != nil }.map(\.description)
    }

    /// Whether every watched object has been freed.
    public var allFreed: Bool {
        alive.isEmpty
    }
}
