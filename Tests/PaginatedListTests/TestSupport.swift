import Foundation
import PaginatedList
import PaginatedListTesting
import Signals
import Synchronization

/// The error the scripted page producers fail with.
struct TestError: Error, Equatable, Sendable {
    let code: Int
    init(_ code: Int) { self.code = code }
}

typealias TestPage = Page<Int, TestError>
typealias TestProducer = Producer<TestPage, TestError>
typealias TestViewModel = PaginatedListViewModel<Int, TestError>

/// A view model over `source`, its commands run at once (`ImmediateScheduler`) unless `scheduler` says otherwise.
func makeViewModel(_ source: ScriptedSource, scheduler: any Scheduler = ImmediateScheduler()) -> TestViewModel {
    TestViewModel(dependency: source, scheduler: scheduler)
}

extension SplitMix64 {
    /// A number in `0 ..< bound` (0 when `bound` is not positive).
    mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(next() % UInt64(bound)) }
}

/// Whether a producer's run has ended (its lifetime), readable from any thread.
final class RunStatus: Sendable {
    private let ended = Atomic<Bool>(false)
    var hasEnded: Bool { ended.load(ordering: .acquiring) }
    func end() { ended.store(true, ordering: .releasing) }
}

/// One run of a producer that a test answers by hand when it likes (a value, then completion; or a
/// failure), or never; the model-based feeds record their runs as subclasses of it, with where each loads.
class AnsweredRun<Value> {
    let input: Signal<Value, TestError>.Observer
    private let status = RunStatus()
    /// Whether the test ended the run itself (answered or failed it).
    private(set) var endedByTest = false

    init(input: Signal<Value, TestError>.Observer, lifetime: Lifetime) {
        self.input = input
        lifetime.observeEnded { [status] in status.end() }
    }

    /// Whether the run's lifetime has not ended: the view model waits for it.
    var isActive: Bool { !status.hasEnded }
    /// Whether the view model cut the run off (its lifetime ended without the test ending it).
    var wasCutOff: Bool { status.hasEnded && !endedByTest }

    /// Sends `value`, then completes.
    func deliver(_ value: Value) {
        endedByTest = true
        input.send(value: value)
        input.sendCompleted()
    }

    func fail(_ error: TestError) {
        endedByTest = true
        input.send(error: error)
    }
}

/// One run of a scripted producer: the test sends on its input whenever it likes, also after the view
/// model has cut the run off (the input is kept, so the producer "ignores interruption").
final class ScriptedRun {
    /// Which producer of the source this is a run of (retrying a page starts the same producer again).
    let producerID: Int
    let input: Signal<TestPage, TestError>.Observer
    private let status: RunStatus
    /// Whether the script itself sent a terminal event on this run.
    private(set) var terminatedByScript = false

    init(producerID: Int, input: Signal<TestPage, TestError>.Observer, lifetime: Lifetime) {
        self.producerID = producerID
        self.input = input
        let status = RunStatus()
        self.status = status
        lifetime.observeEnded { status.end() }
    }

    /// Whether the run's lifetime has ended (terminated or disposed).
    var hasEnded: Bool { status.hasEnded }

    /// Whether the run ended without the script ending it: the view model disposed it.
    var wasCutOff: Bool { hasEnded && !terminatedByScript }

    /// Sends a page of `items` whose next page is `next`, then completes (as a well-behaved producer does).
    func deliver(_ items: [Int], next: TestProducer?) {
        input.send(value: Page(items: items, next: next))
        complete()
    }

    /// Sends a page without completing.
    func sendPage(_ items: [Int], next: TestProducer?) {
        input.send(value: Page(items: items, next: next))
    }

    func fail(_ error: TestError) {
        terminatedByScript = true
        input.send(error: error)
    }

    func complete() {
        terminatedByScript = true
        input.sendCompleted()
    }

    func interruptItself() {
        terminatedByScript = true
        input.sendInterrupted()
    }
}

