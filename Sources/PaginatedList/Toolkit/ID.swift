/// A typed identifier: the server's integer or string ID of an `Owner`, which the compiler keeps apart
/// from the IDs of other types.
///
/// `Owner` is a phantom type: nothing of it is stored, it only makes `ID<Author>` and `ID<Post>` different
/// types, so passing an author's ID where a post's is expected does not compile. Write one as a literal
/// (`let id: ID<Post> = 42`, or `"a1b2"`); it encodes and decodes as its bare raw value (a JSON number or
/// string, never an object), so it can replace an `Int` or `String` property of a `Codable` model without
/// changing its JSON.
///
/// ```swift
/// struct Author: Codable { var id: ID<Author> }
/// struct Post: Codable { var id: ID<Post>; var authorID: ID<Author> }
///
/// func post(_ id: ID<Post>) -> Post? { … }
/// post(author.id)   // error: cannot convert value of type 'ID<Author>' to expected argument type 'ID<Post>'
/// ```
///
/// Two IDs are equal when their raw values are: `ID<Post>(1) != ID<Post>("1")`. `ID` is a value type,
/// `Sendable` whatever `Owner` is.
public struct ID<Owner>: Hashable, Sendable {
    /// The integer or string inside.
    public typealias RawValue = IDRawValue

    /// The server's value.
    public let rawValue: RawValue

    /// An ID holding `rawValue`. Also the explicit way to re-tag the raw value of another owner's ID.
    public init(rawValue: RawValue) {
        self.rawValue = rawValue
    }

    /// An integer ID.
    public init(_ value: Int) {
        rawValue = .int(value)
    }

    /// A string ID.
    public init(_ value: String) {
        rawValue = .string(value)
    }

    /// The integer, if this is an integer ID.
    public var intValue: Int? {
        if case let .int(value) = rawValue { value } else { nil }
    }

    /// The string, if this is a string ID.
    public var stringValue: String? {
        if case let .string(value) = rawValue { value } else { nil }
    }
}

extension ID: ExpressibleByIntegerLiteral {
    /// An integer ID written as a literal: `let id: ID<Post> = 42`.
    public init(integerLiteral value: Int) {
        self.init(value)
    }
}

extension ID: ExpressibleByStringLiteral {
    /// A string ID written as a literal: `let id: ID<Post> = "a1b2"`.
    public init(stringLiteral value: String) {
        self.init(value)
    }
}

extension ID: Codable {
    /// Decodes a bare JSON number or string (see `IDRawValue`).
    public init(from decoder: any Decoder) throws {
        rawValue = try IDRawValue(from: decoder)
    }

    /// Encodes the bare number or string.
    public func encode(to encoder: any Encoder) throws {
        try rawValue.encode(to: encoder)
    }
}

extension ID: CustomStringConvertible, CustomDebugStringConvertible {
    /// The bare raw value, `42` or `a1b2`, as in a URL or a log line.
    public var description: String {
        rawValue.description
    }

    /// The owner and the raw value: `ID<Post>(42)`, `ID<Post>("a1b2")`.
    public var debugDescription: String {
        switch rawValue {
        case let .int(value): "ID<\(Owner.self)>(\(value))"
        case let .string(value): "ID<\(Owner.self)>(\(String(reflecting: value)))"
        }
    }
}
