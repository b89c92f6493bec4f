// The HTTP fixture server shared by the test targets that talk to it (`PaginatedListHTTPTests`,
// `PagingDemoKitTests`): a target of its own so that neither copies it. Not part of any product.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The fixture server (`feed_server.py` beside this file, python3's standard library), run for one test: started
/// on 127.0.0.1 on an ephemeral port (the script prints it), stopped by `stop()` or when the object goes.
///
/// The script also exits when its stdin reaches end of file, so it never outlives a crashed test run.
public final class FeedServer: Sendable {
    /// The port the server listens on, on 127.0.0.1.
    public let port: Int
    private let process: Process
    private let input: Pipe

    /// The script: `feed_server.py`, beside this file in the repository.
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("feed_server.py")

    /// Starts the server with a feed of `items` items (ids 1...items) and waits for its port.
    ///
    /// The wait (a blocking read of the script's first line) runs on a dispatch queue, not on the
    /// cooperative pool, so tests starting servers in parallel do not starve each other.
    public static func start(items: Int = 23) async throws -> FeedServer {
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

    /// The server did not start.
    public struct ServerError: Error, CustomStringConvertible {
        /// What went wrong.
        public let message: String
        /// `message`.
        public var description: String { message }
    }

    /// `http://127.0.0.1:PORT/` + `pathAndQuery`.
    public func url(_ pathAndQuery: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")!
    }

    /// Calls a control endpoint (`"fault?kind=500"`) and returns its JSON answer.
    @discardableResult
    public func control(_ command: String) async throws -> [String: Any] {
        var request = URLRequest(url: url("/control/\(command)"))
        request.httpMethod = "POST"
        request.timeoutInterval = 60
        let (data, _) = try await URLSession.shared.data(for: request)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// The outcomes the server logged for the feed requests tagged `tag`: "pending", "written", "closed".
    public func outcomes(tag: String) async throws -> [String] {
        let log = try await control("log?tag=\(tag)")
        return (log["requests"] as? [[String: Any]] ?? []).compactMap { $0["outcome"] as? String }
    }

    /// The paths (with their queries) of the feed requests the server received, in order.
    public func requestedPaths() async throws -> [String] {
        let log = try await control("log")
        return (log["requests"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
    }

    /// Waits (polling the log, at most `timeout`) until the request tagged `tag` is no longer pending;
    /// returns its outcomes. A safety net, not an assertion: the outcome is what the test checks.
    public func settledOutcomes(tag: String, timeout: Duration = .seconds(60)) async throws -> [String] {
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
    public func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
    }

    /// Stops the server and waits until its process has exited, so that its port refuses connections
    /// (the wait runs on a dispatch queue, not on the cooperative pool).
    public func stopAndWait() async {
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
