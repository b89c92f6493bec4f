// The samples of Docs/HTTP.md, compiled and run against the fixture server of PaginatedListHTTPTests.
// Keep both in sync.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PaginatedList
import PaginatedListHTTP
import Signals
import Testing

/// The guide's names, kept apart from the other guides' `Post`.
enum HTTPGuide {
    struct Post: Decodable, Identifiable, Sendable {
        let id: Int
        let title: String
        let createdAt: Date   // "created_at": "2024-05-01T12:00:07Z"
    }

    struct Envelope: Decodable, Sendable {
        let items: [Post]
        let total: Int?
    }

    /// `Tests/PaginatedListHTTPTests/Fixtures/feed_server.py` on an ephemeral port, for one test.
    final class Server: Sendable {
        let base: URL
        private let process: Process
        private let input: Pipe

        static func start() async throws -> Server {
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(with: Result { try Server() }) }
            }
        }

        private init() throws {
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("PaginatedListHTTPTests/Fixtures/feed_server.py")
            process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script.path]
            input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                line.append(chunk)
            }
            let port = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let base = URL(string: "http://127.0.0.1:\(port)/"), Int(port) != nil else {
                process.terminate()
                throw CancellationError()
            }
            self.base = base
        }

        deinit {
            try? input.fileHandleForWriting.close()
            if process.isRunning { process.terminate() }
        }
    }
}

@Suite("Guide: HTTP feeds")
final class HTTPGuideTests {
    typealias Post = HTTPGuide.Post
    typealias Envelope = HTTPGuide.Envelope
    let server: HTTPGuide.Server
    var base: URL { server.base }

    init() async throws { server = try await HTTPGuide.Server.start() }

    /// Loads every page (the view model on `ImmediateScheduler`) and returns the ids.
    func loadAll<D: PaginatedListDependency>(_ source: D) async -> [Int]
    where D.Item == Post, D.Failure == HTTPError {
        let list = PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler())
        for _ in 0 ..< 50 {
            // Observe before the call, so the load's `.loading` and the state after it are both seen.
            let (states, continuation) = AsyncStream.makeStream(of: PaginatedListState<HTTPError>.self)
            let observation = list.state.signal.observeValues { continuation.yield($0) }
            list.loadNextPage()
            var started = false
            var ended: PaginatedListState<HTTPError>?
            for await state in states {
                if state.isLoading { started = true } else if started { ended = state; break }
            }
            observation?.dispose()
            if ended != .idle { break }
        }
        #expect(list.state.value == .exhausted)
        return list.items.value.map(\.id)
    }

    @Test func theClientSampleDecodesPosts() async throws {
        let client = HTTPClient()   // URLSession.shared; JSONCoding's decoder: snake_case keys, ISO 8601 dates
        let posts: Producer<[Post], HTTPError> = client.get([Post].self, from: base.appendingPathComponent("offset"))
        let first = try await posts.first()
        #expect(first?.first?.createdAt == Date(timeIntervalSince1970: 1_714_564_801))
    }

    @Test func thePageNumberSamplePagesTheFeed() async {
        let pages = PageNumberSource<Post, HTTPError>(url: base.appendingPathComponent("page"), pageSize: 20)
        let pagedList = PaginatedListViewModel(dependency: pages)
        #expect(pagedList.items.value.isEmpty)
        #expect(await loadAll(pages) == Array(1 ... 23))
    }

    @Test func theCursorSamplePagesTheFeed() async {
        let cursors = CursorSource<Post, String, HTTPError>(url: base.appendingPathComponent("cursor"))
        #expect(await loadAll(cursors) == Array(1 ... 23))
    }

    @Test func theNextURLSamplesPageTheFeed() async {
        let linked = CursorSource<Post, URL, HTTPError>(url: base.appendingPathComponent("link"))
        let drf = CursorSource<Post, URL, HTTPError>(url: base.appendingPathComponent("drf"), next: .bodyField)
        #expect(await loadAll(linked) == Array(1 ... 23))
        #expect(await loadAll(drf) == Array(1 ... 23))
    }

    @Test func theOffsetSamplePagesTheFeed() async {
        let offsets = OffsetSource<Post, HTTPError>(url: base.appendingPathComponent("offset"), limit: 20)
        #expect(await loadAll(offsets) == Array(1 ... 23))
    }

    @Test func theOwnEnvelopeSamplePagesTheFeed() async {
        let client = HTTPClient()
        let base = base
        let custom = PageNumberSource<Post, HTTPError>(pageSize: 20) { page, size in
            var components = URLComponents(url: base.appendingPathComponent("page"), resolvingAgainstBaseURL: false)!
            components.queryItems = [
                URLQueryItem(name: "page", value: "\(page)"), URLQueryItem(name: "limit", value: "\(size)"),
                URLQueryItem(name: "totals", value: "1"),
            ]
            return client.get(Envelope.self, from: components.url!).map { body in
                PageNumberResponse(items: body.items, totalItems: body.total)
            }
        }
        #expect(await loadAll(custom) == Array(1 ... 23))
    }

    @Test func theChangeMonitorSampleRefreshesOnlyOnChange() async throws {
        let pagedList = PaginatedListViewModel(
            dependency: PageNumberSource<Post, HTTPError>(url: base.appendingPathComponent("page"), pageSize: 20),
            scheduler: ImmediateScheduler()
        )
        let monitor = HTTPChangeMonitor(url: base.appendingPathComponent("page"))
        let check = monitor.feedChanged().startWithValues { changed in
            if changed { pagedList.refresh() }
        }
        // The sample's check records the version it saw (a bounded wait for it, as a safety net).
        let deadline = ContinuousClock.now + .seconds(10)
        while monitor.validators.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        check.dispose()
        #expect(try await monitor.feedChanged().first() == false, "the sample's check recorded the version")
    }
}
