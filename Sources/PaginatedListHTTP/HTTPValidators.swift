import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What identifies a version of a resource: its `ETag` and `Last-Modified` headers.
///
/// Sent back in `If-None-Match` / `If-Modified-Since`, they let the server answer `304 Not Modified`
/// (no body) when the resource has not changed.
public struct HTTPValidators: Equatable, Sendable {
    /// The entity tag, exactly as the server sent it (quotes and any `W/` prefix included).
    public var etag: String?
    /// The `Last-Modified` date, exactly as the server sent it (an HTTP date).
    public var lastModified: String?

    /// Validators with the given header values.
    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Whether there is neither an ETag nor a date: a conditional request cannot be made.
    public var isEmpty: Bool { etag == nil && lastModified == nil }

    /// `request` with `If-None-Match` and `If-Modified-Since` set from the validators, and the local
    /// cache bypassed so that the server's `304` reaches the caller.
    ///
    /// A validator that cannot be a header value (a CR, LF or NUL in it, which RFC 9110 forbids and
    /// `URLRequest` refuses) is not sent: without the other, the request is unconditional, and the
    /// server answers it in full.
    public func applied(to request: URLRequest) -> URLRequest {
        var request = request
        request.cachePolicy = .reloadIgnoringLocalCacheData
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified { request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
        return request
    }
}

/// The outcome of a conditional request.
public enum ConditionalResponse: Sendable {
    /// The resource changed (or no validators were sent): the full response, with its new validators.
    case modified(HTTPResponse)
    /// `304 Not Modified`: the version the validators name is current.
    case notModified(HTTPResponse)

    /// Whether the resource changed.
    public var isModified: Bool {
        if case .modified = self { return true }
        return false
    }

    /// The response either way.
    public var response: HTTPResponse {
        switch self {
        case let .modified(response), let .notModified(response): response
        }
    }
}
