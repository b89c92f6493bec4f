import Foundation

/// A JSON value read at a key path: what paging styles and error envelopes look at (cursors, flags,
/// totals, error messages).
///
/// Reading one never fails where the decoder has a value: a value no Swift type reads (a number beyond
/// `Double`'s range, a string with an unescaped control character) is `.unreadable`, so that a key that
/// is there is never taken for a key left out (which may end a list).
enum JSONValue: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Keys as the decoder presents them (converted to camelCase by a snake_case strategy).
    case object([String: JSONValue])
    /// A value there that cannot be read: a number beyond `Double`'s range, a string the decoder refuses.
    case unreadable

    /// Each kind is tried in turn (a decoder says a value's kind only by failing to read it as another), null
    /// and strings first: `null` is tested without a failure, and strings (cursors, URLs, most fields) then
    /// need none either. A failure costs the decoder an error with its coding path (with Foundation's
    /// `JSONDecoder`, O(d²) at depth d). The kinds are disjoint but for numbers, read as `Int64` before `Double`.
    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let string = try? single.decode(String.self) {
            self = .string(string)
        } else if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: JSONValue] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
            self = .object(members)
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? single.decode(Int64.self) {
            self = .integer(integer)
        } else if let number = try? single.decode(Double.self) {
            self = .number(number)
        } else {
            self = .unreadable
        }
    }

    /// The member `name` of an object, matched as written or in camelCase.
    func member(_ name: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members[name] ?? members[AnyKey.camelCase(name)]
    }

    /// A string, or a number written as text (`"abc"`, `42`): what a cursor or an id may be.
    var text: String? {
        switch self {
        case let .string(string): string
        case let .integer(integer): String(integer)
        case let .number(number):
            // Whole numbers below 10¹⁵ (exact in a `Double`) without `.0`; the others as `Double` writes them.
            if abs(number) < 1e15, let whole = Int64(exactly: number) { String(whole) } else { String(number) }
        default: nil
        }
    }

    /// An integer (`20`, or `20.0`).
    var integer: Int? {
        switch self {
        case let .integer(integer): Int(exactly: integer)
        case let .number(number): Int(exactly: number)
        default: nil
        }
    }

    /// What the value is, for error messages: `null`, `a string`, `an object`, ….
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        case .unreadable: "a value that cannot be read (a number out of range, or a string with a raw control character)"
        }
    }

    /// The error message an error value carries: the string itself, or an object's `message`,
    /// `error_description`, `detail`, `error` or `type`.
    var errorMessage: String? {
        switch self {
        case let .string(string): string
        case .object:
            ["message", "error_description", "detail", "error", "type", "code"].lazy
                .compactMap { self.member($0)?.errorMessage ?? self.member($0)?.text }.first
        default: nil
        }
    }
}

/// A coding key made of any string.
struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ stringValue: String) { self.stringValue = stringValue }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }

    /// `next_cursor` → `nextCursor`, exactly as `.convertFromSnakeCase` reads it: leading and trailing
    /// underscores are kept (`_next_cursor_` → `_nextCursor_`), and a name of one word is left as it is.
    static func camelCase(_ name: String) -> String {
        guard name.utf8.contains(UInt8(ascii: "_")) else { return name }
        guard let first = name.firstIndex(where: { $0 != "_" }) else { return name }
        var last = name.index(before: name.endIndex)
        while last > first, name[last] == "_" { name.formIndex(before: &last) }
        let words = name[first ... last].split(separator: "_")
        guard words.count > 1 else { return name }
        let joined = ([words[0].lowercased()] + words.dropFirst().map { $0.capitalized }).joined()
        return name[..<first] + joined + name[name.index(after: last)...]
    }

    /// The key of `container` spelled `name` or, when that is missing, its camelCase form, if there is one.
    /// The camelCase form is worked out only when `name` is missing and has an underscore.
    static func find(_ name: String, in container: KeyedDecodingContainer<AnyKey>) -> AnyKey? {
        let key = AnyKey(name)
        if container.contains(key) { return key }
        let converted = camelCase(name)
        guard converted != name else { return nil }
        let camel = AnyKey(converted)
        return container.contains(camel) ? camel : nil
    }
}
