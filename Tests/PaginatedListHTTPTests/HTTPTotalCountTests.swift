import Foundation
import PaginatedList
import PaginatedListHTTP
import Signals
import Testing

/// An item of the stubbed bodies.
private struct Row: Decodable, Identifiable, Sendable {
    let id: Int
}

@Suite("HTTPPageSource: totals")
struct HTTPTotalCountTests {
    /// What the first page `paging` reads from a body of `json` (with `totalCount` named if given) holds:
    /// how many items, and the total it says.
    private func firstPage(
        _ json: String, paging: HTTPPagination, totalCount: JSONPath? = nil
    ) async throws -> (items: Int, totalCount: Int?)? {
        let origin = StubOrigin()
        origin.answer(.init(body: Data(json.utf8)))
        let source = HTTPPageSource<Row>(client: origin.client(), url: origin.url(), paging: paging, totalCount: totalCount)
        return try await source.firstPage().map { (items: $0.items.count, totalCount: $0.totalCount) }.first()
    }

    @Test func aPageNumberBodysTotalIsThePagesTotalCount() async throws {
        let page = try await firstPage(#"{"items": [{"id": 1}, {"id": 2}], "total": 42}"#, paging: .pageNumber(pageSize: 2))
        #expect(page?.totalCount == 42)
    }

    @Test func anOffsetStylesFullWindowShowsTheJSONAPIMetaCount() async throws {
        let page = try await firstPage(#"{"data": [{"id": 1}, {"id": 2}], "meta": {"count": 9}}"#, paging: .offset(limit: 2))
        #expect(page?.items == 2)
        #expect(page?.totalCount == 9)
    }

    @Test func aCursorStyleShowsNoTotalUnlessTheKeyIsNamed() async throws {
        let page = try await firstPage(#"{"items": [{"id": 1}], "next_cursor": null, "total": 5}"#, paging: .cursor())
        #expect(page?.totalCount == nil)
    }

    @Test func aNamedTotalKeyIsShownForACursorStyle() async throws {
        let page = try await firstPage(#"{"items": [{"id": 1}], "next_cursor": null, "meta": {"total": 5}}"#,
                                       paging: .cursor(), totalCount: "meta.total")
        #expect(page?.totalCount == 5)
    }

    @Test func aNamedTotalKeyOverridesThePageNumberStylesDefaultKeys() async throws {
        let page = try await firstPage(#"{"items": [{"id": 1}, {"id": 2}], "total": 3, "meta": {"hits": 1284}}"#,
                                       paging: .pageNumber(pageSize: 2), totalCount: "meta.hits")
        #expect(page?.totalCount == 1_284)
    }

    @Test func aMissingNamedTotalSaysNothing() async throws {
        let page = try await firstPage(#"{"items": [{"id": 1}], "next_cursor": null}"#, paging: .cursor(),
                                       totalCount: "meta.total")
        #expect(page?.totalCount == nil)
    }

    @Test func aNamedTotalThatIsNotACountFailsThePageAtThatKey() async throws {
        let error = await #expect(throws: HTTPError.self) {
            try await firstPage(#"{"items": [{"id": 1}], "next_cursor": null, "meta": {"total": "many"}}"#,
                                paging: .cursor(), totalCount: "meta.total")
        }
        #expect(error?.kind == .decoding)
        #expect(error?.keyPath == "meta.total")
    }

    @Test func aViewModelOverAnHTTPSourceShowsTheTotal() async throws {
        let origin = StubOrigin()
        origin.answer(.init(body: Data(#"{"items": [{"id": 1}], "next_cursor": null, "meta": {"total": 7}}"#.utf8)))
        let source = HTTPPageSource<Row>(client: origin.client(), url: origin.url(), paging: .cursor(), totalCount: "meta.total")
        let list = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        await loadNextPage(list)
        #expect(list.totalCount.value == 7)
    }
}
