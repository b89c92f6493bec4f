/// How an API reports an error in a body sent with a `200`: what turns such a body into an `HTTPError`
/// of kind `.errorEnvelope` (with `serverMessage` set) instead of a page.
///
/// - `.errorKey("error")` (the default of the HTTP sources): a body with a non-null, non-`false` value at
///   the path is an error; its message is the value (a string) or the value's `message`.
///   `{"error": {"message": "token expired"}}` fails; `{"data": [...]}` and `{"error": null, ...}` pass.
/// - `.okFlag(at: "ok", message: "error")` (Slack): the boolean at `ok` is required; `false` is an error
///   whose message is at `message`: `{"ok": false, "error": "invalid_auth"}`.
/// - `.none`: bodies are never read as errors.
///
/// Checked before the items are read, so an error body without items reports the server's error, not a
/// missing key. A value; `Sendable`.
public struct HTTPErrorEnvelope: Sendable {
    enum Check: Sendable {
        case none
        case errorKey(JSONPath)
        case okFlag(JSONPath, message: JSONPath)
    }

    let check: Check

    /// Bodies are never read as errors.
    public static let none = HTTPErrorEnvelope(check: .none)

    /// A non-null, non-`false` value at `path` makes the body an error.
    public static func errorKey(_ path: JSONPath = "error") -> HTTPErrorEnvelope {
        HTTPErrorEnvelope(check: .errorKey(path))
    }

    /// The boolean at `path` (required) says whether the request succeeded; the message of a failure is
    /// at `message`.
    public static func okFlag(at path: JSONPath = "ok", message: JSONPath = "error") -> HTTPErrorEnvelope {
        HTTPErrorEnvelope(check: .okFlag(path, message: message))
    }

    /// The body values the check reads.
    var lookups: [JSONPath] {
        switch check {
        case .none: []
        case let .errorKey(path): [path]
        case let .okFlag(path, message): [path, message]
        }
    }

    /// The failure the body reports, if it reports one.
    func failure(in values: [JSONPath: JSONValue], response: HTTPResponse) -> HTTPError? {
        switch check {
        case .none:
            return nil
        case let .errorKey(path):
            guard let value = values[path], value != .null, value != .bool(false) else { return nil }
            let message = value.errorMessage ?? value.kindName
            return HTTPError(kind: .errorEnvelope, response: response, reason: "\(path) is set", keyPath: path.description,
                             serverMessage: message)
        case let .okFlag(path, messagePath):
            guard let value = values[path] else {
                return HTTPError(kind: .decoding, response: response,
                                 reason: "missing key \(path) (the success flag)", keyPath: path.description)
            }
            guard case let .bool(ok) = value else {
                return HTTPError(kind: .decoding, response: response,
                                 reason: "expected true or false at \(path), found \(value.kindName)", keyPath: path.description)
            }
            guard !ok else { return nil }
            let message = values[messagePath]?.errorMessage ?? values[messagePath]?.text
            return HTTPError(kind: .errorEnvelope, response: response, reason: "\(path) is false", keyPath: path.description,
                             serverMessage: message)
        }
    }
}
