import Signals

/// A page source for offset/limit servers whose feed changes while it is paged
/// (`GET /items?offset=40&limit=20`, with items inserted, deleted and re-ranked between requests).
///
/// A naive offset source asks for `offset = items loaded so far` and goes wrong as soon as the feed
/// changes: items inserted above the loaded range push loaded items down into the next page (duplicates,
/// and a source stuck re-reading them), items deleted above pull unloaded items up past the offset (holes
/// nobody notices), and an item re-ranked from above into the unread part looks like a place to resume
/// from. This source finds its place again with every request:
///
/// - **Overlap.** After the first page each request starts `overlap` (3) positions before the position
///   the source expects to continue from, so the window should begin with the last items shown.
/// - **The anchor.** In each window the source looks for the last item it showed: the end of the first
///   run of shown items, in the order they were shown, whose first item is confirmed by the item before
///   it in the window (also shown, earlier) or by the top of the feed. An item shown before that turns up
///   after items never shown was re-ranked downwards: it is dropped, never taken as the anchor (which
///   would consume the unread items before it). Every unread item after the anchor is kept (up to the
///   page's `limit`); unread items the window holds *before* the anchor rank above items already shown
///   and are reported as `.itemsAboveSkipped(count:)`; items shown before that come back after the
///   anchor are reported as `.shownOutOfOrder(count:)`. No unread item the source sees is dropped silently.
/// - **Insertions above** push the anchor down. Items shown before that come back where new ones were
///   expected are dropped (`.duplicatesDropped(count:)`), and the next window grows by the displacement
///   (at most `maxSearchDistance`), so a feed that grows by a page or more between requests does not stall
///   the source. A window that holds nothing but items shown before jumps by the known gap (the items
///   shown after the last one it holds) instead of walking them a window at a time. A page whose requests
///   all came back with nothing new reports `.feedOutpaced` and lands empty; the next page goes on from
///   further down.
/// - **Deletions above** pull the anchor up. Within the overlap the anchor is still found; further, an
///   unconfirmed item shown before tells the source where to look, or it widens the window around the
///   expected position (1, 2, 4, … positions each way, at most `maxSearchDistance`) until it finds its
///   place, and reports `.resynchronised(by:)` instead of leaving a hole. If it finds nothing shown within
///   the bounds, it keeps the last window's unread items and reports `.resynchronisationFailed` (going up,
///   the next page then reads on from there, keeping every unread item, until it finds its place again or
///   the top).
/// - **Bounds.** A page makes at most `maxRequestsPerPage` requests. A page that runs out with items in
///   hand delivers them; the next page goes on from where it stopped with a fresh budget.
/// - **Servers that cap the page size** (GitHub's `per_page` ≤ 100, Django REST framework's `max_limit`)
///   serve fewer items than asked, without an error. A window shorter than requested ends the list only
///   when nothing says more remain: the response's `totalItems` or `hasMore` (`OffsetResponse`), else
///   what the source saw (a window shorter than one the server served before, or than a request fitted
///   to a cap, is the end). Otherwise the window may be capped: the source takes it as it came, learns
///   the cap, and from then on never asks for more — the overlap and the drift's reach included — so its
///   corrections work within the windows the server serves (with a cap under 8 the overlap is 2; a
///   server that serves three items a request or fewer leaves no room to check: the source reads on, and
///   each such page reports `.resynchronisationFailed`). Going up, a capped window holds the far end of what was asked, so it
///   is asked again, fitted to the cap. A window past the end of the feed comes back empty (a page the
///   server answers as not there, over HTTP): the source looks back for its place, as after deletions.
///
/// A window that reaches the end of the feed (short by the feed, or reaching the server's total) ends the
/// list once its items are read. Items already shown are never delivered twice (a hashed set of IDs shared
/// along the chain: O(page) per window).
///
/// What it guarantees: on a feed with insertions, deletions, re-ranks and edits within the bounds, every
/// item that stays in place (neither deleted nor re-ranked itself) is shown once, in the feed's order;
/// beyond the bounds, every place it may have lost an item is reported by a correction whose `impact` is
/// `.possiblyLost`. Items inserted above the items shown are not shown (a refresh shows them).
///
/// Each call of `firstPage()` starts a fresh chain. Every page producer is cold and independent: starting
/// it again (a retry) re-runs that page's requests from the same position. `fetch` may answer on any
/// thread; its runs are disposed when the page's run is.
public struct OffsetSource<Item: Identifiable & Sendable, Failure: Error>: PaginatedListDependency, Sendable
where Item.ID: Sendable {
    /// Fetches at most `limit` items starting at position `offset` (0-based) of the feed.
    public typealias Fetch = @Sendable (_ offset: Int, _ limit: Int) -> Producer<[Item], Failure>
    /// Fetches at most `limit` items starting at position `offset` (0-based) of the feed, with what the
    /// server says about the rest of it (its total, whether more follow).
    public typealias FetchResponse = @Sendable (_ offset: Int, _ limit: Int) -> Producer<OffsetResponse<Item>, Failure>

    /// How many positions before the expected one every request after the first starts: the last items
    /// shown are read again, so the source can tell where it is. Fewer when the server caps the page size
    /// under 8 (see `overlap(servedAtMost:)`).
    public static var overlap: Int { 3 }

    /// The overlap when the server serves at most `cap` items per request (`nil`: no cap seen): 3, or 2
    /// under a cap of 8 (so that each window brings new items); under a cap of 3 or less none (the source
    /// reads on unchecked, and says so).
    static func overlap(servedAtMost cap: Int?) -> Int {
        guard let cap, cap < 8 else { return overlap }
        return cap > 3 ? 2 : 0
    }

    /// How many of a possibly capped window's last items the request that settles it reads again (see
    /// `Reading.settle`).
    static var settlingOverlap: Int { 3 }

    /// The largest `limit` and `maxSearchDistance` a source takes (2^30): a larger one is taken as this.
    static var maxLimit: Int { 1 << 30 }
    /// The largest `start` a source takes (2^40): a larger one (a position read from a deep link, say) is
    /// taken as this, so that no window arithmetic near it can overflow.
    static var maxStart: Int { 1 << 40 }

    /// The number of items a page should hold.
    public let limit: Int
    /// The feed position (from 0) the list opens at: the first page is the window there, and the pages
    /// above it come through `Page.previous`.
    public let start: Int
    /// How far the source looks, at most, beyond its usual window: around the expected position when it
    /// finds nothing it has shown, and how much a window grows after the feed moved under it.
    public let maxSearchDistance: Int
    /// The most requests one page may make.
    public let maxRequestsPerPage: Int
    private let fetch: FetchResponse

    /// A source of pages of `limit` items fetched with `fetch`, correcting for a feed that changes.
    ///
    /// - Parameters:
    ///   - limit: items per page (at most 2^30: a larger one is taken as 2^30).
    ///     After the first page each request asks for `limit + overlap` items, starting `overlap` positions
    ///     early (more after the feed moved, and while searching; never more than a cap the server was seen
    ///     to serve); a page keeps at most `limit`.
    ///   - maxSearchDistance: how far the window widens, at most, when searching (doubling from 1
    ///     position each way), and how much it grows, at most, after the feed moved under it (at most 2^30,
    ///     as `limit`).
    ///   - start: the feed position the list opens at (0, the top, by default; a negative one is 0, one
    ///     beyond 2^40 is 2^40). The
    ///     first page is the `limit` items there; the pages above it come through `Page.previous`, read
    ///     upwards with the same corrections. A start past the end of the feed opens an empty list, with
    ///     nothing before it.
    ///   - maxRequestsPerPage: the most requests one page may make, besides one that settles whether a
    ///     short last answer was capped (deciding without it could end the list early); a page that runs
    ///     out with items in hand delivers them, and the next goes on from where it stopped.
    ///   - fetch: fetches at most `limit` items from a position of the feed.
    public init(
        limit: Int, start: Int = 0, maxSearchDistance: Int = 64, maxRequestsPerPage: Int = 8, fetch: @escaping Fetch
    ) {
        self.init(limit: limit, start: start, maxSearchDistance: maxSearchDistance, maxRequestsPerPage: maxRequestsPerPage,
                  fetchResponse: { offset, limit in fetch(offset, limit).map { OffsetResponse(items: $0) } })
    }

    /// A source of pages of `limit` items fetched with `fetchResponse`, which also says what the server
    /// says about the rest of the feed (Django REST framework's `count` and `next`): a short window then
    /// ends the list, or is a capped one, without a request to settle it.
    ///
    /// The parameters are those of `init(limit:start:maxSearchDistance:maxRequestsPerPage:fetch:)`.
    public init(
        limit: Int, start: Int = 0, maxSearchDistance: Int = 64, maxRequestsPerPage: Int = 8,
        fetchResponse: @escaping FetchResponse
    ) {
        let fetch = fetchResponse
        precondition(limit > 0, "OffsetSource: limit must be positive")
        precondition(maxRequestsPerPage > 0, "OffsetSource: maxRequestsPerPage must be positive")
        // Bounded, so that no window arithmetic can overflow (a few of them add up in one request).
        self.limit = min(limit, Self.maxLimit)
        self.start = min(max(0, start), Self.maxStart)
        self.maxSearchDistance = min(max(0, maxSearchDistance), Self.maxLimit)
        self.maxRequestsPerPage = maxRequestsPerPage
        self.fetch = fetch
    }

    /// The first page of a fresh chain: fetches `fetch(start, limit)` when started.
    public func firstPage() -> Producer<Page<Item, Failure>, Failure> {
        // The reading drops what the chain showed (its own ledgers, read for its anchors): the chain keeps
        // everything. No page loads its neighbour back towards the start page again.
        let chain = PageChain<Item, Failure, Position, Outcome>(
            fetch: { [self] position in outcome(at: position) },
            items: { outcome, role in role == .above ? outcome.items.reversed() : outcome.items }
        ) { _, role, outcome, _ in
            role == .above
                ? PageNeighbours(previous: outcome.next, diagnostics: outcome.diagnostics, totalCount: outcome.totalCount)
                : PageNeighbours(previous: outcome.above, next: outcome.next, diagnostics: outcome.diagnostics,
                                 totalCount: outcome.totalCount)
        }
        return chain.firstPage(at: Position(expected: start, ledger: SeenIDs(), generation: 0, drift: Drift(), skipped: [],
                                            side: .below, sides: ChainSides(), base: start, served: ServedSize()), .none)
    }

    // MARK: - The chain

    /// How far the items shown moved at the source's last look: the next window reads that much more.
    struct Drift: Sendable, Equatable {
        /// Upwards (deletions above): extra positions read before the expected one.
        var up = 0
        /// Downwards (insertions above): extra positions read after it.
        var down = 0
    }

    /// Where a page starts: what the chain has shown, and where the server should have the next item.
    struct Position: Sendable {
        /// The feed position just after the last item shown, as far as the source knows.
        let expected: Int
        let ledger: SeenIDs<Item.ID>
        let generation: Int
        let drift: Drift
        /// Items reported as above the items shown by recent pages (so that a window that sees them again
        /// does not report them again).
        let skipped: Set<Item.ID>
        /// Which way the page reads: down the feed (the start page and the pages below it), or up it.
        let side: ChainSides<Item.ID>.Side
        /// The chain's two sides (what the other side delivered).
        let sides: ChainSides<Item.ID>
        /// The position the list opened at. Going up, positions count upwards: position `p` is the feed's
        /// position `base - 1 - p`, so the reading is the downward one over the feed upside down.
        let base: Int
        /// What the chain learned of how many items the server serves per request.
        let served: ServedSize
        /// Going up from a start page that reached the end of the feed: the position just after its last
        /// item, where the feed ended then (a window that reaches it is short by the feed, not by a cap).
        var feedEnd: Int?
        /// Going up, after a page that lost its place (its search found nothing shown, as when a burst or a
        /// shrinking feed took every item shown): the page reads on from where the search began without
        /// looking for an anchor, keeping every unread item and walking past windows below the bottom of the
        /// feed, so that the reading reaches the top instead of searching the same place page after page.
        var readsOn = false

        /// Whether the list opened below the top of the feed. Then each side reads the items the other side
        /// showed as shown before its own (beyond its first item, in reading order), and what lies beyond
        /// its first item that nobody showed yet is the other side's to read: never reported as skipped.
        var opensInMiddle: Bool { base > 0 }

        /// Whether this is the page the list opens at.
        var isStart: Bool { side == .below && generation == 0 }
    }

    /// What one page's requests came to.
    struct Outcome: Sendable {
        /// The page's items, in the order read (upwards, for a page above the start).
        let items: [Item]
        /// Where the page one step further from the start, on the page's side, starts.
        let next: Position?
        /// For the start page: where the page above it starts.
        let above: Position?
        let diagnostics: [PaginatedListDiagnostic]
        /// The feed's total as the page's last response that said it said (`OffsetResponse.totalItems`).
        let totalCount: Int?
    }

    /// What the requests of the page at `position` come to.
    private func outcome(at position: Position) -> Producer<Outcome, Failure> {
        Producer<Outcome, Failure> { [self] observer, lifetime in
            let progress = Progress(position: position, limit: limit, maxSearchDistance: maxSearchDistance,
                                    maxRequestsPerPage: maxRequestsPerPage)
            request(progress, progress.nextRequest(), observer, lifetime)
        }
    }

    /// A window as the page's reading sees it: in its positions (upside down, going up), with whether it
    /// begins at an edge of the feed (the top going down, the bottom going up) and whether it reaches the
    /// other one (the end going down, the top going up).
    struct Sight {
        let window: [Item]
        let request: Progress.Request
        let startsAtEdge: Bool
        let reachesEnd: Bool
    }

    /// What the reading makes of an answer.
    enum Reading {
        /// The window, as the reading sees it.
        case sight(Sight)
        /// Going up, a window a cap (confirmed or suspected) cut short: it holds the far end of what was asked.
        /// Ask again, fitted to the cap: cut short again by less than the cap, the window reaches the bottom
        /// of the feed (and the answer, read at once, is where the feed ends then).
        case retry
        /// Going down, a window that may be cut short by a cap or by the end of the feed (a cap is suspected):
        /// ask the server for feed positions `offset ..< offset + limit`, a window's worth from the window's
        /// last items. Items not seen before after them (or an answer cut at the suspected size again, or none
        /// at all, for a suspected cap of 8 or more) say the feed goes on after the window, and the reading
        /// takes `onward`, the window as the server served it. Else the window reached the end of the feed:
        /// `ended`.
        case settle(offset: Int, limit: Int, ended: Sight, onward: Sight)
    }

    /// The request that fetches what `request` asks for, and how the reading sees its answer (learning
    /// from it how many items the server serves). Going up, the request's positions `r ..< r + l` are the
    /// feed's `base - r - l ..< base - r`, read from the bottom; a window cut short by the bottom of the
    /// feed is re-aligned (its first item is the feed's last), one cut by the top reaches the end, and one
    /// cut by a cap holds the far end of what was asked (see `Reading`).
    private func fetchSight(
        _ request: Progress.Request, of position: Position
    ) -> (fetch: Producer<OffsetResponse<Item>, Failure>, sight: @Sendable (OffsetResponse<Item>, inout Progress) -> Reading) {
        guard position.side == .above else {
            return (fetch(request.offset, request.limit), { response, progress in
                let window = response.items
                let end = request.offset + window.count
                let more = response.more(after: end)
                let verdict = progress.served.judge(served: window.count, asked: request.limit, more: more, end: end,
                                                    endsOnNew: window.last.map { !progress.hasShown($0.id) } ?? false)
                guard verdict == .capped else {
                    return .sight(Sight(window: window, request: request, startsAtEdge: request.offset == 0,
                                        reachesEnd: verdict == .end || (verdict == .full && more == false)))
                }
                // A capped window is all the server serves from there: read as if that much was asked.
                let seen = Progress.Request(offset: request.offset, limit: window.count, overlap: request.overlap,
                                            reread: request.reread)
                let onward = Sight(window: window, request: seen, startsAtEdge: request.offset == 0, reachesEnd: false)
                guard progress.served.isConfirmed else {
                    let ended = Sight(window: window, request: request, startsAtEdge: request.offset == 0, reachesEnd: true)
                    // A window's worth from just before its end (its last items read again): a feed pushed
                    // down or pulled up in between still shows whether anything lies after it.
                    // (A window of fewer than 8 items, from just after it: read again from its last items, a window
                    // that small comes back the same under a cap of its size, or with an item pushed in above them,
                    // and settles nothing.)
                    let back = window.count < ServedSize.leastInferred ? 0 : min(OffsetSource.settlingOverlap, window.count)
                    return .settle(offset: end - back, limit: max(request.limit, back + request.limit - window.count),
                                   ended: ended, onward: onward)
                }
                return .sight(onward)
            })
        }
        let bottom = position.base - request.offset
        let top = bottom - request.limit
        guard bottom > 0 else {
            // The whole window lies above the top of the feed: nothing there (as a window past the end).
            return (Producer(value: OffsetResponse(items: [])), { _, _ in
                .sight(Sight(window: [], request: request, startsAtEdge: false, reachesEnd: true))
            })
        }
        let from = max(0, top)
        let asked = bottom - from
        let base = position.base
        let feedEnd = position.feedEnd
        return (fetch(from, asked), { response, progress in
            let window = Array(response.items.prefix(asked).reversed())
            let end = from + window.count
            let more = end >= feedEnd ?? .max ? false : response.more(after: end)
            // (Going up, windows end higher and higher in the feed: where they end says nothing of a cap.)
            let verdict = progress.served.judge(served: window.count, asked: asked, more: more)
            guard verdict != .full, !window.isEmpty else {
                return .sight(Sight(window: window, request: request, startsAtEdge: window.isEmpty && from == 0,
                                    reachesEnd: top <= 0))
            }
            // The feed ends above the window's bottom: its last item is the window's first.
            let offset = base - from - window.count
            let aligned = Progress.Request(offset: offset, limit: request.offset + request.limit - offset,
                                           overlap: request.offset + request.overlap - offset, reread: request.reread)
            let ended = Sight(window: window, request: aligned, startsAtEdge: true, reachesEnd: top <= 0)
            switch verdict {
            // (A cap only suspected is settled by the same request: what the window left out would be asked
            // for anyway, and an answer read at once is not fooled by a feed that moved in between.)
            case .capped: return .retry
            case .full, .end: return .sight(ended)
            }
        })
    }

    /// Runs one request of a page, then the next one the page needs, until it is complete.
    /// The recursion is bounded by `maxRequestsPerPage`.
    private func request(
        _ progress: Progress, _ request: Progress.Request,
        _ observer: Signal<Outcome, Failure>.Observer, _ lifetime: Lifetime
    ) {
        guard !lifetime.hasEnded else { return }
        let (fetch, see) = fetchSight(request, of: progress.position)
        fetch.startFirst(in: lifetime) { [self] event in
            switch event {
            case let .value(response):
                var progress = progress
                progress.totalCount = response.shownTotal ?? progress.totalCount
                switch see(response, &progress) {
                case let .sight(sight):
                    proceed(progress, observer, lifetime) { progress in
                        progress.absorb(sight.window, from: sight.request, startsAtEdge: sight.startsAtEdge,
                                        reachesEnd: sight.reachesEnd)
                    }
                case .retry:
                    proceed(progress, observer, lifetime) { $0.retry() }
                case let .settle(offset, limit, ended, onward):
                    settle(progress, offset: offset, limit: limit, ended: ended, onward: onward, observer, lifetime)
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

    /// Asks for the feed positions `offset ..< offset + limit` that settle whether a window was cut short by
    /// a suspected cap (see `Reading.settle`); cut at the suspected size again, the cap is confirmed.
    private func settle(
        _ progress: Progress, offset: Int, limit: Int, ended: Sight, onward: Sight,
        _ observer: Signal<Outcome, Failure>.Observer, _ lifetime: Lifetime
    ) {
        guard !lifetime.hasEnded else { return }
        fetch(offset, limit).startFirst(in: lifetime) { [self] event in
            switch event {
            case let .value(response):
                var progress = progress
                progress.totalCount = response.shownTotal ?? progress.totalCount
                progress.requests += 1
                // A cap serves what it held back, up to its size: cut at that size again, it is confirmed (if not
                // too small to infer). That, or an item not seen before (in the window or shown) after the first
                // one seen, says the feed goes on after the window (new items only above the first item seen: a
                // feed pushed down by insertions above, not a cap), and so does an empty answer to a window of 8
                // or more cut short (the feed shrank by more than the items read again: the next page looks back
                // for its place, and finds the end or what moved up). Else the window reached the end.
                let size = progress.served.suspected?.size ?? limit
                let count = response.items.count
                let inWindow = Set(ended.window.map(\.id))
                let seen = response.items.map { inWindow.contains($0.id) || progress.hasShown($0.id) }
                let unseen = seen.firstIndex(of: true).map { seen[$0...].contains(false) } ?? (count > 0)
                let inferable = size < limit && size >= ServedSize.leastInferred
                let goesOn = unseen || (inferable && (count == size || count == 0))
                // (Items that follow the window at once, none seen before, served up to the suspected size: the
                // very items the cap held back, whatever its size.)
                if goesOn, count == size, size < limit { progress.served.confirm(byIdentity: !seen.contains(true)) }
                // After a window of fewer than 8 items, read from just after it, only items seen before: pushed
                // down past the window by insertions above, they settle nothing. The window is taken for the end,
                // and the page says that items may lie beyond it (a cap that small cannot be told from the end).
                if !goesOn, count > 0, ended.window.count < ServedSize.leastInferred {
                    progress.diagnostics.append(.sourceCorrection(.resynchronisationFailed))
                }
                if !goesOn { progress.served.refute() }
                let sight = goesOn ? onward : ended
                proceed(progress, observer, lifetime) { progress in
                    progress.absorb(sight.window, from: sight.request, startsAtEdge: sight.startsAtEdge,
                                    reachesEnd: sight.reachesEnd)
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

    /// Takes the page's next step (`step`), then makes its next request or sends the page.
    private func proceed(
        _ progress: Progress, _ observer: Signal<Outcome, Failure>.Observer, _ lifetime: Lifetime,
        _ step: (inout Progress) -> Progress.Step
    ) {
        var progress = progress
        switch step(&progress) {
        case let .request(next):
            request(progress, next, observer, lifetime)
        case let .finished(isLast):
            observer.send(value: progress.outcome(isLast: isLast))
            observer.sendCompleted()
        }
    }

    /// The state of one page's requests: what it kept so far and where to ask next.
    struct Progress: Sendable {
        struct Request: Sendable, Equatable {
            let offset: Int
            let limit: Int
            /// How many positions before the expected one the window starts.
            let overlap: Int
            /// The overlap the source worked with when it made the request (fewer than
            /// `OffsetSource.overlap` under a small cap).
            var reread = OffsetSource.overlap
        }

        enum Step {
            case request(Request)
            case finished(isLast: Bool)
        }

        /// What the last window told the source.
        enum Finding {
            /// Nothing yet.
            case none
            /// The anchor: the page went on after it.
            case anchored
            /// Only items shown before, to the end of the window: the feed pushed them down.
            case pushed
            /// Nothing shown within reach: the source widened its search.
            case searching
        }

        let position: Position
        let limit: Int
        let maxSearchDistance: Int
        let maxRequestsPerPage: Int
        /// The number of items the chain showed before this page (their ordinals are `0 ..< held`).
        let held: Int
        var expected: Int
        var drift: Drift
        /// How far the window is widened each way while searching.
        var search = 0
        /// How much further down the next window reads to follow a run of shown items past the window's end
        /// (not evidence of a push: it never makes a candidate look in place).
        var reach = 0
        /// Under a cap, whether the search's window is the far end of the range it covers (a capped window
        /// cannot cover both ends: each distance is looked at above the place, then below it).
        var probesBelow = false
        /// The expected position when the current search began (for `.resynchronised(by:)`).
        var searchOrigin: Int?
        var requests = 0
        /// The feed's total as the page's last response that said it said.
        var totalCount: Int?
        var kept: [Item] = []
        /// The ordinals of the items kept by this page, continuing the ledger's.
        var keptOrdinals: [Item.ID: Int] = [:]
        var finding = Finding.none
        var duplicates = 0
        var above = 0
        /// The items reported as above, recent pages' included.
        var skipped: Set<Item.ID>
        /// The items this page reported as above.
        var skippedHere: Set<Item.ID> = []
        var outOfOrder = 0
        /// In the last window, the index of the last item at or beyond this side's start (ordinal 0 or
        /// below; -1: none): what precedes it is the other side's ground.
        var frontier = -1
        var diagnostics: [PaginatedListDiagnostic] = []
        /// What the chain learned of how many items the server serves per request.
        var served: ServedSize
        /// Whether the page's search found nothing shown and it went on unchecked (going up: the next page
        /// reads on, see `Position.readsOn`).
        var lostPlace = false

        init(position: Position, limit: Int, maxSearchDistance: Int, maxRequestsPerPage: Int) {
            self.position = position
            self.limit = limit
            self.maxSearchDistance = maxSearchDistance
            self.maxRequestsPerPage = maxRequestsPerPage
            held = position.ledger.count(before: position.generation)
            expected = position.expected
            drift = position.drift
            skipped = position.skipped
            served = position.served
        }

        /// The number of items shown, this page's included.
        private var shown: Int { held + kept.count }

        /// Whether the chain showed the item with `id` (this page included, and the other side's).
        func hasShown(_ id: Item.ID) -> Bool {
            ordinals(of: [id])[0] != nil
        }

        /// The positions read again before the expected one, within the cap the server was seen to serve.
        private var overlap: Int { OffsetSource.overlap(servedAtMost: served.cap) }

        /// The window to ask for: from `overlap` (plus the upward drift, plus the search) positions before
        /// `expected` to the items the page still needs after it (plus the downward drift, plus the search),
        /// never more than the server serves: cut at the far end, or, to follow a run of shown items past
        /// the last window, moved down to where they should end.
        func nextRequest() -> Request {
            guard shown > 0 else { return Request(offset: expected, limit: served.fitted(limit), overlap: 0) }
            // Under a cap, the upward drift reads at most half a window above the place (the window halves
            // the drift if the feed did not move that way again).
            let moved = served.cap.map { min(drift.up, max(0, $0 / 2 - overlap)) } ?? drift.up
            let before = overlap + moved + search
            // Going up, positions below 0 are the items below the start: nothing to clamp.
            let offset = position.side == .below ? max(0, expected - before) : expected - before
            let overlapping = expected - offset
            let wanted = overlapping + (limit - kept.count) + drift.down + search + reach
            guard let cap = served.cap, wanted > cap else {
                return Request(offset: offset, limit: wanted, overlap: overlapping, reread: overlap)
            }
            if search > 0, probesBelow {
                let from = offset + wanted - cap
                return Request(offset: from, limit: cap, overlap: expected - from, reread: overlap)
            }
            guard reach > 0 else { return Request(offset: offset, limit: cap, overlap: overlapping, reread: overlap) }
            let from = max(offset, expected + reach - overlap)
            return Request(offset: from, limit: cap, overlap: expected - from, reread: overlap)
        }

        /// After a window a cap (confirmed, or suspected and borne out) cut short where the reading needs it:
        /// the same request, fitted to the cap, if the page's budget allows; else the page delivers what it
        /// has.
        mutating func retry() -> Step {
            requests += 1
            guard requests < maxRequestsPerPage else { return finish() }
            let request = nextRequest()
            return .request(Request(offset: request.offset, limit: served.fittedToSuspicion(request.limit),
                                    overlap: request.overlap, reread: request.reread))
        }

        /// A window as the page reads it: the answer to `request`, with the ordinal of each item shown before
        /// (`nil`: unread). `startsAtEdge`: nothing precedes its first item (the edge of the feed the reading
        /// comes from); `isShort`: it reaches the edge the reading goes to.
        struct Look {
            let window: [Item]
            let ordinals: [Int?]
            let request: Request
            let startsAtEdge: Bool
            let isShort: Bool
        }

        /// Takes what `window` (the answer to `request`) adds, and says what to do next. `startsAtEdge`:
        /// the window begins at the edge of the feed the reading comes from (nothing precedes its first
        /// item); `reachesEnd`: it reaches the edge the reading goes to (the page is the last that way).
        ///
        /// The steps, in order, each taken if it applies: the chain's first window is all new; an anchor is a
        /// run of items shown that confirms itself, or an item shown in place; a run that reaches the
        /// window's end is followed further down; a whole feed with nothing shown left is all new; an item
        /// shown higher up says where to look; the search widens; when nothing is left, the page gives up
        /// its place (and says so).
        mutating func absorb(_ window: [Item], from request: Request, startsAtEdge: Bool, reachesEnd: Bool) -> Step {
            requests += 1
            guard shown > 0 else {
                finding = .anchored
                return advance(consumed: keep(window, ordinals: window.map { _ in nil }, after: -1), of: window,
                               at: request, isShort: reachesEnd)
            }
            let look = Look(window: window, ordinals: ordinals(of: window), request: request, startsAtEdge: startsAtEdge,
                            isShort: reachesEnd)
            if request.reread == 0 || position.readsOn {
                return unchecked(window, look.ordinals, request, isShort: look.isShort)
            }
            let candidates = candidates(in: look)
            if let step = anchorOnRun(candidates, look) ?? anchorOnItemInPlace(look) ?? followRun(candidates, look)
                ?? takeWholeFeed(look) {
                return step
            }
            if searchOrigin == nil { searchOrigin = expected }
            return lookHigher(look) ?? widenSearch() ?? giveUp(look)
        }

        /// The ordinal of each item of `window` shown before (see `ordinals(of:)` for IDs).
        private func ordinals(of window: [Item]) -> [Int?] {
            ordinals(of: window.map(\.id))
        }

        /// The ordinal of each of `ids` shown before, in reading order (this page's and the chain's; opened in
        /// the middle, what the other side showed counts as shown before this side's first item: ordinals
        /// below 0, going away from the start). The chain's record of what was shown is the reading's own,
        /// not de-duplication (Docs/Internals.md, "Writing a page source").
        private func ordinals(of ids: [Item.ID]) -> [Int?] {
            let earlier = position.ledger.ordinals(of: ids, before: position.generation)
            let opposite = position.opensInMiddle
                ? position.sides.ledger(opposite: position.side)?.mirroredOrdinals(of: ids) : nil
            return ids.indices.map { earlier[$0] ?? keptOrdinals[ids[$0]] ?? opposite?[$0] }
        }

        /// The runs of shown items that may end at the anchor (`candidates(in:edge:nearEdge:looseConfirmation:)`),
        /// having marked where the other side's ground ends in the window (opened in the middle: what lies
        /// beyond this side's start, with an edge before the first item after it).
        private mutating func candidates(in look: Look) -> [Candidate] {
            let ground = position.opensInMiddle ? otherGround(in: look.request, look.window.count) : nil
            frontier = ground?.frontier ?? -1
            return Self.candidates(in: look.ordinals, edge: ground?.edge ?? (look.startsAtEdge ? 0 : nil),
                                   nearEdge: ground?.edge, looseConfirmation: served.cap != nil)
        }

        /// How far below where its ordinal says it should be the item shown at window index `index` is
        /// (negative: higher up).
        private func displacement(_ index: Int, in look: Look) -> Int {
            index - (look.request.overlap - 1 - (shown - 1 - look.ordinals[index]!))
        }

        /// Whether the item shown at `index` sits where its ordinal says it should: as high as deletions above
        /// may have pulled it (the overlap, the upward drift and the search), as low as the last push (and,
        /// under a cap, the search, which also looks below the place).
        private func isInPlace(_ index: Int, in look: Look) -> Bool {
            (-(look.request.reread + drift.up + search) ... drift.down + (served.cap == nil ? 0 : search))
                .contains(displacement(index, in: look))
        }

        /// Whether the item shown at `index` sits where its ordinal says it should, or higher (deletions
        /// above; an item re-ranked downwards is always lower).
        private func isInPlaceOrHigher(_ index: Int, in look: Look) -> Bool {
            (-(look.request.reread + drift.up + search) ... 0).contains(displacement(index, in: look))
        }

        /// The anchor as a run of shown items. A candidate is trusted when it is strong — a tight run
        /// (ordinals close together, as items shown one after the other are) that reaches the item shown
        /// last or holds three or more items — or when it sits in place. Items re-ranked downwards, one by
        /// one, land lower than that, next to each other with far-apart ordinals. The latest strong run
        /// wins; else the first trusted one, so that no unread item is skipped on weaker evidence.
        private mutating func anchorOnRun(_ candidates: [Candidate], _ look: Look) -> Step? {
            let last = shown - 1
            let strong = candidates.filter { $0.isTight && ($0.length >= 3 || $0.ordinal == last) }
            let trusted = candidates.filter { candidate in
                (candidate.isTight && (candidate.length >= 3 || candidate.ordinal == last)) || isInPlace(candidate.end, in: look)
            }
            guard let anchor = strong.max(by: { $0.ordinal < $1.ordinal }) ?? trusted.first else { return nil }
            // A run that begins at one of this side's first items has the other side's ground before it. A lone
            // item there that is not the start page's outermost one stands where the outer ones should: it was
            // re-ranked, or they went with the ground the other side read past. The unread items just before
            // it lie between the two sides' readings: nobody reads them.
            if anchor.beginsAtStart {
                frontier = max(frontier, anchor.end - anchor.length)
                if anchor.length == 1, anchor.ordinal > 0 { skipUnread(look.window, look.ordinals, before: anchor.end) }
            }
            return anchored(after: anchor.end, reference: anchor.end, look.window, look.ordinals, look.request,
                            isShort: look.isShort)
        }

        /// The anchor when no run confirms itself (every item shown near the place has an unread neighbour
        /// above it, say after insertions between them): an item shown in place or higher, with something
        /// visible above it, says where the source is. The unread items just above it may be new ones or the
        /// next ones: the page goes on from the item shown before them (there must be one in the window), so
        /// that none is skipped.
        ///
        /// Under a cap a window fitted to follow a run leaves no room above the item shown last: found first
        /// in such a window, in place or higher (deletions above pulled it up), it is the anchor. (In a window
        /// that read items above it, it was pulled up past them, and unread items may lie just above: the
        /// source looks there first, in `lookHigher(_:)`, while its budget lasts.)
        private mutating func anchorOnItemInPlace(_ look: Look) -> Step? {
            let ordinals = look.ordinals
            if let reference = ordinals.indices.filter({ $0 > 0 && ordinals[$0] != nil && isInPlaceOrHigher($0, in: look) })
                .max(by: { ordinals[$0]! < ordinals[$1]! }),
                let start = ordinals[..<reference].lastIndex(where: { $0 != nil }) {
                return anchored(after: start, reference: reference, look.window, ordinals, look.request, isShort: look.isShort)
            }
            if served.cap != nil, ordinals.first == shown - 1, isInPlaceOrHigher(0, in: look),
               look.request.overlap <= 1 || requests >= maxRequestsPerPage {
                return anchored(after: 0, reference: 0, look.window, ordinals, look.request, isShort: look.isShort)
            }
            return nil
        }

        /// A run of items shown one after the other that reaches the end of the window may go on below it
        /// (the feed pushed the items shown down): read the same place again, further down by the items known
        /// to follow, skipping nothing.
        private mutating func followRun(_ candidates: [Candidate], _ look: Look) -> Step? {
            guard let run = candidates.last, run.isTight, run.end == look.window.count - 1, !look.isShort,
                  requests < maxRequestsPerPage else { return nil }
            reach = min(maxSearchDistance, look.request.offset + look.window.count - expected + (shown - 1 - run.ordinal))
            finding = .pushed
            return .request(nextRequest())
        }

        /// The whole feed is in the window and nothing shown is left in it: everything is new. Opened in the
        /// middle, what lies on the other side's ground by position is left to it, but with nothing shown left
        /// the positions are a guess: that may be nobody's, and the page says so.
        private mutating func takeWholeFeed(_ look: Look) -> Step? {
            guard look.startsAtEdge, look.isShort, !look.ordinals.contains(where: { $0 != nil }) else { return nil }
            if look.window.indices.contains(frontier) {
                diagnostics.append(.sourceCorrection(.resynchronisationFailed))
            }
            finding = .anchored
            return advance(consumed: keep(look.window, ordinals: look.ordinals, after: frontier), of: look.window,
                           at: look.request, isShort: look.isShort)
        }

        /// An unconfirmed item shown before (the one shown last, if several) says where the source is, when
        /// that is higher up: look there (reading more never skips anything).
        private mutating func lookHigher(_ look: Look) -> Step? {
            let ordinals = look.ordinals
            guard let index = ordinals.indices.max(by: { (ordinals[$0] ?? .min) < (ordinals[$1] ?? .min) }),
                  let ordinal = ordinals[index], requests < maxRequestsPerPage else { return nil }
            let end = look.request.offset + index + 1 + (shown - 1 - ordinal)
            guard end < expected else { return nil }
            drift.up = min(maxSearchDistance, expected - end)
            drift.down = 0
            expected = end
            search = 0
            probesBelow = false
            finding = .searching
            return .request(nextRequest())
        }

        /// Widens the search around the expected position, while the bounds and the budget allow: by a page's
        /// worth (at least 8) first, as a window with nothing shown in it is a page or more off, then
        /// doubling. Under a cap, each distance is looked at above the place, then below it.
        private mutating func widenSearch() -> Step? {
            let belowNext = served.cap != nil && search > 0 && !probesBelow
            guard search < maxSearchDistance || belowNext, requests < maxRequestsPerPage else { return nil }
            if !belowNext { search = min(maxSearchDistance, max(search * 2, limit, 8)) }
            probesBelow = belowNext
            finding = .searching
            return .request(nextRequest())
        }

        /// Nothing trusted within reach. With items in hand (or after a push), out of requests: the page
        /// delivers what it has (nothing, if the feed outpaced it), and the next goes on from the same
        /// position with a fresh budget. Else the page goes on from this window rather than stall, keeping
        /// every unread item it holds (guessing an anchor could skip the very items that come next), and
        /// reports `.resynchronisationFailed`.
        private mutating func giveUp(_ look: Look) -> Step {
            if !kept.isEmpty || finding == .pushed { return finish() }
            diagnostics.append(.sourceCorrection(.resynchronisationFailed))
            lostPlace = position.side == .above
            let origin = searchOrigin ?? expected
            search = 0
            probesBelow = false
            searchOrigin = nil
            finding = .anchored
            if look.window.isEmpty, !look.isShort {
                // Going up, a window that holds nothing and does not reach the top lies below the bottom of
                // the feed (it shrank under the reading): go on from its far end, never back (never below
                // where the search began: a search that looked below it under a cap found nothing there).
                expected = max(origin, look.request.offset + look.request.limit)
                return finish()
            }
            return advance(consumed: keep(look.window, ordinals: look.ordinals, after: frontier), of: look.window,
                           at: look.request, isShort: look.isShort)
        }

        /// A window of a server that serves three items a request or fewer: no room to check the place. Keeps
        /// the unread items, drops those shown before, goes on, and reports that the place went unchecked.
        private mutating func unchecked(_ window: [Item], _ ordinals: [Int?], _ request: Request, isShort: Bool) -> Step {
            if !window.isEmpty, !diagnostics.contains(.sourceCorrection(.resynchronisationFailed)) {
                diagnostics.append(.sourceCorrection(.resynchronisationFailed))
            }
            finding = .anchored
            if window.isEmpty, !isShort {
                // Going up, below the bottom of the feed (it shrank under the reading): go on past it.
                expected = request.offset + request.limit
                return requests < maxRequestsPerPage ? .request(nextRequest()) : finish()
            }
            var consumed = 0
            for index in window.indices where kept.count < limit {
                consumed = index + 1
                let id = window[index].id
                if ordinals[index] != nil {
                    duplicates += 1
                } else if keptOrdinals[id] == nil {
                    keptOrdinals[id] = held + kept.count
                    kept.append(window[index])
                }
            }
            return advance(consumed: consumed, of: window, at: request, isShort: isShort)
        }

        /// Goes on after the window index `anchor` (-1: from the window's start): keeps the unread items
        /// after it, or jumps when the window holds nothing after it. The item shown at `reference` says
        /// where the items shown end.
        private mutating func anchored(
            after anchor: Int, reference: Int, _ window: [Item], _ ordinals: [Int?], _ request: Request, isShort: Bool
        ) -> Step {
            let last = shown - 1
            // The position just after the last item shown, if the items shown after the reference follow it.
            let end = request.offset + reference + 1 + (last - ordinals[reference]!)
            if anchor == window.count - 1, !isShort, search > 0, served.cap != nil {
                // The search found the place, but the window (cut by a cap) ends there: go on from it.
                skipAbove(window, ordinals, before: anchor)
                let origin = searchOrigin ?? expected
                if origin > end { diagnostics.append(.sourceCorrection(.resynchronised(by: origin - end))) }
                drift.up = origin > end ? min(maxSearchDistance, max(drift.up, origin - end)) : drift.up / 2
                expected = end
                search = 0
                searchOrigin = nil
                reach = 0
                probesBelow = false
                finding = .anchored
                return requests < maxRequestsPerPage ? .request(nextRequest()) : finish()
            }
            if anchor == window.count - 1, !isShort {
                // Nothing new in the window: jump over the items known to follow (the feed pushed them down).
                duplicates += ordinals[max(0, min(request.overlap, window.count))...].count { $0 != nil }
                skipAbove(window, ordinals, before: anchor)
                drift.down = min(maxSearchDistance, max(drift.down, end - expected))
                drift.up /= 2
                expected = end
                finding = .pushed
                return requests < maxRequestsPerPage ? .request(nextRequest()) : finish()
            }
            let origin = searchOrigin ?? expected
            if origin > end { diagnostics.append(.sourceCorrection(.resynchronised(by: origin - end))) }
            // While the feed moves the items shown (up: deletions above; down: insertions above), windows
            // keep the largest move seen that way; once it stops, the extra reach halves with each window.
            drift.up = origin > end ? min(maxSearchDistance, max(drift.up, origin - end)) : drift.up / 2
            drift.down = end > expected ? min(maxSearchDistance, max(drift.down, end - expected)) : drift.down / 2
            skipAbove(window, ordinals, before: anchor)
            // Items shown before (the anchor included) where the request expected new ones: pushed down.
            duplicates += ordinals[max(0, min(request.overlap, anchor + 1)) ..< anchor + 1].count { $0 != nil }
            search = 0
            searchOrigin = nil
            reach = 0
            probesBelow = false
            finding = .anchored
            return advance(consumed: keep(window, ordinals: ordinals, after: anchor), of: window, at: request,
                           isShort: isShort)
        }

        /// A run of shown items that may end at the anchor.
        struct Candidate {
            /// The window index of its last item.
            let end: Int
            /// Its items, the one that confirms its first included.
            let length: Int
            /// The ordinal of its last item.
            let ordinal: Int
            /// Whether its ordinals follow each other closely (at most `Candidate.tightStep` apart).
            let isTight: Bool
            /// Whether it begins, unconfirmed, with one of its side's first items (in a list opened in the
            /// middle: what precedes it may be the other side's ground).
            var beginsAtStart = false

            /// How far apart the ordinals of a tight run may be (items shown in between may have been deleted).
            static var tightStep: Int { 3 }
        }

        /// The runs of shown items, in the order they were shown, whose first item is confirmed by the item
        /// before it (shown, earlier) or by an edge: the top of the feed, or the end of the other side's
        /// ground in a list opened in the middle (`edge`: the window index just after it; `nil`: none in
        /// the window). An item shown before that follows an unread item is never the first of a run: it
        /// was re-ranked downwards. With `nearEdge` (a list opened in the middle whose window reaches the other
        /// side's ground: the index where this side's begins), one of the side's first items (ordinal
        /// `tightStep` or below: the start page's edge, give or take deleted items) within `tightStep` of it
        /// also begins a run whatever precedes it: the feed may have moved the other side's ground there.
        ///
        /// With `looseConfirmation` (under a cap, where windows are short), an item shown long before (an
        /// item re-ranked downwards, say) still confirms the run after it, but is not part of it: the run's
        /// tightness and length are its own.
        static func candidates(in ordinals: [Int?], edge: Int?, nearEdge: Int? = nil,
                               looseConfirmation: Bool = false) -> [Candidate] {
            var candidates: [Candidate] = []
            var index = 0
            while index < ordinals.count {
                guard let ordinal = ordinals[index] else {
                    index += 1
                    continue
                }
                let confirmedBefore = index > 0 && ordinals[index - 1].map({ $0 < ordinal }) ?? false
                let beginsAtStart = !confirmedBefore && index != edge && (0 ... Candidate.tightStep).contains(ordinal)
                    && nearEdge.map { abs(index - $0) <= Candidate.tightStep } ?? false
                guard confirmedBefore || index == edge || beginsAtStart else {
                    index += 1
                    continue
                }
                var first = confirmedBefore ? index - 1 : index
                if looseConfirmation, first < index, ordinal - ordinals[first]! > Candidate.tightStep { first = index }
                var end = index
                var isTight = index == first || ordinal - ordinals[first]! <= Candidate.tightStep
                while end + 1 < ordinals.count, let next = ordinals[end + 1], next > ordinals[end]! {
                    isTight = isTight && next - ordinals[end]! <= Candidate.tightStep
                    end += 1
                }
                candidates.append(Candidate(end: end, length: end - first + 1, ordinal: ordinals[end]!, isTight: isTight,
                                            beginsAtStart: beginsAtStart))
                index = end + 1
            }
            return candidates
        }

        /// In a list opened in the middle, where a window (the answer to `request`, `count` items) meets
        /// the other side's ground: beyond the start page's outer edge by position (above the start
        /// position going down, below the start page going up). `frontier`: the index of the last item
        /// there (-1: none); `edge`: the index of the first item after it, when the window reaches that
        /// ground (`nil`: it begins on this side's). An item the other side showed, found further in, was
        /// re-ranked: it moves no frontier.
        private func otherGround(in request: Request, _ count: Int) -> (frontier: Int, edge: Int?) {
            // Going down, positions count from the top of the feed; going up, from the start page's top
            // item upwards, so the start page's items stand at -c ..< 0.
            let startEdge = position.side == .below ? position.base : -position.ledger.count(before: 1)
            let byPosition = startEdge - request.offset - 1
            let frontier = max(min(byPosition, count - 1), -1)
            return (frontier, byPosition >= -1 ? frontier + 1 : nil)
        }

        /// Counts the unread items before the anchor (each once along recent pages): they rank above items
        /// already shown. Those beyond the frontier are the other side's to read.
        private mutating func skipAbove(_ window: [Item], _ ordinals: [Int?], before anchor: Int) {
            for index in frontier + 1 ..< max(frontier + 1, anchor)
            where ordinals[index] == nil && skipped.insert(window[index].id).inserted {
                skippedHere.insert(window[index].id)
                above += 1
            }
        }

        /// Counts the unread items just before window index `index` (each once along recent pages), back to
        /// the first item shown before them: skipped.
        private mutating func skipUnread(_ window: [Item], _ ordinals: [Int?], before index: Int) {
            for before in ordinals[..<index].indices.reversed() {
                guard ordinals[before] == nil else { break }
                if skipped.insert(window[before].id).inserted {
                    skippedHere.insert(window[before].id)
                    above += 1
                }
            }
        }

        /// After keeping from a window: where the next request starts, and whether the page is done.
        /// A page under a cap holds what a window the server served in full brought; it asks again only
        /// for a window that brought nothing new, or to settle a cap suspected on the first answer alone.
        private mutating func advance(consumed: Int, of window: [Item], at request: Request, isShort: Bool) -> Step {
            expected = request.offset + consumed
            if isShort, consumed == window.count { return .finished(isLast: true) }
            let capped = served.cap.map { window.count >= $0 } ?? false
            if kept.count >= limit || requests >= maxRequestsPerPage || (capped && !kept.isEmpty) { return finish() }
            return .request(nextRequest())
        }

        private mutating func finish() -> Step {
            .finished(isLast: false)
        }

        /// Keeps the unread items after `anchor` until the page is full; returns the number of window items
        /// consumed (the anchor and those before it included). Items shown before found after the anchor
        /// are dropped and counted as shown out of order.
        private mutating func keep(_ window: [Item], ordinals: [Int?], after anchor: Int) -> Int {
            var consumed = anchor + 1
            for index in window.indices where index > anchor {
                if kept.count >= limit { break }
                consumed = index + 1
                let id = window[index].id
                if ordinals[index] != nil {
                    outOfOrder += 1
                    continue
                }
                guard keptOrdinals[id] == nil else { continue }
                keptOrdinals[id] = held + kept.count
                kept.append(window[index])
            }
            return consumed
        }

        /// The page: drops what the other side of the start delivered (re-ranked across it: shown out of
        /// order), records the rest in the chain's ledger, and says where the next page starts (and, for
        /// the start page, where the page above it starts).
        func outcome(isLast: Bool) -> Outcome {
            let (items, ledger, generation) = position.sides.admit(
                kept, ids: kept.map(\.id), on: position.side, recordingIn: position.ledger, at: position.generation
            ) { _, deliveredOpposite in !deliveredOpposite }
            // Remember the items reported as above while a window may still see them again.
            let remembered = skipped.count <= 4 * (limit + OffsetSource.overlap + maxSearchDistance) ? skipped : skippedHere
            var next = isLast ? nil
                : Position(expected: expected, ledger: ledger, generation: generation, drift: drift, skipped: remembered,
                           side: position.side, sides: position.sides, base: position.base, served: served)
            // (Reading on until a page finds something to anchor on.)
            next?.readsOn = lostPlace || (position.readsOn && kept.isEmpty)
            var diagnostics = diagnostics
            let outOfOrder = outOfOrder + kept.count - items.count
            if above > 0 { diagnostics.append(.sourceCorrection(.itemsAboveSkipped(count: above))) }
            if duplicates > 0 { diagnostics.append(.sourceCorrection(.duplicatesDropped(count: duplicates))) }
            if outOfOrder > 0 { diagnostics.append(.sourceCorrection(.shownOutOfOrder(count: outOfOrder))) }
            if kept.isEmpty, !isLast, finding == .pushed { diagnostics.append(.sourceCorrection(.feedOutpaced)) }
            return Outcome(items: items, next: next, above: abovePosition(items, isLast: isLast), diagnostics: diagnostics,
                           totalCount: totalCount)
        }

        /// For a start page below the top of the feed that holds items: where the page above it starts,
        /// reading upwards from the start page's first item (recorded, upside down, at the bottom of the
        /// upward ledger). An empty start page (past the end) has nothing to go back from.
        private func abovePosition(_ items: [Item], isLast: Bool) -> Position? {
            guard position.isStart, position.expected > 0, !items.isEmpty else { return nil }
            let (ledger, generation) = SeenIDs<Item.ID>().record(items.reversed().map(\.id), at: 0)
            return Position(expected: 0, ledger: ledger, generation: generation, drift: Drift(), skipped: [],
                            side: .above, sides: position.sides, base: position.base, served: served,
                            feedEnd: isLast ? expected : nil)
        }
    }
}
