import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a response's headers say about when the next request may be sent.
///
/// `Retry-After` (RFC 9110: delay-seconds or an HTTP date) wins; otherwise, when the response says the
/// rate limit is used up (`RateLimit-Remaining: 0` or `X-RateLimit-Remaining: 0`, or a 429 or 503
/// status), `RateLimit-Reset` (delay-seconds, as the IETF draft has it) or `X-RateLimit-Reset` (a Unix
/// time, as GitHub sends it, or delay-seconds for small values). Dates are read against the response's
/// own `Date` header when it has one, so the client's clock being off does not matter.
struct RateLimitHeaders {
    /// The wait in seconds from the response's arrival, or `nil` if the headers ask for none.
    let delay: TimeInterval?

    init(_ response: HTTPResponse, now: Date = Date()) {
        self.init(header: response.header, statusCode: response.statusCode, now: now)
    }

    init(header: (String) -> String?, statusCode: Int, now: Date) {
        let serverNow = header("Date").flatMap(Self.httpDate) ?? now
        if let retryAfter = header("Retry-After")?.trimmingCharacters(in: .whitespaces) {
            if let seconds = TimeInterval(retryAfter), seconds.isFinite {
                delay = max(seconds, 0)
                return
            }
            if let date = Self.httpDate(retryAfter) {
                delay = max(date.timeIntervalSince(serverNow), 0)
                return
            }
        }
        let remaining = header("RateLimit-Remaining") ?? header("X-RateLimit-Remaining")
        let usedUp = remaining?.trimmingCharacters(in: .whitespaces) == "0" || statusCode == 429 || statusCode == 503
        guard usedUp else {
            delay = nil
            return
        }
        if let reset = header("RateLimit-Reset").flatMap({ TimeInterval($0.trimmingCharacters(in: .whitespaces)) }) {
            delay = max(reset, 0)
        } else if let reset = header("X-RateLimit-Reset").flatMap({ TimeInterval($0.trimmingCharacters(in: .whitespaces)) }) {
            // Large values are Unix times (GitHub), small ones delays.
            delay = max(reset > 1_000_000_000 ? reset - serverNow.timeIntervalSince1970 : reset, 0)
        } else {
            delay = nil
        }
    }

    /// An HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`, or the obsolete RFC 850 and asctime forms).
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text.trimmingCharacters(in: .whitespaces)) { return date }
        }
        return nil
    }
}
