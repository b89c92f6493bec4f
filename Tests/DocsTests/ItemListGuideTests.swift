// The sample of Docs/PaginatedListViewModel.md, "The list: `ItemList`", compiled and run. Keep both in sync.
import Foundation
import PaginatedList
import Testing

@Suite("Guide: the list")
struct ItemListGuideTests {
    @Test func snapshotsStayAsTheyWereWhileTheListChanges() {
        var list: ItemList = [1, 2, 3]
        let before = list             // O(1): the copy shares the whole tree
        list.insert(0, at: 0)
        list.remove(at: 2)
        list[0] = 10
        list.append(contentsOf: 4 ... 6)
        #expect(Array(before) == [1, 2, 3])
        #expect(Array(list) == [10, 1, 3, 4, 5, 6])
    }

    @Test func theItemListSampleIsCompiledHere() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("Docs/PaginatedListViewModel.md"), encoding: .utf8)
        let start = try #require(guide.range(of: "## The list: `ItemList`")).lowerBound
        let end = try #require(guide.range(of: "## Editing the list")).lowerBound
        let samples = TestingGuideTests.swiftBlocks(in: String(guide[start ..< end]))
        #expect(samples.count == 1)
        let sourceLines = TestingGuideTests.significantLines(try String(contentsOf: here, encoding: .utf8))
        for sample in samples {
            let lines = TestingGuideTests.significantLines(sample).filter { !$0.hasPrefix("print(") }
            #expect(TestingGuideTests.containsInOrder(lines, in: sourceLines), "not compiled by ItemListGuideTests:\n\(sample)")
        }
    }
}
