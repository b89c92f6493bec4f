/// What a server said about the version of a response (HTTP's `ETag` and `Last-Modified`), kept to ask
/// it later whether the feed changed (`If-None-Match`, `If-Modified-Since`).
///
/// The values are kept as the server sent them; neither is interpreted.
public struct PageValidators: Codable, Hashable, Sendable {
    /// The entity tag (`ETag`), quotes and weakness prefix included, if the server sent one.
    public var etag: String?
    /// The `Last-Modified` date, as the server wrote it, if it sent one.
    public var lastModified: String?

    /// Validators with the given values (either may be `nil`).
    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Whether neither validator is known.
    public var isEmpty: Bool { etag == nil && lastModified == nil }
}
