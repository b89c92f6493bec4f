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
    ) async -> (state: PaginatedListState<HTTPError>?, list: PaginatedListViewModel<Item, HTTPError>) {
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
        #expect(state == .exhausted, "\(String(describing: state))")
        #expect(list.items.value.map(\.id) == [1])
    }
}
