import Signals

/// An array served as a paged source (the Slippers "array-simulated paging"): for previews, demos and tests.
///
/// Page *k* (from 0) holds `items[k * pageSize ..< (k + 1) * pageSize]`; the page holding the last item
/// (or the first page of an empty array) is the last.
///
/// **Start.** The list opens at the page holding item `start` (0 by default: the first page). That page
/// carries the page before it as its `previous`, and so does each page loaded through it, up to page 0,
/// which has none: `loadPreviousPage()` scrolls up to the top. Every page carries both neighbours (a page
/// dropped by `maxPages` is loaded again by the page next to it). A `start` past the last item opens at the
/// last page; a negative one at the first.
///
/// With a `scheduler`, each page (or injected failure)
/// is delivered `latency` after its producer starts, on that scheduler; interrupting the run (the view
/// model's `reset()`) cancels the scheduled delivery. Without one, pages are delivered at once, inside
/// `start`.
///
/// `failure(pageIndex, attempt)` may inject a failure: it is asked on every start of a page's producer,
/// with `attempt` counting the starts of that page in the current chain (1 for the first); return `nil`
/// to deliver the page; `pageIndex` counts from the array's first page, whichever page the list opens at.
/// Items an earlier page delivered, on either side of the start page, are dropped by `deduplication`
/// (by default, by `id` when `Item` is `Identifiable`).
///
/// Each call of `firstPage()` starts a fresh chain (fresh attempt counts, fresh de-duplication).
public struct ArraySource<Item: Sendable, Failure: Error>: PaginatedListDependency, Sendable {
    /// Decides whether the `attempt`-th start of page `pageIndex` fails, and with what.
    public typealias FailureInjection = @Sendable (_ pageIndex: Int, _ attempt: Int) -> Failure?

    /// The items served, in order.
    public let items: [Item]
    /// The number of items per page.
    public let pageSize: Int
    /// How long after its start a page is delivered, when there is a `scheduler`.
    public let latency: Duration
    /// Where pages are delivered after `latency`; `nil` delivers them at once.
    public let scheduler: (any DateScheduler)?
    /// The index of the item the list opens at (clamped to the array): its page is the first one loaded.
    public let start: Int
    let failure: FailureInjection?
    /// Which items are dropped as delivered by an earlier page of the chain.
    public let deduplication: DuplicatePolicy<Item>

    /// Serves `items` in pages of `pageSize`, opening at the page that holds item `start`, after `latency`
    /// on `scheduler` if given, failing where `failure` says so, dropping items an earlier page of the
    /// chain delivered by `deduplication` (`.automatic`: by `id` when `Item` is `Identifiable`), on either
    /// side of the start page.
    ///
    /// `start`: the index of the item the list opens at: its page is the first loaded, the pages
    ///   above come through `Page.previous`. Clamped to `0 ..< items.count`.
    public init(
        _ items: [Item], pageSize: Int, start: Int = 0, latency: Duration = .zero,
        on scheduler: (any DateScheduler)? = nil, failure: FailureInjection? = nil,
        deduplication: DuplicatePolicy<Item> = .automatic
    ) {
        precondition(pageSize > 0, "ArraySource: pageSize must be positive")
        self.items = items
        self.pageSize = pageSize
        self.start = min(max(start, 0), max(items.count - 1, 0))
        self.latency = latency
        self.scheduler = scheduler
        self.failure = failure
        self.deduplication = deduplication
    }

    /// The first page of a fresh chain: the page holding item `start`.
    public func firstPage() -> Producer<Page<Item, Failure>, Failure> {
        let attempts = AttemptCounter()
        let chain = PageChain<Item, Failure, Int, [Item]>(
            fetch: { [self] index in delivery(of: index, attempts) }, items: { slice, _ in slice }
        ) { [self] index, _, _, _ in
            let isLast = (index + 1) * pageSize >= items.count
            return PageNeighbours(previous: index > 0 ? index - 1 : nil, next: isLast ? nil : index + 1,
                                  totalCount: items.count)
        }
        return chain.firstPage(at: start / pageSize, deduplication.makeChain())
    }

    /// The items of page `index`, delivered (or failed) as `failure`, `scheduler` and `latency` say, each
    /// start counted in `attempts`.
    private func delivery(of index: Int, _ attempts: AttemptCounter) -> Producer<[Item], Failure> {
        let start = min(index * pageSize, items.count)
        let slice = Array(items[start ..< min(start + pageSize, items.count)])
        let (failure, scheduler, latency) = (self.failure, self.scheduler, self.latency)
        return Producer<[Item], Failure> { observer, lifetime in
            let attempt = attempts.start(index)
            let outcome: Result<[Item], Failure> = failure?(index, attempt).map { .failure($0) } ?? .success(slice)
            let deliver: @Sendable () -> Void = {
                switch outcome {
                case let .success(items):
                    observer.send(value: items)
                    observer.sendCompleted()
                case let .failure(error):
                    observer.send(error: error)
                }
            }
            if let scheduler {
                lifetime.add(scheduler.schedule(after: latency, action: deliver))
            } else {
                deliver()
            }
        }
    }
}

/// Counts the starts of each page of one chain. Thread-safe: `counts` is guarded by its mutex.
final class AttemptCounter: Sendable {
    private let counts = Locked<[Int: Int]>([:])

    /// Records a start of page `index` and returns its number (1 for the first).
    func start(_ index: Int) -> Int {
        counts.withLock { counts in
            counts[index, default: 0] += 1
            return counts[index]!
        }
    }
}
