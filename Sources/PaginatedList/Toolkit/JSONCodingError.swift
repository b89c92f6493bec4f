/// Why `JSONCoding` could not decode or encode a value: the type, where in the JSON, and what was wrong.
///
/// Its `description` reads as one sentence, for logs and test failures:
/// `Could not decode Post: missing key "title" at author.`
/// The path is written in the JSON's snake_case spelling (`author.display_name`, `tags[2]`).
public struct JSONCodingError: Error, CustomStringConvertible {
    /// Whether decoding or encoding failed.
    public enum Operation: String, Sendable {
        /// Reading JSON into a value.
        case decoding = "decode"
        /// Writing a value as JSON.
        case encoding = "encode"
    }

    /// Whether decoding or encoding failed.
    public let operation: Operation
    /// The name of the type being decoded or encoded.
    public let typeName: String
    /// The path to the offending value in snake_case JSON spelling (`author.display_name`, `tags[2]`);
    /// empty when the problem is the document itself.
    public let path: String
    /// What was wrong, in words.
    public let reason: String
    /// The error the decoder or encoder threw (a `DecodingError`, an `EncodingError`, or a model's own).
    public let underlying: any Error

    /// One sentence: the operation, the type, the reason and the path.
    public var description: String {
        let reason = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
        return "Could not \(operation.rawValue) \(typeName): \(reason)" + (path.isEmpty ? "." : " at \(path).")
    }

    package init(decoding type: Any.Type, _ error: any Error) {
        operation = .decoding
        typeName = String(describing: type)
        underlying = error
        switch error {
        case let DecodingError.keyNotFound(key, context):
            path = Self.path(context.codingPath)
            reason = "missing key \(String(reflecting: Self.snakeCase(key.stringValue)))"
        case let DecodingError.valueNotFound(expected, context):
            path = Self.path(context.codingPath)
            reason = "expected \(expected), found null"
        case let DecodingError.typeMismatch(expected, context):
            path = Self.path(context.codingPath)
            reason = "expected \(expected) (\(context.debugDescription))"
        case let DecodingError.dataCorrupted(context):
            path = Self.path(context.codingPath)
            let cause = context.underlyingError.map { " (\($0))" } ?? ""
            reason = context.debugDescription + cause
        default:
            path = ""
            reason = String(describing: error)
        }
    }

    init(encoding type: Any.Type, _ error: any Error) {
        operation = .encoding
        typeName = String(describing: type)
        underlying = error
        if case let EncodingError.invalidValue(value, context) = error {
            path = Self.path(context.codingPath)
            reason = "invalid value \(value) (\(context.debugDescription))"
        } else {
            path = ""
            reason = String(describing: error)
        }
    }

    /// `author.display_name`, `tags[2]`.
    private static func path(_ codingPath: [any CodingKey]) -> String {
        var path = ""
        for key in codingPath {
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += (path.isEmpty ? "" : ".") + snakeCase(key.stringValue)
            }
        }
        return path
    }

    /// The JSON spelling of a Swift key, as `.convertToSnakeCase` writes it: `displayName` →
    /// `display_name`, `imageURL` → `image_url`, `already_snake` unchanged.
    static func snakeCase(_ key: String) -> String {
        let characters = Array(key)
        var result = ""
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let nextIsLowercase = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLowercase) {
                    result += "_"
                }
            }
            result += character.lowercased()
        }
        return result
    }
}
