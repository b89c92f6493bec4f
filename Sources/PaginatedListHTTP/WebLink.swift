import Foundation

/// One link of a `Link` header (RFC 8288): a target URL, its relation types and its other parameters.
///
/// ```
/// Link: <https://api.example.com/items?page=3>; rel="next", </items?page=9>; rel="last"; title="end"
/// ```
///
/// `parse(_:relativeTo:)` reads any number of links, parameters with quoted (escapes and commas
/// included) or bare values, and resolves relative targets against the request's URL. Parts it cannot
/// read are skipped, never guessed.
public struct WebLink: Equatable, Sendable {
    /// The link's target, resolved to an absolute URL.
    public let target: URL
    /// The relation types of `rel`, lowercased (`rel="next last"` is `["next", "last"]`).
    public let relations: [String]
    /// The parameters, names lowercased, values unquoted; the first occurrence of a name wins (as
    /// RFC 8288 says for `rel`).
    public let parameters: [String: String]

    /// A link to `target` with `parameters` (names lowercased); `relations` come from `rel`.
    public init(target: URL, parameters: [String: String]) {
        self.target = target
        var lowered: [String: String] = [:]
        for (name, value) in parameters where lowered[name.lowercased()] == nil {
            lowered[name.lowercased()] = value
        }
        self.parameters = lowered
        relations = (lowered["rel"] ?? "").lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// Whether the link has relation type `relation` (case-insensitive).
    public func has(relation: String) -> Bool {
        relations.contains(relation.lowercased())
    }

    /// The links of a `Link` header value, in order, targets resolved against `base`.
    public static func parse(_ header: String, relativeTo base: URL?) -> [WebLink] {
        var scanner = Scanner(Array(header.unicodeScalars))
        var links: [WebLink] = []
        while !scanner.isAtEnd {
            scanner.skip { $0 == "," || $0.properties.isWhitespace }
            guard !scanner.isAtEnd else { break }
            guard scanner.take("<") else {
                scanner.skipToNextLink()
                continue
            }
            let reference = scanner.read { $0 != ">" }
            guard scanner.take(">") else { break }
            var parameters: [String: String] = [:]
            while true {
                scanner.skipWhitespace()
                guard scanner.take(";") else { break }
                scanner.skipWhitespace()
                let name = scanner.read { $0 != "=" && $0 != ";" && $0 != "," && !$0.properties.isWhitespace }
                scanner.skipWhitespace()
                var value = ""
                if scanner.take("=") {
                    scanner.skipWhitespace()
                    value = scanner.peek == "\"" ? scanner.readQuoted()
                        : scanner.read { $0 != ";" && $0 != "," && !$0.properties.isWhitespace }
                }
                if !name.isEmpty, parameters[name.lowercased()] == nil { parameters[name.lowercased()] = value }
            }
            scanner.skipToNextLink()
            let trimmed = reference.trimmingCharacters(in: .whitespaces)
            if let target = URL(string: trimmed, relativeTo: base)?.absoluteURL {
                links.append(WebLink(target: target, parameters: parameters))
            }
        }
        return links
    }

    /// The target of the first link with relation `relation` in a `Link` header value, if any.
    public static func target(of relation: String, in header: String, relativeTo base: URL?) -> URL? {
        parse(header, relativeTo: base).first { $0.has(relation: relation) }?.target
    }

    /// A cursor over the header's characters.
    private struct Scanner {
        let characters: [Unicode.Scalar]
        var index = 0

        init(_ characters: [Unicode.Scalar]) { self.characters = characters }

        var isAtEnd: Bool { index >= characters.count }
        var peek: Unicode.Scalar? { isAtEnd ? nil : characters[index] }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard peek == character else { return false }
            index += 1
            return true
        }

        mutating func skip(while predicate: (Unicode.Scalar) -> Bool) {
            while let character = peek, predicate(character) { index += 1 }
        }

        mutating func skipWhitespace() { skip { $0.properties.isWhitespace } }

        mutating func read(while predicate: (Unicode.Scalar) -> Bool) -> String {
            var text = String.UnicodeScalarView()
            while let character = peek, predicate(character) {
                text.append(character)
                index += 1
            }
            return String(text)
        }

        /// A quoted string at the cursor: its content with `\` escapes resolved.
        mutating func readQuoted() -> String {
            var text = String.UnicodeScalarView()
            index += 1   // the opening quote
            while let character = peek {
                index += 1
                if character == "\"" { break }
                if character == "\\", let escaped = peek {
                    index += 1
                    text.append(escaped)
                } else {
                    text.append(character)
                }
            }
            return String(text)
        }

        /// Skips to just after the next comma that is outside quotes and angle brackets.
        mutating func skipToNextLink() {
            while let character = peek {
                switch character {
                case "\"": _ = readQuoted()
                case "<": skip { $0 != ">" }; index += 1
                case ",": index += 1; return
                default: index += 1
                }
            }
        }
    }
}
