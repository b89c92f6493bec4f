import Foundation

/// `.startingAfter(idField:parameter:hasMore:start:)`: Stripe's style, the next page starts after the last
/// item's id.
struct StartingAfterStyle: FollowingStyle {
    /// The last item's field sent as the cursor.
    let idField: String
    /// The query item the id is sent in.
    let parameter: String
    /// Where the body says whether more pages follow (required).
    let hasMore: JSONPath
    /// The id the list opens after (`nil`: the first page).
    let start: String?

    var name: String { ".startingAfter" }
    var lookups: [JSONPath] { [hasMore] }
    var lastItemField: String? { idField }

    func firstURL(from url: URL) -> URL {
        guard let start else { return url }
        return HTTPQuery.url(url, setting: [(name: parameter, value: start)])
    }

    /// A `true` `hasMore` requires a last item with an id.
    func next<Item>(after page: ReadPage<Item>, at pageURL: URL, source url: URL) throws(HTTPError) -> URL? {
        guard try page.flag(hasMore) else { return nil }
        guard let id = page.lastItemField?.text, !id.isEmpty else {
            throw HTTPError(kind: .decoding, response: page.response,
                            reason: page.items.isEmpty ? "\(hasMore) is true but the page has no items"
                                : "\(hasMore) is true but the last item has no \(idField)",
                            keyPath: idField)
        }
        return HTTPQuery.url(url, setting: [(name: parameter, value: id)])
    }

    /// Nothing: Stripe's `ending_before` pages are not followed.
    func previous<Item>(of page: ReadPage<Item>, at pageURL: URL, source url: URL) throws(HTTPError) -> URL? {
        nil
    }
}
