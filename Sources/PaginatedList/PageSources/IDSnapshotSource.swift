import Signals

/// A page source that pages over a snapshot of the feed's IDs: the feed's order is fixed when the list
/// starts, so a feed re-ranked between requests still pages consistently.
///
/// The first page fetches the ordered IDs once (`fetchIDs`), then the items of its first `batchSize`
/// IDs (`fetchItems`); every later page fetches the items of the next batch of the same snapshot. The
/// items are delivered in snapshot order, whatever order the server answers in, at most `batchSize` a
/// page. IDs whose item is gone (deleted since the snapshot) are skipped and reported as
/// `.sourceCorrection(.missingItemsSkipped(count:))`; the page then fetches further batches to fill up,
/// within `maxRequestsPerPage`, each asking for twice as many IDs as the page still needs as the one
/// before it (a run of deleted IDs — a removed spam wave — is crossed in a few requests, not one batch
/// at a time); the next page starts at that size while the run goes on. IDs fetched beyond a full page
/// are asked for again by the next page. IDs the snapshot repeats are delivered once
/// (`.sourceCorrection(.duplicatesDropped(count:))`). The page holding the snapshot's last ID is the last;
/// a page whose IDs were all deleted has no items but is not the last (the view model loads the next at
/// once).
///
/// Items inserted after the snapshot was taken are not shown: a fresh chain (the view model's `reset()`
/// or refresh) takes a fresh snapshot.
///
/// Every page says the feed's total (`Page.totalCount`, the view model's `totalCount`): the snapshot's
/// distinct IDs less those found deleted so far (an ID the snapshot repeats is deleted only when none of
/// its places delivered it), so the total comes down as deletions are found and, on the last page, is
/// the number of distinct items the chain delivered.
///
/// **Servers that cap the page size** answer a request for more IDs than they serve with fewer items,
/// without an error: the items left out are held back, not deleted. An answer that leaves IDs out is
/// read as deletions only when it cannot be capped: it holds no item, or fewer than an answer before held,
/// or answers a request already fitted to a cap; an answer in the order asked also shows that the IDs it
/// left out before its last item were deleted. The other IDs left out stay open and are asked for again
/// with the next request (alone, no more than the answer held, when the server answers in an order of its
/// own): those that come back were held back — the cap is real, and no request asks for more from then on
/// — and those that do not were deleted. Items are delivered in snapshot order, whatever order the server
/// serves them in; none is skipped as deleted while it may have been held back.
///
/// Each call of `firstPage()` starts a fresh chain; retrying the first page fetches the snapshot again.
/// Every page producer is cold and independent. The fetches may answer on any thread; their runs are
/// disposed when the page's run is. The snapshot (an array of IDs) is shared by all pages of a chain.
public struct IDSnapshotSource<Item: Identifiable & Sendable, Failure: Error>: PaginatedListDependency, Sendable
where Item.ID: Sendable {
    /// Fetches the ordered IDs of the whole feed.
    public typealias FetchIDs = @Sendable () -> Producer<[Item.ID], Failure>
    /// Fetches the items with `ids` (in any order; missing ones are skipped).
    public typealias FetchItems = @Sendable (_ ids: [Item.ID]) -> Producer<[Item], Failure>

    /// The number of IDs whose items a page asks for (at most 2^30: a larger `batchSize` is taken as 2^30).
    public let batchSize: Int
    /// The most item requests one page may make (filling after missing items).
    public let maxRequestsPerPage: Int
    let fetchIDs: FetchIDs
    private let fetchItems: FetchItems

    /// A source that snapshots the feed's IDs with `fetchIDs` and pages over them in batches of
    /// `batchSize` (at most 2^30), fetching the items with `fetchItems`.
    public init(batchSize: Int, maxRequestsPerPage: Int = 4, fetchIDs: @escaping FetchIDs,
                fetchItems: @escaping FetchItems) {
        precondition(batchSize > 0, "IDSnapshotSource: batchSize must be positive")
        precondition(maxRequestsPerPage > 0, "IDSnapshotSource: maxRequestsPerPage must be positive")
        // Bounded as `PageNumberSource` bounds its page size, so that no index plus batch can overflow.
        self.batchSize = min(batchSize, 1 << 30)
        self.maxRequestsPerPage = maxRequestsPerPage
        self.fetchIDs = fetchIDs
        self.fetchItems = fetchItems
    }

    /// The first page of a fresh chain: fetches the ID snapshot, then the first batch's items.
    public func firstPage() -> Producer<Page<Item, Failure>, Failure> {
        Producer<Outcome, Failure> { [self] observer, lifetime in
            fetchIDs().startFirst(in: lifetime) { [self] event in
                switch event {
                case let .value(ids):
                    let position = Position(ids: ids, index: 0, deduplication: .byIdentity, growth: 1, served: ServedSize(),
                                            tally: Tally(ids))
                    batch(Progress(position: position), observer, lifetime)
                case let .failed(error): observer.send(error: error)
                case .completed: observer.sendCompleted()
                case .interrupted: observer.sendInterrupted()
                }
            }
        }
        .map { [self] in page(from: $0) }
    }

    // MARK: - The chain

    /// Where a page starts in the snapshot.
    struct Position: Sendable {
        let ids: [Item.ID]
        let index: Int
        let deduplication: Deduplication<Item>
        /// How many times the IDs the page needs its first request asks for (more than 1 inside a run of
        /// deleted IDs).
        let growth: Int
        /// What the chain learned of how many items the server serves per request.
        let served: ServedSize
        /// The feed's total as the pages before left it; `nil` when not counted (a keyed page loaded from
        /// its key alone, which knows nothing of the pages before it).
        let tally: Tally?
    }

    /// The feed's total: the snapshot's distinct IDs less those found deleted and never delivered. An ID
    /// the snapshot repeats is deleted only while none of its places delivered it: one place found empty
    /// after another delivered it, or before another does, leaves it counted.
    struct Tally: Sendable {
        /// How many distinct IDs the snapshot holds.
        let distinct: Int
        /// The IDs the snapshot lists more than once.
        let repeated: Set<Item.ID>
        /// The repeated IDs delivered so far.
        private(set) var deliveredRepeats: Set<Item.ID> = []
        /// The IDs found deleted and not delivered.
        private(set) var deleted: Set<Item.ID> = []

        init(_ ids: [Item.ID]) {
            var seen = Set<Item.ID>(minimumCapacity: ids.count)
            var repeated = Set<Item.ID>()
            for id in ids where !seen.insert(id).inserted { repeated.insert(id) }
            distinct = seen.count
            self.repeated = repeated
        }

        /// The total: never more than `distinct`, never less than the distinct IDs delivered.
        var total: Int { distinct - deleted.count }

        /// The item of `id` was delivered.
        mutating func delivered(_ id: Item.ID) {
            guard repeated.contains(id) else { return }
            deliveredRepeats.insert(id)
            deleted.remove(id)
        }

        /// A place of `id` came back without its item.
        mutating func missing(_ id: Item.ID) {
            guard !deliveredRepeats.contains(id) else { return }
            deleted.insert(id)
        }
    }

    /// What one page's requests came to.
    struct Outcome: Sendable {
        let items: [Item]
        let next: Position?
        let diagnostics: [PaginatedListDiagnostic]
        /// The feed's total as the chain knows it after this page; `nil` when the snapshot was not counted.
        let total: Int?
    }

    /// The state of one page's requests.
    struct Progress: Sendable {
        let position: Position
        var index: Int
        var found: [Item] = []
        var missing = 0
        /// The feed's total after the IDs this page went through.
        var tally: Tally?
        var requests = 0
        /// How many times the IDs the page still needs the next request asks for.
        var growth: Int
        var served: ServedSize
        /// The answers for IDs at `index` and after, not delivered yet: the item, or `nil` if it is gone.
        var known: [Item.ID: Item?] = [:]
        /// The IDs the last answer may have held back (a cap suspected, not confirmed): the next answer
        /// settles them.
        var heldBack: Set<Item.ID> = []
        /// Whether the last answer came in an order of the server's own: the IDs it may have held back are
        /// then asked for alone, no more than the suspected cap.
        var answersOutOfOrder = false

        /// How many of `open` IDs the next request asks for: all, unless a cap is confirmed (or suspected,
        /// of a server that answers in its own order).
        func asked(_ open: Int) -> Int {
            answersOutOfOrder && !heldBack.isEmpty ? served.fittedToSuspicion(open) : served.fitted(open)
        }

        init(position: Position) {
            self.position = position
            index = position.index
            growth = position.growth
            served = position.served
            tally = position.tally
        }

        var isAtEnd: Bool { index >= position.ids.count }

        /// Takes the answer `items` to a request for `ids`: the IDs it left out were deleted, unless the
        /// answer may be capped (then they are asked for again); then delivers, in snapshot order, every
        /// item whose answer is known, up to the first ID still open or a page of `batchSize`.
        mutating func absorb(_ items: [Item], askedFor ids: [Item.ID], batchSize: Int) {
            var byID = [Item.ID: Item](minimumCapacity: items.count)
            for item in items { byID[item.id] = item }
            let place = Dictionary(ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            let places = items.compactMap { place[$0.id] }
            answersOutOfOrder = zip(places, places.dropFirst()).contains { $0 >= $1 }
            // The last item's place in the request, if the answer came in the order asked: what it left out
            // before that was deleted.
            let lastServed = answersOutOfOrder ? -1 : places.last ?? -1
            // IDs the answer before may have held back came back: the cap is real.
            if !heldBack.isDisjoint(with: byID.keys) { served.confirm(byIdentity: true) }
            let verdict = served.judge(served: byID.count, asked: ids.count, more: nil)
            heldBack = []
            for (index, id) in ids.enumerated() {
                if let item = byID[id] {
                    known[id] = item
                } else if verdict == .capped, index > lastServed {
                    heldBack.insert(id)
                } else {
                    known[id] = .some(nil)
                }
            }
            // Nothing may be held back now: what the answers left out was deleted.
            if heldBack.isEmpty { served.refute() }
            if served.isConfirmed { heldBack = [] }
            var missed = !heldBack.isEmpty
            while index < position.ids.count, found.count < batchSize, let answer = known[position.ids[index]] {
                if let item = answer {
                    found.append(item)
                    tally?.delivered(item.id)
                } else {
                    missing += 1
                    tally?.missing(position.ids[index])
                    missed = true
                }
                index += 1
            }
            requests += 1
            growth = missed ? min(growth * 2, 1 << 16) : 1
        }
    }

    private func page(from outcome: Outcome) -> Page<Item, Failure> {
        Page(items: outcome.items, next: outcome.next.map(page(at:)), diagnostics: outcome.diagnostics,
             totalCount: outcome.total)
    }

    private func page(at position: Position) -> Producer<Page<Item, Failure>, Failure> {
        Producer<Outcome, Failure> { [self] observer, lifetime in
            batch(Progress(position: position), observer, lifetime)
        }
        .map { [self] in page(from: $0) }
    }

    /// Fetches the next batch of the page, then the next one while the page is short of items (within
    /// `maxRequestsPerPage`), then sends the page.
    func batch(_ progress: Progress, _ observer: Signal<Outcome, Failure>.Observer, _ lifetime: Lifetime) {
        guard !lifetime.hasEnded else { return }
        guard !progress.isAtEnd, progress.found.count < batchSize, progress.requests < maxRequestsPerPage else {
            observer.send(value: outcome(of: progress))
            observer.sendCompleted()
            return
        }
        let (wanted, overflow) = (batchSize - progress.found.count).multipliedReportingOverflow(by: progress.growth)
        let end = overflow ? progress.position.ids.count : min(progress.index + wanted, progress.position.ids.count)
        // The IDs of the batch not answered yet (a capped answer leaves some out), no more than the server serves.
        let open = progress.position.ids[progress.index ..< end].filter { progress.known.index(forKey: $0) == nil }
        let ids = Array(open.prefix(progress.asked(open.count)))
        fetchItems(ids).startFirst(in: lifetime) { [self] event in
            switch event {
            case let .value(items):
                var progress = progress
                progress.absorb(items, askedFor: ids, batchSize: batchSize)
                batch(progress, observer, lifetime)
            case let .failed(error): observer.send(error: error)
            case .completed: observer.sendCompleted()
            case .interrupted: observer.sendInterrupted()
            }
        }
    }

    private func outcome(of progress: Progress) -> Outcome {
        let admission = progress.position.deduplication.admit(progress.found)
        var diagnostics: [PaginatedListDiagnostic] = []
        if progress.missing > 0 { diagnostics.append(.sourceCorrection(.missingItemsSkipped(count: progress.missing))) }
        diagnostics += .init(droppedDuplicates: admission.dropped)
        let next = progress.isAtEnd ? nil
            : Position(ids: progress.position.ids, index: progress.index, deduplication: admission.onward,
                       growth: progress.growth, served: progress.served, tally: progress.tally)
        return Outcome(items: admission.kept, next: next, diagnostics: diagnostics, total: progress.tally?.total)
    }
}
