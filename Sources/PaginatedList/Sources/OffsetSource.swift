import Signals

/// A page source for offset/limit servers whose feed changes while it is paged
/// (`GET /items?offset=40&limit=20`, with items inserted and deleted between requests).
///
/// A naive offset source asks for `offset = items loaded so far` and goes wrong as soon as the feed
/// changes: items inserted above the loaded range push loaded items down into the next page (duplicates,
/// and a source stuck re-reading them), and items deleted above pull unloaded items up past the offset
/// (holes nobody notices). This source corrects both:
///
/// - **Overlap.** After the first page it asks for one item more than it needs, starting one item early
///   (`offset − 1`), so the window should begin with the last item it holds: the *anchor*. More generally
///   the anchor is the most recently loaded item found in the window (which survives the deletion of
///   the last item itself). Only items after the anchor that were never loaded are kept.
/// - **Insertions above** move the anchor down inside the window: the loaded items returned again are
///   dropped (`.sourceCorrection(.duplicatesDropped(count:))`), later offsets shift by the displacement,
///   and the source fetches more (up to `maxRequestsPerPage` requests) to fill the page.
/// - **Deletions above** move the anchor up and out of the window: the source widens the window around
///   the expected position (1, 2, 4, … positions back, and as many further forward, at most
///   `maxSearchDistance`) until it holds a loaded item, and takes what follows it
///   (`.sourceCorrection(.resynchronised(by:))`) instead of leaving a hole. The forward half of the search
///   finds the anchor after more insertions above than a window holds. If no loaded item is found within
///   the bounds it keeps the last window's new items (`.sourceCorrection(.resynchronisationFailed)`).
/// - **Out of budget.** A page that runs out of requests with items in hand delivers them; the next page
///   searches again from the same position. Only a page that found nothing at all gives up the search.
///
/// A window shorter than requested means the feed ended: that page is the last. Items already loaded are
/// never delivered twice (a hashed set of IDs shared along the chain: O(page) per page).
///
/// Limits: items inserted *above* the loaded range are not shown (a refresh shows them), and a feed that
/// is re-ranked between requests is not paged consistently: use `IDSnapshotSource` for that.
///
/// Each call of `firstPage()` starts a fresh chain. Every page producer is cold and independent: starting
/// it again (a retry) re-runs that page's requests from the same position. `fetch` may answer on any
/// thread; its runs are disposed when the page's run is.
public struct OffsetSource<Item: Identifiable & Sendable, Failure: Error>: PaginatedListDependency, Sendable
where Item.ID: Sendable {
    /// Fetches at most `limit` items starting at position `offset` (0-based) of the feed.
    public typealias Fetch = @Sendable (_ offset: Int, _ limit: Int) -> Producer<[Item], Failure>

    /// The number of items a page should hold.
    public let limit: Int
    /// How far around the expected position (back, and as far forward) the source searches, at most, for
    /// a loaded item when a window holds none.
    public let maxSearchDistance: Int
    /// The most requests one page may make (filling after duplicates, stepping back).
    public let maxRequestsPerPage: Int
    private let fetch: Fetch

    /// A source of pages of `limit` items fetched with `fetch`, correcting for a feed that changes.
    ///
    /// - Parameters:
    ///   - limit: items per page. After the first page each request asks for `limit + 1` items starting
    ///     one early (more while re-synchronising); a page keeps at most `limit`.
    ///   - maxSearchDistance: how far the window widens, at most, when re-synchronising (widening doubles
    ///     from 1 position each way).
    ///   - maxRequestsPerPage: the most requests one page may make.
    ///   - fetch: the request of at most `limit` items from a position of the feed.
    public init(limit: Int, maxSearchDistance: Int = 64, maxRequestsPerPage: Int = 8, fetch: @escaping Fetch) {
        precondition(limit > 0, "OffsetSource: limit must be positive")
        precondition(maxRequestsPerPage > 0, "OffsetSource: maxRequestsPerPage must be positive")
        self.limit = limit
        self.maxSearchDistance = max(0, maxSearchDistance)
        self.maxRequestsPerPage = maxRequestsPerPage
        self.fetch = fetch
    }

    /// The first page of a fresh chain: fetches `fetch(0, limit)` when started.
    public func firstPage() -> Producer<Page<Item, Failure>, Failure> {
        page(at: Position(expected: 0, ledger: SeenIDs(), generation: 0))
    }

    // MARK: - The chain

    /// Where a page starts: what the chain has loaded, and where the server should have the next item.
    struct Position: Sendable {
        /// The feed position just after the last loaded item, as far as the source knows.
        let expected: Int
        let ledger: SeenIDs<Item.ID>
        let generation: Int
    }

    /// What one page's requests came to.
    struct Outcome: Sendable {
        let items: [Item]
        let next: Position?
        let diagnostics: [PaginatedListDiagnostic]
    }

    private func page(at position: Position) -> Producer<Page<Item, Failure>, Failure> {
        Producer<Outcome, Failure> { [self] observer, lifetime in
            let progress = Progress(position: position, limit: limit, maxSearchDistance: maxSearchDistance,
                                    maxRequestsPerPage: maxRequestsPerPage)
            request(progress, progress.nextRequest(), observer, lifetime)
        }
        .map { [self] outcome in
            Page(items: outcome.items, next: outcome.next.map(page(at:)), diagnostics: outcome.diagnostics)
        }
    }

    /// Runs one request of a page, then the next one the page needs, until it is complete.
    /// The recursion is bounded by `maxRequestsPerPage`.
    private func request(
        _ progress: Progress, _ request: Progress.Request,
        _ observer: Signal<Outcome, Failure>.Observer, _ lifetime: Lifetime
    ) {
        guard !lifetime.hasEnded else { return }
        fetch(request.offset, request.limit).startFirst(in: lifetime) { [self] event in
            switch event {
            case let .value(window):
                var progress = progress
                switch progress.absorb(window, from: request) {
                case let .request(next):
                    self.request(progress, next, observer, lifetime)
                case let .finished(isLast):
                    observer.send(value: progress.outcome(isLast: isLast))
                    observer.sendCompleted()
                }
            case let .failed(error):
                observer.send(error: error)
            case .completed:
                observer.sendCompleted()
            case .interrupted:
                observer.sendInterrupted()
            }
        }
    }

    /// The state of one page's requests: what it kept so far and where to ask next.
    struct Progress: Sendable {
        struct Request: Sendable {
            let offset: Int
            let limit: Int
        }

        enum Step {
            case request(Request)
            case finished(isLast: Bool)
        }

        let position: Position
        let limit: Int
        let maxSearchDistance: Int
        let maxRequestsPerPage: Int
        /// The number of items the chain held before this page (their ordinals are `0 ..< held`).
        let held: Int
        var expected: Int
        var back = 0
        var requests = 0
        var kept: [Item] = []
        /// The ordinals of the items kept by this page, continuing the ledger's.
        var keptOrdinals: [Item.ID: Int] = [:]
        var duplicates = 0
        var diagnostics: [PaginatedListDiagnostic] = []

        init(position: Position, limit: Int, maxSearchDistance: Int, maxRequestsPerPage: Int) {
            self.position = position
            self.limit = limit
            self.maxSearchDistance = maxSearchDistance
            self.maxRequestsPerPage = maxRequestsPerPage
            held = position.ledger.count(before: position.generation)
            expected = position.expected
        }

        /// The window to ask for: from one item before `expected` to a page of items after it (the page
        /// keeps only what it still needs), widened by `back` each way while re-synchronising.
        func nextRequest() -> Request {
            let overlap = held + kept.count > 0 ? 1 + back : 0
            let offset = max(0, expected - overlap)
            return Request(offset: offset, limit: expected - offset + limit + back)
        }

        /// Takes what `window` (the answer to `request`) adds, and says what to do next.
        mutating func absorb(_ window: [Item], from request: Request) -> Step {
            requests += 1
            let ids = window.map(\.id)
            let earlier = position.ledger.ordinals(of: ids, before: position.generation)
            let ordinals = ids.indices.map { earlier[$0] ?? keptOrdinals[ids[$0]] }
            // The anchor: the most recently loaded item in the window.
            var anchor: Int?
            var anchorOrdinal = -1
            for (index, ordinal) in ordinals.enumerated() {
                if let ordinal, ordinal > anchorOrdinal {
                    (anchor, anchorOrdinal) = (index, ordinal)
                }
            }
            let windowIsShort = window.count < request.limit

            let consumed: Int
            if let anchor {
                // How far up the anchor moved (deletions above); negative: down (insertions above).
                let displacement = (expected - 1) - (request.offset + anchor)
                if displacement > 0 {
                    diagnostics.append(.sourceCorrection(.resynchronised(by: displacement)))
                }
                consumed = keep(window, ordinals, after: anchor)
                // Loaded items returned again: around the anchor, or only after it when the anchor moved
                // up (the window was widened back, over loaded items that are where they should be).
                let returned = displacement > 0 ? (anchor + 1) ..< consumed : 0 ..< consumed
                duplicates += returned.filter { $0 != anchor && ordinals[$0] != nil }.count
            } else if held + kept.count == 0 {
                consumed = keep(window, ordinals, after: -1)
            } else if back < maxSearchDistance, requests < maxRequestsPerPage, !(request.offset == 0 && windowIsShort) {
                back = back == 0 ? 1 : min(back * 2, maxSearchDistance)
                return .request(nextRequest())
            } else if !kept.isEmpty {
                // Out of requests for this page: deliver what it has; the next page searches again from
                // the same position, with a fresh budget.
                return .finished(isLast: false)
            } else {
                // Nothing loaded within reach: continue from the window rather than stall.
                diagnostics.append(.sourceCorrection(.resynchronisationFailed))
                consumed = keep(window, ordinals, after: -1)
            }
            expected = request.offset + consumed
            back = 0
            if windowIsShort && consumed == window.count { return .finished(isLast: true) }
            if kept.count >= limit || requests >= maxRequestsPerPage { return .finished(isLast: false) }
            return .request(nextRequest())
        }

        /// Keeps the new items after `anchor` until the page is full; returns the number of window items
        /// consumed (the anchor and those before it included).
        private mutating func keep(_ window: [Item], _ ordinals: [Int?], after anchor: Int) -> Int {
            var consumed = anchor + 1
            for index in window.indices where index > anchor {
                if kept.count >= limit { break }
                consumed = index + 1
                let id = window[index].id
                guard ordinals[index] == nil, keptOrdinals[id] == nil else { continue }
                keptOrdinals[id] = held + kept.count
                kept.append(window[index])
            }
            return consumed
        }

        /// The page: records its items in the chain's ledger and says where the next page starts.
        func outcome(isLast: Bool) -> Outcome {
            let (ledger, generation) = position.ledger.record(kept.map(\.id), at: position.generation)
            let next = isLast ? nil : Position(expected: expected, ledger: ledger, generation: generation)
            var diagnostics = diagnostics
            if duplicates > 0 { diagnostics.append(.sourceCorrection(.duplicatesDropped(count: duplicates))) }
            return Outcome(items: kept, next: next, diagnostics: diagnostics)
        }
    }
}
