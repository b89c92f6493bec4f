import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList

/// Why an HTTP request did not yield the value asked for: the one error of `PaginatedListHTTP`, with
/// everything the server said.
///
/// Transport failures, non-2xx statuses, bodies that are not JSON, bodies that do not decode, error
/// envelopes sent with a 200 (`{"ok": false}`) and requests held back by a rate limit all become an
/// `HTTPError` that says what went wrong (`kind`, `reason`), where (`url`), and what the server said:
/// `statusCode`, every response header (`headers`, `header(_:)`), the body (`body`, up to `bodyLimit`
/// bytes), the error message the body carries when it is JSON (`serverMessage`), and how long the server
/// asked the client to wait (`retryAfter`). Its `description` is always one line, for logs and banners:
///
/// `HTTP 403 from https://api.github.com/repos/o/r/issues?page=3: Forbidden: API rate limit exceeded; retry after 37 s`
///
/// The view model keeps the failed page pending: the next `loadNextPage()` makes the same request again.
/// As a `RetryAdvising` error it tells `AutomaticRetry` what a retry can achieve (see `retryAdvice`).
public struct HTTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure it was.
    public enum Kind: String, Equatable, Sendable {
        /// No usable response: the connection failed, timed out or dropped, or the body was cut short.
        case transport
        /// The server answered with a status outside 200–299 (and not an expected 304).
        case status
        /// The response's `Content-Type` is not JSON (an HTML error page from a proxy, say).
        case contentType
        /// The body is not the JSON expected: malformed, a value of the wrong shape, or a key the paging
        /// style needs is missing (`keyPath` names it).
        case decoding
        /// A 2xx whose body says the request failed: `{"ok": false, "error": "invalid_auth"}` (Slack), or
        /// an `"error"` object where the page should be (see `HTTPErrorEnvelope`).
        case errorEnvelope
        /// Not sent: the server's rate-limit window for this host is open for longer than the client
        /// waits (`HTTPRateLimits.maxWait`); `retryAfter` says how long it still is.
        case rateLimited
    }

    /// The most bytes of a response body an error keeps (64 KiB); the rest is dropped and
    /// `bodyIsTruncated` is set.
    public static let bodyLimit = 65_536
    /// The most characters of the body `bodyExcerpt` shows.
    public static let excerptLimit = 256

    /// What kind of failure it was.
    public let kind: Kind
    /// The URL of the request (after redirects, when a response arrived).
    public let url: URL?
    /// The response's status code, if a response arrived.
    public let statusCode: Int?
    /// Every header of the response, as received (empty when no response arrived); look one up with
    /// `header(_:)`, which ignores case.
    public let headers: [String: String]
    /// The response body, at most `bodyLimit` bytes of it (empty when there was none).
    public let body: Data
    /// Whether the body was longer than `bodyLimit` and was cut.
    public let bodyIsTruncated: Bool
    /// The error message of a JSON body, from the shapes APIs commonly use: `error.message` (Stripe),
    /// `message` (GitHub), `error_description` (OAuth), `detail` (Django REST framework),
    /// `errors[0].detail`/`title`/`message` (JSON:API, GraphQL), a string `error` (Slack); else `nil`.
    public let serverMessage: String?
    /// What went wrong, in words: the transport error, the status's reason phrase, the content type
    /// received, the decoding error, or the missing key.
    public let reason: String
    /// The `URLError` code of a transport failure (`URLError.Code.rawValue`), else `nil`.
    public let transportCode: Int?
    /// How long the server asked the client to wait before the next request, in seconds from when the
    /// response arrived: from `Retry-After` (RFC 9110's whole seconds, or an HTTP date read against the
    /// response's `Date`), or from `RateLimit-Reset` / `X-RateLimit-Reset` when the rate limit is used up
    /// (a delay, or a Unix time in seconds or milliseconds). `nil` if it did not say, or named a wait that
    /// cannot be read or that is longer than the client's `HTTPRateLimits.maxWindow` (a day by default):
    /// such a wait is not believed, and the retry policy's own backoff applies.
    public let retryAfter: TimeInterval?
    /// The key path a paging style or envelope could not find or read (`response_metadata.next_cursor`),
    /// for `.decoding` errors that come from one; else `nil`.
    public let keyPath: String?

    /// An error of `kind` with every field given; the library makes them, tests may too. A `body`
    /// longer than `bodyLimit` is cut to it.
    public init(
        kind: Kind, url: URL?, statusCode: Int? = nil, headers: [String: String] = [:], body: Data = Data(),
        reason: String, serverMessage: String? = nil, transportCode: Int? = nil, retryAfter: TimeInterval? = nil,
        keyPath: String? = nil
    ) {
        self.kind = kind
        self.url = url
        self.statusCode = statusCode
        self.headers = headers
        self.body = body.count > Self.bodyLimit ? Data(body.prefix(Self.bodyLimit)) : body
        bodyIsTruncated = body.count > Self.bodyLimit
        self.reason = reason
        self.serverMessage = serverMessage
        self.transportCode = transportCode
        self.retryAfter = retryAfter
        self.keyPath = keyPath
    }

    /// An error about `response`: its status, headers, body, server message and `retryAfter` filled in.
    init(kind: Kind, response: HTTPResponse, reason: String, keyPath: String? = nil, serverMessage: String? = nil) {
        self.init(
            kind: kind, url: response.url, statusCode: response.statusCode, headers: response.headers,
            body: response.data, reason: reason,
            serverMessage: serverMessage ?? (response.isJSON ? Self.message(inJSON: response.data) : nil),
            retryAfter: response.rateLimit.delay, keyPath: keyPath
        )
    }

    /// The value of the response header `name` (matched case-insensitively), or `nil`.
    public func header(_ name: String) -> String? {
        if let value = headers[name] { return value }
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }

    /// The body as text (invalid UTF-8 repaired).
    public var bodyText: String {
        String(decoding: body, as: UTF8.self)
    }

    /// The start of the body as one line of text: at most `excerptLimit` characters, whitespace and
    /// control characters folded into single spaces, `…` if cut; empty when there was no body.
    public var bodyExcerpt: String {
        let text = Self.oneLine(String(decoding: body.prefix(Self.excerptLimit * 4), as: UTF8.self))
        let cut = text.count > Self.excerptLimit || body.count > Self.excerptLimit * 4 || bodyIsTruncated
        return String(text.prefix(Self.excerptLimit)) + (cut ? "…" : "")
    }

    /// Whether the request was cancelled (its run was interrupted before the response arrived).
    public var isCancellation: Bool {
        kind == .transport && transportCode == URLError.Code.cancelled.rawValue
    }

    /// One line, always: the kind, the status, the URL, the reason, the server's message (or else the
    /// start of the body), and the wait the server asked for.
    public var description: String {
        let target = url?.absoluteString ?? "(no URL)"
        let reason = Self.clause(reason)
        var text: String
        switch kind {
        case .transport: text = "HTTP transport error for \(target): \(reason)"
        case .status: text = "HTTP \(statusCode ?? 0) from \(target): \(reason)"
        case .contentType: text = "HTTP \(statusCode ?? 0) from \(target) is not JSON: \(reason)"
        case .decoding: text = "HTTP \(statusCode ?? 0) from \(target) did not decode: \(reason)"
        case .errorEnvelope: text = "HTTP \(statusCode ?? 0) from \(target) reports an error: \(reason)"
        case .rateLimited: text = "HTTP request to \(target) not sent: \(reason)"
        }
        if let serverMessage = serverMessage.map(Self.clause), !serverMessage.isEmpty {
            if serverMessage.lowercased() != reason.lowercased() { text += ": \(serverMessage)" }
        } else if !bodyExcerpt.isEmpty {
            text += "; body: \(bodyExcerpt)"
        }
        if let retryAfter { text += "; retry after \(Self.seconds(retryAfter))" }
        return Self.oneLine(text)
    }

    /// `text` as a clause of a longer line: on one line, without the full stop that ends it (an ellipsis
    /// is kept) or ends a parenthesis in it, so that `;` and `:` can follow (`… not valid JSON; body: …`).
    static func clause(_ text: String) -> String {
        var text = oneLine(text).replacingOccurrences(of: ".)", with: ")")
        while text.hasSuffix("."), !text.hasSuffix("..") { text.removeLast() }
        return text
    }

    /// `3 s`, `1.5 s`, `0 s`; `1e+19 s` for a count of seconds too large for an `Int` (never traps).
    static func seconds(_ interval: TimeInterval) -> String {
        let rounded = (max(interval, 0) * 10).rounded(.up) / 10
        return Int(exactly: rounded).map { "\($0) s" } ?? "\(rounded) s"
    }

    /// `text` with every run of whitespace and control characters replaced by one space, trimmed.
    ///
    /// Written as UTF-8 into a string of `text`'s length (a run becomes one byte, never more): appending
    /// scalar by scalar to a `String.UnicodeScalarView` was most of the time of describing an error.
    static func oneLine(_ text: String) -> String {
        String(unsafeUninitializedCapacity: text.utf8.count) { buffer in
            var written = 0
            var pendingSpace = false
            for scalar in text.unicodeScalars {
                // ASCII's whitespace and controls are U+0000 to U+0020 and U+007F: no property lookup for them.
                let isBlank = scalar.isASCII
                    ? scalar.value <= 0x20 || scalar.value == 0x7F
                    : scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
                if isBlank {
                    pendingSpace = written > 0
                } else {
                    if pendingSpace {
                        buffer[written] = UInt8(ascii: " ")
                        written += 1
                    }
                    pendingSpace = false
                    UTF8.encode(scalar) { unit in
                        buffer[written] = unit
                        written += 1
                    }
                }
            }
            return written
        }
    }

    /// The error message of a JSON error body, from the shapes APIs commonly use (see `serverMessage`).
    static func message(inJSON data: Data) -> String? {
        guard !data.isEmpty, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return nil
        }
        func text(_ value: Any?) -> String? {
            guard let string = value as? String, !string.isEmpty else { return nil }
            return oneLine(string)
        }
        let error = object["error"] as? [String: Any]
        let errors = object["errors"] as? [Any]
        let firstError = errors?.first as? [String: Any]
        let candidates: [Any?] = [
            error?["message"], object["message"], object["error_description"], object["detail"],
            firstError?["detail"], firstError?["title"], firstError?["message"], errors?.first,
            object["error"], error?["type"], object["title"],
        ]
        return candidates.lazy.compactMap(text).first
    }
}

