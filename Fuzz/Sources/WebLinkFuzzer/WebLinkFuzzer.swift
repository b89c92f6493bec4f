// The `Link` header parser (RFC 8288): any bytes as a header value.
//
// Properties, with the request's URL as the base and with none:
// - every part is a link or a typed reason (one of the parser's problems, and the part as written,
//   which is in the header); a link's relations are its lowercased `rel` words, its parameter names
//   lowercased and not empty; resolved against a base, its target is absolute;
// - `parse` is exactly the links of `read`, and `lookup` says what the parts say: the first readable
//   link of the relation, `.unreadable` only when parts name it and none can be read, else `.absent`;
// - a link written back (`<target>; name="value"`, quotes and backslashes escaped) parses to the same
//   link, alone and with all the others in one header.
import Foundation
import FuzzSupport
@testable import PaginatedListHTTP

private let requestURL = URL(string: "https://api.example.com/v1/items?page=2&per_page=30")!
private let problems: Set<String> = [#"no ">" closes its target"#, #"its target is not in "<" ">""#, "its target is not a URL"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    Fuzz.run(data, size) { bytes in
        let header = String(decoding: bytes, as: UTF8.self)
        let resolved = checkParts(header, relativeTo: requestURL)
        checkLookups(header, resolved)
        checkWrittenBack(checkParts(header, relativeTo: nil), from: header)
    }
}

/// Checks every part of `header` read against `base`; returns them.
private func checkParts(_ header: String, relativeTo base: URL?) -> [WebLink.Part] {
    let parts = WebLink.read(header, relativeTo: base)
    var links: [WebLink] = []
    for part in parts {
        switch part.link {
        case let .success(link):
            links.append(link)
            Fuzz.check(link.relations == part.relations, "a link's relations are its part's: \(link) in \(Fuzz.quoted(header))")
            if base != nil {
                Fuzz.check(link.target.scheme != nil, "a target resolved against a base is absolute: \(link.target) in \(Fuzz.quoted(header))")
            }
            checkWellFormed(link, in: header)
        case let .failure(reason):
            Fuzz.check(problems.contains(reason.problem), "an unreadable part says why: \(reason) in \(Fuzz.quoted(header))")
            Fuzz.check(!reason.text.isEmpty && contains(header, reason.text),
                       "an unreadable part is quoted as written: \(Fuzz.quoted(reason.text)) in \(Fuzz.quoted(header))")
        }
        Fuzz.check(part.relations.allSatisfy { !$0.isEmpty && $0 == $0.lowercased() },
                   "relations are lowercased words: \(part.relations) in \(Fuzz.quoted(header))")
    }
    Fuzz.check(WebLink.parse(header, relativeTo: base) == links, "parse is the links read, in order: \(Fuzz.quoted(header))")
    return parts
}

/// `lookup` says what the parts say, for `next`, `prev`/`previous`, and the first relation named.
private func checkLookups(_ header: String, _ parts: [WebLink.Part]) {
    var relations: [[String]] = [["next"], ["prev", "previous"]]
    if let named = parts.first?.relations.first { relations.append([named]) }
    for wanted in relations {
        let naming = parts.filter { $0.relations.contains { wanted.contains($0) } }
        let expected: WebLink.Lookup
        if let found = naming.lazy.compactMap({ try? $0.link.get() }).first {
            expected = .found(found.target)
        } else if case let .failure(reason)? = naming.first?.link {
            expected = .unreadable(reason)
        } else {
            expected = .absent
        }
        Fuzz.check(WebLink.lookup(wanted, in: header, relativeTo: requestURL) == expected,
                   "lookup of \(wanted) is \(expected) in \(Fuzz.quoted(header))")
    }
}

/// Each link written back reads as itself, alone and all in one header.
private func checkWrittenBack(_ parts: [WebLink.Part], from header: String) {
    let links = parts.compactMap { try? $0.link.get() }
    for link in links {
        let written = serialised(link)
        let again = WebLink.read(written, relativeTo: nil)
        Fuzz.check(again.count == 1 && (try? again[0].link.get()) == link,
                   "\(link) written back as \(Fuzz.quoted(written)) reads as \(again.map(\.link)), from \(Fuzz.quoted(header))")
    }
    if links.count > 1 {
        let written = links.map(serialised).joined(separator: ", ")
        Fuzz.check(WebLink.parse(written, relativeTo: nil) == links,
                   "the links written back in one header read back: \(Fuzz.quoted(written)), from \(Fuzz.quoted(header))")
    }
}

/// A link's names are lowercased and not empty, and its relations are its `rel`'s words.
private func checkWellFormed(_ link: WebLink, in header: String) {
    for name in link.parameters.keys {
        Fuzz.check(!name.isEmpty && name == name.lowercased(), "parameter names are lowercased: \(Fuzz.quoted(name)) in \(Fuzz.quoted(header))")
    }
    let rel = (link.parameters["rel"] ?? "").lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
    Fuzz.check(link.relations == rel, "relations are rel's words: \(link.relations) vs \(rel) in \(Fuzz.quoted(header))")
}

/// `<target>; name="value"…`, names in order, values quoted with `"` and `\` escaped.
private func serialised(_ link: WebLink) -> String {
    var text = "<\(link.target.absoluteString)>"
    for (name, value) in link.parameters.sorted(by: { $0.key < $1.key }) {
        let escaped = value.unicodeScalars.map { $0 == "\"" || $0 == "\\" ? "\\\($0)" : String($0) }.joined()
        text += "; \(name)=\"\(escaped)\""
    }
    return text
}

/// Whether `text`'s scalars appear, in a row, among `header`'s. Both are valid UTF-8, whose scalars' bytes
/// never start inside another scalar's: so this is whether `text`'s bytes appear among `header`'s, found
/// by the C library (`memchr` for each place the first byte is, `memcmp` there). Copying `header`'s
/// scalars into an array for every unreadable part, and comparing them in code instrumented for
/// comparisons, was over half of the target's time.
private func contains(_ header: String, _ text: String) -> Bool {
    var header = header, text = text
    return header.withUTF8 { haystack in
        text.withUTF8 { needle in
            guard let first = needle.first, needle.count <= haystack.count,
                  let base = haystack.baseAddress, let wanted = needle.baseAddress else { return false }
            let lastStart = base + (haystack.count - needle.count)
            var start = base
            while start <= lastStart {
                guard let found = memchr(start, CInt(first), lastStart - start + 1) else { return false }
                let candidate = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
                if memcmp(candidate, wanted, needle.count) == 0 { return true }
                start = candidate + 1
            }
            return false
        }
    }
}
