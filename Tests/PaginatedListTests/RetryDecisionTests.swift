import Foundation
import PaginatedList
import PaginatedListTesting
import Signals
import Testing

// Retry that listens to the error: `RetryPolicy.decision(after:failures:draw:)`, and the view model
// following it.

/// An error that gives the advice it was made with.
private struct AdvisingError: RetryAdvising, Equatable, Sendable {
    let retryAdvice: RetryAdvice
}

/// An error with no advice.
private struct PlainError: Error {}

/// A policy without jitter: its delays are exact.
private let exact = RetryPolicy(maxRetries: 3, initialDelay: .seconds(2), multiplier: 2, maxDelay: .seconds(60), jitter: 0)

@Suite("Retry policy: the decision")
struct RetryDecisionTests {
    @Test func anErrorWithoutAdviceIsRetriedAfterTheBackoff() {
        #expect(exact.decision(after: PlainError(), failures: 1, draw: 0.5) == .retry(after: .seconds(2)))
        #expect(exact.decision(after: PlainError(), failures: 3, draw: 0.5) == .retry(after: .seconds(8)))
    }

    @Test func aServersWaitLongerThanTheBackoffIsWaited() {
        let error = AdvisingError(retryAdvice: .retryAfter(.seconds(5)))
        #expect(exact.decision(after: error, failures: 1, draw: 0.5) == .retry(after: .seconds(5)))
    }

    @Test func aServersWaitBeyondTheMaximumDelayIsStillWaited() {
        let error = AdvisingError(retryAdvice: .retryAfter(.seconds(120)))
        #expect(exact.decision(after: error, failures: 1, draw: 0.5) == .retry(after: .seconds(120)))
    }

    @Test func aBackoffLongerThanTheServersWaitIsKept() {
        let error = AdvisingError(retryAdvice: .retryAfter(.seconds(1)))
        #expect(exact.decision(after: error, failures: 3, draw: 0.5) == .retry(after: .seconds(8)))
    }

    @Test func jitterNeverShortensTheServersWait() {
        let policy = RetryPolicy(maxRetries: 3, initialDelay: .seconds(4), jitter: 0.5)
        let error = AdvisingError(retryAdvice: .retryAfter(.seconds(4)))
        for draw in stride(from: 0.0, through: 1.0, by: 0.125) {
            guard case let .retry(after: delay) = policy.decision(after: error, failures: 1, draw: draw) else {
                Issue.record("no retry at draw \(draw)")
                continue
            }
            #expect(delay >= .seconds(4), "draw \(draw)")
        }
    }

    @Test func aNaNDrawOrJitterSpreadsNothingInsteadOfTrapping() {
        #expect(exact.delay(beforeRetry: 2, draw: .nan) == .seconds(4))
        let nanJitter = RetryPolicy(maxRetries: 3, initialDelay: .seconds(2), multiplier: 2, maxDelay: .seconds(60), jitter: .nan)
        #expect(nanJitter.delay(beforeRetry: 2, draw: 1) == .seconds(4))
    }

    @Test func anErrorThatCannotSucceedIsNotRetried() {
        let error = AdvisingError(retryAdvice: .doNotRetry)
        #expect(exact.decision(after: error, failures: 1, draw: 0.5) == .stop(.cannotSucceed))
    }

    @Test func retriesEverythingRetriesAnErrorThatCannotSucceed() {
        var policy = exact
        policy.retriesEverything = true
        let error = AdvisingError(retryAdvice: .doNotRetry)
        #expect(policy.decision(after: error, failures: 1, draw: 0.5) == .retry(after: .seconds(2)))
    }

    @Test func retriesStopAfterTheMaximumWhateverTheAdvice() {
        #expect(exact.decision(after: PlainError(), failures: 4, draw: 0.5) == .stop(.retriesExhausted(failures: 4)))
        let waiting = AdvisingError(retryAdvice: .retryAfter(.seconds(1)))
        #expect(exact.decision(after: waiting, failures: 4, draw: 0.5) == .stop(.retriesExhausted(failures: 4)))
    }

    @Test func eachStopNamesItsDiagnostic() {
        #expect(RetryDecision.Stop.retriesExhausted(failures: 2).diagnostic == .retriesExhausted(failures: 2))
        #expect(RetryDecision.Stop.cannotSucceed.diagnostic == .retryNotAttempted)
    }
}

/// A view model over a chain whose every start fails with `error`, retrying by `policy` on `timer`;
/// `starts` counts the starts.
private func failingList(
    _ error: AdvisingError, _ policy: RetryPolicy, timer: TestScheduler, starts: Recorder<Int>
) -> PaginatedListViewModel<Int, AdvisingError> {
    let failing = Producer<Page<Int, AdvisingError>, AdvisingError> { observer, _ in
        starts.append(starts.values.count + 1)
        observer.send(error: error)
    }
    return PaginatedListViewModel(scheduler: ImmediateScheduler(), retry: AutomaticRetry(policy, on: timer)) { failing }
}

@Suite("Retry policy: the view model follows the decision")
struct RetryAdviceViewModelTests {
    @Test func theAutomaticRetryWaitsTheErrorsRetryAfter() {
        let timer = TestScheduler()
        let starts = Recorder<Int>()
        let list = failingList(AdvisingError(retryAdvice: .retryAfter(.seconds(7))), exact, timer: timer, starts: starts)
        list.loadNextPage()
        timer.advance(by: .milliseconds(6_999))
        #expect(starts.values.count == 1, "no retry inside the server's window")
        timer.advance(by: .milliseconds(1))
        #expect(starts.values.count == 2)
    }

    @Test func aFailureThatCannotSucceedIsReportedAndNotRetried() {
        let timer = TestScheduler()
        let starts = Recorder<Int>()
        let list = failingList(AdvisingError(retryAdvice: .doNotRetry), exact, timer: timer, starts: starts)
        let diagnostics = Recorder(list.diagnostics)
        list.loadNextPage()
        timer.advance(by: .seconds(3_600))
        #expect(starts.values.count == 1)
        #expect(diagnostics.values == [.retryNotAttempted])
        #expect(list.lastError.value == AdvisingError(retryAdvice: .doNotRetry))
        list.loadNextPage()
        #expect(starts.values.count == 2, "a manual loadNextPage() still retries")
    }
}
