import Foundation
import Signals

/// The rate-limit windows servers announced, per origin (scheme, host and port): no request of a client
/// that shares this object is sent into an open window.
///
/// A response opens a window when it asks for a wait: `Retry-After` (on any status), or a used-up rate
/// limit (`X-RateLimit-Remaining: 0` with `X-RateLimit-Reset`, as GitHub sends it even on the 200 that
/// used the last request; `RateLimit-Reset`). A request made while its origin's window is open is held
/// back, not sent: when the window closes within `maxWait` the request waits and then goes (its producer
/// simply takes longer; interrupting the run cancels the wait); when it closes later, the request fails
/// at once with an `HTTPError` of kind `.rateLimited` whose `retryAfter` is the time left, which
/// `AutomaticRetry` waits. So the rule holds whoever triggers the request: an automatic retry, a manual
/// `loadNextPage()`, a refresh or a change monitor.
///
/// `HTTPClient` uses `shared` unless given another: every client of the process then respects the
/// windows of every server. Give clients that use different credentials on the same host (different
/// limits) their own instance.
///
/// **Threading.** Any thread may call any member; the windows are guarded by a lock. Holds a date per
/// origin, dropped once passed.
public final class HTTPRateLimits: Sendable {
    /// The instance clients use by default.
    public static let shared = HTTPRateLimits()

    /// The longest a request waits for a window to close; beyond it, it fails as `.rateLimited`.
    public let maxWait: Duration
    private let windows: Locked<[String: Date]>

    /// An instance with no window open, holding requests back at most `maxWait` (30 s by default).
    public init(maxWait: Duration = .seconds(30)) {
        self.maxWait = maxWait
        windows = Locked([:])
    }

    /// When the window of `url`'s origin closes, or `nil` if none is open now.
    public func windowEnd(for url: URL) -> Date? {
        let key = Self.origin(of: url)
        let now = Date()
        return windows.withLock { windows in
            guard let end = windows[key] else { return nil }
            if end > now { return end }
            windows[key] = nil
            return nil
        }
    }

    /// Opens (or extends; a window never shrinks) the window of `url`'s origin until `end`.
    public func record(until end: Date, for url: URL) {
        let key = Self.origin(of: url)
        windows.withLock { windows in
            if let current = windows[key], current >= end { return }
            windows[key] = end
        }
    }

    /// Closes every window.
    public func clear() {
        windows.withLock { $0.removeAll() }
    }

    /// `https://api.example.com:443`: what a window belongs to.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : 0)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
