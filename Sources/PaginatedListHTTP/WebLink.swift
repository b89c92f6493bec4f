import Foundation

/// One link of a `Link` header (RFC 8288): a target URL, its relation types and its other parameters.
///
/// ```
/// Link: <https://api.example.com/items?page=3>; rel="next", </items?page=9>; rel="last"; title="end"
/// ```
///
/// `parse(_:relativeTo:)` reads any number of links, parameters with quoted (escapes and commas
/// included) or bare values, and resolves relative targets against the request's URL. Parts it cannot
/// read are skipped, never guessed (the page sources of `.linkHeader()` fail a page whose `Link` header
/// names the relation they follow only in parts that cannot be read).
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
        relations = Self.relations(of: lowered)
    }

    /// Whether the link has relation type `relation` (case-insensitive).
    public func has(relation: String) -> Bool {
        relations.contains(relation.lowercased())
    }

    /// The links of a `Link` header value, in order, targets resolved against `base`; the parts that
    /// cannot be read (a target not closed by `>`, not in `<` `>`, or not a URL) are skipped.
    public static func parse(_ header: String, relativeTo base: URL?) -> [WebLink] {
        read(header, relativeTo: base).compactMap { try? $0.link.get() }
    }

    /// The target of the first link with relation `relation` in a `Link` header value, if any.
    public static func target(of relation: String, in header: String, relativeTo base: URL?) -> URL? {
        parse(header, relativeTo: base).first { $0.has(relation: relation) }?.target
    }

    /// The relation types of lowercased `parameters`' `rel`, lowercased.
    private static func relations(of parameters: [String: String]) -> [String] {
        (parameters["rel"] ?? "").lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
    }

    // MARK: - Reading every part

    /// Why a part of a `Link` header is not a link: what is wrong, and the part as written.
    struct Unreadable: Error, Equatable {
        /// What is wrong with it (`no ">" closes its target`).
        let problem: String
        /// The part of the header, as written.
        let text: String
    }

    /// One comma-separated part of a `Link` header: the link, or why it cannot be read, and the
    /// relation types its parameters name either way.
    struct Part {
        let relations: [String]
        let link: Result<WebLink, Unreadable>
    }

    /// What a `Link` header says of a relation: the first readable link's target; `.absent` when no
    /// part names the relation; `.unreadable` when parts name it but none of them can be read.
    enum Lookup: Equatable {
        case found(URL)
        case absent
        case unreadable(Unreadable)
    }

    /// The target of the first readable link in `header` with one of `relations`, or why there is none.
    static func lookup(_ relations: [String], in header: String, relativeTo base: URL?) -> Lookup {
        var unreadable: Unreadable?
        for part in read(header, relativeTo: base) where relations.contains(where: part.relations.contains) {
            switch part.link {
            case let .success(link): return .found(link.target)
            case let .failure(reason): unreadable = unreadable ?? reason
            }
        }
        return unreadable.map(Lookup.unreadable) ?? .absent
    }

    /// Every part of a `Link` header value, in order, targets resolved against `base`. A target not
    /// closed by `>` (a header a proxy cut short) is taken to end where its parameters start, so that
    /// the relations it names are still known.
    static func read(_ header: String, relativeTo base: URL?) -> [Part] {
        var scanner = Scanner(Array(header.unicodeScalars))
        var parts: [Part] = []
        while !scanner.isAtEnd {
            scanner.skip { $0 == "," || $0.properties.isWhitespace }
            guard !scanner.isAtEnd else { break }
            let start = scanner.index
            var problem: String?
            // The target as written, without the whitespace around it.
            var reference: String
            if scanner.take("<") {
                reference = scanner.read(trimmed: true) { $0 != ">" && $0 != "<" }
                if !scanner.take(">") {
                    scanner.index = start + 1
                    reference = scanner.read(trimmed: true) { $0 != ";" && $0 != "," }
                    problem = #"no ">" closes its target"#
                }
            } else {
                reference = scanner.read(trimmed: true) { $0 != ";" && $0 != "," }
                problem = #"its target is not in "<" ">""#
            }
            let parameters = scanner.readParameters()
            let text = scanner.string(start ..< scanner.index, trimmed: true)
            scanner.skipToNextLink()
            let link: Result<WebLink, Unreadable>
            if let problem {
                link = .failure(Unreadable(problem: problem, text: text))
            } else if let target = URL(string: reference, relativeTo: base)?.absoluteURL {
                link = .success(WebLink(target: target, parameters: parameters))
            } else {
                link = .failure(Unreadable(problem: "its target is not a URL", text: text))
            }
            parts.append(Part(relations: relations(of: parameters), link: link))
        }
        return parts
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

        /// The characters from the cursor up to the first that is not `predicate`'s, as a string (without the
        /// whitespace at either end when `trimmed`).
        mutating func read(trimmed: Bool = false, while predicate: (Unicode.Scalar) -> Bool) -> String {
            let start = index
            skip(while: predicate)
            return string(start ..< index, trimmed: trimmed)
        }

        /// `CharacterSet.whitespaces` (tabs and Unicode's space separators), made once.
        private static let whitespaces = CharacterSet.whitespaces

        /// The characters in `range` as a string; with `trimmed`, without the whitespace at either end (as
        /// `trimmingCharacters(in: .whitespaces)` trims). The scalars' UTF-8 is written once: appending them one
        /// by one to a `String.UnicodeScalarView`, and trimming through `NSString`, were most of the time of
        /// reading a header.
        func string(_ range: Range<Int>, trimmed: Bool) -> String {
            var scalars = characters[range]
            if trimmed {
                while let first = scalars.first, Self.whitespaces.contains(first) { scalars.removeFirst() }
                while let last = scalars.last, Self.whitespaces.contains(last) { scalars.removeLast() }
            }
            let length = scalars.reduce(0) { $0 + UTF8.width($1) }
            return String(unsafeUninitializedCapacity: length) { buffer in
                var written = 0
                for scalar in scalars {
                    UTF8.encode(scalar) { unit in
                        buffer[written] = unit
                        written += 1
                    }
                }
                return written
            }
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

        /// The parameters at the cursor (`; rel="next"; title=end`), names lowercased, values unquoted;
        /// the first occurrence of a name wins.
        mutating func readParameters() -> [String: String] {
            var parameters: [String: String] = [:]
            while true {
                skipWhitespace()
                guard take(";") else { break }
                skipWhitespace()
                let name = read { $0 != "=" && $0 != ";" && $0 != "," && !$0.properties.isWhitespace }
                skipWhitespace()
                var value = ""
                if take("=") {
                    skipWhitespace()
                    value = peek == "\"" ? readQuoted() : read { $0 != ";" && $0 != "," && !$0.properties.isWhitespace }
                }
                if !name.isEmpty, parameters[name.lowercased()] == nil { parameters[name.lowercased()] = value }
            }
            return parameters
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
