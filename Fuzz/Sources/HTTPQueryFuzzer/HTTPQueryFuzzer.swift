// Request URLs built by `HTTPQuery`: any base query, any names, values and cursors. The input is read
// by `FuzzInput`: a base (one of a few, or a raw query of the input's own), then up to five items, each
// a name (sometimes one the base already has) and a value.
//
// Properties:
// - `encode` leaves only RFC 3986's unreserved characters and `%XX`, and decodes back to its input;
// - the URL keeps the base's scheme, host, path and fragment, keeps the base's other query items
//   exactly as written and in order, and ends with the items set, in order, each decoding back to
//   exactly its name and value; `value(of:in:)` reads back the last value set for each name;
// - a base that `URLComponents` cannot take apart comes back unchanged.
import Foundation
import FuzzSupport
@testable import PaginatedListHTTP

private let bases = [
    "https://api.example.com/v1/items",
    "https://api.example.com/v1/items?per_page=30&state=open",
    "https://api.example.com/v1/items?cursor=ab%2Bc%2Fd%3D%3D&q=c%2B%2B#top",
    "http://localhost:8080/feed?tags=a&tags=b&empty=&flag",
    "https://api.example.com/search?q=caf%C3%A9+au+lait&page=2",
    "https://user:pw@api.example.com:8443/a/b/?&&x=1&",
].map { URL(string: $0)! }
private let knownNames = ["cursor", "page", "per_page", "tags", "q", "x", "empty", "flag", "starting_after", ""]
private let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~%".unicodeScalars)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    Fuzz.run(data, size) { bytes in
        var input = FuzzInput(bytes)
        var base = input.pick(bases)
        if input.below(4) == 0 {
            let query = input.string(maxBytes: 120)
            base = URL(string: "https://api.example.com/v1/items?" + query) ?? base
        }
        var items: [(name: String, value: String)] = []
        for _ in 0 ..< input.below(6) {
            let name = input.bool() ? input.pick(knownNames) : input.string(maxBytes: 40)
            items.append((name, input.string(maxBytes: 120)))
        }
        for item in items {
            checkEncoding(item.name)
            checkEncoding(item.value)
        }
        check(base, setting: items)
    }
}

private func checkEncoding(_ component: String) {
    let encoded = HTTPQuery.encode(component)
    Fuzz.check(encoded.unicodeScalars.allSatisfy(unreserved.contains), "encode left a reserved character: \(Fuzz.quoted(encoded))")
    Fuzz.check(encoded.removingPercentEncoding == component,
               "\(Fuzz.quoted(component)) encoded as \(Fuzz.quoted(encoded)) decodes as \(String(describing: encoded.removingPercentEncoding))")
}

private func check(_ base: URL, setting items: [(name: String, value: String)]) {
    let result = HTTPQuery.url(base, setting: items)
    let context = "\(base) setting \(items)"
    guard let before = URLComponents(url: base, resolvingAgainstBaseURL: true) else {
        Fuzz.check(result == base, "a URL that cannot be taken apart comes back unchanged: \(result); \(context)")
        return
    }
    guard let after = URLComponents(url: result, resolvingAgainstBaseURL: true) else {
        Fuzz.violated("the URL built cannot be taken apart: \(result); \(context)")
    }
    Fuzz.check(after.scheme == before.scheme && after.percentEncodedHost == before.percentEncodedHost && after.port == before.port
        && after.percentEncodedPath == before.percentEncodedPath && after.percentEncodedFragment == before.percentEncodedFragment
        && after.percentEncodedUser == before.percentEncodedUser,
               "the URL keeps everything but the query: \(result); \(context)")

    let names = Set(items.map(\.name))
    let kept = (before.percentEncodedQueryItems ?? []).filter { !names.contains($0.name.removingPercentEncoding ?? $0.name) }
    let query = after.percentEncodedQueryItems ?? []
    Fuzz.check(query.count == kept.count + items.count, "\(query.count) query items, expected \(kept.count) kept + \(items.count) set: \(result); \(context)")
    guard query.count == kept.count + items.count else { return }
    for (held, expected) in zip(query, kept) {
        Fuzz.check(held.name == expected.name && held.value == expected.value,
                   "the base's item \(expected) is kept as written, found \(held): \(result); \(context)")
    }
    for (held, item) in zip(query.suffix(items.count), items) {
        Fuzz.check(held.name.removingPercentEncoding == item.name && held.value?.removingPercentEncoding == item.value,
                   "the item set \(item) decodes back from \(held): \(result); \(context)")
    }
    for name in names {
        let last = items.last { $0.name == name }!.value
        Fuzz.check(HTTPQuery.value(of: name, in: result) == last,
                   "value(of: \(Fuzz.quoted(name))) is \(String(describing: HTTPQuery.value(of: name, in: result))), expected \(Fuzz.quoted(last)): \(result)")
    }
}
