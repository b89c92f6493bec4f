import PaginatedList
import PagingDemoKit
import Signals
import Testing

@Suite("paging-demo: day headers and the feed's total")
struct PagingDemoSectionsTests {
    private func options(_ arguments: [String]) throws -> DemoOptions? {
        guard case let .run(options) = try DemoInvocation.parse(arguments) else { return nil }
        return options
    }

    @Test func aRowsDayIsItsTenRowsFromRowOne() {
        #expect([1, 10, 11, 20, 21].map { Row(id: $0).day } == [1, 1, 2, 2, 3])
    }

    @Test func theScreenShowsAHeaderAboveTheFirstRowOfEachDay() {
        var screen = ListScreen(prefetchDistance: 5)
        let rows = ItemList((9 ... 12).map { Row(id: $0) })
        let lines = screen.render(rows: rows, loadStates: .idle, title: "demo", width: 80, height: 24,
                                  window: ListScreen.Window(headers: [0: "day 1", 2: "day 2"]))
        #expect(lines[2].text == "  == day 1 ==" && lines[2].style == .header)
        #expect(lines[3].text.hasPrefix("> #0009"))
        #expect(lines[5].text == "  == day 2 ==" && lines[5].style == .header)
        #expect(lines[6].text.hasPrefix("  #0011"))
    }

    @Test func theStatusLineShowsTheFeedsTotal() {
        var screen = ListScreen(prefetchDistance: 5)
        let rows = ItemList((1 ... 10).map { Row(id: $0) })
        let lines = screen.render(rows: rows, loadStates: .idle, title: "demo", width: 80, height: 24,
                                  window: ListScreen.Window(total: 200))
        #expect(lines[22].text == "ready | row 1 of 10 loaded, 200 in the feed")
    }

    @Test func theSimulatedFeedsPagesSayHowManyRowsItHas() {
        let feed = SimulatedFeed(itemCount: 35, pageSize: 10, latency: .zero, failureRate: 0, seed: 1)
        let viewModel = PaginatedListViewModel(dependency: feed, scheduler: ImmediateScheduler())
        viewModel.loadNextPage()
        #expect(viewModel.totalCount.value == 35)
    }

    @Test func theDemoListHeadsEachDayOfTheSimulatedFeedAndShowsItsTotal() throws {
        let parsed = try #require(try options(["--items", "35", "--page-size", "15", "--latency-ms", "0", "--failure-rate", "0"]))
        let list = try DemoList(options: parsed, scheduler: ImmediateScheduler())
        list.viewModel.loadNextPage()
        let window = list.window(maxPages: nil)
        #expect(window.headers == [0: "day 1", 10: "day 2"])
        #expect(window.total == 35)
    }
}
