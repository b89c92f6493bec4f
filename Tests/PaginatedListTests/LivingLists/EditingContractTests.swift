import PaginatedList
import PaginatedListTesting
import Signals
import Testing

/// Every `items` value and every `changes` value a view model sends from now on.
@Suite("13. Edits are commands: one transition each")
struct EditCommandContract {
    @Test func updateReplacesTheHeldItemWithTheSameIDInPlace() {
        let viewModel = loadedPosts([[1, 2, 3]])
        let sent = Transitions(viewModel)
        viewModel.update(FeedPost(id: 2, likes: 7))
        #expect(Array(viewModel.items.value) == [FeedPost(id: 1), FeedPost(id: 2, likes: 7), FeedPost(id: 3)])
        #expect(sent.items.count == 1)
        #expect(sent.changes.values == [.updated([1])])
    }

    @Test func updateByIDChangesTheHeldItemInPlace() {
        let viewModel = loadedPosts([[1, 2], [3, 4]])
        let sent = Transitions(viewModel)
        viewModel.update(id: 3) { $0.likes += 1 }
        viewModel.update(id: 3) { $0.likes += 1 }
        #expect(viewModel.items.value[2] == FeedPost(id: 3, likes: 2))
        #expect(sent.items.count == 2)
        #expect(sent.changes.values == [.updated([2]), .updated([2])])
    }

    @Test func removeByIDRemovesTheItemAndReportsItsOffsetBeforeTheRemoval() {
        let viewModel = loadedPosts([[1, 2, 3, 4]])
        let sent = Transitions(viewModel)
        viewModel.remove(id: 3)
        #expect(ids(viewModel) == [1, 2, 4])
        #expect(sent.items.count == 1)
        #expect(sent.changes.values == [.removed([2])])
    }

    @Test func insertPutsTheItemsAtTheIndexInOrder() {
        let viewModel = loadedPosts([[1, 2, 3]])
        let sent = Transitions(viewModel)
        viewModel.insert([FeedPost(id: 10), FeedPost(id: 11)], at: 1)
        #expect(ids(viewModel) == [1, 10, 11, 2, 3])
        #expect(sent.items.count == 1)
        #expect(sent.changes.values == [.inserted(1 ..< 3)])
    }

    @Test func anInsertIndexOutsideTheListIsClamped() {
        let viewModel = loadedPosts([[1, 2]])
        viewModel.insert([FeedPost(id: 0)], at: -5)
        viewModel.insert([FeedPost(id: 9)], at: 99)
        #expect(ids(viewModel) == [0, 1, 2, 9])
    }

    @Test func editsOfAnIDThatIsNotHeldDoNothing() {
        let viewModel = loadedPosts([[1, 2]])
        let sent = Transitions(viewModel)
        viewModel.update(FeedPost(id: 5, likes: 1))
        viewModel.update(id: 5) { $0.likes = 1 }
        viewModel.remove(id: 5)
        viewModel.insert([], at: 0)
        #expect(ids(viewModel) == [1, 2])
        #expect(sent.items.count == 0)
        #expect(sent.changes.values.isEmpty)
    }

    @Test func anInsertThatMixesNewAndHeldIDsSendsTheInsertionThenTheUpdate() {
        let viewModel = loadedPosts([[1, 2, 3]])
        let sent = Transitions(viewModel)
        viewModel.insert([FeedPost(id: 10), FeedPost(id: 2, likes: 5)], at: 0)
        #expect(Array(viewModel.items.value) == [FeedPost(id: 10), FeedPost(id: 1), FeedPost(id: 2, likes: 5), FeedPost(id: 3)])
        #expect(sent.items.count == 1)
        #expect(sent.changes.values == [.inserted(0 ..< 1), .updated([2])])
    }

    @Test func editsRunOnTheSchedulerNotOnTheCallersThread() {
        let scheduler = TestScheduler()
        let viewModel = PostViewModel(scheduler: scheduler) { postChain([[1, 2]]) }
        viewModel.loadNextPage()
        scheduler.run()
        viewModel.remove(id: 1)
        viewModel.update(id: 2) { $0.likes = 3 }
        #expect(ids(viewModel) == [1, 2])
        scheduler.run()
        #expect(Array(viewModel.items.value) == [FeedPost(id: 2, likes: 3)])
    }

    @Test func anEditFromInsideAnObserverRunsAfterTheCurrentTransition() {
        let viewModel = loadedPosts([[1, 2]])
        let seen = Recorder<[Int]>()
        viewModel.items.signal.observeValues { [weak viewModel] items in
            seen.append(items.map(\.id))
            if items.count == 3 { viewModel?.remove(id: 1) }
        }
        viewModel.insert([FeedPost(id: 3)], at: 2)
        #expect(seen.values == [[1, 2, 3], [2, 3]])
    }

