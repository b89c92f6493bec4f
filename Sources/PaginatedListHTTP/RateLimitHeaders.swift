import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a response's headers say about when the next request to its origin may be sent.
///
/// `Retry-After` wins when it can be read: RFC 9110's `1*DIGIT` delay-seconds or an HTTP date, nothing
/// else (`1e3`, `0x1p4`, `+5`, `1.5` are not read). Otherwise, when the response says the rate limit is
/// used up (`RateLimit-Remaining: 0` or `X-RateLimit-Remaining: 0`, or a 429 or 503 status),
/// `RateLimit-Reset` or `X-RateLimit-Reset` (digits, with an optional fraction), read by its size: below
/// 10⁹ a delay in seconds (the IETF draft), below 10¹¹ a Unix time in seconds (GitHub), below 10¹⁴ a Unix
/// time in milliseconds; larger is not read. Dates are read against the response's own `Date` header
/// when it has one, so the client's clock being off does not matter.
///
/// Every wait is bounded: one longer than `longest` (`HTTPRateLimits.maxWindow`) is not believed, and
/// counts as a wait of unknown length, as does a wait that cannot be read. Only `TimeInterval` arithmetic
/// is done on what the server sent (a delay of 20 digits is a very large, finite `Double`), so no header
/// can trap.
struct RateLimitHeaders: Equatable, Sendable {
    /// What the headers say about the origin's rate-limit window.
    enum Window: Equatable, Sendable {
        /// Wait this long, in seconds from the response's arrival, at most `longest` (0: the wait is over).
        case wait(TimeInterval)
        /// The server takes requests: a success (2xx, 304), or a `RateLimit-Remaining` above 0, that asks
        /// for no wait.
        case open
        /// Nothing usable: no word on the limit, or a wait that cannot be read or is longer than `longest`
        /// (the retry policy's own backoff applies; the origin's window is left as it is).
        case unknown
    }

    /// The default of `longest`: a day.
    static let defaultLongest: TimeInterval = 86_400

    /// What the headers say about the origin's window.
    let window: Window

    /// The wait in seconds from the response's arrival, or `nil` if the headers ask for none (or for one
    /// that cannot be read or believed).
    var delay: TimeInterval? {
        if case let .wait(delay) = window { return delay }
        return nil
    }

    init(_ response: HTTPURLResponse, now: Date, longest: TimeInterval) {
        self.init(header: response.value(forHTTPHeaderField:), statusCode: response.statusCode, now: now, longest: longest)
    }

    init(header: (String) -> String?, statusCode: Int, now: Date, longest: TimeInterval) {
        // Only read when a date or a Unix time needs it.
        func serverNow() -> Date { header("Date").flatMap { HTTPDate.parse($0, now: now) } ?? now }
        func bounded(_ seconds: TimeInterval) -> Window {
            seconds.isFinite && seconds <= longest ? .wait(max(seconds, 0)) : .unknown
        }
        let retryAfter = header("Retry-After").map(Self.trimmed)
        if let retryAfter {
            if let seconds = Self.digits(retryAfter) {
                window = bounded(seconds)
                return
            }
            if let date = HTTPDate.parse(retryAfter, now: now) {
                window = bounded(date.timeIntervalSince(serverNow()))
                return
            }
        }
        let remaining = (header("RateLimit-Remaining") ?? header("X-RateLimit-Remaining"))
            .flatMap { Self.digits(Self.trimmed($0)) }
        if remaining == 0 || statusCode == 429 || statusCode == 503 {
            // Used up: the reset says until when (the first that can be read).
            let reset = [header("RateLimit-Reset"), header("X-RateLimit-Reset")].lazy
                .compactMap { $0.flatMap { Self.decimal(Self.trimmed($0)) } }.first
            window = reset.flatMap { Self.wait(untilReset: $0, serverNow: serverNow) }.map(bounded) ?? .unknown
        } else if retryAfter == nil, (200 ..< 300).contains(statusCode) || statusCode == 304 || (remaining ?? 0) > 0 {
            window = .open
        } else {
            window = .unknown
        }
    }

    /// The wait a rate-limit reset names, read by its size: below 10⁹ (some 31 years) a delay in
    /// seconds; below 10¹¹ (the year 5138) a Unix time in seconds; below 10¹⁴ a Unix time in milliseconds
    /// (10¹¹ ms is 1973); larger, `nil`.
    static func wait(untilReset reset: Double, serverNow: () -> Date) -> TimeInterval? {
        switch reset {
        case ..<1e9: reset
        case ..<1e11: reset - serverNow().timeIntervalSince1970
        case ..<1e14: reset / 1000 - serverNow().timeIntervalSince1970
        default: nil
        }
    }

    /// RFC 9110's `1*DIGIT` (delay-seconds, a count) as a number (infinite for a run of digits too long
    /// for a `Double`), or `nil` for anything else: a sign, a fraction, an exponent, hex, nothing.
    static func digits(_ text: String) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy(isDigit) else { return nil }
        return Double(text) ?? .infinity
    }

    /// Digits with an optional fraction (`1704067260`, `1470173023.123`, `0.5`) as a number (infinite when
    /// too long for a `Double`), or `nil` for anything else (a sign, an exponent, hex, `inf`).
    static func decimal(_ text: String) -> Double? {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isDigit) }) else { return nil }
        return Double(text) ?? .infinity
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte) }

    /// `text` without the spaces and tabs around it (HTTP's optional whitespace).
    private static func trimmed(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespaces)
    }
}
