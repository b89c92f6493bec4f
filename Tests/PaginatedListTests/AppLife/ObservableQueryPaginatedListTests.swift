import Foundation
import Observation
import PaginatedList
import PaginatedListTesting
import Signals
import Testing

// `ObservableQueryPaginatedList`, observed as SwiftUI observes it: `withObservationTracking` around the
// property a view reads. The list runs on an `ImmediateScheduler` driven from the main actor.

/// Whether `step` invalidates a view that reads `read` of `mirror`.
@MainActor private func invalidates<Value>(
    _ mirror: ObservableQueryPaginatedList<String, Hit, TestError>, _ read: @escaping (ObservableQueryPaginatedList<String, Hit, TestError>) -> Value,
    by step: () -> Void
) -> Bool {
    let fired = Locked(false)
    withObservationTracking { _ = read(mirror) } onChange: { fired.withLock { $0 = true } }
    step()
    return fired.withLock { $0 }
}

@Suite("ObservableQueryPaginatedList: the SwiftUI mirror of a query list")
@MainActor
struct ObservableQueryPaginatedListTests {
    @Test func theMirrorShowsTheListsItemsAndQueryAtCreation() {
        let source = QuerySource()
        let list = makeHitList(source)
        source.lastRun.deliver(2)
        let mirror = ObservableQueryPaginatedList(list)
        #expect(mirror.query == "a")
        #expect(mirror.items.map(\.id) == ["a#0", "a#1"])
        #expect(mirror.loadStates.append == .idle)
    }

    @Test func theMirrorKeepsThePreviousResultsWhileANewQueryLoadsThenShowsIt() {
        let source = QuerySource()
        let list = makeHitList(source)
        source.lastRun.deliver(2)
        let mirror = ObservableQueryPaginatedList(list)
        mirror.setQuery("b")
        #expect(mirror.query == "b")
        #expect(mirror.items.map(\.id) == ["a#0", "a#1"])
        #expect(mirror.loadStates.append == .loading)
        source.lastRun.deliver(1)
        #expect(mirror.items.map(\.id) == ["b#0"])
    }

    @Test func aLoadStateChangeAloneDoesNotInvalidateAViewThatReadsOnlyItems() {
        let source = QuerySource()
        let list = makeHitList(source)
        source.lastRun.deliver(2)
        let mirror = ObservableQueryPaginatedList(list)
        #expect(!invalidates(mirror, \.items) { mirror.loadNextPage() })
        #expect(mirror.loadStates.append == .loading)
    }

    @Test func aRowThatAppearsWhileTheNewQueryLoadsAsksForNothing() {
        let source = QuerySource()
        let list = makeHitList(source)
        source.lastRun.deliver(2)
        let mirror = ObservableQueryPaginatedList(list)
        mirror.setQuery("b")
        let runs = source.runs.count
        mirror.rowAppeared(1)
        source.lastRun.deliver(3)
        #expect(source.runs.count == runs)
    }

    @Test func retryRetriesTheCurrentQuerysFailedPage() {
        let source = QuerySource()
        let list = makeHitList(source)
        source.lastRun.fail()
        let mirror = ObservableQueryPaginatedList(list)
        mirror.retry()
        #expect(mirror.loadStates.append == .loading)
        #expect(source.runs.count == 2)
    }

    @Test func releasingTheMirrorFreesItButNotTheList() {
        let source = QuerySource()
        let list = makeHitList(source)
        let leaks = LeakChecker()
        do {
            let mirror = ObservableQueryPaginatedList(list)
            leaks.watch(mirror)
        }
        #expect(leaks.alive.isEmpty)
        source.lastRun.deliver(1)
        #expect(list.items.value.count == 1)
    }
}
