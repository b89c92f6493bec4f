import Foundation

/// Builds request URLs whose query items survive the trip to the server exactly: every character of a
/// name or value other than RFC 3986's unreserved ones (`A–Z a–z 0–9 - . _ ~`) is percent-encoded.
///
/// `URLComponents.queryItems` leaves `+`, `/`, `?` and a few others as they are, and many servers read a
/// `+` in a query as a space: a base64 cursor (`ab+c/d==`) or a value such as `c++` or `+02:00` would
/// reach them changed. Every page source of this module builds its URLs here; use it for your own.
///
/// ```swift
/// let next = HTTPQuery.url(base, setting: ["cursor": "ab+c/d==", "q": "c++"])
/// // …?cursor=ab%2Bc%2Fd%3D%3D&q=c%2B%2B
/// ```
///
/// A namespace of pure functions: any thread, no state.
public enum HTTPQuery {
    /// The characters left as they are: RFC 3986's unreserved set.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    )

    /// `component` (a query item's name or value) with every character outside the unreserved set
    /// percent-encoded as UTF-8 (`c++` → `c%2B%2B`, `é` → `%C3%A9`).
    public static func encode(_ component: String) -> String {
        component.addingPercentEncoding(withAllowedCharacters: unreserved) ?? component
    }

    /// `url` with each of `items` set: an existing query item of the same name is removed (all of its
    /// occurrences), the new ones are appended in the order given, and the URL's other query items are
    /// kept exactly as they were written. A URL that cannot be taken apart is returned unchanged.
    public static func url(_ url: URL, setting items: KeyValuePairs<String, String>) -> URL {
        self.url(url, setting: items.map { (name: $0.key, value: $0.value) })
    }

    /// `url` with each of `items` (name, value) set; see `url(_:setting:)` with `KeyValuePairs`.
    public static func url(_ url: URL, setting items: [(name: String, value: String)]) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
        let names = Set(items.map(\.name))
        var query = (components.percentEncodedQueryItems ?? []).filter { item in
            !names.contains(item.name.removingPercentEncoding ?? item.name)
        }
        for item in items {
            query.append(URLQueryItem(name: encode(item.name), value: encode(item.value)))
        }
        components.percentEncodedQueryItems = query.isEmpty ? nil : query
        return components.url ?? url
    }

    /// The value of `url`'s last query item named `name`, decoded; `nil` if it has none.
    static func value(of name: String, in url: URL) -> String? {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedQueryItems ?? []
        return items.last { ($0.name.removingPercentEncoding ?? $0.name) == name }?.value.map { $0.removingPercentEncoding ?? $0 }
    }
}
