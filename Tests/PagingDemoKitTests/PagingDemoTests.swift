import Foundation
import PaginatedList
import PaginatedListTesting
import PagingDemoKit
import Signals
import Testing

/// `paging-demo`: its script mode (through `PagingDemoKit` and through the built executable), its
/// simulated feed, its options, and the pure parts of its interactive screen.
@Suite struct PagingDemoTests {
    private static let example = "next,next,fail,retry,reset,next"

    private static let exampleOutput = [
        "next -> items=20 loading=false error=nil exhausted=false",
        "next -> items=40 loading=false error=nil exhausted=false",
        "fail -> items=40 loading=false error=\"forced failure loading page 3\" exhausted=false",
        "retry -> items=60 loading=false error=nil exhausted=false",
        "reset -> items=0 loading=false error=nil exhausted=false",
        "next -> items=20 loading=false error=nil exhausted=false",
    ]

    private func run(_ arguments: [String]) throws -> [String] {
        try runner(arguments).map { $0.runner.lines(for: $0.script) } ?? []
    }

    /// A script runner for `arguments`, and its script, not yet run.
    private func runner(_ arguments: [String]) throws -> (runner: ScriptRunner, script: [ScriptCommand])? {
        guard case let .run(options) = try DemoInvocation.parse(arguments), let script = options.script else {
            Issue.record("not a script invocation: \(arguments)")
            return nil
        }
        return (try! ScriptRunner(options: options), script)
    }

    private static func nexts(_ count: Int) -> String {
        Array(repeating: "next", count: count).joined(separator: ",")
    }

    // MARK: - Script mode

    @Test func scriptPrintsTheStateAfterEachCommandOnItsOwnLine() throws {
        #expect(try run(["--script", Self.example]) == Self.exampleOutput)
    }

