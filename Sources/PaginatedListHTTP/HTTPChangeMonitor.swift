import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList
import Signals

/// Tells whether a feed changed since it was last seen, with conditional requests: when it did not, the
/// check costs a `304 Not Modified` and no body.
///
/// The monitor remembers the validators (`ETag`, `Last-Modified`) of the last version it saw: the first
/// `feedChanged()` (or `remember(_:)`) records them; each later check sends them back as `If-None-Match`
/// / `If-Modified-Since` and reports `false` on a `304`, or `true` on a 2xx, whose validators it then
/// records. A refresh strategy polls it and refreshes the list only when it answers `true`:
///
/// ```swift
/// monitor.feedChanged().startWithValues { changed in if changed { list.refresh() } }
/// ```
///
/// **Threading.** Any thread may call any member; the validators are guarded by a lock. Checks that
/// overlap each record the validators of their own answer, the last to arrive winning.
public final class HTTPChangeMonitor: Sendable {
    /// The client checks run on.
    public let client: HTTPClient
    /// The request each check makes conditional (typically the first page's).
    public let request: URLRequest
    private let current: Locked<HTTPValidators>

    /// A monitor of what `request` returns, starting from `validators` (empty: the first check
    /// reports `true` and records what it finds).
    public init(client: HTTPClient = HTTPClient(), request: URLRequest, validators: HTTPValidators = HTTPValidators()) {
        self.client = client
        self.request = request
        current = Locked(validators)
    }

    /// A monitor of what a GET of `url` returns.
    public convenience init(client: HTTPClient = HTTPClient(), url: URL) {
        self.init(client: client, request: URLRequest(url: url))
    }

    /// The validators of the last version seen.
    public var validators: HTTPValidators {
        current.withLock { $0 }
    }

    /// Records the validators of `response` (a page the list just loaded, say) as the version seen.
    public func remember(_ response: HTTPResponse) {
        let validators = response.validators
        current.withLock { $0 = validators }
    }

    /// Forgets the version seen: the next check reports `true`.
    public func forget() {
        current.withLock { $0 = HTTPValidators() }
    }

    /// A producer that, on every start, makes the conditional request and sends whether the feed changed
    /// since the version seen (`true` when no version was seen yet), then completes. A 2xx answer's
    /// validators become the version seen. Fails with an `HTTPError` as `HTTPClient` requests do.
    public func feedChanged() -> Producer<Bool, HTTPError> {
        Producer.deferred { [self] in
            client.conditionalResponse(for: request, validators: validators).map { [self] answer in
                if answer.isModified { remember(answer.response) }
                return answer.isModified
            }
        }
    }
}

extension Producer {
    /// A producer that calls `make` on every start and runs what it returns.
    static func deferred(_ make: @escaping () -> Producer) -> Producer {
        Producer { observer, lifetime in
            lifetime.add(make().start(observer))
        }
    }
}
