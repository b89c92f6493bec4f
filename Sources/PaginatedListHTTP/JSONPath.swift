/// Where a value sits in a JSON body: the object keys to follow from the top, written with dots
/// (`"response_metadata.next_cursor"`, `"links.next"`); the empty path is the body itself.
///
/// Keys are matched as written and in camelCase (`next_cursor` also finds `nextCursor`), so a path works
/// whether the client's decoder converts snake_case keys (`JSONCoding`'s does) or not. A value; `Sendable`.
public struct JSONPath: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The keys to follow, outermost first; empty for the body itself.
    public let components: [String]

    /// The path `dotted` (`"meta.next"`); `""` is the body itself.
    ///
    /// Every `.` splits, even one that a combining mark after it joins into one character with it
    /// (`"a.\u{301}b"` is `a` then `\u{301}b`): the split is over Unicode scalars, as a JSON key is.
    public init(_ dotted: String) {
        // Over UTF-8, which is the same split: a `.` is one byte, and no byte of another scalar is one.
        components = dotted.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: true)
            .map { String(Substring($0)) }
    }

    /// The path through `components`.
    public init(components: [String]) {
        self.components = components
    }

    /// The path `value` (`"meta.next"`).
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The body itself.
    public static let root = JSONPath(components: [])

    /// The path with dots, as written (`response_metadata.next_cursor`); `(the body)` for the root.
    public var description: String {
        components.isEmpty ? "(the body)" : components.joined(separator: ".")
    }
}