    @Test func scriptReportsExhaustionAndLoadsNothingAfterIt() throws {
        let lines = try run(["--items", "50", "--script", "next,next,next,next"])
        #expect(lines == [
            "next -> items=20 loading=false error=nil exhausted=false",
            "next -> items=40 loading=false error=nil exhausted=false",
            "next -> items=50 loading=false error=nil exhausted=true",
            "next -> items=50 loading=false error=nil exhausted=true",
        ])
    }

    @Test func scriptReloadStartsOverFromTheFirstPage() throws {
        let lines = try run(["--script", "next,next,reload"])
        #expect(lines.last == "reload -> items=20 loading=false error=nil exhausted=false")
    }

    @Test func scriptWaitLetsADelayedPageLand() throws {
        let lines = try run(["--latency-ms", "1000", "--script", "next,wait,wait"])
        #expect(lines == [
            "next -> items=0 loading=true error=nil exhausted=false",
            "wait -> items=20 loading=false error=nil exhausted=false",
            "wait -> items=20 loading=false error=nil exhausted=false",
        ])
    }

    @Test func scriptResetDiscardsTheDelayedPageInFlight() throws {
        let lines = try run(["--latency-ms", "1000", "--script", "next,reset,next,wait"])
        #expect(lines == [
            "next -> items=0 loading=true error=nil exhausted=false",
            "reset -> items=0 loading=false error=nil exhausted=false",
            "next -> items=0 loading=true error=nil exhausted=false",
            "wait -> items=20 loading=false error=nil exhausted=false",
        ])
    }

    @Test func theSameSeedGivesTheSameRandomFailures() throws {
        let arguments = ["--failure-rate", "0.5", "--seed", "7", "--script", "next,next,next,next,next,next"]
        let first = try run(arguments)
        #expect(first == (try run(arguments)))
        #expect(first.contains { $0.contains("simulated network error") })
    }

    // MARK: - Sources and churn

    @Test(arguments: DemoSource.allCases)
    func everySourcePagesTheStaticFeedLikeTheSimulatedOne(source: DemoSource) throws {
        let lines = try run(["--source", source.rawValue, "--items", "50", "--script", Self.nexts(4)])
        #expect(lines == [
            "next -> items=20 loading=false error=nil exhausted=false",
            "next -> items=40 loading=false error=nil exhausted=false",
            "next -> items=50 loading=false error=nil exhausted=true",
            "next -> items=50 loading=false error=nil exhausted=true",
        ])
    }

    @Test(arguments: DemoSource.allCases)
    func everySourceRetriesAForcedFailure(source: DemoSource) throws {
        let lines = try run(["--source", source.rawValue, "--script", "next,fail,retry"])
        #expect(lines == [
            "next -> items=20 loading=false error=nil exhausted=false",
            "fail -> items=20 loading=false error=\"forced failure loading page 2\" exhausted=false",
            "retry -> items=40 loading=false error=nil exhausted=false",
        ])
    }

    @Test func theOffsetSourceWithChurnReportsCorrectionsAndLoadsNoDuplicatesNorHoles() throws {
        let (runner, script) = try #require(try runner(
            ["--source", "offset", "--churn", "2", "--seed", "3", "--items", "100", "--page-size", "10",
             "--script", Self.nexts(12)]))
        let lines = runner.lines(for: script)
        let corrections = lines.filter { $0.hasPrefix("  correction: ") }
        #expect(corrections.contains { $0.contains("dropped") })
        #expect(corrections.contains { $0.contains("stepped back") })
        #expect(lines.last?.hasPrefix("audit -> ") == true)
        #expect(lines.last?.contains("duplicates=0 holes=0") == true)
        let audit = runner.audit()
        #expect(audit.duplicates.isEmpty && audit.holes.isEmpty && audit.unknown.isEmpty)
        let ids = runner.loadedRows.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(lines.contains { $0.contains("exhausted=true") })
    }

    /// Naive offsets load a row twice when rows are inserted above: the source corrects nothing, and the
    /// list keeps one copy (ids are unique in a view model's list).
    @Test func theSimulatedSourceWithChurnCorrectsNothingAndTheListMergesItsDuplicates() throws {
        let lines = try run(["--churn", "2", "--seed", "3", "--items", "100", "--page-size", "10",
                             "--script", Self.nexts(12)])
        #expect(!lines.contains { $0.hasPrefix("  correction: ") })
        let audit = try #require(lines.last)
        #expect(audit.hasPrefix("audit -> ") && audit.contains("duplicates=0"))
    }

    @Test(arguments: [DemoSource.page, .cursor, .ids])
    func theOtherSourcesWithChurnLoadNoDuplicates(source: DemoSource) throws {
        let (runner, script) = try #require(try runner(
            ["--source", source.rawValue, "--churn", "2", "--seed", "3", "--items", "100", "--page-size", "10",
             "--script", Self.nexts(12)]))
        let lines = runner.lines(for: script)
        #expect(lines.last?.contains("duplicates=0") == true)
        #expect(runner.audit().duplicates.isEmpty)
    }

    /// The example of `Docs/Demo.md`: on the same changing feed, the correcting sources load every row
    /// once and leave no hole, whatever the seed; naive offsets and page numbers leave holes (their
    /// duplicates are merged by the list, which never holds an id twice).
    @Test(arguments: 1 ... 10)
    func theCorrectingSourcesLeaveNoDuplicatesNorHolesWhereNaivePagingDoesNot(seed: Int) throws {
        func audit(_ source: DemoSource) throws -> ChangingFeed.Audit {
            let (runner, script) = try #require(try runner(
                ["--source", source.rawValue, "--churn", "2", "--seed", "\(seed)", "--items", "60", "--page-size", "10",
                 "--script", Self.nexts(8)]))
            _ = runner.lines(for: script)
            return runner.audit()
        }
        for source in [DemoSource.offset, .cursor, .ids] {
            let result = try audit(source)
            #expect(result.duplicates.isEmpty && result.holes.isEmpty, "\(source) with seed \(seed): \(result)")
        }
        if seed == 1 {
            #expect(try audit(.simulated).duplicates.isEmpty && audit(.simulated).holes.count == 3)
            #expect(try audit(.page).duplicates.isEmpty && audit(.page).holes.count == 3)
        }
    }

    @Test func theIDSnapshotSourceWithChurnReportsTheRowsItSkipped() throws {
        let lines = try run(["--source", "ids", "--churn", "2", "--seed", "3", "--items", "100", "--page-size", "10",
                             "--script", Self.nexts(12)])
        #expect(lines.contains { $0.hasPrefix("  correction: skipped") })
    }

    @Test func theSameSeedGivesTheSameChurn() throws {
        let arguments = ["--source", "offset", "--churn", "3", "--seed", "11", "--script", Self.nexts(8)]
        #expect(try run(arguments) == (try run(arguments)))
    }

    @Test func optionsParseTheSourceAndTheChurn() throws {
        guard case let .run(options) = try DemoInvocation.parse(["--source=cursor", "--churn", "4"]) else {
            Issue.record("expected a run")
            return
        }
        #expect(options.source == .cursor && options.churn == 4)
        guard case let .run(defaults) = try DemoInvocation.parse([]) else {
            Issue.record("expected a run")
            return
        }
        #expect(defaults.source == .simulated && defaults.churn == 0)
    }

    @Test func optionsRejectAnUnknownSourceANegativeChurnAndChurnOverTheArraySource() {
        #expect(throws: OptionsError.self) { try DemoInvocation.parse(["--source", "graphql"]) }
        #expect(throws: OptionsError.self) { try DemoInvocation.parse(["--churn", "-1"]) }
        #expect(throws: OptionsError.self) { try DemoInvocation.parse(["--source", "array", "--churn", "1"]) }
    }

    @Test func theStatusLineShowsTheNote() {
        var screen = ListScreen(prefetchDistance: 5)
        let rows = ItemList((1 ... 20).map { Row(id: $0) })
        let lines = screen.render(rows: rows, loadStates: .idle, title: "demo", width: 120, height: 24,
                                  note: "1 corrections; last: dropped 2 rows")
        #expect(lines[22].text == "ready | row 1 of 20 loaded | 1 corrections; last: dropped 2 rows")
    }

    // MARK: - The executable

    /// The built `paging-demo`, beside the test bundle or in the package's `.build/debug`.
    private static let executable: URL? = {
        var candidates: [URL] = []
        let bundles = [Bundle.main] + Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }
        for bundle in bundles {
            // Linux: the runner sits among the build products; Apple: X.xctest/Contents/MacOS/X.
            var directory = (bundle.executableURL ?? bundle.bundleURL).deletingLastPathComponent()
            for _ in 0 ..< 4 {
                candidates.append(directory.appendingPathComponent("paging-demo"))
                directory.deleteLastPathComponent()
            }
        }
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/paging-demo"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    private struct Outcome {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs the executable with `arguments`, standard input from /dev/null.
    private func launch(_ arguments: [String]) throws -> Outcome {
        let executable = try #require(Self.executable)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self)
        )
    }

    @Test(.enabled(if: executable != nil, "paging-demo is not built"))
    func theExecutablePrintsEachScriptedStateAndExitsZero() throws {
        let outcome = try launch(["--script", Self.example])
        #expect(outcome.status == 0)
        #expect(outcome.output.split(separator: "\n").map(String.init) == Self.exampleOutput)
        #expect(outcome.errors.isEmpty)
    }

    @Test(.enabled(if: executable != nil, "paging-demo is not built"))
    func theExecutablePrintsCorrectionsAndAnAuditWithChurn() throws {
        let outcome = try launch(["--source", "offset", "--churn", "2", "--seed", "3", "--items", "100",
                                  "--page-size", "10", "--script", Self.nexts(12)])
        #expect(outcome.status == 0)
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("  correction: ") })
        #expect(lines.last?.hasPrefix("audit -> ") == true && lines.last?.contains("duplicates=0 holes=0") == true)
    }

    @Test(.enabled(if: executable != nil, "paging-demo is not built"))
    func theExecutableRefusesTheInteractiveModeWithoutATerminal() throws {
        let outcome = try launch([])
        #expect(outcome.status != 0)
        #expect(outcome.errors.contains("--script"))
        #expect(outcome.output.isEmpty)
    }

    @Test(.enabled(if: executable != nil, "paging-demo is not built"))
    func theExecutableRefusesAnHTTPEndpointWithSourceOrChurnWithStatusTwo() throws {
        let outcome = try launch(["--url", "http://127.0.0.1:9/items", "--source", "offset", "--churn", "2",
                                  "--script", "next,wait"])
        #expect(outcome.status == 2)
        #expect(outcome.output.isEmpty)
        #expect(outcome.errors.contains("--url pages an HTTP endpoint, but --source and --churn work on the simulated feed only"))
        #expect(outcome.errors.contains("--help"))
    }

    @Test(.enabled(if: executable != nil, "paging-demo is not built"))
    func theExecutableRejectsABadOptionWithStatusTwo() throws {
        let outcome = try launch(["--failure-rate", "1.5", "--script", "next"])
        #expect(outcome.status == 2)
        #expect(outcome.errors.contains("--failure-rate"))
    }

    // MARK: - The simulated feed

    @Test func interruptingADelayedLoadDropsItsPage() async throws {
        let feed = SimulatedFeed(itemCount: 100, pageSize: 10, latency: .milliseconds(10), failureRate: 0, seed: 1)
        let events = MutableProperty<[String]>([])
        let run = feed.firstPage().start { event in
            let name = switch event {
            case .value: "value"
            case .failed: "failed"
            case .completed: "completed"
            case .interrupted: "interrupted"
            }
            events.modify { $0.append(name) }
        }
        run.dispose()
        try await Task.sleep(for: .milliseconds(60))
        #expect(events.value == ["interrupted"])
    }

    @Test func theFeedChainsPagesUpToTheLastOne() {
        let feed = SimulatedFeed(itemCount: 25, pageSize: 10, latency: .zero, failureRate: 0, seed: 1)
        let viewModel = PaginatedListViewModel(dependency: feed, scheduler: ImmediateScheduler())
        for _ in 0 ..< 4 { viewModel.loadNextPage() }
        #expect(viewModel.items.value.map(\.id) == Array(1 ... 25))
        #expect(viewModel.exhausted.value)
        #expect(feed.loadsStarted == 3)
    }

    // MARK: - Options

    @Test func optionsAcceptSpaceAndEqualsForms() throws {
        let invocation = try DemoInvocation.parse(["--items=30", "--page-size", "7", "--latency-ms=0", "--seed", "9"])
        guard case let .run(options) = invocation else { Issue.record("expected a run"); return }
        #expect(options.items == 30 && options.pageSize == 7 && options.seed == 9)
        #expect(options.effectiveLatencyMilliseconds == 0)
        #expect(options.script == nil)
    }

    @Test func scriptModeDefaultsToNoLatencyAndNoFailures() throws {
        guard case let .run(options) = try DemoInvocation.parse(["--script", "next"]) else {
            Issue.record("expected a run")
            return
        }
        #expect(options.effectiveLatencyMilliseconds == 0)
        #expect(options.effectiveFailureRate == 0)
    }

    @Test func optionsTakeAnHTTPEndpointAndItsPagingStyle() throws {
        guard case let .run(options) = try DemoInvocation.parse(["--url", "http://127.0.0.1:8080/items?x=1", "--style=link"])
        else {
            Issue.record("expected a run")
            return
        }
        #expect(options.url == URL(string: "http://127.0.0.1:8080/items?x=1"))
        #expect(options.style == .link)
        guard case let .run(defaults) = try DemoInvocation.parse(["--url", "https://example.com/feed"]) else { return }
        #expect(defaults.style == .page)
        guard case let .run(simulated) = try DemoInvocation.parse([]) else { return }
        #expect(simulated.url == nil)
    }

    @Test func optionsRejectAnUnknownStyleAndANonHTTPURL() {
        #expect(throws: OptionsError.self) { try DemoInvocation.parse(["--url", "http://x/", "--style", "keyset"]) }
        #expect(throws: OptionsError.self) { try DemoInvocation.parse(["--url", "ftp://example.com/feed"]) }
        #expect(throws: OptionsError.self) { try DemoInvocation.parse(["--url", "not a url"]) }
    }

    /// `--source` and `--churn` choose and change the simulated feed; `--url` pages an HTTP endpoint
    /// instead (its paging is `--style`). Given together, they are refused, whatever the order or values.
    @Test(arguments: [
        (["--url", "http://127.0.0.1:8080/items", "--source", "offset"], "--source works"),
        (["--churn", "2", "--url=https://example.com/feed", "--script", "next"], "--churn works"),
        (["--url", "http://x/", "--style", "offset", "--source", "simulated", "--churn", "0"], "--source and --churn work"),
        (["--source", "offset", "--churn", "2", "--url", "http://x/"], "--source and --churn work"),
    ])
    func optionsRejectTheSimulatedFeedsFlagsWithAnHTTPEndpoint(arguments: [String], named: String) throws {
        let error = #expect(throws: OptionsError.self) { try DemoInvocation.parse(arguments) }
        #expect(error?.message.hasPrefix("--url pages an HTTP endpoint, but \(named) on the simulated feed only") == true,
                "\(String(describing: error))")
        // Each side alone is fine, and --help still wins.
        #expect(throws: Never.self) { try DemoInvocation.parse(["--url", "http://x/", "--style", "cursor"]) }
        #expect(throws: Never.self) { try DemoInvocation.parse(["--source", "offset", "--churn", "2"]) }
        #expect(try DemoInvocation.parse(arguments + ["--help"]) == .help)
    }

    @Test func optionsRejectAFailureRateOutsideZeroToOne() {
        #expect(throws: OptionsError.self) { try DemoInvocation.parse(["--failure-rate", "1.5"]) }
    }

    @Test func optionsRejectAnUnknownScriptCommand() {
        #expect(throws: OptionsError.self) { try DemoInvocation.parse(["--script", "next,jump"]) }
    }

    // MARK: - The interactive screen

    @Test func theScreenFitsEightyByTwentyFourAndKeepsTheCursorVisible() {
        var screen = ListScreen(prefetchDistance: 5)
        let rows = ItemList((1 ... 60).map { Row(id: $0) })
        screen.move(to: 59, count: rows.count)
        let lines = screen.render(
            rows: rows, loadStates: LoadStates(refresh: .idle, prepend: .idle, append: .loading), title: "demo", width: 80,
            height: 24
        )
        #expect(lines.count == 24)
        #expect(lines.allSatisfy { $0.text.count <= 80 })
        #expect(lines.contains { $0.style == .cursorRow && $0.text.contains("#0060") })
        #expect(lines.contains { $0.style == .placeholder })
        #expect(lines[22].text.hasPrefix("loading"))
    }

    @Test func keysDecodeFromArrowSequencesSplitAcrossReads() {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array("j\u{1B}[A".utf8)) == [.character("j"), .up])
        #expect(decoder.decode([0x1B]) == [])
        #expect(decoder.decode(Array("[Bq".utf8)) == [.down, .character("q")])
        #expect(decoder.decode(Array("\u{1B}[6~\u{1B}OA".utf8)) == [.pageDown, .up])
    }
}
