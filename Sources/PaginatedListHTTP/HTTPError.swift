import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why an HTTP request did not yield the value asked for: the one error of `PaginatedListHTTP`.
///
/// Transport failures, non-2xx statuses, bodies that are not JSON and bodies that do not decode all
/// become an `HTTPError` that says what went wrong (`kind`, `reason`), where (`url`), and what the server
/// said (`statusCode`, a bounded `bodyExcerpt`). Its `description` is one line for logs and error banners:
///
/// `HTTP 500 from http://127.0.0.1:8080/items?page=2&limit=20: server error; body: {"error":"boom"}`
///
/// Every `HTTPError` is retryable in the sense of the view model: the failed page stays pending and the
/// next `loadNextPage()` makes the same request again.
public struct HTTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure it was.
    public enum Kind: String, Equatable, Sendable {
        /// No usable response: the connection failed, timed out or dropped, or the body was cut short.
        case transport
        /// The server answered with a status outside 200–299 (and not an expected 304).
        case status
        /// The response's `Content-Type` is not JSON (an HTML error page from a proxy, say).
        case contentType
        /// The body is not the JSON expected (malformed, or a value of the wrong shape).
        case decoding
    }

    /// The most characters of the body `bodyExcerpt` keeps.
    public static let excerptLimit = 256

    /// What kind of failure it was.
    public let kind: Kind
    /// The URL of the request (after redirects, when a response arrived).
    public let url: URL?
    /// The response's status code, if a response arrived.
    public let statusCode: Int?
    /// The start of the response body as text (at most `excerptLimit` characters, then `…`); empty when
    /// there was no body.
    public let bodyExcerpt: String
    /// What went wrong, in words: the transport error's description, the status's reason phrase, the
    /// content type received, or the decoding error (`JSONCodingError`'s sentence).
    public let reason: String
    /// The `URLError` code of a transport failure (`URLError.Code.rawValue`), else `nil`.
    public let transportCode: Int?
    /// The delay the server asked for in a `Retry-After` header (seconds), if any: set on 429 and 503.
    public let retryAfter: TimeInterval?

    /// An error of `kind` with every field given; the library makes them, tests may too.
    public init(
        kind: Kind, url: URL?, statusCode: Int? = nil, bodyExcerpt: String = "", reason: String,
        transportCode: Int? = nil, retryAfter: TimeInterval? = nil
    ) {
        self.kind = kind
        self.url = url
        self.statusCode = statusCode
        self.bodyExcerpt = bodyExcerpt
        self.reason = reason
        self.transportCode = transportCode
        self.retryAfter = retryAfter
    }

    /// Whether the request was cancelled (its run was interrupted before the response arrived).
    public var isCancellation: Bool {
        kind == .transport && transportCode == URLError.Code.cancelled.rawValue
    }

    /// One line: the kind, the status, the URL, the reason, and the body excerpt if there is one.
    public var description: String {
        let target = url?.absoluteString ?? "(no URL)"
        var text: String
        switch kind {
        case .transport: text = "HTTP transport error for \(target): \(reason)"
        case .status: text = "HTTP \(statusCode ?? 0) from \(target): \(reason)"
        case .contentType: text = "HTTP \(statusCode ?? 0) from \(target) is not JSON: \(reason)"
        case .decoding: text = "HTTP \(statusCode ?? 0) from \(target) did not decode: \(reason)"
        }
        if let retryAfter { text += "; retry after \(Int(retryAfter)) s" }
        if !bodyExcerpt.isEmpty { text += "; body: \(bodyExcerpt)" }
        return text
    }

    /// The first `excerptLimit` characters of `data` as text (invalid UTF-8 repaired), `…` if cut.
    static func excerpt(of data: Data) -> String {
        let prefix = data.prefix(excerptLimit * 4)
        let text = String(decoding: prefix, as: UTF8.self)
        let cut = text.count > excerptLimit || data.count > prefix.count
        return String(text.prefix(excerptLimit)) + (cut ? "…" : "")
    }
}
