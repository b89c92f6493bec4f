// The response headers the client reads or keeps: `Retry-After`, `RateLimit-Reset` /
// `X-RateLimit-Reset` with `RateLimit-Remaining` / `X-RateLimit-Remaining` and `Date`, and the
// validators `ETag` / `Last-Modified`. The input is a response head (`FuzzMessage`): the status on the
// first line (200 when it is not a number) and the longest believed wait (`HTTPRateLimits.maxWindow`:
// a day, or `hour`, `zero`, `huge` for 10¹² s), then any headers.
//
// Properties:
// - the wait the headers name is none or a finite delay in 0...longest, the same read directly and
//   through `HTTPURLResponse`; RFC 9110's delay-seconds (digits only) is read exactly, or not believed
//   when longer than the longest; a reset read as a delay (below 10⁹, no `Date`) is read exactly;
//   `.open` only for a success or a remaining count above 0, with no `Retry-After`;
// - an `HTTPError` of the response carries that wait as `retryAfter`, describes itself in one line,
//   and its advice and a retry policy's decision are made without trapping, never a negative wait;
// - the window an `HTTPRateLimits` records from the response ends within its `maxWindow`;
// - the validators are the `ETag` and `Last-Modified` exactly as received, and a conditional request
//   sends them back exactly (one that cannot be a header value, with a CR, LF or NUL, is not sent);
//   a change monitor remembers them exactly.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FuzzSupport
import PaginatedList
@testable import PaginatedListHTTP

private let url = URL(string: "https://api.example.com/v1/items?page=2")!
private let now = Date(timeIntervalSince1970: 1_704_067_200)   // 2024-01-01T00:00:00Z
private let longestWaits: [String: TimeInterval] = ["hour": 3_600, "zero": 0, "huge": 1e12]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    Fuzz.run(data, size) { bytes in
        let message = FuzzMessage(bytes)
        let words = message.firstLine.split(separator: " ").map(String.init)
        let status = words.first.flatMap { Int($0) }.map { min(max($0, 100), 599) } ?? 200
        let longest = words.dropFirst().first.flatMap { longestWaits[$0] } ?? 86_400
        guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1",
                                             headerFields: message.headerFields) else {
            Fuzz.violated("HTTPURLResponse refused status \(status) and headers \(message.headers)")
        }
        checkWait(message, status, response, longest: longest)
        checkValidators(message, response)
    }
}

