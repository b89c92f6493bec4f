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
/// The server's latest word wins: a later response from the origin that names a wait sets the window to
/// it (shorter or longer), and one that shows requests go through again (a success that asks for no wait,
/// or a `RateLimit-Remaining` / `X-RateLimit-Remaining` above 0) closes it. A wait longer than
/// `maxWindow` (a day by default), or one that cannot be read, is not believed: no window is recorded for
/// it, and the error's `retryAfter` is `nil`, so the retry policy's own backoff applies. A window can
/// therefore never outlive `maxWindow`, whatever a server sends.
///
/// **Sharing is a choice.** Each `HTTPClient` has an instance of its own unless given one, and its copies
/// share it: make one client per API and pass it to every source and monitor of that API, so they all
/// respect the windows its answers open. Pass one instance to several clients (different sessions, say)
/// to share their windows, or `shared` to share them with every client of the process that chose it.
/// Give clients that use different credentials on the same host (different limits) instances of their
/// own. Nothing is shared behind your back: a test's client sees only the windows its own answers opened.
///
/// **Time.** Every "now" (the window's end, a `Retry-After` date, a Unix-time reset read without the
/// response's `Date` header) is `scheduler.currentDate`, and a held-back request waits on `scheduler`:
/// the wall clock by default; a `TestScheduler` (`PaginatedListTesting`) makes a window of ten minutes
/// pass in no time.
///
/// **Threading.** Any thread may call any member; the windows are guarded by a lock. Holds a date per
/// origin, dropped once passed.
public final class HTTPRateLimits: Sendable {
    /// An instance for the whole process, on the wall clock, for clients that choose it
    /// (`HTTPClient(rateLimits: .shared)`): no client uses it unless given it.
    public static let shared = HTTPRateLimits()

    /// The longest a request waits for a window to close; beyond it, it fails as `.rateLimited`.
    public let maxWait: Duration
    /// The longest wait a server is believed when it names one: a longer wait (`Retry-After: 99999999`,
    /// a date in the year 9999) opens no window and gives the error no `retryAfter`.
    public let maxWindow: Duration
    /// The clock windows are read against, and on which held-back requests wait.
    public let scheduler: any DateScheduler
    private let windows: Locked<[String: Date]>

    /// An instance with no window open, holding requests back at most `maxWait` (30 s by default),
    /// believing waits of at most `maxWindow` (a day by default), and reading the time from `scheduler`
    /// (by default the wall clock, held-back requests waiting on a global dispatch queue).
    public init(maxWait: Duration = .seconds(30), maxWindow: Duration = .seconds(86_400),
                scheduler: any DateScheduler = QueueScheduler(queue: .global())) {
        self.maxWait = maxWait
        self.maxWindow = maxWindow
        self.scheduler = scheduler
        windows = Locked([:])
    }

    /// When the window of `url`'s origin closes, or `nil` if none is open now.
    public func windowEnd(for url: URL) -> Date? {
        let key = Self.origin(of: url)
        let now = scheduler.currentDate
        return windows.withLock { windows in
            guard let end = windows[key] else { return nil }
            if end > now { return end }
            windows[key] = nil
            return nil
        }
    }

    /// Sets the window of `url`'s origin to end at `end`, opening, extending or shortening it (a date
    /// already passed closes it); an `end` more than `maxWindow` from now is not believed and changes
    /// nothing.
    public func record(until end: Date, for url: URL) {
        let now = scheduler.currentDate
        guard end.timeIntervalSince(now) <= maxWindow.timeInterval else { return }
        let key = Self.origin(of: url)
        windows.withLock { windows in
            windows[key] = end > now ? end : nil
        }
    }

    /// Closes the window of `url`'s origin, if one is open.
    public func clear(for url: URL) {
        let key = Self.origin(of: url)
        windows.withLock { windows in windows[key] = nil }
    }

    /// Closes every window.
    public func clear() {
        windows.withLock { $0.removeAll() }
    }

    /// Follows what `response`, which came from `url`'s origin just now, says about the window: sets it
    /// to the wait it names, closes it when it shows requests go through, else leaves it.
    func update(after response: HTTPResponse, from url: URL) {
        switch response.rateLimit.window {
        case let .wait(delay): record(until: scheduler.currentDate.addingTimeInterval(delay), for: url)
        case .open: clear(for: url)
        case .unknown: break
        }
    }

    /// `https://api.example.com:443`: what a window belongs to.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : 0)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
