import Foundation

/// A JSON document as written, read with a plain `JSONDecoder` (no key conversion): the oracle the
/// targets compare the package's readers with. It never fails on valid JSON: a value that no Swift type
/// reads (a number beyond `Double`'s range) is `.unreadable`, not an error.
public indirect enum JSONTree: Equatable, Decodable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONTree])
    /// Members by key as written (a repeated key: the decoder's choice).
    case object([String: JSONTree])
    /// A value there that no Swift type reads.
    case unreadable

    /// The document in `data`, or `nil` if it is not JSON.
    public static func parse(_ data: [UInt8]) -> JSONTree? {
        try? JSONDecoder().decode(JSONTree.self, from: Data(data))
    }

    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            var members: [String: JSONTree] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(JSONTree.self, forKey: key) }
            self = .object(members)
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONTree] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONTree.self)) }
            self = .array(elements)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let bool = try? single.decode(Bool.self) {
                self = .bool(bool)
            } else if let integer = try? single.decode(Int64.self) {
                self = .integer(integer)
            } else if let number = try? single.decode(Double.self) {
                self = .number(number)
            } else if let string = try? single.decode(String.self) {
                self = .string(string)
            } else {
                self = .unreadable
            }
        }
    }

    /// What a lookup of a key path found.
    public enum Found: Equatable {
        /// The value at the path.
        case value(JSONTree)
        /// Nothing: a key on the way is not there, or a value on the way is not an object.
        case absent
        /// Several keys of one object could be the one meant (`next_cursor` and `nextCursor`): the
        /// oracle does not guess which one a reader takes.
        case ambiguous
    }

    /// The value at `path` (object keys from the top). A key may match a component when they are equal
    /// ignoring case and underscores: a superset of what a reader matches, converting snake_case or not.
    /// No such key: `.absent`. One, spelled as the component: the value (every reader takes a key as
    /// written). More than one, or one spelled otherwise (`liNks`, `nextCursor` for `next_cursor`, which a
    /// reader takes or not by its conversion rules): `.ambiguous`, as the oracle does not guess.
    public func lookup(_ path: [String]) -> Found {
        var value = self
        for component in path {
            guard case let .object(members) = value else { return .absent }
            let wanted = Self.loose(component)
            let matches = members.filter { Self.loose($0.key) == wanted }
            guard let match = matches.first else { return .absent }
            guard matches.count == 1, match.key == component else { return .ambiguous }
            value = match.value
        }
        return .value(value)
    }

    /// `key` lowercased, without underscores.
    private static func loose(_ key: String) -> String {
        key.lowercased().replacingOccurrences(of: "_", with: "")
    }

    /// A string, or an integer written as text.
    public var text: String? {
        switch self {
        case let .string(string): string
        case let .integer(integer): String(integer)
        default: nil
        }
    }

    /// Whether this is `null` or `""`: the end of a cursor or a next URL.
    public var isNullOrEmpty: Bool {
        self == .null || self == .string("")
    }

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
