// The README's 30-second example, compiled and run. Keep both in sync.
import PaginatedList
import Signals
import Testing

private func page(_ number: Int) -> Producer<Page<String, Never>, Never> {
    Producer(value: Page(items: (0 ..< 20).map { "row \(number * 20 + $0)" },
                         next: number < 4 ? page(number + 1) : nil))
}

@Suite("README")
struct ReadmeTests {
    @Test func theThirtySecondExamplePrintsTheRowCounts() {
        let counts = Locked<[Int]>([])
        let list = PaginatedListViewModel<String, Never>(scheduler: ImmediateScheduler()) { page(0) }
        list.items.producer.startWithValues { items in counts.withLock { $0.append(items.count) } }
        list.loadNextPage()   // 20 rows
        list.loadNextPage()   // 40 rows
        #expect(counts.withLock { $0 } == [0, 20, 40])
        #expect(list.items.value.last == "row 39")
    }
}
