import PaginatedList
import PaginatedListTesting
import Testing

@Suite("Scroll anchors through changes")
struct ScrollAnchorTests {
    @Test func insertionsAtOrAboveTheRowMoveItDown() {
        #expect(ItemListChange.inserted(0 ..< 3).position(ofRow: 0) == 3)
        #expect(ItemListChange.inserted(2 ..< 4).position(ofRow: 5) == 7)
        #expect(ItemListChange.inserted(6 ..< 8).position(ofRow: 5) == 5)
        #expect(ItemListChange.appended(10 ..< 20).position(ofRow: 5) == 5)
    }

    @Test func removalsAboveMoveItUpAndRemovingItGivesNil() {
        #expect(ItemListChange.removed([0, 1, 7]).position(ofRow: 5) == 3)
        #expect(ItemListChange.removed([5]).position(ofRow: 5) == nil)
        #expect(ItemListChange.reset.position(ofRow: 0) == nil)
        #expect(ItemListChange.updated([5]).position(ofRow: 5) == 5)
    }

    /// Against the array the change describes: the item at the row is the same item afterwards.
    @Test func everyChangeKeepsTheRowOnItsItem() {
        var generator = SplitMix64(seed: 7)
        for _ in 0 ..< 2_000 {
            let count = Int.random(in: 1 ... 12, using: &generator)
            let before = Array(0 ..< count)
            var after = before
            let change: ItemListChange
            switch Int.random(in: 0 ..< 3, using: &generator) {
            case 0:
                let at = Int.random(in: 0 ... count, using: &generator)
                let added = Int.random(in: 1 ... 3, using: &generator)
                after.insert(contentsOf: (100 ..< 100 + added), at: at)
                change = .inserted(at ..< at + added)
            case 1:
                let offsets = (0 ..< count).filter { _ in Bool.random(using: &generator) }
                for offset in offsets.reversed() { after.remove(at: offset) }
                change = .removed(offsets)
            default:
                let from = Int.random(in: 0 ..< count, using: &generator)
                let item = after.remove(at: from)
                let to = Int.random(in: 0 ... after.count, using: &generator)
                after.insert(item, at: to)
                change = .moved(from: from, to: to)
            }
            for row in before.indices {
                if let moved = change.position(ofRow: row) {
                    #expect(after[moved] == before[row], "\(change) row \(row)")
                } else {
                    #expect(!after.contains(before[row]), "\(change) row \(row)")
                }
            }
        }
    }
}
