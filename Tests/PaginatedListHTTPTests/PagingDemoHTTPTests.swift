import Foundation
import PagingDemoKit
import Testing

/// `paging-demo --url URL --style STYLE --script …` against the fixture server.
@Suite final class PagingDemoHTTPTests {
    let server: FeedServer

    init() async throws { server = try await FeedServer.start(items: 12) }

    /// Runs the script on a dispatch queue (its `wait` blocks a thread) and returns its lines.
    private func run(_ arguments: [String]) async throws -> [String] {
        guard case let .run(options) = try DemoInvocation.parse(arguments), let script = options.script else {
            Issue.record("not a script invocation: \(arguments)")
            return []
        }
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: ScriptRunner(options: options).lines(for: script))
            }
        }
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
