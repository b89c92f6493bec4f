import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList
import PaginatedListHTTP
import Signals
import Testing

/// The responses that, fuzzed from outside through the public API, crashed the process, locked an origin
/// out for good, or ended a list silently: one test each, against `StubOrigin` (no real time waited).
@Suite struct HostileResponseRegressionTests {
    struct Headers: Sendable, CustomTestStringConvertible {
        let status: Int
        let headers: [String: String]
        var testDescription: String { "\(status) \(headers.sorted { $0.key < $1.key })" }
    }

    /// The outcome of a request to an origin that first answers `answer`, then a plain 200.
    private func firstThenSecond(
        _ answer: Headers
    ) async -> (first: Result<HTTPResponse, HTTPError>, second: Result<HTTPResponse, HTTPError>, requests: Int) {
        let origin = StubOrigin()
        let client = origin.client()
        origin.answer(.init(status: answer.status, headers: answer.headers), .init())
        let first = await result(of: client.response(from: origin.url()))
        let second = await result(of: client.response(from: origin.url()))
        return (first, second, origin.requests.count)
    }

    /// The value `producer` sends, or the error it fails with.
    private func result(of producer: Producer<HTTPResponse, HTTPError>) async -> Result<HTTPResponse, HTTPError> {
        do {
            guard let value = try await producer.first() else {
                return .failure(HTTPError(kind: .transport, url: nil, reason: "the producer sent no value"))
            }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    // 1. A wait of 2^63 seconds or more trapped `Int(_:)` in the description, after opening the window,
    //    so that the next request to the origin trapped too.
    @Test(arguments: [
        Headers(status: 429, headers: ["Retry-After": "1e19"]),
        Headers(status: 429, headers: ["Retry-After": "10000000000000000000"]),
        Headers(status: 503, headers: ["Retry-After": String(repeating: "9", count: 400)]),
        Headers(status: 429, headers: ["X-RateLimit-Reset": "9300000000000000000", "X-RateLimit-Remaining": "0"]),
        Headers(status: 503, headers: ["RateLimit-Reset": "9300000000000000000", "RateLimit-Remaining": "0"]),
        Headers(status: 200, headers: ["X-RateLimit-Reset": "9300000000000000000", "X-RateLimit-Remaining": "0"]),
    ])
    func aWaitOf2To63SecondsNeitherTrapsNorHoldsTheNextRequestBack(_ answer: Headers) async throws {
        let (first, second, requests) = await firstThenSecond(answer)
        if case let .failure(error) = first {
            #expect(error.retryAfter == nil)
            #expect(error.description.hasPrefix("HTTP \(answer.status) from"))
        }
        #expect(try second.get().statusCode == 200)
        #expect(requests == 2, "the next request was sent")
    }

    // 2. A wait from about 9.22e15 s up trapped `Int64(_:)` in `retryAdvice`, read by the retry policy
    //    after every failure.
    @Test(arguments: ["1e16", "10000000000000000"])
    func aRetryAfterOf1e16AdvisesThePolicysOwnBackoff(_ value: String) async throws {
        let (first, _, _) = await firstThenSecond(Headers(status: 429, headers: ["Retry-After": value]))
        let error = try #require(first.failureValue)
        #expect(error.retryAdvice == .retry)
        let policy = RetryPolicy(maxRetries: 3, initialDelay: .seconds(1), jitter: 0)
        #expect(policy.decision(after: error, failures: 1, draw: 0.5) == .retry(after: .seconds(1)))
    }

    @Test(arguments: [
        (1e16, "10000000000000000 s"), (1e19, "1e+19 s"), (1e300, "1e+300 s"), (.infinity, "inf s"),
    ] as [(TimeInterval, String)])
    func anErrorMadeWithAHugeWaitDescribesAndAdvisesItWithoutTrapping(_ wait: TimeInterval, _ written: String) {
        let error = HTTPError(kind: .status, url: nil, statusCode: 429, reason: "Too Many Requests", retryAfter: wait)
        #expect(error.description.hasSuffix("; retry after \(written)"), "\(error.description)")
        #expect(error.retryAdvice == .retryAfter(.milliseconds(Int64.max)))
    }

    @Test func anErrorMadeWithANaNWaitAdvisesByItsStatus() {
        let error = HTTPError(kind: .status, url: nil, statusCode: 404, reason: "Not Found", retryAfter: .nan)
        #expect(error.retryAdvice == .doNotRetry)
        #expect(!error.description.isEmpty)
    }

    // 3. A reset in milliseconds was read as Unix seconds (a window of some 54 000 years), a date in
    //    the year 9999 opened a window of 3.2e11 s, and no window ever shrank.
    @Test func aResetInUnixMillisecondsWithNoneRemainingOpensAWindowOfAnHour() async throws {
        let origin = StubOrigin()
        // Held back not at all: any open window fails the next request at once, however busy the machine.
        let client = origin.client(rateLimits: HTTPRateLimits(maxWait: .zero))
        origin.answer(.init(headers: [
            "Date": "Mon, 01 Jan 2024 00:00:00 GMT", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1704070800000",
        ]))
        #expect(try await client.response(from: origin.url()).first()?.statusCode == 200)
        let held = await #expect(throws: HTTPError.self) { try await client.response(from: origin.url()).first() }
        #expect(held?.kind == .rateLimited)
        let left = try #require(held?.retryAfter)
        #expect(left > 0 && left <= 3_600, "an hour from the response, not 54,000 years: \(left)")
        #expect(origin.requests.count == 1)
    }

    @Test func aRetryAfterDateInTheYear9999OpensNoWindow() async throws {
        let (first, second, requests) = await firstThenSecond(
            Headers(status: 503, headers: ["Retry-After": "Fri, 31 Dec 9999 23:59:59 GMT", "Date": "Mon, 01 Jan 2024 00:00:00 GMT"])
        )
        #expect(first.failureValue?.retryAfter == nil)
        #expect(try second.get().statusCode == 200)
        #expect(requests == 2)
    }

    // 4. A `Link` header naming `rel="next"` in a part that cannot be read was taken for the last page.
    struct Item: Decodable, Identifiable, Equatable, Sendable {
        let id: Int
    }

    /// The list after loading a first page that links to a second whose `Link` header is `link`.
    private func listAfterSecondPage(
        link: String
    ) async -> (state: LoadState<HTTPError>?, list: PaginatedListViewModel<Item, HTTPError>) {
        let origin = StubOrigin()
        origin.answer(
            .init(headers: ["Link": "<\(origin.url("/items?page=2"))>; rel=\"next\""], body: Data(#"[{"id": 1}, {"id": 2}]"#.utf8)),
            .init(headers: ["Link": link], body: Data(#"[{"id": 3}, {"id": 4}]"#.utf8))
        )
        let source = HTTPPageSource<Item>(client: origin.client(), url: origin.url("/items"), paging: .linkHeader())
        let list = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        await loadNextPage(list)
        return (await loadNextPage(list), list)
    }

    @Test(arguments: [
        #"<https://api.example.com/items?page=3; rel="next""#,
        #"<http://[host/items?page=3>; rel="next""#,
        #"https://api.example.com/items?page=3; rel="next""#,
        #"<http://[host/items?page=3>; rel="first next""#,
    ])
    func aLinkHeaderWhoseNextLinkCannotBeReadFailsThePage(_ link: String) async throws {
        let (state, list) = await listAfterSecondPage(link: link)
        let error = try #require(state?.error)
        #expect(error.kind == .decoding)
        #expect(error.keyPath == "Link")
        #expect(error.reason.hasPrefix(#"the Link header's rel="next" link cannot be read"#), "\(error.reason)")
        #expect(list.items.value.map(\.id) == [1, 2], "the list keeps what it loaded")
        #expect(!list.exhausted.value)
    }

    @Test func aReadableNextLinkIsFollowedBesideOneThatCannotBeRead() async {
        let (state, list) = await listAfterSecondPage(link: #"garbage; rel="next", </items?page=3>; rel="next""#)
        #expect(state == .idle)
        #expect(list.items.value.map(\.id) == [1, 2, 3, 4])
        #expect(!list.exhausted.value)
    }

    @Test func aLinkHeaderWithoutANextLinkEndsTheList() async {
        let (state, list) = await listAfterSecondPage(link: #"<http://[host/items?page=1>; rel="first", </items?page=1>; rel="prev""#)
        #expect(state == .complete)
        #expect(list.items.value.map(\.id) == [1, 2, 3, 4])
    }

    @Test func aLinkHeaderWhosePrevLinkCannotBeReadFailsThePage() async throws {
        let origin = StubOrigin()
        origin.answer(.init(headers: ["Link": #"<http://[host/items?page=1>; rel="prev", </items?page=3>; rel="next""#]))
        let source = HTTPPageSource<Item>(client: origin.client(), url: origin.url("/items?page=2"), paging: .linkHeader())
        let list = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        let error = try #require(await loadNextPage(list)?.error)
        #expect(error.keyPath == "Link")
        #expect(error.reason.hasPrefix(#"the Link header's rel="prev" link cannot be read (its target is not a URL)"#))
    }

    // 5. A dot followed by a combining mark is one `Character` with it, so the path did not split there.
    @Test func aDotBeforeACombiningMarkSplitsTheJSONPath() {
        #expect(JSONPath("a.\u{301}b").components == ["a", "\u{301}b"])
        #expect(JSONPath("a.\u{301}b").components.count == 2)
    }

    // 6. Offsets over items that are not `Identifiable` (stepped windows): an answer with no item whose body
    //    still said more (a stale total, `has_more: true`) was asked for again, request after request.
    struct PlainRow: Decodable, Sendable {
        let id: Int
    }

    @Test(arguments: [#"{"items": [], "total": 57}"#, #"{"items": [], "has_more": true}"#])
    func anEmptyWindowWhoseBodySaysMoreEndsTheListAfterOneRequest(_ emptyBody: String) async throws {
        let origin = StubOrigin()
        let full = (1 ... 20).map { #"{"id": \#($0)}"# }.joined(separator: ", ")
        origin.answer(.init(body: Data(#"{"items": [\#(full)], "total": 57}"#.utf8)), .init(body: Data(emptyBody.utf8)))
        let source = HTTPPageSource<PlainRow>(client: origin.client(), url: origin.url(), paging: .offset(limit: 20))
        let list = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        #expect(await loadNextPage(list) == .idle)
        // The second page (within 10 s: a source that asks again and again fails the test, not hangs it).
        #expect(await loadNextPage(list, timeout: .seconds(10)) == .complete)
        #expect(origin.requests.count == 2)
        #expect(list.items.value.count == 20)
        #expect(list.exhausted.value)
        #expect(list.lastError.value == nil)
    }

    // 7. A start position near `Int.max` (an offset or page number read from a deep link) trapped on
    //    overflow when the first page was built.
    @Test(arguments: [HTTPPagination.offset(limit: .max, start: .max), .pageNumber(pageSize: .max, startPage: .max)])
    func aStartNearIntMaxOpensAtTheLargestPositionWithoutATrap(_ paging: HTTPPagination) async throws {
        let origin = StubOrigin()
        origin.answer(.init(body: Data(#"{"items": [{"id": 1}], "total": 1}"#.utf8)))
        let list = PaginatedListViewModel(dependency: HTTPPageSource<PlainRow>(client: origin.client(), url: origin.url(), paging: paging),
                                          scheduler: ImmediateScheduler())
        #expect(await loadNextPage(list) != nil)
        let query = try #require(origin.requests.first?.query)
        #expect(query.contains("offset=1099511627776") || query.contains("page=1073741825"), "\(query)")
    }

    // 9. A page-number body with a total near `Int.min` that says more follow trapped on overflow (the items
    //    it promised, counted from the total); a negative total is no total.
    @Test(arguments: ["-9223372036854775808", "-1"])
    func aNegativeTotalIsNoTotalAndDoesNotTrap(_ total: String) async throws {
        let origin = StubOrigin()
        let full = (1 ... 20).map { #"{"id": \#($0)}"# }.joined(separator: ", ")
        origin.answer(.init(body: Data(#"{"items": [\#(full)], "total": \#(total), "has_more": true}"#.utf8)),
                      .init(body: Data(#"{"items": [{"id": 21}], "total": \#(total), "has_more": false}"#.utf8)))
        let source = HTTPPageSource<PlainRow>(client: origin.client(), url: origin.url(), paging: .pageNumber(pageSize: 20))
        let list = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        #expect(await loadNextPage(list) == .idle)
        #expect(list.totalCount.value == nil, "not shown")
        #expect(await loadNextPage(list) == .complete)
        #expect(list.items.value.count == 21)
        #expect(list.lastError.value == nil)
    }

    @Test func aNegativeTotalAtTheKeyASourceNamesFailsThePageAsUndecodable() async throws {
        let origin = StubOrigin()
        origin.answer(.init(body: Data(#"{"items": [{"id": 1}], "count": -3}"#.utf8)))
        let source = HTTPPageSource<PlainRow>(client: origin.client(), url: origin.url(),
                                              paging: .pageNumber(pageSize: 20, totalItems: "count"))
        let list = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        _ = await loadNextPage(list)
        #expect(list.items.value.isEmpty)
        #expect(list.lastError.value?.kind == .decoding)
    }

    // 8. A keyed offset window at a key near `Int.max` (read back from a store file) trapped on overflow
    //    when its page was built; a key far below the top asked for a window of a negative size.
    @Test(arguments: [(Int.max, "offset=1099511627776&limit=20"), (Int.min, "offset=0&limit=1")])
    func aStoredOffsetKeyOutOfRangeAsksForTheNearestWindowWithoutATrap(_ key: Int, _ expectedQuery: String) async throws {
        let origin = StubOrigin()
        origin.answer(.init(body: Data(#"{"items": [{"id": 1}]}"#.utf8)))
        let source = HTTPPageSource<PlainRow>(client: origin.client(), url: origin.url(), paging: .offset(limit: 20))
        let page = try #require(try await source.page(at: .offset(key)).first())
        #expect(page.items.count == 1)
        let query = try #require(origin.requests.first?.query)
        #expect(query == expectedQuery)
    }
}

extension Result {
    /// The error, if the result is a failure.
    var failureValue: Failure? {
        if case let .failure(error) = self { return error }
        return nil
    }
}
