import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Signals

/// The version of a feed a list holds: the request of the first page a source last loaded, the
/// validators (`ETag`, `Last-Modified`) of its response, and when it arrived.
///
/// What a freshness check compares with: `HTTPChangeMonitor(source)` asks the server whether the feed
/// changed since this version, with no request of its own to learn it. A value; `Sendable`.
public struct HTTPFeedVersion: Equatable, Sendable {
    /// The first page's request, as the source made it.
    public let request: URLRequest
    /// The first page's validators (empty if the server sent none).
    public let validators: HTTPValidators
    /// When the first page's response arrived.
    public let receivedAt: Date

    /// A version loaded by `request`, identified by `validators`, received at `receivedAt`.
    public init(request: URLRequest, validators: HTTPValidators, receivedAt: Date) {
        self.request = request
        self.validators = validators
        self.receivedAt = receivedAt
    }
}

/// Where an HTTP page source records the version of the first page it last loaded (`latest`), for a
/// refresh or a change monitor to read.
///
/// Every copy of a source shares its instance; each successful first-page response (the first load, a
/// reload, a refresh) replaces `latest`. **Threading.** Any thread; guarded by a lock.
public final class HTTPFirstPageVersion: Sendable {
    private let current: Locked<HTTPFeedVersion?>

    /// An instance with no version loaded yet.
    public init() {
        current = Locked(nil)
    }

    /// The version of the first page last loaded, or `nil` if none was.
    public var latest: HTTPFeedVersion? {
        current.withLock { $0 }
    }

    /// Records `version` as the one loaded.
    public func record(_ version: HTTPFeedVersion) {
        current.withLock { $0 = version }
    }

    /// Forgets the version loaded (a monitor watching it then reports a change).
    public func forget() {
        current.withLock { $0 = nil }
    }
}
