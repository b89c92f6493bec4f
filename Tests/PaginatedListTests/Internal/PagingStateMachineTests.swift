@testable import PaginatedList
import PaginatedListTesting
import Signals
import Testing

// The view model's rules, driven directly: no scheduler, no producer runs, no storage. Each test feeds the
// machine inputs and reads the actions it names, written as short strings.

private typealias Machine = PagingStateMachine<Int, TestError>

private func describe(_ actions: [Machine.Action]) -> [String] {
    actions.map { action in
        switch action {
        case let .start(load, .firstPage): "start \(load.value) first"
        case let .start(load, .producer): "start \(load.value)"
        case let .startCheck(load, _): "startCheck \(load.value)"
        case let .cutOff(load): "cutOff \(load.value)"
        case let .publish(transition):
            "publish append=\(transition.loadStates.append) prepend=\(transition.loadStates.prepend)"
                + (transition.items.map { " items=\(Array($0))" } ?? "")
                + (transition.changes.isEmpty ? "" : " changes=\(transition.changes)")
        case let .scheduleRetry(kind, load, delay): "scheduleRetry \(kind) of \(load.value) after \(delay)"
        case let .cancelRetry(kind): "cancelRetry \(kind)"
        case let .report(diagnostic): "report \(diagnostic)"
        }
    }
}

private func page(_ items: [Int], last: Bool = false) -> Event<TestPage, TestError> {
    .value(Page(items: items, next: last ? nil : .never))
}

private func machine(retry: RetryPolicy? = nil) -> Machine {
    // A seeded generator for the jitter (the machine holds a copy).
    Machine(retry: retry, generator: SplitMix64(seed: 1))
}

@Suite("PagingStateMachine")
struct PagingStateMachineTests {
    @Test func theFirstLoadPublishesLoadingThenStartsTheFirstPage() {
        var machine = machine()
        #expect(describe(machine.loadNextPage()) == ["publish append=loading prepend=idle", "start 0 first"])
    }

    @Test func aSecondLoadWhileLoadingDoesNothing() {
        var machine = machine()
        _ = machine.loadNextPage()
        #expect(machine.loadNextPage().isEmpty)
    }

