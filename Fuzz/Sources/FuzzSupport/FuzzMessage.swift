/// A fuzz input written like an HTTP response, so that seeds are real responses, readable and easy to
/// write: a first line (the target's options), header lines `Name: value`, an empty line, then the body
/// (any bytes).
///
/// ```
/// github status:200
/// Content-Type: application/json; charset=utf-8
/// Link: <https://api.github.com/repositories/1/issues?page=2>; rel="next"
///
/// [{"id": 1, "title": "Found a bug"}]
/// ```
///
/// Lines end at `\n` (a `\r` before it is dropped). A header line without `:` is a header of that name
/// with an empty value; spaces and tabs after the `:` are skipped, as an HTTP parser does. Repeated
/// names (any case) are joined with `, `, as `URLSession` joins them. Without an empty line, there is
/// no body.
public struct FuzzMessage {
    /// The first line, without its line end.
    public let firstLine: String
    /// The headers, names as first written, in the order of first appearance.
    public let headers: [(name: String, value: String)]
    /// The bytes after the empty line.
    public let body: [UInt8]

    /// The message in `bytes`.
    public init(_ bytes: [UInt8]) {
        var lines: [String] = []
        var start = 0
        var bodyStart = bytes.count
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                var end = index
                if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                if end == start, !lines.isEmpty || start > 0 {
                    bodyStart = index + 1
                    break
                }
                lines.append(String(decoding: bytes[start ..< end], as: UTF8.self))
                start = index + 1
            }
            index += 1
        }
        if index == bytes.count, start < bytes.count {
            lines.append(String(decoding: bytes[start...], as: UTF8.self))
        }
        firstLine = lines.first ?? ""
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            let name: Substring, value: Substring
            if let colon = line.firstIndex(of: ":") {
                name = line[..<colon]
                value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            } else {
                (name, value) = (line[...], "")
            }
            if let held = headers.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) {
                headers[held].value += ", " + value
            } else {
                headers.append((String(name), String(value)))
            }
        }
        self.headers = headers
        body = bodyStart < bytes.count ? Array(bytes[bodyStart...]) : []
    }

    /// The headers as a dictionary (for `HTTPURLResponse`).
    public var headerFields: [String: String] {
        Dictionary(headers.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The value of the header `name` (any case), if present.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The first line's options: its words `key:value` (a word without `:` is a key with an empty value).
    public var options: [String: String] {
        var options: [String: String] = [:]
        for word in firstLine.split(separator: " ") {
            let parts = word.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            options[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return options
    }
}
