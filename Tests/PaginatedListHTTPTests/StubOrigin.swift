import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedListHTTP
import Signals

/// An origin answered from memory, with no network and no waiting: any status, headers and body, in
/// the order given (the last answer repeats). Each instance has a host of its own
/// (`stub-<uuid>.test`), so tests running in parallel do not see each other's requests.
///
/// Its `client` sends through a session whose only protocol is `StubURLProtocol`.
final class StubOrigin: Sendable {
    /// What the origin answers a request with.
    struct Answer: Sendable {
        var status: Int = 200
        var headers: [String: String] = [:]
        var body = Data("[]".utf8)
        /// Runs when the request arrives, before the answer is sent (to act while it is in flight).
        var onArrival: (@Sendable () -> Void)?
    }

    let host = "stub-\(UUID().uuidString.lowercased()).test"
    let session: URLSession
    private let exchanges = Exchanges()

    /// The answers still to give and the requests received, which `StubURLProtocol` reaches by host.
    final class Exchanges: Sendable {
        let state = Locked<(answers: [Answer], requests: [URL])>(([], []))

        /// The answer to a request for `url`, recorded as received.
        func take(_ url: URL) -> Answer {
            state.withLock { state in
                state.requests.append(url)
                return state.answers.count > 1 ? state.answers.removeFirst() : state.answers.first ?? Answer(status: 599)
            }
        }
    }

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubURLProtocol.self]
        session = URLSession(configuration: configuration)
        StubURLProtocol.origins.withLock { [host, exchanges] in $0[host] = exchanges }
    }

    deinit {
        StubURLProtocol.origins.withLock { [host] in $0[host] = nil }
        session.finishTasksAndInvalidate()
    }

    /// `http://HOST` + `pathAndQuery`.
    func url(_ pathAndQuery: String = "/items") -> URL {
        URL(string: "http://\(host)\(pathAndQuery)")!
    }

    /// A client on the origin's session, with `rateLimits` of its own by default.
    func client(rateLimits: HTTPRateLimits = HTTPRateLimits()) -> HTTPClient {
        HTTPClient(session: session, rateLimits: rateLimits)
    }

    /// Answers the next requests with `answers`, in order; the last one repeats.
    func answer(_ answers: Answer...) {
        exchanges.state.withLock { $0.answers = answers }
    }

    /// The URLs of the requests received, in order.
    var requests: [URL] { exchanges.state.withLock { $0.requests } }
}

/// Answers the requests of every `StubOrigin`'s session from that origin's answers.
final class StubURLProtocol: URLProtocol {
    /// The exchanges of the live origins, by host.
    static let origins = Locked<[String: StubOrigin.Exchanges]>([:])

    override class func canInit(with request: URLRequest) -> Bool {
        origin(of: request) != nil
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    private static func origin(of request: URLRequest) -> StubOrigin.Exchanges? {
        guard let host = request.url?.host else { return nil }
        return origins.withLock { $0[host] }
    }

    override func startLoading() {
        guard let url = request.url, let origin = Self.origin(of: request) else {
            client?.urlProtocol(self, didFailWithError: URLError(.cannotFindHost))
            return
        }
        let answer = origin.take(url)
        answer.onArrival?()
        let response = HTTPURLResponse(url: url, statusCode: answer.status, httpVersion: "HTTP/1.1",
                                       headerFields: ["Content-Type": "application/json"].merging(answer.headers) { $1 })!
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: answer.body)
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}