    @Test func aLandingPageAppendsItsItemsThenCutsOffItsRun() {
        var machine = machine()
        _ = machine.loadNextPage()
        #expect(describe(machine.receive(page([1, 2]), of: LoadID(value: 0))) == [
            "publish append=idle prepend=complete items=[1, 2] changes=[PaginatedList.ItemListChange.appended(Range(0..<2))]",
            "cutOff 0",
        ])
    }

    @Test func theLastPageMakesAppendComplete() {
        var machine = machine()
        _ = machine.loadNextPage()
        _ = machine.receive(page([1], last: true), of: LoadID(value: 0))
        #expect(machine.loadStates.append.isComplete)
        #expect(machine.loadNextPage().isEmpty)
    }

    @Test func aSecondPageOfALandedLoadIsAnExtra() {
        var machine = machine()
        _ = machine.loadNextPage()
        _ = machine.receive(page([1]), of: LoadID(value: 0))
        #expect(describe(machine.receive(page([2]), of: LoadID(value: 0))) == ["report extraPageIgnored"])
        #expect(describe(machine.receive(.failed(TestError(1)), of: LoadID(value: 0))) == ["report failureAfterPageIgnored"])
    }

    @Test func aPageOfALoadCutOffByResetIsStale() {
        var machine = machine()
        _ = machine.loadNextPage()
        #expect(describe(machine.reset()) == ["publish append=idle prepend=idle", "cutOff 0"])
        #expect(describe(machine.receive(page([1]), of: LoadID(value: 0))) == ["report stalePageDiscarded"])
        #expect(machine.items.isEmpty)
    }

    @Test func aFailureKeepsThePageAndTheNextLoadRetriesTheSameRequest() {
        var machine = machine()
        _ = machine.loadNextPage()
        _ = machine.receive(page([1]), of: LoadID(value: 0))
        _ = machine.loadNextPage()
        #expect(describe(machine.receive(.failed(TestError(5)), of: LoadID(value: 1))) == [
            "cutOff 1", "publish append=failed(PaginatedListTests.TestError(code: 5)) prepend=complete",
        ])
        #expect(machine.lastError == TestError(5))
        #expect(describe(machine.loadNextPage()) == ["publish append=loading prepend=complete", "start 2"])
        #expect(machine.lastError == nil)
    }

    @Test func aFailureWithARetryPolicySchedulesTheRetryAndItsDueTimeRetries() {
        var machine = machine(retry: RetryPolicy(maxRetries: 2, initialDelay: .seconds(1), jitter: 0))
        _ = machine.loadNextPage()
        #expect(describe(machine.receive(.failed(TestError(1)), of: LoadID(value: 0))) == [
            "cutOff 0", "publish append=failed(PaginatedListTests.TestError(code: 1)) prepend=idle",
            "report retryScheduled(retry: 1, delay: 1.0 seconds)", "scheduleRetry append of 0 after 1.0 seconds",
        ])
        #expect(describe(machine.retryDue(.edge(.append), of: LoadID(value: 0))) == ["publish append=loading prepend=idle", "start 1 first"])
    }

    @Test func aManualLoadDuringTheWaitCancelsTheRetryAndItsDueTimeIsIgnored() {
        var machine = machine(retry: RetryPolicy(maxRetries: 2, initialDelay: .seconds(1), jitter: 0))
        _ = machine.loadNextPage()
        _ = machine.receive(.failed(TestError(1)), of: LoadID(value: 0))
        #expect(describe(machine.loadNextPage()) == ["cancelRetry append", "publish append=loading prepend=idle", "start 1 first"])
        #expect(machine.retryDue(.edge(.append), of: LoadID(value: 0)).isEmpty)
    }

    @Test func retriesBeyondThePolicyAreReportedAndNotScheduled() {
        var machine = machine(retry: RetryPolicy(maxRetries: 1, initialDelay: .seconds(1), jitter: 0))
        _ = machine.loadNextPage()
        _ = machine.receive(.failed(TestError(1)), of: LoadID(value: 0))
        _ = machine.retryDue(.edge(.append), of: LoadID(value: 0))
        #expect(describe(machine.receive(.failed(TestError(2)), of: LoadID(value: 1))) == [
            "cutOff 1", "publish append=failed(PaginatedListTests.TestError(code: 2)) prepend=idle",
            "report retriesExhausted(failures: 2)",
        ])
    }

    @Test func aRetryOfTheFirstPageStartsTheProducerTheDependencyGaveNotANewOne() {
        var machine = machine()
        _ = machine.loadNextPage()
        machine.firstPageMade(.never, for: LoadID(value: 0))
        _ = machine.receive(.failed(TestError(1)), of: LoadID(value: 0))
        #expect(describe(machine.loadNextPage()).last == "start 1")
    }

    @Test func completionWithoutAPageKeepsTheRequestPendingAndReportsIt() {
        var machine = machine()
        _ = machine.loadNextPage()
        #expect(describe(machine.receive(.completed, of: LoadID(value: 0))) == [
            "cutOff 0", "publish append=idle prepend=idle", "report completedWithoutPage",
        ])
    }

    @Test func anEmptyPageThatIsNotTheLastLoadsTheNextAtOnceUpToTheBound() {
        var machine = machine()
        _ = machine.loadNextPage()
        for load in 0 ..< UInt64(Machine.maxEmptyPagesInARow - 1) {
            #expect(describe(machine.receive(page([]), of: LoadID(value: load))).suffix(2) == [
                "publish append=loading prepend=complete", "start \(load + 1)",
            ])
        }
        let last = UInt64(Machine.maxEmptyPagesInARow - 1)
        #expect(describe(machine.receive(page([]), of: LoadID(value: last))).last
            == "report emptyPagesLimitReached(count: \(Machine.maxEmptyPagesInARow))")
        #expect(machine.loadStates.append == .idle)
        // A new command goes on, with a fresh bound.
        #expect(describe(machine.loadNextPage()).last == "start \(last + 1)")
    }

    @Test func aPrefetchRequestMadeWhileLoadingLoadsAgainWhenThePageLandsNearIt() {
        var machine = machine()
        _ = machine.loadNextPage()
        _ = machine.loadIfNeeded(PrefetchRequest(visibleIndex: 3, prefetchDistance: 0))
        #expect(describe(machine.receive(page([1, 2]), of: LoadID(value: 0))).suffix(2) == [
            "publish append=loading prepend=complete", "start 1",
        ])
        #expect(describe(machine.receive(page([3, 4, 5]), of: LoadID(value: 1))).last == "cutOff 1")
    }

    @Test func editsPublishOneTransitionAndNeverStartALoad() {
        var machine = machine()
        _ = machine.loadNextPage()
        _ = machine.receive(page([1, 2, 3]), of: LoadID(value: 0))
        #expect(describe(machine.insert([9], at: 1)) == [
            "publish append=idle prepend=complete items=[1, 9, 2, 3] changes=[PaginatedList.ItemListChange.inserted(Range(1..<2))]",
        ])
    }

    @Test func theMachineOfANewListHasNoInvariantViolation() {
        #expect(machine().invariantViolations().isEmpty)
    }

    @Test func aGapAtTheEndOfTheListIsAnInvariantViolation() {
        var machine = machine()
        _ = machine.loadNextPage()
        _ = machine.receive(page([1, 2]), of: LoadID(value: 0))
        machine.gap = Machine.Gap(index: 2, continuation: .never, pageBudget: 1)
        #expect(machine.invariantViolations() == ["gap at 2, not strictly inside the 2 items"])
    }

    @Test func aLedgerThatCountsOtherItemsThanTheListIsAnInvariantViolation() {
        var machine = machine()
        _ = machine.loadNextPage()
        _ = machine.receive(page([1, 2]), of: LoadID(value: 0))
        _ = machine.store.append([3])
        #expect(machine.invariantViolations() == ["the ledger's pages count 2 items, the list holds 3"])
    }

    @Test func aFailedEndMissingFromTheFailureOrderIsAnInvariantViolation() {
        var machine = machine()
        _ = machine.loadNextPage()
        _ = machine.receive(.failed(TestError(1)), of: LoadID(value: 0))
        machine.failureOrder = []
        #expect(machine.invariantViolations() == ["failure order [], failed kinds [append]"])
    }

    @Test func theFirstPageMadeForALoadNotInFlightIsAPreconditionFailure() async {
        await #expect(processExitsWith: .failure) {
            var machine = PagingStateMachine<Int, TestError>(retry: nil, generator: SystemRandomNumberGenerator())
            machine.firstPageMade(.never, for: LoadID(value: 7))
        }
    }

#if PAGINATEDLIST_INTERNAL_CHECKS
    @Test func withTheInternalChecksAnInputThatLeavesAnInvariantBrokenStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            var machine = PagingStateMachine<Int, TestError>(retry: nil, generator: SystemRandomNumberGenerator())
            _ = machine.loadNextPage()
            _ = machine.receive(.value(Page(items: [1, 2], next: .never)), of: LoadID(value: 0))
            machine.gap = .init(index: 2, continuation: .never, pageBudget: 1)
            _ = machine.loadNextPage()
        }
    }
#endif
}
