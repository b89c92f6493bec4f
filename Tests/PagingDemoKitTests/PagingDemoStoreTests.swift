import Foundation
import PaginatedList
import PagingDemoKit
import Signals
import Testing

/// `paging-demo --store FILE`: the rows are there at the next run, also offline, and the status says they
/// came from the store and how old they are.
@Suite struct PagingDemoStoreTests {
    /// The lines of a script run with `arguments`.
    private func run(_ arguments: [String]) throws -> [String] {
        guard case let .run(options) = try DemoInvocation.parse(arguments), let script = options.script else {
            Issue.record("not a script invocation: \(arguments)")
            return []
        }
        return try ScriptRunner(options: options).lines(for: script)
    }

    /// A path in a fresh folder.
    private static func storePath() -> (path: String, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PagingDemoStore-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (folder.appendingPathComponent("demo.sqlite").path, folder)
    }

    @Test func aRunRelaunchedOfflineShowsTheStoredRowsAndSaysWhereTheyCameFrom() throws {
        let (path, folder) = Self.storePath()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try run(["--store", path, "--script", "next,next"]) == [
            "store -> store empty: loading from the network",
            "next -> items=20 loading=false error=nil exhausted=false",
            "next -> items=40 loading=false error=nil exhausted=false",
        ])
        #expect(try run(["--store", path, "--failure-rate", "1", "--script", "next,next"]) == [
            "store -> 40 rows from the store, fetched just now",
            "next -> items=20 loading=false error=\"simulated network error loading page 1\" exhausted=false",
            "next -> items=40 loading=false error=\"simulated network error loading page 1\" exhausted=false",
        ])
    }

    @Test func optionsTakeAStoreFile() throws {
        guard case let .run(options) = try DemoInvocation.parse(["--store", "feeds.sqlite"]) else {
            Issue.record("not a run")
            return
        }
        #expect(options.storePath == "feeds.sqlite")
    }

    @Test func optionsRefuseAStoreWithTheOffsetSourceOrAnHTTPEndpoint() {
        #expect(throws: OptionsError.self) { try DemoInvocation.parse(["--store", "a.sqlite", "--source", "offset"]) }
        #expect(throws: OptionsError.self) { try DemoInvocation.parse(["--store", "a.sqlite", "--url", "http://localhost/x"]) }
    }

    @Test func aFileThatIsNotAStoreIsRefusedUnchanged() throws {
        let (path, folder) = Self.storePath()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: path))
        guard case let .run(options) = try DemoInvocation.parse(["--store", path, "--script", "next"]) else { return }
        #expect(throws: (any Error).self) { try ScriptRunner(options: options) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("not a database".utf8))
    }

    @Test func theStoredRowsAgeReadsInWords() {
        #expect(StoreStatus.age(12) == "just now")
        #expect(StoreStatus.age(5 * 60 + 3) == "5 min ago")
        #expect(StoreStatus.age(3 * 3600) == "3 h ago")
        #expect(StoreStatus.age(2 * 86400 + 5) == "2 days ago")
    }

    /// Two lists of the store over the same simulated feed, as the interactive mode opens them, each with
    /// its first page loaded.
    private func twoFeeds(_ arguments: [String]) throws -> (home: DemoList, profile: DemoList) {
        guard case let .run(options) = try DemoInvocation.parse(arguments) else { throw CancellationError() }
        let home = try DemoList(options: options, scheduler: ImmediateScheduler())
        let profile = try DemoList(sharing: home, feed: "paging-demo profile", options: options, scheduler: ImmediateScheduler())
        home.viewModel.loadNextPage()
        profile.viewModel.loadNextPage()
        return (home, profile)
    }

    @Test func aLikeInOneFeedShowsInTheOtherAndIsSaved() throws {
        let (path, folder) = Self.storePath()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (home, profile) = try twoFeeds(["--store", path, "--script", "next"])
        home.like()
        #expect(home.viewModel.items.value[0].likes == 1)
        #expect(profile.viewModel.items.value[0].likes == 1)
        #expect(home.likeStatus == "like of #0001 saved")
        #expect(try home.stored?.pendingEdits() == [])
    }

    @Test func withFailMutationsTheLikeIsRolledBackInBothFeeds() throws {
        let (path, folder) = Self.storePath()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (home, profile) = try twoFeeds(["--store", path, "--fail-mutations", "--script", "next"])
        profile.like()
        #expect(home.viewModel.items.value[0].likes == 0)
        #expect(profile.viewModel.items.value[0].likes == 0)
        #expect(profile.likeStatus == "the server refused the like of #0001: rolled back")
    }

    @Test func aScriptedLikeWithFailMutationsEndsRolledBack() throws {
        let (path, folder) = Self.storePath()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lines = try run(["--store", path, "--fail-mutations", "--script", "next,like"])
        #expect(lines.last?.contains("likes=0") == true, "\(lines)")
    }

    @Test func failMutationsNeedsAStore() {
        #expect(throws: OptionsError.self) { try DemoInvocation.parse(["--fail-mutations"]) }
    }
}
