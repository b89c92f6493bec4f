import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response that arrived whole: the body and the `HTTPURLResponse` (status, headers, final URL).
public struct HTTPResponse: Sendable {
    /// The body, as received.
    public let data: Data
    /// The response's status line and headers.
    public let response: HTTPURLResponse
    /// What the headers say about the origin's rate-limit window, read when the response arrived.
    let rateLimit: RateLimitHeaders

    /// A response of `data` described by `response`, that arrived now on the wall clock.
    public init(data: Data, response: HTTPURLResponse) {
        self.init(data: data, response: response, arrivedAt: Date(), longestWait: RateLimitHeaders.defaultLongest)
    }

    /// A response of `data` described by `response`, that arrived at `now` (the dates its headers name
    /// are read against it when it has no `Date` header), believing a wait of at most `longestWait` seconds
    /// (`HTTPRateLimits.maxWindow`).
    init(data: Data, response: HTTPURLResponse, arrivedAt now: Date, longestWait: TimeInterval) {
        self.data = data
        self.response = response
        rateLimit = RateLimitHeaders(response, now: now, longest: longestWait)
    }

    /// The status code.
    public var statusCode: Int { response.statusCode }

    /// The URL the response came from (after redirects), or `nil` if Foundation did not report one.
    public var url: URL? { response.url }

    /// Every header of the response, as received.
    public var headers: [String: String] {
        var headers: [String: String] = [:]
        for case let (name as String, value) in response.allHeaderFields {
            headers[name] = value as? String ?? String(describing: value)
        }
        return headers
    }

    /// The value of the header `name` (matched case-insensitively), or `nil` if it is absent.
    public func header(_ name: String) -> String? {
        response.value(forHTTPHeaderField: name)
    }

    /// The response's validators (`ETag`, `Last-Modified`), for a later conditional request.
    public var validators: HTTPValidators {
        HTTPValidators(etag: header("ETag"), lastModified: header("Last-Modified"))
    }

    /// The links of the `Link` header (RFC 8288), their targets resolved against the response's URL.
    public var links: [WebLink] {
        guard let value = header("Link") else { return [] }
        return WebLink.parse(value, relativeTo: url)
    }

    /// Whether the `Content-Type` is JSON (`application/json`, or any `+json` type). A response with no
    /// `Content-Type` is taken as JSON.
    public var isJSON: Bool {
        guard let contentType = header("Content-Type") else { return true }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return mediaType == "application/json" || mediaType.hasSuffix("+json")
    }
}
