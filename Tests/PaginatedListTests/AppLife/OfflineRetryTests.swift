import Foundation
import PaginatedList
import PaginatedListTesting
import Signals
import Testing

/// A view model over `source`'s query "a" that retries by `policy` on `clock`, waiting on `connectivity`,
/// with its first page loading; and the diagnostics it reports.
private func offlineList(
    _ source: QuerySource, connectivity: MutableProperty<Bool>, clock: TestScheduler,
    policy: RetryPolicy = RetryPolicy(maxRetries: 2, initialDelay: .seconds(1), jitter: 0)
) -> (PaginatedListViewModel<Hit, TestError>, Recorder<PaginatedListDiagnostic>) {
    let retry = AutomaticRetry(policy, on: clock, connectivity: Property(connectivity))
    let viewModel = PaginatedListViewModel<Hit, TestError>(scheduler: ImmediateScheduler(), retry: retry) {
        source.firstPage("a")
    }
    let diagnostics = Recorder(viewModel.diagnostics)
    viewModel.loadNextPage()
    return (viewModel, diagnostics)
}

@Suite("Offline: AutomaticRetry with a connectivity property")
struct OfflineRetryTests {
    @Test func aPageThatFailsOfflineWaitsInsteadOfBackingOff() {
        let source = QuerySource()
        let connectivity = MutableProperty(false)
        let clock = TestScheduler()
        let (viewModel, diagnostics) = offlineList(source, connectivity: connectivity, clock: clock)
        source.lastRun.fail()
        clock.advance(by: .seconds(3600))
        #expect(source.runs.count == 1)
        #expect(diagnostics.values == [.waitingForConnectivity])
        withExtendedLifetime(viewModel) {}
    }

    @Test func aWaitingPageIsRetriedAtOnceWhenTheConnectivityTurnsTrue() {
        let source = QuerySource()
        let connectivity = MutableProperty(false)
        let clock = TestScheduler()
        let (viewModel, _) = offlineList(source, connectivity: connectivity, clock: clock)
        source.lastRun.fail()
        connectivity.value = true
        #expect(source.runs.count == 2)
        #expect(viewModel.loadStates.value.append == .loading)
    }

    @Test func theWaitShowsAsTheFailedLoadStateOfARetryThatIsDue() {
        let source = QuerySource()
        let connectivity = MutableProperty(false)
        let clock = TestScheduler()
        let (viewModel, _) = offlineList(source, connectivity: connectivity, clock: clock)
        source.lastRun.fail(5)
        #expect(viewModel.loadStates.value.append == .failed(TestError(5)))
        #expect(viewModel.lastError.value == TestError(5))
    }

    @Test func failuresWhileOfflineDoNotCountTowardsMaxRetries() {
        let source = QuerySource()
        let connectivity = MutableProperty(false)
        let clock = TestScheduler()
        let (viewModel, diagnostics) = offlineList(source, connectivity: connectivity, clock: clock)
        for _ in 0 ..< 4 {
            source.lastRun.fail()
            connectivity.value = true
            connectivity.value = false
        }
        connectivity.value = true
        source.lastRun.fail()
        #expect(diagnostics.values.last == .retryScheduled(retry: 1, delay: .seconds(1)))
        #expect(source.runs.count == 5)
        withExtendedLifetime(viewModel) {}
    }

    @Test func aRetryThatFallsDueWhileOfflineWaitsForTheConnectivity() {
        let source = QuerySource()
        let connectivity = MutableProperty(true)
        let clock = TestScheduler()
        let (viewModel, _) = offlineList(source, connectivity: connectivity, clock: clock)
        source.lastRun.fail()
        connectivity.value = false
        clock.advance(by: .seconds(5))
        #expect(source.runs.count == 1)
        connectivity.value = true
        #expect(source.runs.count == 2)
        withExtendedLifetime(viewModel) {}
    }

    @Test func aBackoffCutShortByTheNetworkComingBackRetriesAtOnce() {
        let source = QuerySource()
        let connectivity = MutableProperty(true)
        let clock = TestScheduler()
        let (viewModel, _) = offlineList(
            source, connectivity: connectivity, clock: clock,
            policy: RetryPolicy(maxRetries: 2, initialDelay: .seconds(30), jitter: 0)
        )
        source.lastRun.fail()
        connectivity.value = false
        connectivity.value = true
        #expect(source.runs.count == 2)
        withExtendedLifetime(viewModel) {}
    }

    @Test func onlineAFailedPageBacksOffAsWithoutAConnectivity() {
        let source = QuerySource()
        let connectivity = MutableProperty(true)
        let clock = TestScheduler()
        let (viewModel, diagnostics) = offlineList(source, connectivity: connectivity, clock: clock)
        source.lastRun.fail()
        #expect(diagnostics.values == [.retryScheduled(retry: 1, delay: .seconds(1))])
        clock.advance(by: .milliseconds(999))
        #expect(source.runs.count == 1)
        clock.advance(by: .milliseconds(1))
        #expect(source.runs.count == 2)
        withExtendedLifetime(viewModel) {}
    }

    @Test func resetCancelsAPageWaitingForTheConnectivity() {
        let source = QuerySource()
        let connectivity = MutableProperty(false)
        let clock = TestScheduler()
        let (viewModel, _) = offlineList(source, connectivity: connectivity, clock: clock)
        source.lastRun.fail()
        viewModel.reset()
        connectivity.value = true
        #expect(source.runs.count == 1)
    }

    @Test func loadNextPageRetriesAWaitingPageAtOnceWhileOffline() {
        let source = QuerySource()
        let connectivity = MutableProperty(false)
        let clock = TestScheduler()
        let (viewModel, _) = offlineList(source, connectivity: connectivity, clock: clock)
        source.lastRun.fail()
        viewModel.loadNextPage()
        #expect(source.runs.count == 2)
        connectivity.value = true
        #expect(source.runs.count == 2)
    }

    @Test func aPageThatCannotSucceedIsNotRetriedOfflineEither() {
        struct Gone: Error, RetryAdvising { var retryAdvice: RetryAdvice { .doNotRetry } }
        let connectivity = MutableProperty(false)
        let clock = TestScheduler()
        let starts = Counter()
        let retry = AutomaticRetry(RetryPolicy(jitter: 0), on: clock, connectivity: Property(connectivity))
        let viewModel = PaginatedListViewModel<Int, Gone>(scheduler: ImmediateScheduler(), retry: retry) {
            Producer { observer, _ in
                starts.increment()
                observer.send(error: Gone())
            }
        }
        viewModel.loadNextPage()
        connectivity.value = true
        clock.advance(by: .seconds(3600))
        #expect(starts.count == 1)
    }
}
