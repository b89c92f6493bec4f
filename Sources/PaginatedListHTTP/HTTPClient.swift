import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList
import Signals

/// Makes `URLSession` requests as cold `Producer`s and decodes their JSON.
///
/// Each start of a producer it returns makes a fresh request (a retry is a new request); interrupting or
/// disposing the run cancels the `URLSessionTask`, which closes the connection if the response has not
/// arrived. A run sends one value and completes, or fails with an `HTTPError`: transport failures,
/// statuses outside 200–299, non-JSON content types and decoding failures all fail the run the same way.
/// Events arrive on the session's delegate queue, never on the caller's thread.
///
/// Decoding uses `JSONCoding`'s conventions (snake_case keys, ISO 8601 dates) unless you pass your own
/// decoder factory; a fresh decoder is made for each response, so none is shared between threads.
///
/// ```swift
/// let client = HTTPClient()
/// client.get([Post].self, from: url).startWithValues { posts in print(posts.count) }
/// ```
public struct HTTPClient: Sendable {
    /// The session requests run on.
    public let session: URLSession
    /// Headers added to every request (an `Authorization` token, say); a request's own headers win.
    public var headers: [String: String]
    /// Whether a response whose `Content-Type` is present and not JSON fails with `.contentType`
    /// before decoding is tried.
    public var requiresJSONContentType: Bool
    /// Makes the decoder for one response.
    public var makeDecoder: @Sendable () -> JSONDecoder

    /// A client on `session` that adds `headers` to every request and decodes with `makeDecoder`
    /// (by default `JSONCoding.makeDecoder`: snake_case keys, ISO 8601 dates).
    public init(
        session: URLSession = .shared, headers: [String: String] = [:], requiresJSONContentType: Bool = true,
        makeDecoder: @escaping @Sendable () -> JSONDecoder = JSONCoding.makeDecoder
    ) {
        self.session = session
        self.headers = headers
        self.requiresJSONContentType = requiresJSONContentType
        self.makeDecoder = makeDecoder
    }

    // MARK: - Raw responses

    /// A producer that, on every start, makes `request` and sends the response if its status is 2xx.
    ///
    /// Fails with `.transport` (no response, a body cut short) or `.status` (any other status, with an
    /// excerpt of the body and, for 429 and 503, the `Retry-After` delay).
    public func response(for request: URLRequest) -> Producer<HTTPResponse, HTTPError> {
        exchange(request) { (200 ..< 300).contains($0) }
    }

    /// A producer that, on every start, GETs `url` and sends the response if its status is 2xx.
    public func response(from url: URL) -> Producer<HTTPResponse, HTTPError> {
        response(for: URLRequest(url: url))
    }

    /// A producer that makes `request` conditional on `validators` (`If-None-Match`,
    /// `If-Modified-Since`) and reports whether the resource changed: a `304` is `.notModified`, a 2xx
    /// `.modified`. With empty validators the request is unconditional (and the answer `.modified`).
    public func conditionalResponse(
        for request: URLRequest, validators: HTTPValidators
    ) -> Producer<ConditionalResponse, HTTPError> {
        exchange(validators.applied(to: request)) { (200 ..< 300).contains($0) || $0 == 304 }
            .map { $0.statusCode == 304 ? .notModified($0) : .modified($0) }
    }

    // MARK: - Decoded responses

    /// A producer that, on every start, makes `request` and decodes a `T` from the 2xx response.
    public func get<T: Decodable & Sendable>(_ type: T.Type = T.self, for request: URLRequest) -> Producer<T, HTTPError> {
        get(type, for: request) { _, value in value }
    }

    /// A producer that, on every start, GETs `url` and decodes a `T` from the 2xx response.
    public func get<T: Decodable & Sendable>(_ type: T.Type = T.self, from url: URL) -> Producer<T, HTTPError> {
        get(type, for: URLRequest(url: url))
    }

    /// A producer that, on every start, makes `request` and sends `transform(response, decoded T)`:
    /// for values that need the headers as well as the body (a `Link` header, an ETag).
    public func get<T: Decodable & Sendable, U: Sendable>(
        _ type: T.Type = T.self, for request: URLRequest,
        _ transform: @escaping @Sendable (HTTPResponse, T) -> U
    ) -> Producer<U, HTTPError> {
        let client = self
        return response(for: request).attemptMap { response throws(HTTPError) in
            transform(response, try client.decode(T.self, from: response))
        }
    }

