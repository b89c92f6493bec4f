import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList
import PaginatedListHTTP
import Testing

/// How the client reads the waits a server names (RFC 9110's `Retry-After`, the rate-limit resets),
/// bounds them by `HTTPRateLimits.maxWindow`, and lets a later response shorten or close a window: all
/// against `StubOrigin`, with no real time waited.
@Suite struct ServerWaitTests {
    /// `Mon, 01 Jan 2024 00:00:00 GMT`, the `Date` the answers below are read against: 1704067200.
    static let serverDate = "Mon, 01 Jan 2024 00:00:00 GMT"

    /// The error the first request to an origin answering `status` with `headers` fails with.
    private func error(status: Int = 429, _ headers: [String: String],
                       limits: HTTPRateLimits = HTTPRateLimits()) async -> HTTPError? {
        let origin = StubOrigin()
        origin.answer(.init(status: status, headers: headers))
        return await #expect(throws: HTTPError.self) {
            try await origin.client(rateLimits: limits).response(from: origin.url()).first()
        }
    }

    // MARK: - Retry-After

    @Test(arguments: ["1e3", "0x1p4", "+5", "-5", "1.5", "5s", "inf", "nan", "", "\u{665}", "Friday"])
    func aRetryAfterThatIsNeitherWholeSecondsNorAnHTTPDateIsNotRead(_ value: String) async {
        let error = await error(["Retry-After": value])
        #expect(error?.statusCode == 429)
        #expect(error?.retryAfter == nil)
        #expect(error?.retryAdvice == .retry, "the policy's own backoff")
    }

    @Test(arguments: [("7", 7.0), ("007", 7), ("0", 0)])
    func aRetryAfterInWholeSecondsIsRead(_ value: String, _ seconds: TimeInterval) async {
        #expect(await error(["Retry-After": value])?.retryAfter == seconds)
    }

    @Test func aRetryAfterDateIsReadAgainstTheServersDate() async {
        let error = await error(["Retry-After": "Mon, 01 Jan 2024 00:01:00 GMT", "Date": Self.serverDate])
        #expect(error?.retryAfter == 60)
    }

    // MARK: - Rate-limit resets

    struct Reset: Sendable, CustomTestStringConvertible {
        let header: String
        let value: String
        let wait: TimeInterval?
        var testDescription: String { "\(header): \(value)" }
    }

    @Test(arguments: [
        Reset(header: "RateLimit-Reset", value: "30", wait: 30),
        Reset(header: "X-RateLimit-Reset", value: "30", wait: 30),
        Reset(header: "X-RateLimit-Reset", value: "1704067260", wait: 60),
        Reset(header: "RateLimit-Reset", value: "1704067290", wait: 90),
        Reset(header: "X-RateLimit-Reset", value: "1704067260.5", wait: 60.5),
        Reset(header: "X-RateLimit-Reset", value: "1704067260000", wait: 60),
        Reset(header: "X-RateLimit-Reset", value: "1704067140", wait: 0),
    ])
    func aResetIsReadAsADelayAUnixTimeOrAUnixTimeInMilliseconds(_ reset: Reset) async {
        let error = await error(status: 403, [reset.header: reset.value, "X-RateLimit-Remaining": "0", "Date": Self.serverDate])
        #expect(error?.retryAfter == reset.wait)
    }

    @Test(arguments: ["1e3", "-30", "0x10", "+30", "inf", "100000000000000", "1704067260000000"])
    func aResetThatIsNotANumberOfSecondsOrMillisecondsIsNotRead(_ value: String) async {
        let error = await error(["RateLimit-Reset": value, "RateLimit-Remaining": "0", "Date": Self.serverDate])
        #expect(error?.retryAfter == nil)
    }

    // MARK: - The longest wait believed

    @Test func aWaitLongerThanMaxWindowIsNotBelievedAndOpensNoWindow() async throws {
        let origin = StubOrigin()
        let limits = HTTPRateLimits()
        let client = origin.client(rateLimits: limits)
        origin.answer(.init(status: 503, headers: ["Retry-After": "86401"]), .init())
        let error = await #expect(throws: HTTPError.self) { try await client.response(from: origin.url()).first() }
        #expect(error?.retryAfter == nil)
        #expect(limits.windowEnd(for: origin.url()) == nil)
        #expect(try await client.response(from: origin.url()).first()?.statusCode == 200)
        #expect(origin.requests.count == 2)
    }

    @Test func aWaitOfMaxWindowIsBelievedAndHoldsTheNextRequestBack() async throws {
        let origin = StubOrigin()
        let client = origin.client()
        origin.answer(.init(status: 503, headers: ["Retry-After": "86400"]))
        let refused = await #expect(throws: HTTPError.self) { try await client.response(from: origin.url()).first() }
        #expect(refused?.retryAfter == 86_400)
        let held = await #expect(throws: HTTPError.self) { try await client.response(from: origin.url()).first() }
        #expect(held?.kind == .rateLimited)
        #expect(origin.requests.count == 1)
    }

    @Test(arguments: [("10", 10.0 as TimeInterval?), ("11", nil)])
    func maxWindowIsSetPerRateLimits(_ retryAfter: String, _ believed: TimeInterval?) async {
        let limits = HTTPRateLimits(maxWindow: .seconds(10))
        #expect(await error(["Retry-After": retryAfter], limits: limits)?.retryAfter == believed)
    }

    @Test func recordingAnEndBeyondMaxWindowChangesNothing() {
        let limits = HTTPRateLimits(maxWindow: .seconds(3_600))
        let url = URL(string: "https://api.example.com/items")!
        limits.record(until: Date().addingTimeInterval(1_800), for: url)
        let open = limits.windowEnd(for: url)
        limits.record(until: Date().addingTimeInterval(7_200), for: url)
        #expect(open != nil && limits.windowEnd(for: url) == open)
    }

    @Test func recordingAnEarlierEndShortensTheWindow() throws {
        let limits = HTTPRateLimits()
        let url = URL(string: "https://api.example.com/items")!
        limits.record(until: Date().addingTimeInterval(80_000), for: url)
        limits.record(until: Date().addingTimeInterval(1_000), for: url)
        let end = try #require(limits.windowEnd(for: url))
        #expect(end.timeIntervalSinceNow <= 1_000)
    }

    // MARK: - The server closes a window

    /// The time left in the window of an origin after a response to a request in flight when a window of
    /// 80 000 s opened (long enough that a loaded machine does not see it close): the origin answers
    /// `status` with `headers`.
    private func windowAfterAnswer(status: Int, _ headers: [String: String] = [:]) async -> TimeInterval? {
        let origin = StubOrigin()
        let limits = HTTPRateLimits()
        let url = origin.url()
        origin.answer(.init(status: status, headers: headers, onArrival: {
            limits.record(until: Date().addingTimeInterval(80_000), for: url)
        }))
        _ = try? await origin.client(rateLimits: limits).response(from: url).first()
        return limits.windowEnd(for: url)?.timeIntervalSinceNow
    }

    @Test func aSuccessFromTheOriginClosesItsWindow() async {
        #expect(await windowAfterAnswer(status: 200) == nil)
    }

    @Test func aRemainingAbove0ClosesTheWindowEvenOnAnErrorStatus() async {
        #expect(await windowAfterAnswer(status: 500, ["RateLimit-Remaining": "5"]) == nil)
    }

    @Test func aLaterShorterWaitShortensTheWindow() async throws {
        let left = try #require(await windowAfterAnswer(status: 429, ["Retry-After": "1000"]))
        #expect(left <= 1_000)
    }

    @Test func anErrorThatSaysNothingOfTheLimitLeavesTheWindow() async throws {
        let left = try #require(await windowAfterAnswer(status: 500))
        #expect(left > 1_000)
    }

    @Test func aSuccessThatUsesUpTheLimitWithoutAReadableResetLeavesTheWindow() async throws {
        let left = try #require(await windowAfterAnswer(status: 200, ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "soon"]))
        #expect(left > 1_000)
    }

    @Test func aRetryAfterTooLongToBelieveLeavesTheWindow() async throws {
        let left = try #require(await windowAfterAnswer(status: 429, ["Retry-After": "10000000000000000000"]))
        #expect(left > 1_000)
    }
}