extension HTTPError: RetryAdvising {
    /// `seconds` in whole milliseconds, rounded up: 0 for a negative wait, `Int64.max` for one too long to
    /// count in an `Int64` (never traps); `nil` for NaN.
    static func milliseconds(_ seconds: TimeInterval) -> Int64? {
        guard !seconds.isNaN else { return nil }
        let milliseconds = (seconds * 1000).rounded(.up)
        return milliseconds <= 0 ? 0 : Int64(exactly: milliseconds) ?? .max
    }

    /// What retrying can achieve: never retry a body that does not decode or names a missing key (the
    /// same body would come back, however long the client waited, also when the response said when to
    /// come back); else wait at least `retryAfter` when the server gave it (in whole milliseconds, at most
    /// `Int64.max` of them; a NaN is no wait); do not retry what cannot succeed as sent (a status 400–499
    /// other than 408, 425 and 429; an error envelope; a malformed or unsupported URL); else retry with
    /// the policy's backoff (transport failures, 408, 425, 429, 5xx, a non-JSON page from a proxy).
    public var retryAdvice: RetryAdvice {
        if kind == .decoding { return .doNotRetry }
        if let wait = retryAfter.flatMap(Self.milliseconds) { return .retryAfter(.milliseconds(wait)) }
        switch kind {
        case .transport:
            let permanent: Set<Int> = [URLError.Code.badURL.rawValue, URLError.Code.unsupportedURL.rawValue]
            return transportCode.map(permanent.contains) == true ? .doNotRetry : .retry
        case .status:
            guard let statusCode, (400 ..< 500).contains(statusCode) else { return .retry }
            return [408, 425, 429].contains(statusCode) ? .retry : .doNotRetry
        case .contentType, .rateLimited:
            return .retry
        case .decoding, .errorEnvelope:
            return .doNotRetry
        }
    }
}
