import Foundation
import PaginatedList
import PaginatedListTesting
import PagingDemoKit
import Signals
import Testing

/// `paging-demo`'s living list: `--start`, `--max-pages`, the keys (and script commands) that like,
/// delete, post, refresh and fill the gap, and the cursor that stays on its row through `changes`.
@Suite struct PagingDemoLivingListTests {
    private func run(_ arguments: [String]) throws -> [String] {
        guard case let .run(options) = try DemoInvocation.parse(arguments), let script = options.script else {
            Issue.record("not a script invocation: \(arguments)")
            return []
        }
        return try! ScriptRunner(options: options).lines(for: script)
    }

    private func options(_ arguments: [String]) throws -> DemoOptions? {
        guard case let .run(options) = try DemoInvocation.parse(arguments) else { return nil }
        return options
    }

    // MARK: - Options

    @Test func optionsParseTheStartAndTheMaxPages() throws {
        let parsed = try #require(try options(["--start", "500", "--max-pages=5"]))
        #expect(parsed.start == 500 && parsed.maxPages == 5)
        #expect(try options([])?.start == nil)
        #expect(try options([])?.maxPages == nil)
    }

    @Test func optionsRejectAStartOutsideTheSimulatedChainAndAnEmptyWindow() {
        #expect(throws: OptionsError.self) { try DemoInvocation.parse(["--start", "0"]) }
        #expect(throws: OptionsError.self) { try DemoInvocation.parse(["--max-pages", "0"]) }
        #expect(throws: OptionsError.self) { try DemoInvocation.parse(["--start", "5", "--source", "cursor"]) }
        #expect(throws: OptionsError.self) { try DemoInvocation.parse(["--start", "5", "--source", "ids"]) }
        #expect(throws: OptionsError.self) { try DemoInvocation.parse(["--start", "5", "--url", "http://localhost/x"]) }
        #expect(throws: OptionsError.self) { try DemoInvocation.parse(["--script", "next,jump"]) }
    }

    /// A size, count or delay past the demo's bounds is refused with the flag's range, before anything is
    /// built: `--page-size` near `Int.max` overflowed the simulated feed's page count, with the terminal in
    /// raw mode (a trap skips its restore).
    @Test func optionsRefuseSizesCountsAndDelaysPastTheirBounds() throws {
        for flag in ["--items", "--page-size", "--latency-ms", "--prefetch", "--churn", "--start", "--max-pages"] {
            #expect(throws: OptionsError.self, "\(flag)") { try DemoInvocation.parse([flag, String(Int.max)]) }
        }
        do {
            _ = try DemoInvocation.parse(["--page-size", "9223372036854775807"])
            Issue.record("--page-size Int.max was taken")
        } catch {
            #expect(error.message == "--page-size must be an integer from 1 to 10000, not '9223372036854775807'")
        }
        #expect(try options(["--page-size", "10000", "--items", "1000000", "--script", "next"])?.pageSize == 10_000)
    }

    /// The largest page the demo takes, at the end of the largest feed, in script mode: it loads.
    @Test func theLargestPageSizeLoadsAPage() throws {
        let lines = try run(["--page-size", "10000", "--items", "15000", "--script", "next,next"])
        #expect(lines.map { String($0.prefix(20)) } == ["next -> items=10000 ", "next -> items=15000 "], "\(lines)")
    }

    @Test func usageNamesTheNewKeysAndCommands() {
        for word in ["--start N", "--max-pages N", "refresh", "fill", " u ", " d ", " n ", " f ", " t "] {
            #expect(DemoInvocation.usage.contains(word), "usage lacks \(word)")
        }
    }

    // MARK: - Script mode

