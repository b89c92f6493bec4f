import Foundation
import PaginatedList
import PagingDemoKit
import Signals
import Testing

/// `paging-demo`'s search as you type (`/`, `search=TEXT`): a `QueryPaginatedList` over the simulated feed.
@Suite("paging-demo: search as you type")
struct PagingDemoSearchTests {
    /// The rows of the default titles that contain "amber": every tenth row.
    private static let amberRows = [10, 20, 30, 40, 50, 60]

    private func options(_ arguments: [String]) throws -> DemoOptions? {
        guard case let .run(options) = try DemoInvocation.parse(arguments) else { return nil }
        return options
    }

    /// A list of 60 rows, 10 a page, delivering on the thread that ends each load.
    private func list(latencyMilliseconds: Int = 0, _ more: [String] = []) throws -> DemoList? {
        let arguments = ["--items", "60", "--page-size", "10", "--latency-ms", "\(latencyMilliseconds)", "--failure-rate", "0"]
        guard let options = try options(arguments + more) else { return nil }
        return try DemoList(options: options, scheduler: ImmediateScheduler())
    }

    /// Blocks until the list shows rows that satisfy `condition` (at once if it does), or 30 s pass.
    private func waitUntil(_ list: DemoList, _ condition: @escaping @Sendable (ItemList<Row>) -> Bool) -> Bool {
        let shown = DispatchSemaphore(value: 0)
        let observation = list.items.producer.startWithValues { if condition($0) { shown.signal() } }
        defer { observation.dispose() }
        return shown.wait(timeout: .now() + 30) == .success
    }

    @Test func aQueryNarrowsTheRowsToThoseWhoseTitleContainsIt() throws {
        let list = try #require(try list())
        list.viewModel.loadNextPage()
        list.search("amber")
        #expect(list.items.value.map(\.id) == Self.amberRows)
        #expect(list.items.value.allSatisfy { $0.title.contains("amber") })
    }

    @Test func aQuerysResultsArePagedAndCountedLikeTheFeed() throws {
        let list = try #require(try list(["--page-size", "4"]))
        list.search("amber")
        #expect(list.items.value.map(\.id) == [10, 20, 30, 40])
        #expect(list.viewModel.totalCount.value == 6)
        list.viewModel.loadNextPage()
        #expect(list.items.value.map(\.id) == Self.amberRows)
        #expect(list.viewModel.exhausted.value)
    }

    @Test func theFeedsRowsStayShownUntilTheQuerysFirstPageLandsInOneStep() throws {
        let list = try #require(try list(latencyMilliseconds: 20))
        list.viewModel.loadNextPage()
        #expect(waitUntil(list) { $0.count == 10 })
        let shown = Locked<[[Int]]>([])
        let observation = list.items.signal.observeValues { rows in shown.withLock { $0.append(rows.map(\.id)) } }
        defer { observation?.dispose() }
        list.search("amber")
        #expect(waitUntil(list) { $0.first?.id == 10 })
        // Between the switch and the landing, nothing was shown: no blank list, no half of one.
        #expect(shown.withLock { $0 } == [Self.amberRows])
    }

    @Test func anEmptyQueryBringsBackTheFeedAsItWas() throws {
        let list = try #require(try list())
        list.viewModel.loadNextPage()
        list.viewModel.loadNextPage()
        list.search("amber")
        list.search("")
        #expect(list.items.value.map(\.id) == Array(1 ... 20))
    }

    @Test func theStatusLineShowsTheQueryWhileItIsTypedAndOnceItIsShown() throws {
        let list = try #require(try list())
        #expect(list.startTyping())
        list.type("amb")
        #expect(list.searchStatus == "/ amb_")
        list.search("amb")
        list.endTyping()
        #expect(list.searchStatus == "search: amb")
    }

    @Test func slashDoesNothingOverAListThatCannotSearch() throws {
        let list = try #require(try list(["--max-pages", "3"]))
        #expect(!list.startTyping())
        #expect(list.typing == nil && list.search == nil)
    }

    @Test func scriptSearchShowsTheMatchesAndAnEmptySearchTheFeed() throws {
        let options = try #require(try options(["--items", "60", "--page-size", "10", "--script", "next,search=amber,search="]))
        let lines = try ScriptRunner(options: options).lines(for: try #require(options.script))
        #expect(lines == [
            "next -> items=10 loading=false error=nil exhausted=false cursor=#0001 likes=0 rows=#0001-#0010 gap=none",
            "search=amber -> items=6 loading=false error=nil exhausted=true cursor=#0010 likes=0 rows=#0010-#0060 gap=none",
            "search= -> items=10 loading=false error=nil exhausted=false cursor=#0010 likes=0 rows=#0001-#0010 gap=none",
        ])
    }

    @Test func scriptSearchIsRefusedWithTheStore() {
        #expect(throws: OptionsError.self) {
            try DemoInvocation.parse(["--store", "feed.sqlite", "--script", "search=amber"])
        }
    }

    @Test func returnAndBackspaceDecodeAsKeys() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x61, 0x7F, 0x08, 0x0D, 0x0A]) == [.character("a"), .backspace, .backspace, .enter, .enter])
    }
}
