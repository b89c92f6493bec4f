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
/// Events arrive on the session's delegate queue (after a rate-limit wait, on `HTTPRateLimits.scheduler`),
/// with one exception: a `.rateLimited` failure decided when the run starts (the origin's window stays open
/// longer than `HTTPRateLimits.maxWait`) is sent at once, on the thread that starts the run. Do not start a
/// run while holding a lock its observer takes.
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
    /// The rate-limit windows the client respects and records (by default an instance of its own, shared
    /// by its copies), and the clock it reads: `rateLimits.scheduler`.
    public var rateLimits: HTTPRateLimits

    /// A client on `session` that adds `headers` to every request and decodes with `makeDecoder`
    /// (by default `JSONCoding.makeDecoder`: snake_case keys, ISO 8601 dates), respecting the windows of
    /// `rateLimits` and reading the time from its scheduler.
    ///
    /// `rateLimits` is a fresh `HTTPRateLimits()` on the wall clock by default, so no state is shared
    /// unless you choose it: pass this client (or its copies) to every source of one API so they respect
    /// each other's windows, pass one `HTTPRateLimits` to several clients, or `.shared` for the whole
    /// process (see `HTTPRateLimits`). `HTTPRateLimits(scheduler: testScheduler)` runs the waits in
    /// virtual time.
    public init(
        session: URLSession = .shared, headers: [String: String] = [:], requiresJSONContentType: Bool = true,
        makeDecoder: @escaping @Sendable () -> JSONDecoder = JSONCoding.makeDecoder,
        rateLimits: HTTPRateLimits = HTTPRateLimits()
    ) {
        self.rateLimits = rateLimits
        self.session = session
        self.headers = headers
        self.requiresJSONContentType = requiresJSONContentType
        self.makeDecoder = makeDecoder
    }

    /// Now, on the client's clock (`rateLimits.scheduler`).
    var now: Date { rateLimits.scheduler.currentDate }

    // MARK: - Raw responses

    /// A producer that, on every start, makes `request` and sends the response if its status is 2xx.
    ///
    /// Fails with `.transport` (no response, a body cut short), `.status` (any other status, with the
    /// headers, the body and the wait the server asked for), or `.rateLimited` (held back: see
    /// `HTTPRateLimits`). A response that asks for a wait opens its origin's window in `rateLimits`.
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
        try decode(type, from: response, userInfo: [:])
    }

    /// Decodes a `T` from `response`'s body with the client's decoder, given `userInfo`.
    func decode<T: Decodable>(
        _ type: T.Type, from response: HTTPResponse, userInfo: [CodingUserInfoKey: any Sendable]
    ) throws(HTTPError) -> T {
        if requiresJSONContentType, !response.isJSON {
            throw HTTPError(
                kind: .contentType, response: response,
                reason: "expected application/json, received \(response.header("Content-Type") ?? "nothing")"
            )
        }
        do {
            let decoder = makeDecoder()
            for (key, value) in userInfo { decoder.userInfo[key] = value }
            return try decoder.decode(type, from: response.data)
        } catch {
            throw HTTPError(kind: .decoding, response: response, reason: JSONCodingError(decoding: type, error).description)
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
        let limits = rateLimits
        return Producer { observer, lifetime in
            Self.send(request, on: session, limits: limits, accepts: accepts, to: observer, lifetime)
        }
    }

    /// Sends `request` now, or later if its origin's rate-limit window is open (re-checking the window
    /// then), or fails it as `.rateLimited` if the window closes after `limits.maxWait`.
    private static func send(
        _ request: URLRequest, on session: URLSession, limits: HTTPRateLimits,
        accepts: @escaping @Sendable (Int) -> Bool, to observer: Signal<HTTPResponse, HTTPError>.Observer,
        _ lifetime: Lifetime
    ) {
        guard !lifetime.hasEnded else { return }
        if let url = request.url, let end = limits.windowEnd(for: url) {
            let wait = end.timeIntervalSince(limits.scheduler.currentDate)
            guard wait <= limits.maxWait.timeInterval else {
                return observer.send(error: HTTPError(
                    kind: .rateLimited, url: url,
                    reason: "the server's rate-limit window is open for \(HTTPError.seconds(wait)) more", retryAfter: wait
                ))
            }
            // The scheduled action holds the observer until it runs, so the run lasts that long; ending the
            // run (interrupted, disposed) cancels it, and should it run anyway, `send` sees the end and sends
            // nothing.
            let waiting = limits.scheduler.schedule(after: end) {
                send(request, on: session, limits: limits, accepts: accepts, to: observer, lifetime)
            }
            lifetime.observeEnded { waiting?.dispose() }
            return
        }
        // The completion handler holds the observer until the task ends: the run lasts that long.
        // Cancelling the task (below) makes the handler run with `cancelled`, after the run has
        // ended, so that late error is dropped.
        let task = session.dataTask(with: request) { data, response, error in
            let received = (response as? HTTPURLResponse).map {
                HTTPResponse(data: data ?? Data(), response: $0, arrivedAt: limits.scheduler.currentDate,
                             longestWait: limits.maxWindow.timeInterval)
            }
            if let received, error == nil, let url = received.url ?? request.url {
                limits.update(after: received, from: url)
            }
            switch outcome(request: request, received: received, response: response, error: error, accepts: accepts) {
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

    private static func outcome(
        request: URLRequest, received: HTTPResponse?, response: URLResponse?, error: (any Error)?, accepts: (Int) -> Bool
    ) -> Result<HTTPResponse, HTTPError> {
        let url = response?.url ?? request.url
        if let error {
            let urlError = error as? URLError
            return .failure(HTTPError(
                kind: .transport, url: url, statusCode: (response as? HTTPURLResponse)?.statusCode,
                reason: urlError.map { transportReason($0, request: request) } ?? String(describing: error),
                transportCode: urlError?.code.rawValue
            ))
        }
        guard let received else {
            return .failure(HTTPError(kind: .transport, url: url, reason: "the response is not an HTTP response"))
        }
        guard accepts(received.statusCode) else {
            return .failure(HTTPError(
                kind: .status, response: received, reason: HTTPURLResponse.localizedString(forStatusCode: received.statusCode)
            ))
        }
        return .success(received)
    }

    /// A transport failure in words that say what happened, the same on every platform (Foundation on
    /// Linux describes most of them as "The operation could not be completed").
    static func transportReason(_ error: URLError, request: URLRequest) -> String {
        let host = request.url?.host ?? "the server"
        let text: String = switch error.code {
        case .timedOut: "timed out (no answer within \(HTTPError.seconds(request.timeoutInterval)))"
        case .networkConnectionLost: "the connection was lost before the response was complete"
        case .cannotConnectToHost: "could not connect to \(host) (connection refused)"
        case .cannotFindHost, .dnsLookupFailed: "could not find the host \(host) (DNS lookup failed)"
        case .notConnectedToInternet: "not connected to the internet"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            "the secure connection to \(host) failed"
        case .cancelled: "cancelled"
        case .badURL: "the URL is malformed"
        case .unsupportedURL: "the URL's scheme is not supported"
        case .badServerResponse:
            "the server's response could not be read (the connection closed with no answer, or the answer is not HTTP)"
        case .cannotParseResponse: "the response could not be parsed"
        case .zeroByteResource: "the response was empty"
        case .resourceUnavailable: "the resource is unavailable"
        case .httpTooManyRedirects: "too many redirects"
        case .redirectToNonExistentLocation: "a redirect pointed nowhere"
        case .cannotDecodeRawData, .cannotDecodeContentData: "the response's content encoding could not be decoded"
        case .dataLengthExceedsMaximum: "the response is larger than allowed"
        case .unknown: "the transfer failed (the connection closed before the body was complete, or a lower-level error)"
        default: error.localizedDescription
        }
        return "\(text) (URLError \(error.code.rawValue))"
    }
}
