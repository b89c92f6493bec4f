import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList
import PaginatedListHTTP
import Signals
import Testing

/// The defects the fuzz targets (`Fuzz/`, see Docs/Fuzzing.md) found, one test each, through the public
/// API against `StubOrigin`. The fuzzer's own inputs are kept in `Fuzz/Regressions/<Target>Fuzzer`, which
/// every fuzz run replays first.
@Suite struct FuzzRegressionTests {
    struct Item: Decodable, Identifiable, Equatable, Sendable {
        let id: Int
    }

    /// The state after loading the first page of `body` with `paging`, and the list.
    private func firstPage(
        _ body: String, paging: HTTPPagination, client: ((StubOrigin) -> HTTPClient)? = nil
    ) async -> (state: LoadState<HTTPError>?, list: PaginatedListViewModel<Item, HTTPError>) {
        let origin = StubOrigin()
        origin.answer(.init(headers: ["Content-Type": "application/json"], body: Data(body.utf8)))
        let source = HTTPPageSource<Item>(client: client?(origin) ?? origin.client(), url: origin.url(), paging: paging)
        let list = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        return (await loadNextPage(list), list)
    }

    // JSONPathFuzzer (Regressions/JSONPathFuzzer): a key with an underscore inside it and one at an end
    // was never found by a decoder that converts snake_case (JSONCoding's): the decoder keeps the outer
    // underscores (`_nextCursor_`), the lookup dropped them (`nextCursor`).
    @Test(arguments: ["next_cursor_", "_next_cursor", "_next_cursor_", "__next__cursor__"])
    func aKeyWithUnderscoresAtItsEndsIsFoundByTheSnakeCaseDecoder(_ key: String) async {
        let (state, list) = await firstPage(#"{"items": [{"id": 1}], "\#(key)": null}"#, paging: .cursor(at: JSONPath(key)))
        #expect(state == .complete, "\(String(describing: state))")
        #expect(list.items.value.map(\.id) == [1])
    }

    // PageBodyFuzzer (Regressions/PageBodyFuzzer): a value the decoder cannot read (a number beyond
    // `Double`, a string with a raw control character, which JSON forbids) was taken for a key left
    // out, and JSON:API's `links.next` left out ends the list: the list ended silently.
    @Test(arguments: [
        #"{"links": {"next": 1e400}, "data": [{"id": 1}]}"#,
        "{\"links\": {\"next\": \"/items?page=2\u{14}\"}, \"data\": [{\"id\": 1}]}",
        #"{"links": {"next": -1e999, "prev": null}, "data": [{"id": 1}]}"#,
    ])
    func aNextURLThatCannotBeReadFailsThePageInsteadOfEndingTheList(_ body: String) async throws {
        let (state, list) = await firstPage(body, paging: .nextURL(at: "links.next", absentMeansEnd: true))
        let error = try #require(state?.error)
        #expect(error.kind == .decoding)
        #expect(error.keyPath == "links.next")
        #expect(error.reason.hasPrefix("expected a URL at links.next, found a value that cannot be read"), "\(error.reason)")
        #expect(list.items.value.isEmpty, "the page that failed delivered nothing")
        #expect(!list.exhausted.value)
    }

    @Test func aCursorThatCannotBeReadFailsThePage() async throws {
        let (state, _) = await firstPage(#"{"items": [{"id": 1}], "next_cursor": 1e400}"#, paging: .cursor())
        let error = try #require(state?.error)
        #expect(error.keyPath == "next_cursor")
        #expect(error.reason.hasPrefix("expected a string or a number at next_cursor, found a value that cannot be read"), "\(error.reason)")
    }
}
