/// The value inside an `ID`: the integer or string a server uses to identify something.
///
/// `.int(1)` and `.string("1")` are different values. Encodes as the bare JSON number or string.
public enum IDRawValue: Hashable, Sendable {
    /// An integer identifier.
    case int(Int)
    /// A string identifier (a UUID, a slug, a server's opaque key).
    case string(String)
}

extension IDRawValue: Codable {
    /// Decodes a bare JSON number (an integer that fits `Int`) or a bare JSON string.
    ///
    /// - Throws: `DecodingError.typeMismatch` for anything else (a fraction, a Boolean, an object, null).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let int = try? container.decode(Int.self) {
            self = .int(int)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else {
            throw DecodingError.typeMismatch(IDRawValue.self, DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "An ID is an integer or a string; found neither."
            ))
        }
    }

    /// Encodes the bare number or string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case let .int(int): try container.encode(int)
        case let .string(string): try container.encode(string)
        }
    }
}

extension IDRawValue: CustomStringConvertible {
    /// The bare number or string: `42`, `a1b2`.
    public var description: String {
        switch self {
        case let .int(int): String(int)
        case let .string(string): string
        }
    }
}
