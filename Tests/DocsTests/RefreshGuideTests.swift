// The samples of Docs/Refresh.md, compiled and run. Keep both in sync.
import Foundation
import PaginatedList
import Signals
import Testing

/// An item of the guide's feed.
struct FeedItem: Identifiable, Sendable {
    let id: Int
    var likes = 0
}

/// A feed that changes between requests, paged by id cursors: the page after an item is the items that
/// follow it *now*.
final class ChangingFeedSample: @unchecked Sendable {
    // `@unchecked`: every access holds `lock`.
    private let lock = NSLock()
    private var ids: [Int]
    private let pageSize: Int

    init(ids: [Int], pageSize: Int) {
        self.ids = ids
        self.pageSize = pageSize
    }

    /// Puts `new` at the top of the feed.
    func publish(_ new: [Int]) {
        lock.withLock { ids.insert(contentsOf: new, at: 0) }
    }

    func page(at start: Int) -> Producer<Page<FeedItem, Never>, Never> {
        Producer { observer, _ in
            let page = self.lock.withLock { () -> Page<FeedItem, Never> in
                let range = start ..< min(start + self.pageSize, self.ids.count)
                let items = self.ids[range].map { FeedItem(id: $0) }
                let next = range.upperBound < self.ids.count ? items.last.map { self.page(after: $0.id) } : nil
                return Page(items: items, next: next)
            }
            observer.send(value: page)
            observer.sendCompleted()
        }
    }

    private func page(after id: Int) -> Producer<Page<FeedItem, Never>, Never> {
        Producer { observer, _ in
            let start = self.lock.withLock { (self.ids.firstIndex(of: id) ?? -1) + 1 }
            self.page(at: start).start(observer)
        }
    }
}

@Suite("Guide: refresh strategies")
struct RefreshGuideTests {
    @Test func theSeedsCasesPrintWhatTheGuideShows() {
        let feed = ChangingFeedSample(ids: Array(1 ... 9), pageSize: 3)
        let timeline = PaginatedListViewModel<FeedItem, Never>(scheduler: ImmediateScheduler()) { feed.page(at: 0) }
        timeline.loadNextPage()
        timeline.loadNextPage()
        feed.publish([20, 21])                         // two new posts at the top
        timeline.refresh(.mergeOnTop(maxPages: 3, onGap: .keepGap))
        #expect(timeline.items.value.map(\.id) == [20, 21, 1, 2, 3, 4, 5, 6])

        feed.publish(Array(100 ..< 110))               // ten new posts: more than 2 pages of 3
        timeline.refresh(.mergeOnTop(maxPages: 2, onGap: .keepGap))
        #expect(timeline.gap.value == 6)
        timeline.fillGap()                             // one page of 3, then a page that overlaps
        #expect(timeline.gap.value == nil)
        #expect(timeline.items.value.prefix(12).map(\.id) == [100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 20, 21])

        let unchanged = Producer<Bool, Never>(value: false)
        timeline.refresh(.reloadAll, ifChanged: unchanged)
        #expect(timeline.loadStates.value.refresh == .idle)

        let counts: [(id: Int, likes: Int)] = [(id: 1, likes: 12), (id: 3, likes: 4)]
        timeline.update(counts, id: { $0.id }, apply: { item, patch in item.likes = patch.likes })
        #expect(timeline.items.value.filter { $0.likes > 0 }.map(\.id) == [1, 3])
    }

    @Test func theAnchorFollowsItsRowThroughChanges() {
        var anchor: Int? = 4
        for change in [ItemListChange.inserted(0 ..< 3), .removed([1]), .updated([5])] {
            anchor = anchor.flatMap { change.position(ofRow: $0) }
        }
        #expect(anchor! == 6)
    }

    @Test func everySampleOfTheGuideIsCompiledHere() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("Docs/Refresh.md"), encoding: .utf8)
        let samples = TestingGuideTests.swiftBlocks(in: guide)
        #expect(samples.count == 5)
        let source = TestingGuideTests.significantLines(try String(contentsOf: here, encoding: .utf8))
        for sample in samples {
            let lines = TestingGuideTests.significantLines(sample).filter { !$0.hasPrefix("print(") && !$0.hasPrefix("// [") }
            let found = TestingGuideTests.containsInOrder(lines, in: source)
            #expect(found, "not compiled by RefreshGuideTests:\n\(sample)")
        }
    }
}
