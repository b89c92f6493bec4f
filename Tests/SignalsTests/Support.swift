import Foundation
import Signals
import Synchronization

/// A thread-safe, append-only log of what the observers under test saw, in order.
final class Log<Element: Sendable>: Sendable {
    private let entries = Locked<[Element]>([])

    func append(_ element: Element) {
        entries.withLock { $0.append(element) }
    }

    var all: [Element] { entries.withLock { $0 } }
    var count: Int { entries.withLock { $0.count } }
    var last: Element? { entries.withLock { $0.last } }
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

/// The error type of the tests' failing streams.
enum TestError: Error, Equatable {
    case boom
    case other
}

/// A one-shot, thread-safe flag.
final class Flag: Sendable {
    private let atomic = Atomic<Bool>(false)
    func set() { atomic.store(true, ordering: .sequentiallyConsistent) }
    var isSet: Bool { atomic.load(ordering: .sequentiallyConsistent) }
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