    /// Decodes a `T` from `response`'s body with the client's decoder.
    ///
    /// - Throws: `.contentType` if the client requires JSON and the response is not, `.decoding` (with
    ///   `JSONCodingError`'s sentence as the reason) if the body does not decode.
    public func decode<T: Decodable>(_ type: T.Type = T.self, from response: HTTPResponse) throws(HTTPError) -> T {
        if requiresJSONContentType, !response.isJSON {
            throw HTTPError(
                kind: .contentType, url: response.url, statusCode: response.statusCode,
                bodyExcerpt: HTTPError.excerpt(of: response.data),
                reason: "expected application/json, received \(response.header("Content-Type") ?? "nothing")"
            )
        }
        do {
            return try makeDecoder().decode(type, from: response.data)
        } catch {
            throw HTTPError(
                kind: .decoding, url: response.url, statusCode: response.statusCode,
                bodyExcerpt: HTTPError.excerpt(of: response.data),
                reason: JSONCodingError(decoding: type, error).description
            )
        }
    }

    // MARK: - The exchange

    /// The request as sent: the client's headers added under the request's own, JSON accepted.
    func prepared(_ request: URLRequest) -> URLRequest {
        var request = request
        for (name, value) in headers where request.value(forHTTPHeaderField: name) == nil {
            request.setValue(value, forHTTPHeaderField: name)
        }
        if request.value(forHTTPHeaderField: "Accept") == nil {
            request.setValue("application/json", forHTTPHeaderField: "Accept")
        }
        return request
    }

    private func exchange(
        _ request: URLRequest, accepting accepts: @escaping @Sendable (Int) -> Bool
    ) -> Producer<HTTPResponse, HTTPError> {
        let request = prepared(request)
        let session = session
        return Producer { observer, lifetime in
            // The completion handler holds the observer until the task ends: the run lasts that long.
            // Cancelling the task (below) makes the handler run with `cancelled`, after the run has
            // ended, so that late error is dropped.
            let task = session.dataTask(with: request) { data, response, error in
                switch Self.outcome(request: request, data: data, response: response, error: error, accepts: accepts) {
                case let .success(response):
                    observer.send(value: response)
                    observer.sendCompleted()
                case let .failure(error):
                    observer.send(error: error)
                }
            }
            lifetime.observeEnded { task.cancel() }
            if !lifetime.hasEnded { task.resume() }
        }
    }

    private static func outcome(
        request: URLRequest, data: Data?, response: URLResponse?, error: (any Error)?, accepts: (Int) -> Bool
    ) -> Result<HTTPResponse, HTTPError> {
        let url = response?.url ?? request.url
        if let error {
            let urlError = error as? URLError
            return .failure(HTTPError(
                kind: .transport, url: url, statusCode: (response as? HTTPURLResponse)?.statusCode,
                reason: urlError.map { "\($0.localizedDescription) (URLError \($0.code.rawValue))" }
                    ?? String(describing: error),
                transportCode: urlError?.code.rawValue
            ))
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(HTTPError(kind: .transport, url: url, reason: "the response is not an HTTP response"))
        }
        let received = HTTPResponse(data: data ?? Data(), response: http)
        guard accepts(http.statusCode) else {
            let retryAfter = received.header("Retry-After").flatMap(TimeInterval.init)
            return .failure(HTTPError(
                kind: .status, url: url, statusCode: http.statusCode, bodyExcerpt: HTTPError.excerpt(of: received.data),
                reason: HTTPURLResponse.localizedString(forStatusCode: http.statusCode), retryAfter: retryAfter
            ))
        }
        return .success(received)
    }
}

extension Producer where Value: Sendable {
    /// Transforms each value with `transform`, failing the run with the error it throws.
    func attemptMap<U: Sendable>(_ transform: @escaping @Sendable (Value) throws(Failure) -> U) -> Producer<U, Failure> {
        Producer<U, Failure> { observer, lifetime in
            lifetime.add(start { event in
                switch event {
                case let .value(value):
                    do throws(Failure) {
                        observer.send(value: try transform(value))
                    } catch {
                        observer.send(error: error)
                    }
                case let .failed(error): observer.send(error: error)
                case .completed: observer.sendCompleted()
                case .interrupted: observer.sendInterrupted()
                }
            })
        }
    }
}
