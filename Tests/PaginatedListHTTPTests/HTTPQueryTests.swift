import Foundation
import HTTPFixtureServer
import PaginatedList
import PaginatedListHTTP
import Signals
import Testing

/// Every character of a cursor or a query value reaches the server as it was: `HTTPQuery` on its own,
/// then every page source against the fixture server (which answers 400 to a value that arrived changed).
@Suite final class HTTPQueryTests {
    /// What the fixture server checks: reserved characters, `%`, spaces and non-ASCII (its `NASTY`).
    static let nasty = "c++ +02:00 &=%/?#[]@!$'()*,;é漢"

    // MARK: - HTTPQuery on its own

    @Test(arguments: [
        ("+", "%2B"), ("&", "%26"), ("=", "%3D"), ("%", "%25"), (" ", "%20"), ("/", "%2F"), ("?", "%3F"), ("#", "%23"),
        ("[", "%5B"), ("]", "%5D"), ("@", "%40"), ("!", "%21"), ("$", "%24"), ("'", "%27"), ("(", "%28"), (")", "%29"),
        ("*", "%2A"), (",", "%2C"), (";", "%3B"), (":", "%3A"), ("é", "%C3%A9"), ("漢", "%E6%BC%A2"),
    ])
    func everyReservedCharacterIsPercentEncoded(_ character: String, _ encoded: String) {
        #expect(HTTPQuery.encode(character) == encoded)
        #expect(HTTPQuery.encode("a\(character)b") == "a\(encoded)b")
    }

    @Test func unreservedCharactersAreLeftAsTheyAre() {
        let unreserved = "ABCXYZabcxyz0189-._~"
        #expect(HTTPQuery.encode(unreserved) == unreserved)
    }

    @Test func aValueOfEveryReservedCharacterSurvivesARoundTrip() throws {
        let url = HTTPQuery.url(URL(string: "https://api.example.com/items")!, setting: ["q": Self.nasty, Self.nasty: "x"])
        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(items.map(\.name) == ["q", Self.nasty])
        #expect(items.map(\.value) == [Self.nasty, "x"])
        #expect(!(url.query ?? "").contains("+"), "a + would read as a space on many servers")
    }

    @Test func theSamplesURLIsWhatItsCommentSays() {
        let next = HTTPQuery.url(URL(string: "https://api.example.com/items")!, setting: ["cursor": "ab+c/d==", "q": "c++"])
        #expect(next.absoluteString == "https://api.example.com/items?cursor=ab%2Bc%2Fd%3D%3D&q=c%2B%2B")
    }

    @Test func otherQueryItemsAreKeptExactlyAsWritten() {
        let base = URL(string: "https://api.example.com/items?a=x+y&b=%2B&flag&tz=%2B02:00")!
        let next = HTTPQuery.url(base, setting: ["cursor": "c"])
        #expect(next.absoluteString == "https://api.example.com/items?a=x+y&b=%2B&flag&tz=%2B02:00&cursor=c")
    }

    @Test func everyOccurrenceOfANameIsReplacedEvenWhenTheNameIsEncoded() {
        let base = URL(string: "https://api.example.com/items?cursor=1&x=2&cursor=3&page%5Bafter%5D=9")!
        let next = HTTPQuery.url(base, setting: ["cursor": "new", "page[after]": "10"])
        #expect(next.absoluteString == "https://api.example.com/items?x=2&cursor=new&page%5Bafter%5D=10")
    }

    @Test func theFragmentAndThePathAreKept() {
        let base = URL(string: "https://api.example.com/v1/items%20all?a=1#top")!
        let next = HTTPQuery.url(base, setting: ["b": "2"])
        #expect(next.absoluteString == "https://api.example.com/v1/items%20all?a=1&b=2#top")
    }

    // MARK: - Every source, against the server

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        /// The endpoint, before `q` is set.
        let path: String
        let ids: [String]
        let list: @Sendable (URL) -> PaginatedListViewModel<APIItem, HTTPError>
        var testDescription: String { name }
    }

    /// A view model over `source` on `ImmediateScheduler`.
    static func list<D: PaginatedListDependency>(_ source: D) -> PaginatedListViewModel<APIItem, HTTPError>
    where D.Item == APIItem, D.Failure == HTTPError {
        PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
    }

    static let numbers = (1 ... 23).map(String.init)

    static let cases: [Case] = [
        Case(name: "pageNumber", path: "/page", ids: numbers) { list(HTTPPageSource(url: $0, paging: .pageNumber(pageSize: 5))) },
        Case(name: "offset", path: "/offset", ids: numbers) { list(HTTPPageSource(url: $0, paging: .offset(limit: 5))) },
        Case(name: "cursor", path: "/cursor?nasty=1&limit=5", ids: numbers) { list(HTTPPageSource(url: $0, paging: .cursor())) },
        Case(name: "nextURL", path: "/drf?nasty=1&limit=5", ids: numbers) { list(HTTPPageSource(url: $0, paging: .nextURL())) },
        Case(name: "linkHeader (relative)", path: "/link?limit=5", ids: numbers) {
            list(HTTPPageSource(url: $0, paging: .linkHeader()))
        },
        Case(name: "github", path: "/github?per_page=5", ids: numbers) { list(HTTPPageSource(url: $0, paging: .linkHeader())) },
        Case(name: "stripe (ids of every reserved character)", path: "/stripe?nasty=1&limit=5",
             ids: (1 ... 23).map { nasty + "cus_" + String(format: "%04d", $0) }) {
            list(HTTPPageSource(url: $0, paging: .startingAfter()))
        },
        Case(name: "slack (base64 cursors)", path: "/slack?limit=5", ids: (1 ... 23).map { "C" + String(format: "%04d", $0) }) {
            list(HTTPPageSource(url: $0, paging: .cursor(at: "response_metadata.next_cursor"), items: "channels",
                                errorEnvelope: .okFlag()))
        },
        Case(name: "notion", path: "/notion?nasty=1&page_size=5", ids: (1 ... 23).map { "page-\($0)" }) {
            list(HTTPPageSource(url: $0, paging: .cursor(parameter: "start_cursor", hasMore: "has_more")))
        },
        Case(name: "jsonapi", path: "/jsonapi?page%5Bsize%5D=5", ids: numbers) {
            list(HTTPPageSource(url: $0, paging: .nextURL(at: "links.next", absentMeansEnd: true), items: "data"))
        },
    ]

    @Test(arguments: cases)
    func aQueryValueAndCursorsOfEveryReservedCharacterSurviveEveryPage(_ test: Case) async throws {
        let server = try await FeedServer.start()
        let url = HTTPQuery.url(server.url(test.path), setting: ["q": Self.nasty])
        let list = test.list(url)
        let state = await loadAll(list)
        #expect(state == .complete, "\(String(describing: list.lastError.value))")
        #expect(list.items.value.map(\.id) == test.ids)
        let requests = try await server.requests()
        #expect(requests.count >= 5)
        #expect(requests.allSatisfy { $0.query["q"] == Self.nasty && $0.status == 200 })
        server.stop()
    }
}
