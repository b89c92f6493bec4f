// The test-support layer of the core's tests: one recorder (`Log`), one error type (`TestError`), one
// lock (`Locked`, the package's), and the drivers every suite shares (`Probe`, `onThreads`, the operator
// contract battery in `OperatorContract.swift`).
import Foundation
import Signals
import Synchronization

// MARK: - The error

/// The error of every failing stream in the tests.
struct TestError: Error, Equatable {
    var code = 0

    static let boom = TestError(code: 1)
    static let other = TestError(code: 2)
}

/// The three terminal events, for tests that check each of them.
enum Terminal: CaseIterable, CustomStringConvertible, Sendable {
    case failed, completed, interrupted

    func event<Value>(_: Value.Type = Value.self) -> Event<Value, TestError> {
        switch self {
        case .failed: return .failed(TestError(code: 7))
        case .completed: return .completed
        case .interrupted: return .interrupted
        }
    }

    var description: String { "\(event(Int.self))" }
}

// MARK: - The recorder

/// A thread-safe, append-only log of what the code under test did or saw, in order: values, events,
/// strings naming calls.
final class Log<Element>: @unchecked Sendable {
    // `@unchecked Sendable`: `entries` is guarded by its `Locked`; the elements are only handed out as copies.
    private let entries = Locked<[Element]>([])

    func append(_ element: Element) {
        entries.withLock { $0.append(element) }
    }

    var all: [Element] { entries.withLock { $0 } }
    var count: Int { entries.withLock { $0.count } }
    var last: Element? { entries.withLock { $0.last } }
}

/// What a log of events can tell about them.
protocol RecordedEvent {
    associatedtype Value
    associatedtype Failure: Error
    var event: Event<Value, Failure> { get }
}

extension Event: RecordedEvent {
    var event: Event<Value, Failure> { self }
}

/// A log of a stream's events.
typealias Recorder<Value, Failure: Error> = Log<Event<Value, Failure>>

extension Log where Element: RecordedEvent {
    var events: [Element] { all }
    var values: [Element.Value] { all.compactMap(\.event.value) }
    /// The last event, if it is terminal.
    var terminal: Element? { last.flatMap { $0.event.isTerminating ? $0 : nil } }

    func record(_ event: Element) { append(event) }
}

extension Signal {
    /// Observes this signal with a new log of its events.
    func recorded() -> Recorder<Value, Failure> {
        let recorder = Recorder<Value, Failure>()
        observe { recorder.record($0) }
        return recorder
    }
}

extension Producer {
    /// Starts a run with a new log of its events.
    func startRecording() -> (Recorder<Value, Failure>, any Disposable) {
        let recorder = Recorder<Value, Failure>()
        let disposable = start { recorder.record($0) }
        return (recorder, disposable)
    }
}

// MARK: - Drivers

/// A producer driven by the test: every run's input is kept, and the runs' starts and ends are counted.
final class Probe<Value, Failure: Error>: @unchecked Sendable {
    // `@unchecked Sendable`: `state` is guarded by its `Locked`.
    private struct State {
        var inputs: [Signal<Value, Failure>.Observer] = []
        var ends = 0
    }
    private let state = Locked(State())

    var producer: Producer<Value, Failure> {
        Producer { [self] observer, lifetime in
            state.withLock { $0.inputs.append(observer) }
            lifetime.observeEnded { self.state.withLock { $0.ends += 1 } }
        }
    }

    /// How many runs started.
    var starts: Int { state.withLock { $0.inputs.count } }
    /// How many runs' lifetimes ended.
    var ends: Int { state.withLock { $0.ends } }
    /// The input of the latest run.
    var input: Signal<Value, Failure>.Observer { state.withLock { $0.inputs.last! } }
    /// The input of run `index` (0-based).
    func input(_ index: Int) -> Signal<Value, Failure>.Observer { state.withLock { $0.inputs[index] } }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let atomic = Atomic<Int>(0)

    @discardableResult
    func increment() -> Int { atomic.add(1, ordering: .sequentiallyConsistent).newValue }

    @discardableResult
    func decrement() -> Int { atomic.subtract(1, ordering: .sequentiallyConsistent).newValue }

    /// Raises the value to `candidate` if that is larger.
    func raise(to candidate: Int) { atomic.max(candidate, ordering: .sequentiallyConsistent) }

    var value: Int { atomic.load(ordering: .sequentiallyConsistent) }
}

/// A one-shot, thread-safe flag.
final class Flag: Sendable {
    private let atomic = Atomic<Bool>(false)
    func set() { atomic.store(true, ordering: .sequentiallyConsistent) }
    var isSet: Bool { atomic.load(ordering: .sequentiallyConsistent) }
}

/// Detects overlapping calls: wrap an observer's body in `during { … }`; `overlaps` counts the calls
/// that started while another one was still running.
final class OverlapDetector: Sendable {
    private let inFlight = Counter()
    private let overlapCount = Counter()

    func during(_ body: () -> Void) {
        if inFlight.increment() != 1 { overlapCount.increment() }
        body()
        inFlight.decrement()
    }

    var overlaps: Int { overlapCount.value }
}

/// An object whose deallocation the tests watch through a weak reference.
final class Tracked: Sendable {}

/// A weak reference to a `Tracked`, which `@Sendable` closures may capture.
final class WeakReference: @unchecked Sendable {
    // `@unchecked Sendable`: written once, before the reference is shared.
    private(set) weak var object: Tracked?

    init(_ object: Tracked) { self.object = object }

    /// Whether the object is still alive.
    var isAlive: Bool { object != nil }
}

/// Runs `body(index)` on `count` new threads at once and returns when every one has finished.
///
/// Real threads, not `concurrentPerform`, whose width is the number of cores: the stress tests want
/// eight threads contending even on a two-core machine.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let finished = DispatchGroup()
    let gate = DispatchGroup()
    gate.enter()
    for index in 0..<count {
        finished.enter()
        let thread = Thread {
            gate.wait()
            body(index)
            finished.leave()
        }
        thread.start()
    }
    gate.leave()
    finished.wait()
}

/// An identifier of the calling thread.
func threadID() -> UInt {
    #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
    #else
    return UInt(pthread_self())
    #endif
}

// MARK: - Async

/// Waits until `lifetime` ends, or `timeout` passes; returns whether it ended.
func waitUntilEnded(_ lifetime: Lifetime, timeout: Duration = .seconds(10)) async -> Bool {
    let ended = AsyncStream<Void> { continuation in
        lifetime.observeEnded {
            continuation.yield()
            continuation.finish()
        }
    }
    return await firstResult(timeout: timeout) {
        for await _ in ended { return true }
        return false
    } ?? false
}

/// The result of `operation`, or `nil` if `timeout` passes first (the operation is then cancelled).
func firstResult<T: Sendable>(
    timeout: Duration = .seconds(10), _ operation: @escaping @Sendable () async -> T
) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask { await operation() }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        let first = await group.next()!
        group.cancelAll()
        return first
    }
}

/// The first element of `stream`, or `nil` if it ends or `timeout` passes first.
func firstElement<T: Sendable>(of stream: AsyncStream<T>, timeout: Duration = .seconds(10)) async -> T? {
    await firstResult(timeout: timeout) {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()
    } ?? nil
}