    @Test func likeDeleteAndNewActOnTheCursorsRowWhichStaysOnItsRow() throws {
        let lines = try run(["--script", "next,down,down,like,like,delete,new,up"])
        #expect(lines == [
            "next -> items=20 loading=false error=nil exhausted=false cursor=#0001 likes=0 rows=#0001-#0020 gap=none",
            "down -> items=20 loading=false error=nil exhausted=false cursor=#0002 likes=0 rows=#0001-#0020 gap=none",
            "down -> items=20 loading=false error=nil exhausted=false cursor=#0003 likes=0 rows=#0001-#0020 gap=none",
            "like -> items=20 loading=false error=nil exhausted=false cursor=#0003 likes=1 rows=#0001-#0020 gap=none",
            "like -> items=20 loading=false error=nil exhausted=false cursor=#0003 likes=2 rows=#0001-#0020 gap=none",
            // The row under the cursor goes; the cursor is on the row that took its place.
            "delete -> items=19 loading=false error=nil exhausted=false cursor=#0004 likes=0 rows=#0001-#0020 gap=none",
            // A post at the top: the cursor stays on #0004, one row lower.
            "new -> items=20 loading=false error=nil exhausted=false cursor=#0004 likes=0 rows=#0201-#0020 gap=none",
            "up -> items=20 loading=false error=nil exhausted=false cursor=#0002 likes=0 rows=#0201-#0020 gap=none",
        ])
    }

    @Test func aRefreshKeepsTheLikesTheFeedHasAndMergesTheNewPostOnce() throws {
        let lines = try run(["--script", "next,down,like,new,refresh"])
        #expect(lines.last == "refresh -> items=21 loading=false error=nil exhausted=false cursor=#0002 likes=1 "
            + "rows=#0201-#0020 gap=none")
    }

    @Test func startOpensInTheMiddleAndScrollingUpLoadsThePagesBeforeWithTheCursorOnItsRow() throws {
        let lines = try run(["--items", "1000", "--start", "500", "--script", "next,prev,prev"])
        #expect(lines == [
            "next -> items=20 loading=false error=nil exhausted=false cursor=#0500 likes=0 rows=#0481-#0500 gap=none",
            "prev -> items=40 loading=false error=nil exhausted=false cursor=#0500 likes=0 rows=#0461-#0500 gap=none",
            "prev -> items=60 loading=false error=nil exhausted=false cursor=#0500 likes=0 rows=#0441-#0500 gap=none",
        ])
    }

    @Test(arguments: ["page", "offset", "array"])
    func startOpensInTheMiddleThroughEverySourceWithAStartPosition(source: String) throws {
        // The same rows, window and cursor as the simulated feed's own chain opened there.
        let script = ["--items", "1000", "--start", "500", "--max-pages", "3", "--script", "next,prev,prev,prev,next,next,next"]
        let lines = try run(script + ["--source", source])
        #expect(lines.first?.contains("cursor=#0500 likes=0 rows=#0481-#0500") == true)
        #expect(lines == (try run(script)), "--source \(source)")
    }

    @Test func maxPagesHoldsAWindowAndCountsTheRowsDropped() throws {
        let lines = try run(["--items", "1000", "--start", "500", "--max-pages", "3",
                             "--script", "next,prev,prev,prev,next,next,next"])
        #expect(lines == [
            "next -> items=20 loading=false error=nil exhausted=false cursor=#0500 likes=0 rows=#0481-#0500 gap=none dropped=0",
            "prev -> items=40 loading=false error=nil exhausted=false cursor=#0500 likes=0 rows=#0461-#0500 gap=none dropped=0",
            "prev -> items=60 loading=false error=nil exhausted=false cursor=#0500 likes=0 rows=#0441-#0500 gap=none dropped=0",
            // A fourth page above drops the one at the bottom, the cursor's: it moves to the last row held.
            "prev -> items=60 loading=false error=nil exhausted=false cursor=#0480 likes=0 rows=#0421-#0480 gap=none dropped=20",
            // Back down: the dropped page comes again, the top one goes.
            "next -> items=60 loading=false error=nil exhausted=false cursor=#0480 likes=0 rows=#0441-#0500 gap=none dropped=20",
            "next -> items=60 loading=false error=nil exhausted=false cursor=#0480 likes=0 rows=#0461-#0520 gap=none dropped=40",
            "next -> items=60 loading=false error=nil exhausted=false cursor=#0481 likes=0 rows=#0481-#0540 gap=none dropped=60",
        ])
    }

    @Test func withChurnARefreshOpensAGapThatSaysWhatIsMissingAndFillClosesIt() throws {
        let lines = try run(["--page-size", "10", "--churn", "1", "--seed", "4", "--script", "next,refresh,fill"])
        #expect(lines[1] == "refresh -> items=30 loading=false error=nil exhausted=false cursor=#0001 likes=0 "
            + "rows=#0202-#0010 gap=20 missing=7")
        #expect(lines[2] == "fill -> items=38 loading=false error=nil exhausted=false cursor=#0001 likes=0 "
            + "rows=#0202-#0010 gap=none")
        #expect(lines.last?.hasPrefix("audit -> rows=38 duplicates=0") == true)
    }

    @Test func linesWithoutLivingListCommandsOrOptionsStayAsTheyWere() throws {
        #expect(try run(["--script", "next"]) == ["next -> items=20 loading=false error=nil exhausted=false"])
    }

    // MARK: - The simulated feed

    @Test func theFeedsChainStartsAtThePageOfTheStartRowAndGoesBothWays() {
        let feed = SimulatedFeed(itemCount: 100, pageSize: 10, latency: .zero, failureRate: 0, seed: 1, start: 44)
        let viewModel = PaginatedListViewModel(dependency: feed, scheduler: ImmediateScheduler())
        viewModel.loadNextPage()
        #expect(viewModel.items.value.map(\.id) == Array(41 ... 50))
        for _ in 0 ..< 5 { viewModel.loadPreviousPage() }
        #expect(viewModel.items.value.map(\.id) == Array(1 ... 50))
        #expect(viewModel.loadStates.value.prepend == .complete)
    }

    @Test func theFeedsUsersLikeDeleteAndPostBetweenRequests() {
        let feed = SimulatedFeed(itemCount: 5, pageSize: 10, latency: .zero, failureRate: 0, seed: 1)
        #expect(feed.like(id: 2) && feed.like(id: 2))
        #expect(feed.delete(id: 3))
        #expect(!feed.delete(id: 3))
        let post = feed.post()
        #expect(post.id == 6)
        #expect(feed.rows.currentItems.map(Row.init) == [Row(id: 6), Row(id: 1), Row(id: 2, likes: 2), Row(id: 4), Row(id: 5)])
        #expect(feed.rowsBetween(6, and: 4) == 2)
        #expect(feed.rowsBetween(nil, and: 4) == 3)
        #expect(feed.rowsBetween(4, and: 6) == nil)
    }

    // MARK: - The screen

    private static func rows(_ ids: [Int]) -> ItemList<Row> { ItemList(ids.map { Row(id: $0) }) }

    @Test func theCursorFollowsItsRowThroughInsertionsRemovalsMovesAndResets() {
        var screen = ListScreen(prefetchDistance: 5)
        var rows = Self.rows(Array(1 ... 10))
        screen.follow(.appended(0 ..< 10), rows: rows)
        screen.move(to: 4, count: 10)
        screen.settle(rows: rows)
        #expect(screen.anchor == 5)
        rows = Self.rows([21, 22] + Array(1 ... 10))
        screen.follow(.inserted(0 ..< 2), rows: rows)
        #expect(screen.cursor == 6)
        rows = Self.rows([21, 22, 1, 3, 5, 6, 7, 8, 9, 10])
        screen.follow(.removed([3, 5]), rows: rows)
        #expect(screen.cursor == 4)
        screen.follow(.moved(from: 4, to: 0), rows: rows)
        #expect(screen.cursor == 0)
        screen.follow(.moved(from: 1, to: 7), rows: rows)
        #expect(screen.cursor == 0)
        screen.follow(.moved(from: 9, to: 0), rows: rows)
        #expect(screen.cursor == 1)
        screen.settle(rows: Self.rows([10, 5, 21, 22, 1, 3, 6, 7, 8, 9]))
        #expect(screen.anchor == 5)
        screen.follow(.reset, rows: Self.rows([30, 31, 5, 32]))
        #expect(screen.cursor == 2)
    }

    @Test func theScreenShowsTheGapRowTheEarlierRowsLoadingAndTheRowsHeldAndDropped() {
        var screen = ListScreen(prefetchDistance: 5)
        let rows = ItemList((1 ... 10).map { Row(id: $0, likes: $0 == 2 ? 3 : 0) })
        let lines = screen.render(
            rows: rows, loadStates: .idle, title: "demo", width: 80, height: 24,
            window: ListScreen.Window(prepend: .loading, gap: 4, missing: 31, dropped: 40)
        )
        let texts = lines.map(\.text)
        #expect(texts[2] == "  ... loading earlier rows")
        #expect(texts[3] == "> #0001  brisk falcon")
        #expect(texts[4] == "  #0002  calm falcon  +3")
        #expect(texts[7] == "  ~~ 31 new items - press f ~~")
        #expect(lines[7].style == .gap)
        #expect(texts[8].hasPrefix("  #0005"))
        #expect(texts[22] == "ready | row 1 of 10 held, 40 dropped")
    }
}
