import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList
import PaginatedListHTTP
import Signals
import Testing

/// The fixture server (`Fixtures/feed_server.py`, python3's standard library), run for one test: started
/// on 127.0.0.1 on an ephemeral port (the script prints it), stopped by `stop()` or when the object goes.
///
/// The script also exits when its stdin reaches end of file, so it never outlives a crashed test run.
final class FeedServer: Sendable {
    let port: Int
    private let process: Process
    private let input: Pipe

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/feed_server.py")

    /// Starts the server with a feed of `items` items (ids 1...items) and waits for its port.
    ///
    /// The wait (a blocking read of the script's first line) runs on a dispatch queue, not on the
    /// cooperative pool, so tests starting servers in parallel do not starve each other.
    static func start(items: Int = 23) async throws -> FeedServer {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try FeedServer(items: items) })
            }
        }
    }

    private init(items: Int) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path]
        var environment = ProcessInfo.processInfo.environment
        environment["FEED_ITEMS"] = String(items)
        environment["PYTHONUNBUFFERED"] = "1"
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // The first line of stdout is the port; `availableData` blocks until the script writes it.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw ServerError(message: "feed_server.py printed no port: \(String(decoding: line, as: UTF8.self))")
        }
        self.port = port
        self.process = process
        self.input = input
    }

    struct ServerError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// `http://127.0.0.1:PORT/` + `pathAndQuery`.
    func url(_ pathAndQuery: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")!
    }

    /// Calls a control endpoint (`"fault?kind=500"`) and returns its JSON answer.
    @discardableResult
    func control(_ command: String) async throws -> [String: Any] {
        var request = URLRequest(url: url("/control/\(command)"))
        request.httpMethod = "POST"
        request.timeoutInterval = 60
        let (data, _) = try await URLSession.shared.data(for: request)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// The outcomes the server logged for the feed requests tagged `tag`: "pending", "written", "closed".
    func outcomes(tag: String) async throws -> [String] {
        let log = try await control("log?tag=\(tag)")
        return (log["requests"] as? [[String: Any]] ?? []).compactMap { $0["outcome"] as? String }
    }

    /// Waits (polling the log, at most `timeout`) until the request tagged `tag` is no longer pending;
    /// returns its outcomes. A safety net, not an assertion: the outcome is what the test checks.
    func settledOutcomes(tag: String, timeout: Duration = .seconds(60)) async throws -> [String] {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let outcomes = try await outcomes(tag: tag)
            if !outcomes.isEmpty, !outcomes.contains("pending") { return outcomes }
            if clock.now >= deadline { return outcomes }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Stops the server: closing its stdin ends it; `terminate` is the backstop. Does not wait (Foundation
    /// reaps the process), so it never blocks a thread of the cooperative pool.
    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
    }

    /// Stops the server and waits until its process has exited, so that its port refuses connections
    /// (the wait runs on a dispatch queue, not on the cooperative pool).
    func stopAndWait() async {
        stop()
        let process = process
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                process.waitUntilExit()
                continuation.resume()
            }
        }
    }

    deinit { stop() }
}

/// An item of the fixture feed.
struct FeedItem: Decodable, Identifiable, Equatable, Sendable {
    let id: Int
    let title: String
    let createdAt: Date
}

/// Calls `loadNextPage()` and waits until the load it started ends (at most `timeout`, a safety net);
/// returns the state the next page's load ended in, or `nil` if it started no load or did not end in time.
@discardableResult
func loadNextPage<Item: Sendable>(
    _ list: PaginatedListViewModel<Item, HTTPError>, timeout: Duration = .seconds(60)
) async -> LoadState<HTTPError>? {
    await untilLoadEnds(list.loadStates.signal, isLoading: \.append.isLoading, timeout: timeout) { list.loadNextPage() }?
        .append
}

/// Calls `start` and waits until the load it started ends: until `signal` has sent a value that
/// `isLoading`, then one that is not (at most `timeout`, a safety net); returns that last value, or `nil`
/// if no load started or it did not end in time.
///
/// The observer is attached before the call, so the load's start and its end are both seen, whichever
/// thread delivers them. The transition that ended it may still be delivering to later observers.
func untilLoadEnds<Value: Sendable>(
    _ signal: Signal<Value, Never>, isLoading: @escaping @Sendable (Value) -> Bool, timeout: Duration,
    _ start: () -> Void
) async -> Value? {
    let (values, continuation) = AsyncStream.makeStream(of: Value.self)
    let observation = signal.observeValues { continuation.yield($0) }
    defer { observation?.dispose() }
    start()
    return await withTaskGroup(of: Value?.self) { group in
        group.addTask {
            var started = false
            for await value in values {
                if isLoading(value) { started = true } else if started { return value }
            }
            return nil
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            continuation.finish()
            return nil
        }
        let first = await group.next() ?? nil
        continuation.finish()
        group.cancelAll()
        return first
    }
}

/// Loads pages until the list is exhausted or a load fails (or `maxPages` loads); returns the last state of
/// the next page's load.
@discardableResult
func loadAll<Item: Sendable>(
    _ list: PaginatedListViewModel<Item, HTTPError>, maxPages: Int = 100
) async -> LoadState<HTTPError>? {
    var state: LoadState<HTTPError>? = list.loadStates.value.append
    for _ in 0 ..< maxPages {
        state = await loadNextPage(list)
        guard case .idle? = state else { return state }
    }
    return state
}