private func checkWait(_ message: FuzzMessage, _ status: Int, _ response: HTTPURLResponse, longest: TimeInterval) {
    let context = "status \(status), longest \(longest), headers \(message.headers)"
    let direct = RateLimitHeaders(header: message.header, statusCode: status, now: now, longest: longest)
    let received = RateLimitHeaders(header: response.value(forHTTPHeaderField:), statusCode: status, now: now, longest: longest)
    Fuzz.check(direct == received, "the headers read the same through HTTPURLResponse: \(direct) vs \(received); \(context)")

    switch direct.window {
    case let .wait(delay):
        Fuzz.check(delay.isFinite && delay >= 0 && delay <= longest, "a wait is in 0...longest: \(delay); \(context)")
        Fuzz.check(direct.delay == delay, "delay is the wait; \(context)")
    case .open:
        Fuzz.check(message.header("Retry-After") == nil, ".open with a Retry-After; \(context)")
        let remaining = (message.header("RateLimit-Remaining") ?? message.header("X-RateLimit-Remaining")).flatMap(digits)
        Fuzz.check((200 ..< 300).contains(status) || status == 304 || (remaining ?? 0) > 0, ".open for a failure; \(context)")
        Fuzz.check(direct.delay == nil, "no delay when open; \(context)")
    case .unknown:
        Fuzz.check(direct.delay == nil, "no delay when unknown; \(context)")
    }
    if let retryAfter = message.header("Retry-After"), let seconds = digits(retryAfter) {
        let expected: RateLimitHeaders.Window = seconds <= longest ? .wait(seconds) : .unknown
        Fuzz.check(direct.window == expected, "Retry-After \(Fuzz.quoted(retryAfter)) is \(expected), read \(direct.window); \(context)")
    }
    if message.header("Retry-After") == nil, message.header("Date") == nil,
       message.header("RateLimit-Remaining") == nil, message.header("X-RateLimit-Remaining").flatMap(digits) == 0,
       message.header("RateLimit-Reset") == nil, let text = message.header("X-RateLimit-Reset"),
       let reset = decimal(text), reset < 1e9 {
        let expected: RateLimitHeaders.Window = reset <= longest ? .wait(reset) : .unknown
        Fuzz.check(direct.window == expected, "a reset below 10⁹ is a delay: \(expected), read \(direct.window); \(context)")
    }

    // `HTTPResponse` reads them as arriving at the time it is given (its client's clock): exactly the same.
    let arrival = Date()
    let httpResponse = HTTPResponse(data: Data(), response: response, arrivedAt: arrival, longestWait: longest)
    let expected = RateLimitHeaders(response, now: arrival, longest: longest)
    let read = httpResponse.rateLimit
    Fuzz.check(read == expected, "HTTPResponse reads the headers the same: \(read.window), expected \(expected.window); \(context)")
    let error = HTTPError(kind: .status, response: httpResponse, reason: HTTPURLResponse.localizedString(forStatusCode: status))
    Fuzz.check(error.retryAfter == read.delay, "the error's retryAfter is the wait; \(context)")
    let description = error.description
    Fuzz.check(Fuzz.isOneLine(description), "one line: \(Fuzz.quoted(description))")
    if case let .retryAfter(wait) = error.retryAdvice {
        Fuzz.check(wait >= .zero, "the advised wait is not negative: \(wait); \(context)")
    }
    let policy = RetryPolicy(maxRetries: 3, initialDelay: .seconds(1), maxDelay: .seconds(30), jitter: 0.2)
    if case let .retry(after) = policy.decision(after: error, failures: 1, draw: 0.5) {
        Fuzz.check(after >= .zero, "a retry is not scheduled in the past: \(after); \(context)")
    }

    let limits = HTTPRateLimits(maxWait: .zero, maxWindow: .seconds(longest))
    let recorded = Date()
    limits.update(after: httpResponse, from: url)
    if let end = limits.windowEnd(for: url) {
        Fuzz.check(end.timeIntervalSince(recorded) <= longest + 1, "a window ends within maxWindow: \(end); \(context)")
        Fuzz.check(read.delay != nil, "a window opens only for a wait; \(context)")
    }
}

private func checkValidators(_ message: FuzzMessage, _ response: HTTPURLResponse) {
    let httpResponse = HTTPResponse(data: Data(), response: response)
    let validators = httpResponse.validators
    let etag = message.header("ETag"), lastModified = message.header("Last-Modified")
    Fuzz.check(validators.etag == etag && validators.lastModified == lastModified,
               "the validators are the headers as received: \(validators); \(message.headers)")
    let request = validators.applied(to: URLRequest(url: url))
    let sentETag = request.value(forHTTPHeaderField: "If-None-Match")
    let sentDate = request.value(forHTTPHeaderField: "If-Modified-Since")
    Fuzz.check(sentETag == etag.flatMap(sendable), "If-None-Match sends the ETag back exactly: \(String(describing: sentETag)) for \(String(describing: etag))")
    Fuzz.check(sentDate == lastModified.flatMap(sendable),
               "If-Modified-Since sends Last-Modified back exactly: \(String(describing: sentDate)) for \(String(describing: lastModified))")
    Fuzz.check(validators.isEmpty == (etag == nil && lastModified == nil), "isEmpty when neither header is there")
    let monitor = HTTPChangeMonitor(request: URLRequest(url: url))
    monitor.remember(httpResponse)
    Fuzz.check(monitor.validators == validators, "a monitor remembers the validators exactly")
}

/// `value`, if it can be a header value: RFC 9110 forbids CR, LF and NUL in one (and `URLRequest` drops it).
private func sendable(_ value: String) -> String? {
    value.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" } ? nil : value
}

/// RFC 9110's delay-seconds: only ASCII digits (around spaces and tabs), as a number.
private func digits(_ text: String) -> Double? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty, trimmed.unicodeScalars.allSatisfy({ ("0" ... "9").contains($0) }) else { return nil }
    return Double(trimmed) ?? .infinity
}

/// Digits with an optional fraction.
private func decimal(_ text: String) -> Double? {
    let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy { ("0" ... "9").contains($0) } }) else { return nil }
    return Double(parts.joined(separator: ".")) ?? .infinity
}
