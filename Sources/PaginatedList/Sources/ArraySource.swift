import Signals

/// An array served as a paged source (the Slippers "array-simulated paging"): for previews, demos and tests.
///
/// Page *k* (from 0) holds `items[k * pageSize ..< (k + 1) * pageSize]`; the page holding the last item
/// (or the first page of an empty array) is the last. With a `scheduler`, each page (or injected failure)
/// is delivered `latency` after its producer starts, on that scheduler; interrupting the run (the view
/// model's `reset()`) cancels the scheduled delivery. Without one, pages are delivered at once, inside
/// `start`.
///
/// `failure(pageIndex, attempt)` may inject a failure: it is asked on every start of a page's producer,
/// with `attempt` counting the starts of that page in the current chain (1 for the first); return `nil`
/// to deliver the page. When `Item` is `Identifiable`, items an earlier page delivered are dropped.
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
    private let failure: FailureInjection?
    private let deduplication: @Sendable () -> Deduplication<Item>

    /// Serves `items` in pages of `pageSize`, after `latency` on `scheduler` if given, failing where
    /// `failure` says so. Keeps every item (items are not `Identifiable`).
    public init(
        _ items: [Item], pageSize: Int, latency: Duration = .zero, on scheduler: (any DateScheduler)? = nil,
        failure: FailureInjection? = nil
    ) {
        self.init(items, pageSize: pageSize, latency: latency, on: scheduler, failure: failure,
                  deduplication: { .none })
    }

    init(
        _ items: [Item], pageSize: Int, latency: Duration, on scheduler: (any DateScheduler)?,
        failure: FailureInjection?, deduplication: @escaping @Sendable () -> Deduplication<Item>
    ) {
        precondition(pageSize > 0, "ArraySource: pageSize must be positive")
        self.items = items
        self.pageSize = pageSize
        self.latency = latency
        self.scheduler = scheduler
        self.failure = failure
        self.deduplication = deduplication
    }

    /// The first page of a fresh chain.
    public func firstPage() -> Producer<Page<Item, Failure>, Failure> {
        page(0, deduplication(), AttemptCounter())
    }

    private func page(
        _ index: Int, _ deduplication: Deduplication<Item>, _ attempts: AttemptCounter
    ) -> Producer<Page<Item, Failure>, Failure> {
        let start = min(index * pageSize, items.count)
        let end = min(start + pageSize, items.count)
        let slice = Array(items[start ..< end])
        let isLast = end >= items.count
        let (failure, scheduler, latency) = (self.failure, self.scheduler, self.latency)
        let delivery = Producer<[Item], Failure> { observer, lifetime in
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
        return delivery.map { [self] items in
            let admission = deduplication.admit(items)
            return Page(items: admission.kept, next: isLast ? nil : page(index + 1, admission.next, attempts),
                        diagnostics: .init(droppedDuplicates: admission.dropped))
        }
    }
}

extension ArraySource where Item: Identifiable, Item.ID: Sendable {
    /// Serves `items` in pages of `pageSize`, after `latency` on `scheduler` if given, failing where
    /// `failure` says so; drops items an earlier page of the chain delivered (by `id`).
    public init(
        _ items: [Item], pageSize: Int, latency: Duration = .zero, on scheduler: (any DateScheduler)? = nil,
        failure: FailureInjection? = nil
    ) {
        self.init(items, pageSize: pageSize, latency: latency, on: scheduler, failure: failure,
                  deduplication: { .byIdentity })
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
