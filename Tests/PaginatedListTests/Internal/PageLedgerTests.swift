@testable import PaginatedList
import PaginatedListTesting
import Testing

@Suite("PageLedger")
struct PageLedgerTests {
    /// Pages added and removed at both ends and counts adjusted, at random, against an array of counts:
    /// each answer of the ledger matches the array's, and its structure holds after every step (the
    /// re-centring included: both ends grow far past the first slots).
    @Test func pagesFollowSeededEditsAtBothEndsAgainstAnArray() {
        var failures: [String] = []
        for seed in 0 ..< UInt64(seededRunCount(100)) {
            var random = SplitMix64(seed: seed)
            var ledger = PageLedger<Int>()
            var model: [(count: Int, record: Int)] = []
            for step in 0 ..< 120 where failures.isEmpty {
                switch random.below(6) {
                case 0, 1:
                    let page = (count: random.below(5), record: step)
                    ledger.append(count: page.count, record: page.record)
                    model.append(page)
                case 2, 3:
                    let page = (count: random.below(5), record: step)
                    ledger.prepend(count: page.count, record: page.record)
                    model.insert(page, at: 0)
                case 4 where !model.isEmpty:
                    let removed = random.below(2) == 0 ? ledger.removeFirst() : ledger.removeLast()
                    let expected = removed.record == model.first?.record ? model.removeFirst() : model.removeLast()
                    if removed.count != expected.count || removed.record != expected.record {
                        failures.append("seed \(seed), step \(step): removed \(removed), expected \(expected)")
                    }
                case 5 where !model.isEmpty:
                    let page = random.below(model.count)
                    let delta = random.below(4) - model[page].count
                    ledger.adjust(page: page, by: delta)
                    model[page].count += delta
                default:
                    break
                }
                let problems = ledger.invariantViolations()
                if !problems.isEmpty { failures.append("seed \(seed), step \(step): \(problems)") }
                let counts = model.map(\.count)
                if ledger.pages.map(\.count) != counts || ledger.pages.map(\.record) != model.map(\.record) {
                    failures.append("seed \(seed), step \(step): pages \(ledger.pages.map(\.count)), expected \(counts)")
                }
                if ledger.itemCount != counts.reduce(0, +) { failures.append("seed \(seed), step \(step): item count") }
                var start = 0
                for (page, count) in counts.enumerated() {
                    if ledger.start(ofPage: page) != start { failures.append("seed \(seed), step \(step): start of page \(page)") }
                    for item in start ..< start + count where ledger.page(holding: item) != page {
                        failures.append("seed \(seed), step \(step): item \(item) not in page \(page)")
                    }
                    start += count
                }
                if ledger.page(holding: start) != nil { failures.append("seed \(seed), step \(step): a page holds the end") }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
    }
}
