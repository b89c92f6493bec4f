import Foundation
import HTTPFixtureServer
import PaginatedList
import PaginatedListHTTP
import Signals
import Testing

/// `HTTPPageSource`'s `deduplication:` argument: the items an insertion above pushes onto the next page
/// again are dropped by id by default, kept under `.keepAll`, dropped by a key for items that are not
/// `Identifiable`. Each test runs its own server (ids 1...23); two items are inserted at the top after the
/// first page of five, so page 2 repeats items 4 and 5.
@Suite final class HTTPDeduplicationTests {
    let server: FeedServer

    init() async throws { server = try await FeedServer.start() }

    /// A feed item read without its identity.
    struct PlainItem: Decodable, Equatable, Sendable {
        let id: Int
        let title: String
    }

    /// The items of two pages, and the diagnostics of the second.
    struct TwoPages<Item: Sendable>: Sendable {
        let first: [Item]
        let second: [Item]
        let diagnostics: [PaginatedListDiagnostic]
    }

    /// The first two pages of `source`, two items inserted at the top of the feed between them (after the
    /// first request).
    private func twoPagesAcrossAnInsertion<Item: Sendable>(_ source: HTTPPageSource<Item>) async throws -> TwoPages<Item> {
        try await server.control("churn?insert=2&delete=0&times=1")
        let pages = source.firstPage().flatMap(.concat) { first -> Producer<TwoPages<Item>, HTTPError> in
            let items = first.items
            guard let next = first.next else { return Producer(value: TwoPages(first: items, second: [], diagnostics: [])) }
            return next.map { TwoPages(first: items, second: $0.items, diagnostics: $0.diagnostics) }
        }
        return try #require(try await pages.first())
    }

    @Test func identifiableItemsARepeatedPageDeliveredAreDroppedByDefault() async throws {
        let source = HTTPPageSource<FeedItem>(url: server.url("/page"), paging: .pageNumber(pageSize: 5))
        let pages = try await twoPagesAcrossAnInsertion(source)
        #expect(pages.first.map(\.id) == Array(1 ... 5))
        #expect(pages.second.map(\.id) == [6, 7, 8])
        #expect(pages.diagnostics == [.sourceCorrection(.duplicatesDropped(count: 2))])
    }

    @Test func keepAllDeliversTheItemsAnEarlierPageDelivered() async throws {
        let source = HTTPPageSource<FeedItem>(url: server.url("/page"), paging: .pageNumber(pageSize: 5),
                                              deduplication: .keepAll)
        let pages = try await twoPagesAcrossAnInsertion(source)
        #expect(pages.second.map(\.id) == [4, 5, 6, 7, 8])
        #expect(pages.diagnostics.isEmpty)
    }

    @Test func itemsThatAreNotIdentifiableAreKeptByDefault() async throws {
        let source = HTTPPageSource<PlainItem>(url: server.url("/page"), paging: .pageNumber(pageSize: 5))
        let pages = try await twoPagesAcrossAnInsertion(source)
        #expect(pages.second.map(\.id) == [4, 5, 6, 7, 8])
    }

    @Test func byKeyDropsItemsThatAreNotIdentifiableByTheirKey() async throws {
        let source = HTTPPageSource<PlainItem>(url: server.url("/page"), paging: .pageNumber(pageSize: 5),
                                               deduplication: .byKey { $0.id })
        let pages = try await twoPagesAcrossAnInsertion(source)
        #expect(pages.second.map(\.id) == [6, 7, 8])
        #expect(pages.diagnostics == [.sourceCorrection(.duplicatesDropped(count: 2))])
    }

    @Test func anOffsetFeedUnderKeepAllStepsTheOffsetsWithoutCorrecting() async throws {
        let source = HTTPPageSource<FeedItem>(url: server.url("/offset"), paging: .offset(limit: 5), deduplication: .keepAll)
        let pages = try await twoPagesAcrossAnInsertion(source)
        #expect(pages.second.map(\.id) == [4, 5, 6, 7, 8], "the window at offset 5, as served")
        #expect(try await server.requests().map(\.query).last?["offset"] == "5")
    }

    @Test func anOffsetFeedByIDCorrectsForTheInsertion() async throws {
        let source = HTTPPageSource<FeedItem>(url: server.url("/offset"), paging: .offset(limit: 5), deduplication: .byID)
        let pages = try await twoPagesAcrossAnInsertion(source)
        #expect(pages.second.map(\.id) == Array(6 ... 10), "the items after the last one loaded")
    }
}
