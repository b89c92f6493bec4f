// The samples of Docs/AppLife.md's "Sections" and "Totals": the views compiled on Apple platforms (SwiftUI,
// UIKit), everything else compiled and run everywhere. `everySampleOfSectionsAndTotalsIsCompiledHere` checks
// that each sample of those two parts appears in this file verbatim (ignoring indentation).
import Foundation
import Observation
import PaginatedList
import PaginatedListHTTP
import Signals
import Testing
#if canImport(SwiftUI)
import SwiftUI
#endif
#if canImport(UIKit)
import UIKit
#endif

/// The guide's file-scope samples, in a namespace so that their names stay out of other guides' way.
enum AppLifeSectionsGuide {
    struct Message: Identifiable, Sendable {
        let id: Int
        let day: Int
        let text: String
    }

    #if canImport(SwiftUI)
    struct InboxView: View {
        @State var list: ObservablePaginatedList<Message, Never>
        @State var days: ObservableListSections<Int, Message>

        init(list: ObservablePaginatedList<Message, Never>) {
            _list = State(initialValue: list)
            _days = State(initialValue: list.sections(by: { $0.day }))
        }

        var body: some View {
            List {
                ForEach(days.sections) { section in
                    Section("Day \(section.key)") {
                        ForEach(section.rows) { row in
                            Text(row.item.text).onAppear { list.rowAppeared(row.index) }
                        }
                    }
                }
            }
        }
    }
    #endif

    #if canImport(UIKit)
    @MainActor
    final class InboxTableController {
        private let dataSource: UITableViewDiffableDataSource<ListSection<Int, Message>.ID, Message.ID>
        /// Kept for as long as the table shows them: dropping the property stops the grouping.
        private let days: Property<[ListSection<Int, Message>]>
        private var observation: (any Disposable)?

        init(tableView: UITableView, inbox: PaginatedListViewModel<Message, Never>, text: @escaping (Message.ID) -> String) {
            dataSource = UITableViewDiffableDataSource(tableView: tableView) { tableView, indexPath, id in
                let cell = tableView.dequeueReusableCell(withIdentifier: "message", for: indexPath)
                var content = cell.defaultContentConfiguration()
                content.text = text(id)
                cell.contentConfiguration = content
                return cell
            }
            days = inbox.sections(by: { $0.day })
            observation = days.producer.startWithValues(on: UIScheduler()) { [weak self] sections in
                var snapshot = NSDiffableDataSourceSnapshot<ListSection<Int, Message>.ID, Message.ID>()
                for section in sections {
                    snapshot.appendSections([section.id])
                    snapshot.appendItems(section.items.map(\.id), toSection: section.id)
                }
                self?.dataSource.apply(snapshot, animatingDifferences: true)
            }
        }
    }
    #endif
}

@Suite struct AppLifeSectionsGuideTests {
    typealias Message = AppLifeSectionsGuide.Message

    @Test func sectionsSample() {
        let inbox = PaginatedListViewModel<Message, Never>(scheduler: ImmediateScheduler()) {
            ArraySource((0 ..< 12).map { Message(id: $0, day: $0 / 5, text: "message \($0)") }, pageSize: 4).firstPage()
        }
        let days = inbox.sections(by: { $0.day })
        inbox.loadNextPage()
        inbox.loadNextPage()
        for section in days.value {
            print("day \(section.key): \(section.items.map(\.id))")   // day 0: [0, 1, 2, 3, 4], day 1: [5, 6, 7]
        }
        #expect(days.value.map(\.key) == [0, 1])
        #expect(days.value.map { $0.items.map(\.id) } == [[0, 1, 2, 3, 4], [5, 6, 7]])
    }

    @MainActor
    @Test func theMirrorsSectionsCarryTheRowsIndicesInTheWholeList() {
        let inbox = PaginatedListViewModel<Message, Never>(scheduler: ImmediateScheduler()) {
            ArraySource((0 ..< 12).map { Message(id: $0, day: $0 / 5, text: "message \($0)") }, pageSize: 4).firstPage()
        }
        let list = ObservablePaginatedList(inbox)
        let days = list.sections(by: { $0.day })
        list.loadNextPage()
        list.loadNextPage()
        #expect(days.sections.map(\.key) == [0, 1])
        #expect(days.sections[1].rows.map(\.index) == [5, 6, 7])
        #expect(days.sections[1].startIndex == 5)
    }

    @Test func totalsSample() {
        let results = PaginatedListViewModel<Int, Never>(scheduler: ImmediateScheduler()) {
            Producer(value: Page(items: Array(0 ..< 20), next: nil, totalCount: 1_284))
        }
        results.loadNextPage()
        print(results.totalCount.value.map { "\($0) results" } ?? "")   // 1284 results
        #expect(results.totalCount.value == 1_284)
    }

    @Test func namedTotalSample() {
        let search = HTTPPageSource<Int>(url: URL(string: "https://api.example.com/search?q=swift")!,
                                         paging: .cursor(at: "meta.next"), items: "data", totalCount: "meta.total")
        #expect(search.firstPageRequest.url?.host == "api.example.com")
    }

    @MainActor
    @Test func theMirrorShowsTheTotal() {
        let results = PaginatedListViewModel<Int, Never>(scheduler: ImmediateScheduler()) {
            Producer(value: Page(items: Array(0 ..< 20), next: nil, totalCount: 1_284))
        }
        let list = ObservablePaginatedList(results)
        list.loadNextPage()
        #expect(list.totalCount == 1_284)
    }

    @Test func everySampleOfSectionsAndTotalsIsCompiledHere() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("Docs/AppLife.md"), encoding: .utf8)
        // Only this part of the guide: from "## Sections" to the first level-2 heading after "## Totals".
        let start = try #require(guide.range(of: "\n## Sections\n"))
        let totals = try #require(guide.range(of: "\n## Totals\n"))
        let end = guide.range(of: "\n## ", range: totals.upperBound ..< guide.endIndex)?.lowerBound ?? guide.endIndex
        let samples = TestingGuideTests.swiftBlocks(in: String(guide[start.lowerBound ..< end]))
        #expect(samples.count == 6)
        let source = TestingGuideTests.significantLines(try String(contentsOf: here, encoding: .utf8))
        for sample in samples {
            let lines = TestingGuideTests.significantLines(sample)
            #expect(TestingGuideTests.containsInOrder(lines, in: source), "not compiled by AppLifeSectionsGuideTests:\n\(sample)")
        }
    }
}
