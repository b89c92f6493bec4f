import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList
import PaginatedListHTTP
import Signals
import Testing

/// How a body's keys are matched to a `JSONPath`: as written, and else in camelCase, with the decoder that
/// converts snake_case (`JSONCoding`'s, the default) and with a plain `JSONDecoder`.
@Suite struct KeySpellingTests {
    struct Item: Decodable, Identifiable, Equatable, Sendable {
        let id: Int
    }

    /// The cursor the list sends for its second page, after a first page answered with `body`, paged by
    /// the cursor at `next_cursor`, read by the decoder `makeDecoder` makes.
    private func secondCursor(_ body: String, makeDecoder: @escaping @Sendable () -> JSONDecoder) async throws -> String? {
        let origin = StubOrigin()
        origin.answer(.init(headers: ["Content-Type": "application/json"], body: Data(body.utf8)),
                      .init(headers: ["Content-Type": "application/json"], body: Data(#"{"items": [], "next_cursor": null}"#.utf8)))
        let client = HTTPClient(session: origin.session, makeDecoder: makeDecoder)
        let source = HTTPPageSource<Item>(client: client, url: origin.url(), paging: .cursor(at: "next_cursor"))
        let list = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        #expect(await loadNextPage(list) == .idle, "the first page names a next one")
        #expect(await loadNextPage(list) == .complete)
        let second = try #require(origin.requests.dropFirst().first)
        return URLComponents(url: second, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "cursor" }?.value
    }

    @Test(arguments: [true, false])
    func aSnakeCasePathFindsItsKeyWrittenInCamelCase(convertingSnakeCase: Bool) async throws {
        let makeDecoder: @Sendable () -> JSONDecoder = { convertingSnakeCase ? JSONCoding.makeDecoder() : JSONDecoder() }
        let cursor = try await secondCursor(#"{"items": [{"id": 1}], "nextCursor": "c2"}"#, makeDecoder: makeDecoder)
        #expect(cursor == "c2")
    }

    @Test func aKeyWrittenAsThePathIsTakenBeforeItsCamelCaseForm() async throws {
        let body = #"{"items": [{"id": 1}], "nextCursor": "camel", "next_cursor": "snake"}"#
        #expect(try await secondCursor(body, makeDecoder: { JSONDecoder() }) == "snake")
    }

    @Test func aPathOfOneWordIsNotFoundUnderAnotherSpelling() async throws {
        let origin = StubOrigin()
        origin.answer(.init(headers: ["Content-Type": "application/json"], body: Data(#"{"items": [{"id": 1}], "Cursor": "c2"}"#.utf8)))
        let source = HTTPPageSource<Item>(client: origin.client(), url: origin.url(), paging: .cursor(at: "cursor"))
        let list = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        let error = try #require(await loadNextPage(list)?.error)
        #expect(error.kind == .decoding)
        #expect(error.keyPath == "cursor")
    }
}
