import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList
import PaginatedListHTTP
import PaginatedListTesting
import Testing

/// How the client reads the waits a server names (RFC 9110's `Retry-After`, the rate-limit resets),
/// bounds them by `HTTPRateLimits.maxWindow`, and lets a later response shorten or close a window: all
/// against `StubOrigin`, in virtual time (`clock`), with no real time waited.
@Suite struct ServerWaitTests {
    /// `Mon, 01 Jan 2024 00:00:00 GMT`, the `Date` the answers below are read against: 1704067200.
    static let serverDate = "Mon, 01 Jan 2024 00:00:00 GMT"
    /// The client's clock, a minute before the server's `Date` (so a wait read against the wrong one shows).
    let clock = TestScheduler(startDate: Date(timeIntervalSince1970: 1_704_067_140))

    /// The error the first request to an origin answering `status` with `headers` fails with.
    private func error(status: Int = 429, _ headers: [String: String],
                       limits: HTTPRateLimits? = nil) async -> HTTPError? {
        let limits = limits ?? HTTPRateLimits(scheduler: clock)
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

    @Test func aRetryAfterDateWithoutADateHeaderIsReadAgainstTheClientsClock() async {
        #expect(await error(["Retry-After": "Mon, 01 Jan 2024 00:00:00 GMT"])?.retryAfter == 60)
    }

    @Test func aRetryAfterOf600IsWaitedInVirtualTime() async throws {
        let origin = StubOrigin()
        let client = origin.client(rateLimits: HTTPRateLimits(maxWait: .seconds(900), scheduler: clock))
        origin.answer(.init(status: 429, headers: ["Retry-After": "600"]), .init())
        let refused = await #expect(throws: HTTPError.self) { try await client.response(from: origin.url()).first() }
        #expect(refused?.retryAfter == 600)
        let held = Task { try await client.response(from: origin.url()).first()?.statusCode }
        try await eventually { [clock] in clock.pendingCount == 1 }
        clock.advance(by: .seconds(599))
        #expect(origin.requests.count == 1, "held back for the whole window")
        clock.advance(by: .seconds(1))
        #expect(try await held.value == 200)
        #expect(origin.requests.count == 2)
    }

    @Test func aHeldBackRequestWhoseRunIsDisposedIsNeverSent() async throws {
        let origin = StubOrigin()
        let limits = HTTPRateLimits(scheduler: clock)
        limits.record(until: clock.currentDate.addingTimeInterval(10), for: origin.url())
        let run = origin.client(rateLimits: limits).response(from: origin.url()).start()
        #expect(clock.pendingCount == 1)
        run.dispose()
        #expect(clock.pendingCount == 0, "the wait is cancelled")
        clock.run()
        #expect(origin.requests.isEmpty)
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

    @Test func aResetAsAUnixTimeWithoutADateHeaderIsReadAgainstTheClientsClock() async {
        let error = await error(status: 403, ["X-RateLimit-Reset": "1704067200", "X-RateLimit-Remaining": "0"])
        #expect(error?.retryAfter == 60)
    }

    @Test(arguments: ["1e3", "-30", "0x10", "+30", "inf", "100000000000000", "1704067260000000"])
    func aResetThatIsNotANumberOfSecondsOrMillisecondsIsNotRead(_ value: String) async {
        let error = await error(["RateLimit-Reset": value, "RateLimit-Remaining": "0", "Date": Self.serverDate])
        #expect(error?.retryAfter == nil)
    }

    // MARK: - The longest wait believed

    @Test func aWaitLongerThanMaxWindowIsNotBelievedAndOpensNoWindow() async throws {
        let origin = StubOrigin()
        let limits = HTTPRateLimits(scheduler: clock)
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
        let client = origin.client(rateLimits: HTTPRateLimits(scheduler: clock))
        origin.answer(.init(status: 503, headers: ["Retry-After": "86400"]))
        let refused = await #expect(throws: HTTPError.self) { try await client.response(from: origin.url()).first() }
        #expect(refused?.retryAfter == 86_400)
        let held = await #expect(throws: HTTPError.self) { try await client.response(from: origin.url()).first() }
        #expect(held?.kind == .rateLimited)
        #expect(origin.requests.count == 1)
    }

    @Test(arguments: [("10", 10.0 as TimeInterval?), ("11", nil)])
    func maxWindowIsSetPerRateLimits(_ retryAfter: String, _ believed: TimeInterval?) async {
        let limits = HTTPRateLimits(maxWindow: .seconds(10), scheduler: clock)
        #expect(await error(["Retry-After": retryAfter], limits: limits)?.retryAfter == believed)
    }

    @Test func recordingAnEndBeyondMaxWindowChangesNothing() {
        let limits = HTTPRateLimits(maxWindow: .seconds(3_600), scheduler: clock)
        let url = URL(string: "https://api.example.com/items")!
        limits.record(until: clock.currentDate.addingTimeInterval(1_800), for: url)
        limits.record(until: clock.currentDate.addingTimeInterval(7_200), for: url)
        #expect(limits.windowEnd(for: url) == clock.currentDate.addingTimeInterval(1_800))
    }

    @Test func recordingAnEarlierEndShortensTheWindow() throws {
        let limits = HTTPRateLimits(scheduler: clock)
        let url = URL(string: "https://api.example.com/items")!
        limits.record(until: clock.currentDate.addingTimeInterval(80_000), for: url)
        limits.record(until: clock.currentDate.addingTimeInterval(1_000), for: url)
        #expect(limits.windowEnd(for: url) == clock.currentDate.addingTimeInterval(1_000))
    }

    @Test func aWindowClosesWhenTheClockPassesItsEnd() {
        let limits = HTTPRateLimits(scheduler: clock)
        let url = URL(string: "https://api.example.com/items")!
        limits.record(until: clock.currentDate.addingTimeInterval(600), for: url)
        clock.advance(by: .seconds(599))
        #expect(limits.windowEnd(for: url) != nil)
        clock.advance(by: .seconds(1))
        #expect(limits.windowEnd(for: url) == nil)
    }

    // MARK: - The server closes a window

    /// The time left in the window of an origin after a response to a request in flight when a window of
    /// 80 000 s opened: the origin answers `status` with `headers`.
    private func windowAfterAnswer(status: Int, _ headers: [String: String] = [:]) async -> TimeInterval? {
        let origin = StubOrigin()
        let limits = HTTPRateLimits(scheduler: clock)
        let url = origin.url()
        origin.answer(.init(status: status, headers: headers, onArrival: { [clock] in
            limits.record(until: clock.currentDate.addingTimeInterval(80_000), for: url)
        }))
        _ = try? await origin.client(rateLimits: limits).response(from: url).first()
        return limits.windowEnd(for: url)?.timeIntervalSince(clock.currentDate)
    }

    @Test func aSuccessFromTheOriginClosesItsWindow() async {
        #expect(await windowAfterAnswer(status: 200) == nil)
    }

    @Test func aRemainingAbove0ClosesTheWindowEvenOnAnErrorStatus() async {
        #expect(await windowAfterAnswer(status: 500, ["RateLimit-Remaining": "5"]) == nil)
    }

    @Test func aLaterShorterWaitShortensTheWindow() async throws {
        #expect(await windowAfterAnswer(status: 429, ["Retry-After": "1000"]) == 1_000)
    }

    @Test func anErrorThatSaysNothingOfTheLimitLeavesTheWindow() async throws {
        #expect(await windowAfterAnswer(status: 500) == 80_000)
    }

    @Test func aSuccessThatUsesUpTheLimitWithoutAReadableResetLeavesTheWindow() async throws {
        #expect(await windowAfterAnswer(status: 200, ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "soon"]) == 80_000)
    }

    @Test func aRetryAfterTooLongToBelieveLeavesTheWindow() async throws {
        #expect(await windowAfterAnswer(status: 429, ["Retry-After": "10000000000000000000"]) == 80_000)
    }
}
