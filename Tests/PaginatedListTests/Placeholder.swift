import Testing
import Signals
import PaginatedList

@Test func smokeLoadsPagesInOrder() {
    func page(_ k: Int) -> Producer<Page<Int, Never>, Never> {
        Producer(value: Page(items: Array(k * 3 ..< k * 3 + 3), next: k < 2 ? page(k + 1) : nil))
    }
    let vm = PaginatedListViewModel<Int, Never>(scheduler: ImmediateScheduler()) { page(0) }
    let seen = MutableProperty<[[Int]]>([])
    vm.items.signal.observeValues { items in seen.modify { $0.append(Array(items)) }; vm.loadNextPage() }
    vm.loadNextPage()
    #expect(Array(vm.items.value) == Array(0..<9))
    #expect(vm.exhausted.value)
    #expect(!vm.loading.value)
    #expect(seen.value.count == 3)
}
