import Foundation
import HTTPFixtureServer
import PagingDemoKit
import Testing

/// `paging-demo --url URL --style STYLE --script …` against the fixture server.
@Suite final class PagingDemoHTTPTests {
    let server: FeedServer

    init() async throws { server = try await FeedServer.start(items: 12) }

    /// Runs the script on a dispatch queue (its `wait` blocks a thread) and returns its lines.
    private func run(_ arguments: [String]) async throws -> [String] {
        try await runWithRows(arguments).lines
    }

    /// Runs the script on a dispatch queue and returns its lines and the rows loaded.
    private func runWithRows(_ arguments: [String]) async throws -> (lines: [String], rows: [Row]) {
        guard case let .run(options) = try DemoInvocation.parse(arguments), let script = options.script else {
            Issue.record("not a script invocation: \(arguments)")
            return ([], [])
        }
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let runner = try! ScriptRunner(options: options)
                // `wait`'s 30 s cap is for a person at a terminal; a loaded CI machine (the sanitizer, every
                // suite at once) can take longer, and a timed-out wait would report a state mid-load.
                runner.waitTimeout = .seconds(120)
                let lines = runner.lines(for: script)
                continuation.resume(returning: (lines, runner.loadedRows))
            }
        }
    }

    @Test(arguments: [
        ("stripe", "/stripe", "cus_0001  Item 1"), ("slack", "/slack", "C0001  Item 1"),
        ("notion", "/notion", "page-1  Item 1"), ("jsonapi", "/jsonapi", "Item 1"),
    ])
    func theAPIStylesPageTheirEndpointsWithStringIDs(style: String, path: String, firstTitle: String) async throws {
        let (lines, rows) = try await runWithRows([
            "--url", server.url(path).absoluteString, "--style", style, "--page-size", "5",
            "--script", "next,wait,next,wait,next,wait",
        ])
        #expect(lines.count == 6)
        #expect(lines[1] == "wait -> items=5 loading=false error=nil exhausted=false")
        #expect(lines.last == "wait -> items=12 loading=false error=nil exhausted=true")
        #expect(rows.first?.title == firstTitle)
        #expect(Set(rows.map(\.id)).count == 12, "one row number per id")
        if style == "jsonapi" {
            #expect(rows.map(\.id) == Array(1 ... 12), "JSON:API's ids are numbers written as strings")
        } else {
            #expect(rows.map(\.id) == (1 ... 12).map { -$0 }, "string ids get negative numbers in order")
        }
    }

    @Test func itemsAtReplacesWhereTheStyleLooksForItems() async throws {
        // The right path pages; a wrong one (Slack's users.list puts its items under "members") fails naming it.
        let lines = try await run([
            "--url", server.url("/slack?limit=5").absoluteString, "--style", "slack", "--items-at", "channels",
            "--script", "next,wait",
        ])
        #expect(lines[1] == "wait -> items=5 loading=false error=nil exhausted=false")
        let missing = try await run([
            "--url", server.url("/slack?limit=5").absoluteString, "--style", "slack", "--items-at", "members",
            "--script", "next,wait",
        ])
        #expect(missing[1].contains("did not decode: missing key members (the items)"), "\(missing[1])")
    }

    @Test func itemsAtWithoutAURLIsRefused() {
        #expect(throws: OptionsError.self) { try DemoInvocation.parse(["--items-at", "data"]) }
        #expect(throws: OptionsError.self) { try DemoInvocation.parse(["--url", "http://x/", "--items-at", "a..b"]) }
    }

    @Test(arguments: [("page", "/page"), ("cursor", "/cursor?limit=5"), ("link", "/link?limit=5"), ("offset", "/offset")])
    func theScriptModePagesAnHTTPEndpoint(style: String, path: String) async throws {
        let lines = try await run([
            "--url", server.url(path).absoluteString, "--style", style, "--page-size", "5",
            "--script", "next,wait,next,wait,next,wait",
        ])
        #expect(lines.count == 6)
        #expect(lines.last == "wait -> items=12 loading=false error=nil exhausted=true")
        #expect(lines[1] == "wait -> items=5 loading=false error=nil exhausted=false")
    }

    @Test func theScriptModeReportsAnHTTPErrorAndRetries() async throws {
        try await server.control("fault?kind=500")
        let lines = try await run([
            "--url", server.url("/page").absoluteString, "--page-size", "5", "--script", "next,wait,retry,wait",
        ])
        #expect(lines[1].contains("error=\"HTTP 500 from \(server.url("/page").absoluteString)"))
        #expect(lines[3] == "wait -> items=5 loading=false error=nil exhausted=false")
    }
}
