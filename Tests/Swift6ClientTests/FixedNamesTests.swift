// The package's fixed public names, spelled exactly as they are published: code outside this
// repository compiles against them. A rename breaks this file's build.
import Foundation
import PaginatedList
import Signals
import Testing

private struct Failure: Error, Equatable {}

private struct NamesDependency: PaginatedListDependency {
    typealias Item = Int
    typealias Failure = Never
    func firstPage() -> Producer<Page<Int, Never>, Never> {
        Producer(value: Page(items: [1], next: nil))
    }
}

@Suite("Fixed public names")
struct FixedNamesTests {
    @Test func signalsNamesCompileAsTheBriefSpellsThem() {
        let events: [Event<Int, Failure>] = [.value(1), .failed(Failure()), .completed, .interrupted]
        #expect(events[0] == Event<Int, Failure>.value(1))

        let (output, input): (output: Signal<Int, Failure>, input: Signal<Int, Failure>.Observer) = Signal.pipe()
        let observation: (any Disposable)? = output.observe { (_: Event<Int, Failure>) in }
        let valuesObservation: (any Disposable)? = output.observeValues { (_: Int) in }
        input.send(value: 1)
        input.send(error: Failure())
        input.sendCompleted()
        input.sendInterrupted()
        observation?.dispose()
        #expect(valuesObservation?.isDisposed ?? true)

        let handler: (Signal<Int, Failure>.Observer, Lifetime) -> Void = { observer, _ in observer.sendCompleted() }
        let producers: [Producer<Int, Failure>] = [
            Producer(handler), Producer(value: 1), Producer(error: Failure()), Producer(values: [1, 2]),
            .empty, .never,
        ]
        let run: any Disposable = producers[1].start()
        let started: any Disposable = producers[1].start { (_: Event<Int, Failure>) in }
        let withValues: any Disposable = producers[1].startWithValues { (_: Int) in }
        let mapped: Producer<String, Failure> = producers[1].map { (value: Int) -> String in "\(value)" }
        _ = mapped
        for disposable in [run, started, withValues] { disposable.dispose() }
        producers[5].start().dispose()

        let (lifetime, token): (lifetime: Lifetime, token: Lifetime.Token) = Lifetime.make()
        let ended: (any Disposable)? = lifetime.observeEnded {}
        #expect(!lifetime.hasEnded)
        withExtendedLifetime((token, ended)) {}

        let mutable = MutableProperty<Int>(0)
        mutable.value = 1
        let result: Int = mutable.modify { value -> Int in value += 1; return value }
        let view = Property<Int>(mutable)
        let constant = Property<Int>(value: 3)
        let _: Producer<Int, Never> = view.producer
        let _: Signal<Int, Never> = view.signal
        let _: Producer<Int, Never> = mutable.producer
        let _: Signal<Int, Never> = mutable.signal
        #expect(result == 2 && view.value == 2 && constant.value == 3)

        let schedulers: [any Scheduler] = [ImmediateScheduler(), UIScheduler(), QueueScheduler(queue: DispatchQueue(label: "names"))]
        let scheduled: (any Disposable)? = schedulers[0].schedule {}
        #expect(scheduled == nil)
    }

    @Test func paginatedListNamesCompileAsTheBriefSpellsThem() {
        let page = Page<Int, Never>(items: [1], next: nil)
        let _: [Int] = page.items
        let _: Producer<Page<Int, Never>, Never>? = page.next

        var list: ItemList<Int> = [1, 2]
        list.append(contentsOf: [3])
        #expect(list == ItemList([1, 2, 3]))
        #expect(list[list.startIndex] == 1)

        let fromDependency = PaginatedListViewModel<Int, Never>(dependency: NamesDependency(), scheduler: ImmediateScheduler())
        let fromClosure = PaginatedListViewModel<Int, Never>(scheduler: ImmediateScheduler(), firstPage: { Producer(value: page) })
        for viewModel in [fromDependency, fromClosure] {
            let _: Property<ItemList<Int>> = viewModel.items
            let _: Property<Bool> = viewModel.loading
            let _: Property<Never?> = viewModel.lastError
            let _: Property<Bool> = viewModel.exhausted
            viewModel.loadNextPage()
            viewModel.reset()
            viewModel.reload()
            #expect(Array(viewModel.items.value) == [1])
        }
    }

    @Test func appLifeNamesCompileAsTheBriefSpellsThem() {
        let list = QueryPaginatedList<String, Int, Never>(
            query: "a", scheduler: ImmediateScheduler(), keepPrevious: true, cacheLimit: 4
        ) { (_: String) in Producer(value: Page(items: [1], next: nil)) }
        let query: Property<String> = list.query
        let current: Property<PaginatedListViewModel<Int, Never>> = list.current
        let items: Property<ItemList<Int>> = list.items
        let loadStates: Property<LoadStates<Never>> = list.loadStates
        let changes: Signal<ItemListChange, Never> = list.changes
        list.setQuery("b")
        #expect(query.value == "b")
        #expect(items.value.isEmpty == current.value.items.value.isEmpty)
        #expect(!loadStates.value.isLoading)
        _ = changes

        let (trigger, _) = Signal<Void, Never>.pipe()
        let refreshing: any Disposable = current.value.refresh(
            whenever: trigger, ifOlderThan: .seconds(60), policy: RefreshPolicy.replace, on: QueueScheduler()
        )
        refreshing.dispose()
    }
}