/// A dependency whose producers record every run and let the test decide what each run sends, and when.
///
/// Single-threaded: drive it from the test's thread, with a scheduler that runs there.
final class ScriptedSource: PaginatedListDependency {
    private(set) var runs: [ScriptedRun] = []
    private(set) var firstPageCalls = 0
    /// How many producers the source has made: the id the next one gets.
    private(set) var producersMade = 0

    func firstPage() -> TestProducer {
        firstPageCalls += 1
        return producer()
    }

    /// A new producer (a new page of the chain): each start records a run.
    func producer() -> TestProducer {
        let id = producersMade
        producersMade += 1
        return Producer { observer, lifetime in
            self.runs.append(ScriptedRun(producerID: id, input: observer, lifetime: lifetime))
        }
    }

    /// The run started last.
    var lastRun: ScriptedRun { runs[runs.count - 1] }

    /// The number of runs whose lifetime has not ended.
    var activeRuns: Int { runs.filter { !$0.hasEnded }.count }
}

/// A value guarded by an `NSLock`. The tests use it instead of `Mutex`, whose Linux implementation the
/// thread sanitizer cannot see (it reports accesses inside `withLock` as races).
final class Locked<Value>: @unchecked Sendable {   // `value` is guarded by `lock`
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// Records what an observer is sent, from any thread.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = Locked<[Value]>([])

    init() {}

    /// A recorder of every value `signal` sends from now on.
    convenience init(_ signal: Signal<Value, Never>) {
        self.init()
        signal.observeValues { [self] value in append(value) }
    }

    func append(_ value: Value) { storage.withLock { $0.append(value) } }
    var values: [Value] { storage.withLock { $0 } }
    var count: Int { storage.withLock { $0.count } }
}

/// A counter shared between threads.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    init() {}
    func increment() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}

/// Every observable property of a view model at one moment.
struct Snapshot: Equatable, Sendable {
    let items: [Int]
    let loading: Bool
    let lastError: TestError?
    let exhausted: Bool
    /// The state of the next page's load (the only kind of load of the lists these tests check).
    let append: LoadState<TestError>

    /// Whether `loading`, `lastError` and `exhausted` say what `append` says.
    var isConsistent: Bool {
        loading == append.isLoading && lastError == append.error && exhausted == append.isComplete
    }
}

extension PaginatedListViewModel where Item == Int, Failure == TestError {
    /// Every property, read now.
    var snapshot: Snapshot {
        Snapshot(items: Array(items.value), loading: loading.value, lastError: lastError.value,
                 exhausted: exhausted.value, append: loadStates.value.append)
    }
}

/// A chain of `count` pages of `size` items each, delivered synchronously at start: page k holds
/// `k*size ..< (k+1)*size`. `starts` counts the runs started.
func synchronousChain(pages count: Int, size: Int, starts: Counter? = nil) -> TestProducer {
    func page(_ k: Int) -> TestProducer {
        Producer { observer, _ in
            starts?.increment()
            observer.send(value: Page(items: Array(k * size ..< (k + 1) * size), next: k + 1 < count ? page(k + 1) : nil))
            observer.sendCompleted()
        }
    }
    return page(0)
}

/// The first `count` pages of a chain of `source` (fewer if it ends first), straight from the page
/// producers (no view model, which would merge repeated ids): for a source that delivers inside `start`.
func firstPages<D: PaginatedListDependency>(of source: D, count: Int) -> [Page<D.Item, D.Failure>] {
    let pages = Locked<[Page<D.Item, D.Failure>]>([])
    var producer: Producer<Page<D.Item, D.Failure>, D.Failure>? = source.firstPage()
    for _ in 0 ..< count {
        guard let current = producer else { break }
        let before = pages.withLock { $0.count }
        current.startWithValues { page in pages.withLock { $0.append(page) } }
        producer = pages.withLock { $0.count > before ? $0.last?.next : nil }
    }
    return pages.withLock { $0 }
}
