import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList
import Signals

/// What the HTTP page sources share, whatever the style: GET a page, read its items and the values the
/// style and the error envelope look at, record the first page's version, and tell a page past the end.
struct PageReader<Item: Decodable & Sendable>: Sendable {
    let client: HTTPClient
    let url: URL
    let pagination: HTTPPagination
    let items: JSONPath?
    let envelope: HTTPErrorEnvelope
    let version: HTTPFirstPageVersion
    /// Where the body says how many items the feed holds, when the source names it (`HTTPPageSource`'s
    /// `totalCount`).
    var total: JSONPath? = nil

    /// How the API pages.
    var style: any PaginationStyle { pagination.style }

    private var plan: BodyPlan {
        BodyPlan(items: items, lookups: style.lookups + envelope.lookups + [total].compactMap(\.self),
                 lastItemField: style.lastItemField)
    }

    /// The URL of the page the list opens at.
    var firstURL: URL { style.firstURL(from: url) }

    /// The validators of the first page last loaded, or `nil` when it had none (or none was loaded).
    func firstPageValidators() -> PageValidators? {
        version.latest.flatMap { PageValidators($0.validators) }
    }

    /// A producer that GETs `pageURL` and sends the page read from it; the first page's version is
    /// recorded when `isFirst` and the page reads.
    func read(_ pageURL: URL, isFirst: Bool) -> Producer<ReadPage<Item>, HTTPError> {
        let request = URLRequest(url: pageURL)
        let reader = self
        return client.response(for: request).attemptMap { response throws(HTTPError) in
            let page = try reader.page(from: response)
            if isFirst {
                reader.version.record(HTTPFeedVersion(request: request, validators: response.validators,
                                                      receivedAt: reader.client.now))
            }
            return page
        }
    }

    /// The page in `response`, or the error its body reports or that keeps it from being read.
    func page(from response: HTTPResponse) throws(HTTPError) -> ReadPage<Item> {
        let body = try client.decode(PageBody<Item>.self, from: response, userInfo: [BodyPlan.userInfoKey: plan])
        if let failure = envelope.failure(in: body.values, response: response) { throw failure }
        switch body.items {
        case let .success(items):
            return ReadPage(items: items, values: body.values, lastItemField: body.lastItemField, response: response,
                            totalPath: total)
        case let .failure(.missing(path?)):
            throw HTTPError(kind: .decoding, response: response, reason: "missing key \(path) (the items)", keyPath: path.description)
        case .failure(.missing(nil)):
            throw HTTPError(kind: .decoding, response: response,
                            reason: "no items: expected a top-level array, or an array at items, data or results",
                            keyPath: "items")
        case let .failure(.undecodable(error)):
            throw HTTPError(kind: .decoding, response: response, reason: JSONCodingError(decoding: [Item].self, error).description,
                            keyPath: items?.description)
        }
    }

    // MARK: - Past the end

    /// Whether `error` answers a page past the end (a status of the style's `pastEndStatuses`).
    private func isPastEnd(_ error: HTTPError) -> Bool {
        error.kind == .status && error.statusCode.map(style.pastEndStatuses.contains) == true
    }

    /// A producer that GETs `pageURL` and sends the page read from it, or `nil` when the server answers
    /// that it lies past the end (see `HTTPPagination`, "Past the end"). `top`: the URL of the first page,
    /// for a start page below it: its answer says whether the start page is past the end (`nil`) or the
    /// URL is wrong (its failure). `nil` for the first page itself: such a status stays an error.
    func read(_ pageURL: URL, isFirst: Bool, pastEndBelow top: URL?) -> Producer<ReadPage<Item>?, HTTPError> {
        let page = read(pageURL, isFirst: isFirst)
        guard top != nil || !isFirst else { return page.map { $0 } }
        let reader = self
        return Producer { observer, lifetime in
            page.startFirst(in: lifetime) { event in
                switch event {
                case let .value(page):
                    observer.send(value: page)
                    observer.sendCompleted()
                case let .failed(error) where reader.isPastEnd(error):
                    guard let top else {
                        observer.send(value: nil)
                        observer.sendCompleted()
                        return
                    }
                    reader.read(top, isFirst: false).startFirst(in: lifetime) { event in
                        switch event {
                        case .value:
                            observer.send(value: nil)
                            observer.sendCompleted()
                        case let .failed(error): observer.send(error: error)
                        case .completed: observer.sendCompleted()
                        case .interrupted: observer.sendInterrupted()
                        }
                    }
                case let .failed(error): observer.send(error: error)
                case .completed: observer.sendCompleted()
                case .interrupted: observer.sendInterrupted()
                }
            }
        }
    }
}
