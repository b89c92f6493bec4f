import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList
import Signals

/// Tells whether a feed changed since a version seen, with conditional requests: when it did not, the
/// check costs a `304 Not Modified` and no body.
///
/// The version seen is either the monitor's own or the list's:
///
/// - **Its own** (`init(client:request:validators:)`): the first `feedChanged()` (or `remember(_:)`)
///   records the validators (`ETag`, `Last-Modified`) it finds; each later check sends them back as
///   `If-None-Match` / `If-Modified-Since` and reports `false` on a `304`, or `true` on a 2xx, whose
///   validators it then records.
/// - **The list's** (`init(_:)` with an `HTTPPageSource`, or `source.changeMonitor()`): the version of
///   the first page the source last loaded, read at each check. The monitor records nothing itself: it
///   keeps answering `true` until the list reloads its first page (a refresh), which records the new
///   version. No request is made to learn the version: the list's own load gave it. The source records it
///   when it reads the first page, before the list applies it: after a refresh that failed on a later page
///   (or was cut off), the list still holds the old pages while the check answers `false`; retry a failed
///   refresh without the check.
///
/// A refresh strategy polls it and refreshes the list only when it answers `true`:
///
/// ```swift
/// monitor.feedChanged().startWithValues { changed in if changed { list.refresh() } }
/// ```
///
/// **Threading.** Any thread may call any member; the validators are guarded by a lock. Checks that
/// overlap each record the validators of their own answer, the last to arrive winning.
public final class HTTPChangeMonitor: Sendable {
    /// Where the version seen is kept, and who records it.
    private enum Baseline: Sendable {
        /// The monitor's own record: its checks record what they find.
        case own(HTTPFirstPageVersion)
        /// The version a page source last loaded: the source records it, the checks only read it.
        case loaded(HTTPFirstPageVersion)

        var version: HTTPFirstPageVersion {
            switch self {
            case let .own(version), let .loaded(version): version
            }
        }
    }

    /// The client checks run on.
    public let client: HTTPClient
    /// The request each check makes conditional (typically the first page's).
    public let request: URLRequest
    private let baseline: Baseline

    /// A monitor of what `request` returns, starting from `validators` (empty: the first check
    /// reports `true` and records what it finds).
    public init(client: HTTPClient = HTTPClient(), request: URLRequest, validators: HTTPValidators = HTTPValidators()) {
        self.client = client
        self.request = request
        let version = HTTPFirstPageVersion()
        if !validators.isEmpty {
            version.record(HTTPFeedVersion(request: request, validators: validators, receivedAt: client.now))
        }
        baseline = .own(version)
    }

    /// A monitor of what a GET of `url` returns.
    public convenience init(client: HTTPClient = HTTPClient(), url: URL) {
        self.init(client: client, request: URLRequest(url: url))
    }

    /// A monitor of what `request` returns compared with the version `loaded` holds (the first page a
    /// source last loaded); with no version loaded, a check reports `true`.
    public init(client: HTTPClient = HTTPClient(), request: URLRequest, loaded: HTTPFirstPageVersion) {
        self.client = client
        self.request = request
        baseline = .loaded(loaded)
    }

    /// A monitor of `source`'s first page, compared with the version the source last loaded.
    public convenience init<Item>(_ source: HTTPPageSource<Item>) {
        self.init(client: source.client, request: source.firstPageRequest, loaded: source.firstPageVersion)
    }

    /// The validators of the version seen (empty if none was).
    public var validators: HTTPValidators {
        baseline.version.latest?.validators ?? HTTPValidators()
    }

    /// Records the validators of `response` (a page the list just loaded, say) as the version seen.
    public func remember(_ response: HTTPResponse) {
        baseline.version.record(HTTPFeedVersion(request: request, validators: response.validators, receivedAt: client.now))
    }

    /// Forgets the version seen: the next check reports `true`.
    public func forget() {
        baseline.version.forget()
    }

    /// A producer that, on every start, makes the conditional request and sends whether the feed changed
    /// since the version seen (`true` when no version was seen yet), then completes. With its own record,
    /// a 2xx answer's validators become the version seen. With the list's, and no version loaded (the list
    /// loaded no first page yet, or opened past the end of the feed), it sends `true` with no request: there
    /// is nothing to compare with, and the request could only fail (a start page past the end answers 404).
    /// Fails with an `HTTPError` as `HTTPClient` requests do.
    public func feedChanged() -> Producer<Bool, HTTPError> {
        Producer.deferred { [self] in
            if case let .loaded(version) = baseline, version.latest == nil { return Producer(value: true) }
            return client.conditionalResponse(for: request, validators: validators).map { [self] answer in
                if answer.isModified, case .own = baseline { remember(answer.response) }
                return answer.isModified
            }
        }
    }
}
