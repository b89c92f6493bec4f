import Signals

/// The last response a keyed page's fetch delivered, read when its page is built (the keys and totals a
/// chained page does not carry). Thread-safe: the response is kept in a `Locked`.
final class LastResponse<Response: Sendable>: Sendable {
    private let response = Locked<Response?>(nil)

    /// Records `value` and returns it (for use inside `map`).
    func record(_ value: Response) -> Response {
        response.withLock { $0 = value }
        return value
    }

    /// The last response recorded, if any.
    var value: Response? {
        response.withLock { $0 }
    }
}