    @Test func anEditWhileAPageLoadsKeepsBothTheEditAndThePage() {
        final class Held { var observer: Signal<PostPage, TestError>.Observer? }
        let held = Held()
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) {
            Producer { observer, _ in held.observer = observer }
        }
        viewModel.insert([FeedPost(id: 100)], at: 0)
        viewModel.loadNextPage()
        viewModel.update(id: 100) { $0.likes = 1 }
        held.observer?.send(value: Page(items: [FeedPost(id: 1), FeedPost(id: 2)], next: nil))
        #expect(Array(viewModel.items.value) == [FeedPost(id: 100, likes: 1), FeedPost(id: 1), FeedPost(id: 2)])
        #expect(viewModel.exhausted.value)
    }

    @Test func editsDoNotChangeTheLoadStates() {
        let viewModel = loadedPosts([[1, 2]])
        let states = Recorder(viewModel.loadStates.signal)
        viewModel.update(id: 1) { $0.likes = 1 }
        viewModel.remove(id: 2)
        viewModel.insert([FeedPost(id: 3)], at: 0)
        #expect(states.count == 0)
    }

    @Test func changingTheIDInUpdateByIDIsAPreconditionFailureThatNamesIt() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let viewModel = loadedPosts([[1, 2]])
            viewModel.update(id: 1) { $0 = FeedPost(id: 9) }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("PaginatedListViewModel.update(id:_:): a change must not change the item's id (1 became 9)"))
    }

    @Test func changingTheIDInABatchUpdateIsAPreconditionFailureThatNamesIt() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let viewModel = loadedPosts([[1, 2]])
            viewModel.update([9], id: { _ in 2 }, apply: { item, patch in item = FeedPost(id: patch) })
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("PaginatedListViewModel.update(_:id:apply:): a change must not change the item's id (2 became 9)"))
    }
}

@Suite("16. No id is ever held twice")
struct UniqueIDContract {
    @Test func aPageThatBringsAHeldIDUpdatesThatItemInPlace() {
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) {
            Producer(value: Page(items: [FeedPost(id: 1), FeedPost(id: 2)], next: Producer(value: Page(items: [FeedPost(id: 2, likes: 4), FeedPost(id: 3)], next: nil))))
        }
        let sent = Transitions(viewModel)
        viewModel.loadNextPage()
        viewModel.loadNextPage()
        #expect(Array(viewModel.items.value) == [FeedPost(id: 1), FeedPost(id: 2, likes: 4), FeedPost(id: 3)])
        #expect(sent.changes.values == [.appended(0 ..< 2), .appended(2 ..< 3), .updated([1])])
        #expect(sent.items.count == 2)
    }

    @Test func anIDRepeatedInOnePageKeepsTheFirstPositionWithTheLastValue() {
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) {
            Producer(value: Page(items: [FeedPost(id: 1), FeedPost(id: 2), FeedPost(id: 1, likes: 9), FeedPost(id: 3)], next: nil))
        }
        viewModel.loadNextPage()
        #expect(Array(viewModel.items.value) == [FeedPost(id: 1, likes: 9), FeedPost(id: 2), FeedPost(id: 3)])
    }

    @Test func anIDRepeatedInOneInsertKeepsTheFirstPositionWithTheLastValue() {
        let viewModel = loadedPosts([[1]])
        viewModel.insert([FeedPost(id: 5), FeedPost(id: 6), FeedPost(id: 5, likes: 2)], at: 0)
        #expect(Array(viewModel.items.value) == [FeedPost(id: 5, likes: 2), FeedPost(id: 6), FeedPost(id: 1)])
    }

    @Test func aPageMadeOnlyOfHeldIDsSendsOnlyUpdates() {
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) {
            Producer(value: Page(items: [FeedPost(id: 1), FeedPost(id: 2)], next: Producer(value: Page(items: [FeedPost(id: 1, likes: 1)], next: nil))))
        }
        viewModel.loadNextPage()
        let sent = Transitions(viewModel)
        viewModel.loadNextPage()
        #expect(sent.changes.values == [.updated([0])])
        #expect(viewModel.exhausted.value)
    }

    @Test func itemsThatAreNotIdentifiableAreNeverDeduplicated() {
        let viewModel = PaginatedListViewModel<Int, Never>(scheduler: ImmediateScheduler()) {
            Producer(value: Page(items: [1, 1, 2], next: nil))
        }
        viewModel.loadNextPage()
        #expect(Array(viewModel.items.value) == [1, 1, 2])
    }
}

@Suite("Load states")
struct LoadStatesContract {
    @Test func aNewViewModelIsIdleInEveryKind() {
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { postChain([[1]]) }
        #expect(viewModel.loadStates.value == .idle)
    }

    @Test func appendIsLoadingWhileThePageLoadsAndLoadingAgrees() {
        let source = ScriptedSource()
        let viewModel = TestViewModel(dependency: source, scheduler: ImmediateScheduler())
        viewModel.loadNextPage()
        #expect(viewModel.loadStates.value == LoadStates(refresh: .idle, prepend: .idle, append: .loading))
        #expect(viewModel.loading.value)
    }

    @Test func afterTheFirstPagePrependIsCompleteWhenNothingLiesBefore() {
        let viewModel = loadedPosts([[1], [2]])
        #expect(viewModel.loadStates.value == LoadStates(refresh: .idle, prepend: .complete, append: .complete))
        #expect(viewModel.exhausted.value)
    }

    @Test func aFailureIsReportedOnAppendAndLastError() {
        let source = ScriptedSource()
        let viewModel = TestViewModel(dependency: source, scheduler: ImmediateScheduler())
        viewModel.loadNextPage()
        source.lastRun.fail(TestError(3))
        #expect(viewModel.loadStates.value.append == .failed(TestError(3)))
        #expect(viewModel.lastError.value == TestError(3))
    }

    @Test func resetMakesEveryKindIdleAgain() {
        let viewModel = loadedPosts([[1], [2]])
        viewModel.reset()
        #expect(viewModel.loadStates.value == .idle)
    }

    @Test func loadStatesSendInTheSameTransitionAsItems() {
        let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { postChain([[1, 2]]) }
        let seen = Recorder<LoadStates<TestError>>()
        viewModel.items.signal.observeValues { [weak viewModel] _ in
            if let viewModel { seen.append(viewModel.loadStates.value) }
        }
        viewModel.loadNextPage()
        #expect(seen.values == [LoadStates(refresh: .idle, prepend: .complete, append: .complete)])
    }
}
