import CPaginatedListSQLite
import Foundation
@testable import PaginatedListStore
import PaginatedListTesting
import Testing

/// Contract point 22, under fire: a child process (`StoreCrashChild`) pages a store-backed list down an
/// endless feed, one 50-post page per transaction, printing each page once it landed (after its commit);
/// the test kills it with SIGKILL after a random number of pages, eight times on the same file (each child
/// goes on from the stored tail), then opens the file: it opens, every page is whole, and every page a
/// child printed is there. Runs in a few seconds.
@Suite("Crash safety")
struct CrashTests {
    /// The child's executable, built beside the test bundle.
    static var childURL: URL? {
        var folders = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        folders += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        return folders.map { $0.appendingPathComponent("StoreCrashChild") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs the child on `path` until it has printed `pages` pages, kills it with SIGKILL, and returns the
    /// highest page it printed.
    static func runChild(_ child: URL, on path: String, killAfter pages: Int) throws -> Int {
        let process = Process()
        process.executableURL = child
        process.arguments = [path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var buffer = Data()
        var printed: [Int] = []
        let reader = output.fileHandleForReading
        while printed.count < pages {
            let chunk = reader.availableData
            if chunk.isEmpty { break }   // the child ended by itself
            buffer += chunk
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                if line.hasPrefix("page "), let page = Int(line.dropFirst(5)) { printed.append(page) }
            }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "the child ended by itself (status \(process.terminationStatus))")
        return printed.max() ?? -1
    }

    @Test func aWriterKilledAtRandomMomentsLeavesEveryPageWholeAndNothingItSawCommittedMissing() throws {
        let child = try #require(Self.childURL, "StoreCrashChild is not built beside the tests")
        let folder = TemporaryFolder()
        let path = folder.path()
        var random = SplitMix64(seed: 22)
        var highest = -1
        for _ in 0 ..< 8 {
            highest = max(highest, try Self.runChild(child, on: path, killAfter: 5 + Int(random.next() % 60)))
        }
        #expect(highest >= 0)

        let store = try PagingStore(path: path)
        let pages = try store.database.read { connection throws(StoreError) -> [Int64] in
            let statement = try connection.statement("SELECT count(*) FROM members GROUP BY page ORDER BY page")
            var counts: [Int64] = []
            while try statement.step() { counts.append(statement.int64(0)) }
            return counts
        }
        #expect(pages.allSatisfy { $0 == 50 }, "a page is not whole: \(pages.filter { $0 != 50 })")
        #expect(pages.count >= highest + 1, "\(pages.count) pages stored, the children printed up to page \(highest)")
        let ids = try store.database.read { connection throws(StoreError) -> [Int64] in
            let statement = try connection.statement("SELECT key FROM items JOIN members ON members.item = items.id ORDER BY position")
            var keys: [Int64] = []
            while try statement.step() { keys.append(Int64(statement.text(0) ?? "") ?? -1) }
            return keys
        }
        #expect(ids == (0 ..< Int64(ids.count)).map { $0 }, "the stored posts are not the feed's, in order")
        let quickCheck = try store.database.read { connection throws(StoreError) -> String? in
            let statement = try connection.statement("PRAGMA quick_check")
            _ = try statement.step()
            return statement.text(0)
        }
        #expect(quickCheck == "ok")
    }
}
