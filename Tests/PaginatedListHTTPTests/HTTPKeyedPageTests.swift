import Foundation
import HTTPFixtureServer
import PaginatedList
import PaginatedListHTTP
import Signals
import Testing

/// `HTTPPageSource` as a keyed source, in every style, against the fixture server: following the keys from
/// the first page, each key encoded and decoded on the way (as a store keeps it), pages the whole feed
/// once; the first page carries the response's validators. Each test runs its own server (23 items).
@Suite final class HTTPKeyedPageTests {
    let server: FeedServer

    init() async throws { server = try await FeedServer.start() }

    /// Pages `source` from its first page to its last by the keys, each round-tripped through JSON; the
    /// pages, in order.
    private func pages<Item: Sendable>(_ source: HTTPPageSource<Item>) async throws -> [KeyedPage<Item, HTTPPageKey>] {
        var pages: [KeyedPage<Item, HTTPPageKey>] = []
        var key: HTTPPageKey?
        repeat {
            let page = try #require(try await source.page(at: key).first())
            pages.append(page)
            key = try page.next.map { try JSONDecoder().decode(HTTPPageKey.self, from: JSONEncoder().encode($0)) }
        } while key != nil && pages.count < 50
        return pages
    }

    @Test(arguments: APIShape.all)
    func eachShapeIsPagedWholeAndOnceByItsKeys(_ shape: APIShape) async throws {
        let pages = try await pages(shape.source(HTTPClient(rateLimits: HTTPRateLimits()), server.url(shape.path)))
        #expect(pages.flatMap(\.items).map(\.id) == shape.ids(23))
        #expect(pages.dropFirst().allSatisfy { if case .url? = $0.previous { true } else { $0.previous == nil } })
        #expect(try await server.requests().count == 5)
    }

    @Test func pageNumbersAreKeyedByNumberWithTheTotal() async throws {
        let source = HTTPPageSource<FeedItem>(url: server.url("/page?totals=1"), paging: .pageNumber(pageSize: 5))
        let pages = try await pages(source)
        #expect(pages.flatMap(\.items).map(\.id) == Array(1 ... 23))
        #expect(pages.map(\.next) == [.page(2), .page(3), .page(4), .page(5), nil])
        #expect(pages[1].previous == .page(1))
        #expect(pages[0].previous == nil)
    }

    @Test func offsetsAreKeyedByOffset() async throws {
        let source = HTTPPageSource<FeedItem>(url: server.url("/offset"), paging: .offset(limit: 5))
        let pages = try await pages(source)
        #expect(pages.flatMap(\.items).map(\.id) == Array(1 ... 23))
        // The short window at 20 says nothing about the rest (a server may cap the limit): the empty window
        // at 23 ends the list.
        #expect(pages.map(\.next) == [.offset(5), .offset(10), .offset(15), .offset(20), .offset(23), nil])
        #expect(pages.last?.items.isEmpty == true)
        #expect(pages[2].previous == .offset(5))
    }

    @Test func aDecodedKeyLoadsTheSamePage() async throws {
        let source = HTTPPageSource<FeedItem>(url: server.url("/link?limit=5"), paging: .linkHeader())
        let first = try #require(try await source.page(at: nil).first())
        let key = try #require(first.next)
        let decoded = try JSONDecoder().decode(HTTPPageKey.self, from: JSONEncoder().encode(key))
        let again = try await source.page(at: decoded).first()
        let direct = try await source.page(at: key).first()
        #expect(again?.items.map(\.id) == direct?.items.map(\.id))
        #expect(again?.items.map(\.id) == Array(6 ... 10))
    }

    @Test func theFirstPageCarriesTheResponsesValidators() async throws {
        let source = HTTPPageSource<FeedItem>(url: server.url("/page"), paging: .pageNumber(pageSize: 5))
        let first = try #require(try await source.page(at: nil).first())
        #expect(first.validators?.etag != nil)
        #expect(first.validators?.lastModified != nil)
        let second = try #require(try await source.page(at: first.next).first())
        #expect(second.validators == nil)
    }

    @Test func aKeyOfAnotherStyleIsADecodingError() async throws {
        let source = HTTPPageSource<FeedItem>(url: server.url("/page"), paging: .pageNumber(pageSize: 5))
        let error = await #expect(throws: HTTPError.self) { try await source.page(at: .url(self.server.url("/link"))).first() }
        #expect(error?.kind == .decoding)
    }
}
