import Dispatch
import PaginatedList
import PaginatedListTesting
import Signals
import Synchronization
import Testing

/// A page chain whose pages arrive on a background queue: page k holds `k*pageSize ..< (k+1)*pageSize`.
///
/// It counts the runs in flight — started, and neither answered (about to send its page) nor ended —
/// and remembers the most it ever saw. It sends its page even after the view model has cut the run off.
final class BackgroundSource: PaginatedListDependency, Sendable {
    let pageSize = 5
    let pageCount = 40
    let queue = DispatchQueue(label: "BackgroundSource")
    let starts = Counter()
    private let inFlight = Locked<(now: Int, most: Int)>((0, 0))

    /// The most runs ever in flight at once.
    var mostInFlight: Int { inFlight.withLock { $0.most } }

    func firstPage() -> TestProducer { page(0) }

    private func page(_ k: Int) -> TestProducer {
        Producer<Int, TestError> { [self] observer, lifetime in
            starts.increment()
            let settled = Atomic<Bool>(false)
            let settle: @Sendable () -> Void = { [self] in
                if !settled.exchange(true, ordering: .acquiringAndReleasing) {
                    inFlight.withLock { $0.now -= 1 }
                }
            }
            inFlight.withLock { state in
                state.now += 1
                state.most = max(state.most, state.now)
            }
            lifetime.observeEnded(settle)
            queue.async {
                settle()
                observer.send(value: k)
                observer.sendCompleted()
            }
        }
        .map { [self] k in
            Page(items: Array(k * pageSize ..< (k + 1) * pageSize), next: k + 1 < pageCount ? page(k + 1) : nil)
        }
    }
}

@Suite("Concurrency")
struct ConcurrencyTests {
    /// Eight threads call `loadNextPage`, `reset` and `reload` at random while pages arrive on a background
    /// queue; `flush` waits until everything sent so far has been handled.
    private func driveFromEightThreads(scheduler: any Scheduler, flush: (TestViewModel, BackgroundSource) -> Void) {
        let source = BackgroundSource()
        let viewModel = TestViewModel(dependency: source, scheduler: scheduler)
        let pageSize = source.pageSize
        let badSnapshots = Counter()
        let torn = Counter()
        viewModel.items.signal.observeValues { [weak viewModel] items in
            // Pages of one chain since the last reset, in order: 0, 1, 2, … with nothing stale in between.
            if items.count % pageSize != 0 || !items.elementsEqual(0 ..< items.count) { badSnapshots.increment() }
            if let viewModel, !viewModel.snapshot.isConsistent { torn.increment() }
        }

        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            var rng = SplitMix64(seed: UInt64(worker))
            for _ in 0 ..< 300 {
                switch rng.below(20) {
                case 0: viewModel.reset()
                case 1: viewModel.reload()
                default: viewModel.loadNextPage()
                }
            }
        }
        flush(viewModel, source)

        let items = viewModel.items.value
        #expect(items.count % pageSize == 0)
        #expect(items.elementsEqual(0 ..< items.count))
        #expect(!viewModel.loading.value)
        #expect(viewModel.snapshot.isConsistent)
        #expect(source.mostInFlight <= 1)
        #expect(source.starts.count > 0)
        #expect(badSnapshots.count == 0)
        #expect(torn.count == 0)

        // Nothing was lost: the view model still loads the next page.
        if !viewModel.exhausted.value {
            viewModel.loadNextPage()
            flush(viewModel, source)
            #expect(viewModel.items.value.count == items.count + pageSize)
            #expect(viewModel.items.value.elementsEqual(0 ..< items.count + pageSize))
        }
        #expect(source.mostInFlight <= 1)
    }

    @Test func eightThreadsDrivingOneViewModelOnAnImmediateScheduler() {
        driveFromEightThreads(scheduler: ImmediateScheduler()) { viewModel, source in
            // Commands ran on the calling threads; what is left is pages on the background queue, each
            // handled on that queue before its block returns. A load still in flight has a block queued.
            repeat {
                source.queue.sync {}
            } while viewModel.loading.value
        }
    }

    @Test func eightThreadsDrivingOneViewModelOnAQueueScheduler() {
        let queue = DispatchQueue(label: "view-model")
        driveFromEightThreads(scheduler: QueueScheduler(queue: queue)) { viewModel, source in
            // Commands and page events run on `queue`; pages are sent on the source's queue.
            repeat {
                queue.sync {}
                source.queue.sync {}
                queue.sync {}
            } while viewModel.loading.value
        }
    }
}
