import Foundation
import HTTPFixtureServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList
import PaginatedListHTTP
import Signals
import Testing

/// What `HTTPError` keeps of what the server said, against the fixture server's faults.
@Suite final class HTTPErrorTests {
    let server: FeedServer

    init() async throws { server = try await FeedServer.start() }

    /// The error of one GET of `/page` after arming `fault`.
    private func error(after fault: String, client: HTTPClient = HTTPClient()) async throws -> HTTPError? {
        try await server.control("fault?kind=\(fault)")
        return await #expect(throws: HTTPError.self) {
            try await client.get([FeedItem].self, from: self.server.url("/offset?limit=2")).first()
        }
    }

    @Test func aMultiLineHTMLErrorPageGivesAOneLineDescriptionAndTheWholeBody() async throws {
        let error = try #require(try await error(after: "502"))
        #expect(error.statusCode == 502)
        #expect(!error.description.contains("\n") && !error.description.contains("\r"))
        #expect(error.description.contains("<title>502 Bad Gateway</title>"))
        #expect(error.bodyText.contains("<center><h1>502 Bad Gateway</h1></center>\r\n</body>"))
        #expect(error.header("content-type") == "text/html")
        #expect(error.serverMessage == nil, "not JSON")
    }

    @Test func aJSONErrorBodyGivesTheServersMessage() async throws {
        let error = try #require(try await error(after: "404"))
        #expect(error.serverMessage == "Not Found")
        #expect(error.description.hasSuffix(": Not Found"))
        #expect(error.retryAdvice == .doNotRetry)
    }

    @Test func stripesNestedErrorMessageIsRead() async throws {
        let error = try #require(try await error(after: "stripe-error"))
        #expect(error.statusCode == 400)
        #expect(error.serverMessage == "No such customer: 'cus_9999'")
    }

    @Test func githubsRateLimitKeepsTheHeadersAndTheWaitUntilTheReset() async throws {
        let error = try #require(try await error(after: "github-rate-limit"))
        #expect(error.statusCode == 403)
        #expect(error.header("X-RateLimit-Remaining") == "0")
        #expect(error.header("x-ratelimit-reset").flatMap(Int.init) != nil)
        #expect(error.serverMessage == "API rate limit exceeded for 127.0.0.1.")
        let wait = try #require(error.retryAfter)
        #expect(wait > 0 && wait <= 3, "the reset is 1–2 s ahead of the server's Date")
        guard case .retryAfter = error.retryAdvice else {
            Issue.record("a rate limit advises a wait, not \(error.retryAdvice)")
            return
        }
    }

    @Test func retryAfterAsAnHTTPDateIsReadAgainstTheServersDate() async throws {
        let error = try #require(try await error(after: "503-date"))
        #expect(error.retryAfter == 1)
    }

    @Test func rateLimitResetWithoutRetryAfterGivesTheWait() async throws {
        let error = try #require(try await error(after: "ratelimit-reset"))
        #expect(error.retryAfter == 1)
    }

    @Test func aLargeBodyIsKeptUpToTheLimit() async throws {
        let error = try #require(try await error(after: "big"))
        #expect(error.body.count == HTTPError.bodyLimit)
        #expect(error.bodyIsTruncated)
        #expect(error.bodyExcerpt.count == HTTPError.excerptLimit + 1)
    }

    @Test func aDecodingErrorReadsAsOneSentence() async throws {
        let error = try #require(try await error(after: "malformed"))
        #expect(error.kind == .decoding)
        #expect(!error.reason.contains(".."), "\(error.reason)")
        #expect(error.description.contains("not valid JSON; body: {"), "\(error.description)")
        #expect(error.retryAdvice == .doNotRetry)
    }

    @Test func aTimeoutSaysItTimedOut() async throws {
        var request = URLRequest(url: server.url("/offset?delay=5"))
        request.timeoutInterval = 0.5
        let error = await #expect(throws: HTTPError.self) { try await HTTPClient().response(for: request).first() }
        #expect(error?.kind == .transport)
        #expect(error?.reason.hasPrefix("timed out (no answer within 0.5 s)") == true, "\(error?.reason ?? "")")
        #expect(error?.retryAdvice == .retry)
    }

    @Test func aTruncatedBodyIsAReadableTransportError() async throws {
        let error = try #require(try await error(after: "truncated"))
        #expect(error.kind == .transport)
        #expect(!error.reason.hasPrefix("The operation could not be completed"), "\(error.reason)")
    }

    @Test func aConnectionClosedWithoutAnAnswerSaysSo() async throws {
        // A session of its own: on a reused connection, curl (Foundation on Linux) retries a request whose
        // connection closed with no answer, on a fresh connection, before reporting anything.
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let error = try #require(try await error(after: "drop", client: HTTPClient(session: session)))
        #expect(error.kind == .transport)
        // Foundation on Linux reports an empty answer as a bad server response, Apple's as a lost connection.
        #expect(error.reason.hasPrefix("the server's response could not be read (the connection closed with no answer")
            || error.reason.hasPrefix("the connection was lost before the response was complete"), "\(error.reason)")
        #expect(error.retryAdvice == .retry)
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment.keys.allSatisfy { !$0.lowercased().hasSuffix("_proxy") },
                   "a proxy would answer for the host"))
    func aHostThatDoesNotExistSaysTheLookupFailed() async throws {
        // `.invalid` is reserved (RFC 6761): no resolver answers it.
        var request = URLRequest(url: URL(string: "http://no-such-host.invalid/items")!)
        request.timeoutInterval = 10
        let error = await #expect(throws: HTTPError.self) { try await HTTPClient().response(for: request).first() }
        #expect(error?.kind == .transport)
        #expect(error?.reason.hasPrefix("could not find the host no-such-host.invalid (DNS lookup failed)") == true,
                "\(error?.reason ?? "")")
    }

    @Test func aRefusedConnectionSaysSo() async throws {
        let port = server.port
        await server.stopAndWait()
        let error = await #expect(throws: HTTPError.self) {
            try await HTTPClient().response(from: URL(string: "http://127.0.0.1:\(port)/page")!).first()
        }
        #expect(error?.reason.contains("could not connect to 127.0.0.1") == true, "\(error?.reason ?? "")")
    }

    struct Advice: Sendable, CustomTestStringConvertible {
        let status: Int
        let retryable: Bool
        var testDescription: String { "\(status)" }
    }

    @Test(arguments: [
        Advice(status: 400, retryable: false), Advice(status: 401, retryable: false), Advice(status: 403, retryable: false),
        Advice(status: 404, retryable: false), Advice(status: 422, retryable: false), Advice(status: 408, retryable: true),
        Advice(status: 425, retryable: true), Advice(status: 429, retryable: true), Advice(status: 500, retryable: true),
        Advice(status: 502, retryable: true), Advice(status: 503, retryable: true),
    ])
    func aStatusIsRetriedOnlyIfARetryCanSucceed(_ advice: Advice) {
        let error = HTTPError(kind: .status, url: nil, statusCode: advice.status, reason: "")
        #expect(error.retryAdvice == (advice.retryable ? .retry : .doNotRetry))
    }

    @Test func aServersWaitIsAdvisedWhateverTheStatus() {
        let error = HTTPError(kind: .status, url: nil, statusCode: 403, reason: "", retryAfter: 2.5)
        #expect(error.retryAdvice == .retryAfter(.milliseconds(2_500)))
    }

    @Test func aBodyThatDoesNotDecodeIsNotRetriedEvenWhenTheResponseSaidWhenToComeBack() {
        // GitHub's 200 that used the hour's last request says when the limit resets; its body still does
        // not decode when asked again.
        let error = HTTPError(kind: .decoding, url: nil, statusCode: 200, reason: "", retryAfter: 3_600)
        #expect(error.retryAdvice == .doNotRetry)
    }

    @Test func theDescriptionsClausesDropTheirFullStops() {
        let error = HTTPError(kind: .decoding, url: nil, statusCode: 200,
                              reason: "Could not decode Post: expected Int (Expected a number instead.) at id.",
                              serverMessage: "API rate limit exceeded.", retryAfter: 2)
        #expect(error.description
            == "HTTP 200 from (no URL) did not decode: Could not decode Post: expected Int (Expected a number instead) at id: "
            + "API rate limit exceeded; retry after 2 s")
        let ellipsis = HTTPError(kind: .status, url: nil, statusCode: 500, reason: "Internal Server Error", serverMessage: "wait...")
        #expect(ellipsis.description == "HTTP 500 from (no URL): Internal Server Error: wait...")
    }

    @Test func theDescriptionIsOneLineWhateverTheFieldsHold() {
        let error = HTTPError(kind: .decoding, url: nil, statusCode: 200, body: Data("a\n\tb\r\nc".utf8),
                              reason: "bad\nthing", serverMessage: "line one\nline two")
        #expect(error.description == "HTTP 200 from (no URL) did not decode: bad thing: line one line two")
        #expect(error.bodyExcerpt == "a b c")
    }
}
