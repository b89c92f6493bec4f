import Signals

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

/// A thread-safe list of what observers saw.
final class AsyncRecorder<T: Sendable>: Sendable {
    private let storage = MutableProperty<[T]>([])

    func append(_ element: T) { storage.modify { $0.append(element) } }

    var all: [T] { storage.value }
}

/// Counts how many times something happened, from any thread.
final class AsyncCounter: Sendable {
    private let storage = MutableProperty(0)

    func increment() { storage.modify { $0 += 1 } }

    var count: Int { storage.value }
}

struct AsyncTestError: Error, Equatable {
    var code = 1
}
