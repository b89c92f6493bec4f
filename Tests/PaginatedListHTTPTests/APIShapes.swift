import Foundation
import HTTPFixtureServer
import PaginatedList
import PaginatedListHTTP
import Signals
import Testing

/// An item of any of the fixture server's API shapes: only its id, a string or a number in the body
/// (`7`, `"cus_0007"`, `"C0007"`, `"page-7"`).
struct APIItem: Decodable, Identifiable, Equatable, Sendable {
    let id: String

    private enum CodingKeys: String, CodingKey { case id }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let text = try? container.decode(String.self, forKey: .id) {
            id = text
        } else {
            id = String(try container.decode(Int.self, forKey: .id))
        }
    }
}

/// One real API's shape on the fixture server, and the one-line `HTTPPageSource` that pages it.
struct APIShape: Sendable, CustomTestStringConvertible {
    /// `github`, `stripe`, …
    let name: String
    /// The endpoint and its page-size query item (5 items a page).
    let path: String
    /// The id the endpoint gives item `n` of the feed.
    let id: @Sendable (Int) -> String
    /// Where a body's error envelope points (`HTTPError.keyPath` of an `{"ok": false}` / `{"error": …}`).
    let envelopeKey: String
    /// The source, as the guide writes it.
    let source: @Sendable (HTTPClient, URL) -> HTTPPageSource<APIItem>

    var testDescription: String { name }

    /// The ids of a feed of `count` items, in order.
    func ids(_ count: Int) -> [String] { (1 ... count).map(id) }

    static let github = APIShape(name: "github", path: "/github?per_page=5", id: { "\($0)" }, envelopeKey: "error") {
        HTTPPageSource(client: $0, url: $1, paging: .linkHeader())
    }
    static let stripe = APIShape(name: "stripe", path: "/stripe?limit=5", id: { "cus_" + pad($0) }, envelopeKey: "error") {
        HTTPPageSource(client: $0, url: $1, paging: .startingAfter())
    }
    static let slack = APIShape(name: "slack", path: "/slack?limit=5", id: { "C" + pad($0) }, envelopeKey: "ok") {
        HTTPPageSource(client: $0, url: $1, paging: .cursor(at: "response_metadata.next_cursor"), items: "channels",
                       errorEnvelope: .okFlag())
    }
    static let notion = APIShape(name: "notion", path: "/notion?page_size=5", id: { "page-\($0)" }, envelopeKey: "error") {
        HTTPPageSource(client: $0, url: $1, paging: .cursor(parameter: "start_cursor", hasMore: "has_more"))
    }
    static let jsonAPI = APIShape(name: "jsonapi", path: "/jsonapi?page%5Bsize%5D=5", id: { "\($0)" }, envelopeKey: "error") {
        HTTPPageSource(client: $0, url: $1, paging: .nextURL(at: "links.next", absentMeansEnd: true), items: "data")
    }

    static let all: [APIShape] = [github, stripe, slack, notion, jsonAPI]

    private static func pad(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// One request the fixture server logged.
struct LoggedRequest: Sendable {
    let path: String
    let query: [String: String]
    let time: Double
    let status: Int?
    /// Whether it carried `If-None-Match` or `If-Modified-Since`.
    let conditional: Bool
}

extension FeedServer {
    /// The feed requests the server received, in order.
    func requests() async throws -> [LoggedRequest] {
        let log = try await control("log")
        return (log["requests"] as? [[String: Any]] ?? []).map {
            LoggedRequest(path: $0["path"] as? String ?? "", query: $0["query"] as? [String: String] ?? [:],
                          time: $0["time"] as? Double ?? -1, status: $0["status"] as? Int,
                          conditional: $0["conditional"] as? Bool ?? false)
        }
    }
}

/// Waits (a bounded poll, a safety net) until `condition` holds.
func eventually(_ condition: @Sendable () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while try await !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
}
