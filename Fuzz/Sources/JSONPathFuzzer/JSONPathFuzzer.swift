// `JSONPath`, and the lookup of a body's value by it: any bytes as a dotted path.
//
// Properties:
// - the components are the path split at every `.` (as Unicode scalars), empty ones dropped; none is
//   empty or holds a `.`; a path that is not the root reads back from its description;
// - a body whose objects are keyed by the components as written (up to 500 of them: Foundation parses
//   no deeper nesting) holds its value where the path says:
//   the reader finds it there (and the items, when the path names an array), whether the decoder
//   converts snake_case keys (`JSONCoding`'s) or not; for components in snake_case (`next_cursor`),
//   a body keyed in camelCase (`nextCursor`) is found too.
import Foundation
import FuzzSupport
import PaginatedList
@testable import PaginatedListHTTP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    Fuzz.run(data, size) { bytes in
        let dotted = String(decoding: bytes, as: UTF8.self)
        let path = JSONPath(dotted)
        let expected = dotted.unicodeScalars.split(separator: ".").map { String(String.UnicodeScalarView($0)) }
        Fuzz.check(path.components == expected, "\(Fuzz.quoted(dotted)) splits into \(path.components), expected \(expected)")
        Fuzz.check(path.components.allSatisfy { !$0.isEmpty && !$0.unicodeScalars.contains(".") }, "no empty component, no dot")
        if !path.components.isEmpty {
            Fuzz.check(JSONPath(path.description) == path, "\(Fuzz.quoted(dotted)) reads back from its description \(Fuzz.quoted(path.description))")
        }
        // Foundation's JSON parser refuses objects nested deeper than 512 levels: a body keyed by more
        // components cannot be written to look the path up in (the reader then fails the page with a
        // decoding error, as for any body Foundation cannot parse).
        guard path.components.count <= maxNesting else { return }
        checkFound(path, keys: path.components)
        if path.components.allSatisfy(isSnakeCase) {
            checkFound(path, keys: path.components.map(camelCase))
        }
    }
}

/// The most components a path may have for a body nested by them (and an array inside) to be parsed.
private let maxNesting = 500

/// A body keyed by `keys` holds a marker, and an array, where `path` says: both are found.
///
/// Each body is read for what is checked in it: the marker's body with `path` as a lookup, the array's with
/// `path` as the items' path. (Both plans on both bodies made the reader also decode the array as a value
/// and look for items at the marker, unchecked: each failed attempt of a decoder at depth d builds its
/// coding path, O(d²) in Foundation, and at a few hundred components those were half the target's time.)
private func checkFound(_ path: JSONPath, keys: [String]) {
    let marker = JSONValue.string("found")
    let valueData = Data(nested(keys, #""found""#).utf8), itemsData = Data(nested(keys, "[1, 2, 3]").utf8)
    for makeDecoder in [JSONCoding.makeDecoder, { JSONDecoder() }] {
        let decoder = makeDecoder()
        decoder.userInfo[BodyPlan.userInfoKey] = BodyPlan(items: nil, lookups: [path], lastItemField: nil)
        let valueBody = try? decoder.decode(PageBody<Int>.self, from: valueData)
        decoder.userInfo[BodyPlan.userInfoKey] = BodyPlan(items: path, lookups: [], lastItemField: nil)
        let itemsBody = try? decoder.decode(PageBody<Int>.self, from: itemsData)
        guard let valueBody, let itemsBody else {
            Fuzz.violated("a body keyed by \(keys) does not decode")
        }
        let converting = decoder.keyDecodingStrategy.isConverting
        // The root is where the items may be, not a value to look up (no style reads one there).
        Fuzz.check(path.components.isEmpty || valueBody.values[path] == marker,
                   "the value keyed by \(keys) is not found at \(path.components) (snake_case decoder: \(converting)): \(String(describing: valueBody.values[path]))")
        Fuzz.check((try? itemsBody.items.get()) == [1, 2, 3],
                   "the items keyed by \(keys) are not found at \(path.components) (snake_case decoder: \(converting))")
    }
}

/// The JSON of objects nested by `keys`, `leaf` innermost (the body itself when there are no keys). Written
/// front to back in one string: wrapping the inner text in each key's braces in turn copied it once per
/// key, O(d²).
private func nested(_ keys: [String], _ leaf: String) -> String {
    var json = ""
    for key in keys { json += "{" + literal(key) + ": " }
    json += leaf
    json += String(repeating: "}", count: keys.count)
    return json
}

/// `text` as a JSON string: in quotes, with `"` and `\` escaped and control characters written `\u00XX`
/// (RFC 8259's rules; a `JSONEncoder` made and run per key was a seventh of the target's time).
private func literal(_ text: String) -> String {
    var json = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"", "\\": json += "\\" + String(scalar)
        case "\u{0}" ..< "\u{20}":
            let hex = String(scalar.value, radix: 16)
            json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: json.unicodeScalars.append(scalar)
        }
    }
    return json + "\""
}

/// Words of lowercase ASCII letters, each maybe ending in digits, joined by single underscores
/// (`next_cursor`, `page2_size`): their camelCase is plain (Foundation's `capitalized`, which the
/// snake_case decoder uses, capitalizes a letter after a digit: `v2x` → `V2X`).
private func isSnakeCase(_ key: String) -> Bool {
    let words = key.split(separator: "_", omittingEmptySubsequences: false)
    return words.allSatisfy { word in
        let letters = word.unicodeScalars.prefix { ("a" ... "z").contains($0) }
        return !letters.isEmpty && word.unicodeScalars.dropFirst(letters.count).allSatisfy { ("0" ... "9").contains($0) }
    }
}

/// `next_cursor` → `nextCursor` (for keys that are snake case).
private func camelCase(_ key: String) -> String {
    let words = key.split(separator: "_")
    return String(words[0]) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
}

extension JSONDecoder.KeyDecodingStrategy {
    var isConverting: Bool {
        if case .convertFromSnakeCase = self { return true }
        return false
    }
}
