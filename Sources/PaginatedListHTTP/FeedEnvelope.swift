/// One page of a JSON feed, in the shapes APIs commonly send: what the HTTP page sources decode.
///
/// The body is either a top-level array of items, or an object with the items under `items`, `data` or
/// `results` and, optionally:
///
/// | field | JSON keys |
/// | --- | --- |
/// | `nextCursor` | `next_cursor` (a string or a number) |
/// | `next` | `next` (a URL, absolute or relative, holding the next page's cursor in a query item) |
/// | `totalItems` | `total`, `total_count`, `total_items`, `count` |
/// | `totalPages` | `total_pages`, `page_count` |
///
/// Keys are matched in snake_case and in camelCase, so the envelope decodes with `JSONCoding`'s decoder
/// (which converts snake_case) and with a plain `JSONDecoder` alike. Items decode with the decoder's
/// strategies. For another shape, decode your own type with `HTTPClient.get` and build the sources'
/// responses from it (see `Docs/HTTP.md`).
public struct FeedEnvelope<Item: Decodable>: Decodable {
    /// The items of the page, in order.
    public var items: [Item]
    /// The cursor of the next page, if the body names one.
    public var nextCursor: String?
    /// The URL of the next page, as the body gives it (unresolved), if it does.
    public var next: String?
    /// The number of items in the whole feed, if the body says.
    public var totalItems: Int?
    /// The number of pages in the whole feed, if the body says.
    public var totalPages: Int?

    /// An envelope with the given fields.
    public init(items: [Item], nextCursor: String? = nil, next: String? = nil, totalItems: Int? = nil,
                totalPages: Int? = nil) {
        self.items = items
        self.nextCursor = nextCursor
        self.next = next
        self.totalItems = totalItems
        self.totalPages = totalPages
    }

    /// Decodes a top-level array, or an object with the items under `items`, `data` or `results`.
    public init(from decoder: any Decoder) throws {
        guard let object = try? decoder.container(keyedBy: AnyKey.self) else {
            self.init(items: try decoder.singleValueContainer().decode([Item].self))
            return
        }
        guard let itemsKey = Self.key(in: object, ["items", "data", "results"]) else {
            throw DecodingError.keyNotFound(AnyKey("items"), .init(
                codingPath: decoder.codingPath,
                debugDescription: "Expected the items under \"items\", \"data\" or \"results\", or a top-level array."
            ))
        }
        self.init(
            items: try object.decode([Item].self, forKey: itemsKey),
            nextCursor: try Self.cursor(in: object),
            next: try Self.key(in: object, ["next"]).flatMap { try object.decodeIfPresent(String.self, forKey: $0) },
            totalItems: try Self.integer(in: object, ["total", "total_count", "total_items", "count"]),
            totalPages: try Self.integer(in: object, ["total_pages", "page_count"])
        )
    }

    private static func key(in object: KeyedDecodingContainer<AnyKey>, _ names: [String]) -> AnyKey? {
        names.lazy.compactMap { AnyKey.find($0, in: object) }.first
    }

    private static func integer(in object: KeyedDecodingContainer<AnyKey>, _ names: [String]) throws -> Int? {
        guard let key = key(in: object, names) else { return nil }
        return try object.decodeIfPresent(Int.self, forKey: key)
    }

    private static func cursor(in object: KeyedDecodingContainer<AnyKey>) throws -> String? {
        guard let key = key(in: object, ["next_cursor"]) else { return nil }
        if let number = try? object.decodeIfPresent(Int.self, forKey: key) { return String(number) }
        return try object.decodeIfPresent(String.self, forKey: key)
    }
}

extension FeedEnvelope: Sendable where Item: Sendable {}
extension FeedEnvelope: Equatable where Item: Equatable {}
