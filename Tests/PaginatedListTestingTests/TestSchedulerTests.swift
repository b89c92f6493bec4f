import Foundation
import PaginatedListTesting
import Signals
import Testing

/// A thread-safe log for actions run by the scheduler.
private final class Log: Sendable {
    private let entries = Locked<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

@Suite struct TestSchedulerTests {
    @Test func nothingRunsUntilTimeIsAdvanced() {
        let scheduler = TestScheduler()
        let log = Log()
        scheduler.schedule { log.append("now") }
        #expect(log.all == [])
        #expect(scheduler.pendingCount == 1)
        scheduler.advance()
        #expect(log.all == ["now"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func actionsDueAtTheSameDateRunInTheOrderTheyWereScheduled() {
        let scheduler = TestScheduler()
        let log = Log()
        for index in 1...3 { scheduler.schedule { log.append("\(index)") } }
        scheduler.advance()
        #expect(log.all == ["1", "2", "3"])
    }

    @Test func actionsRunInDateOrderWhateverTheOrderTheyWereScheduledIn() {
        let scheduler = TestScheduler()
        let log = Log()
        scheduler.schedule(after: .seconds(3)) { log.append("3s") }
        scheduler.schedule(after: .seconds(1)) { log.append("1s") }
        scheduler.schedule(after: .seconds(2)) { log.append("2s") }
        scheduler.run()
        #expect(log.all == ["1s", "2s", "3s"])
    }

    @Test func advancingByAnIntervalRunsOnlyTheActionsDueByThen() {
        let scheduler = TestScheduler()
        let log = Log()
        scheduler.schedule(after: .seconds(1)) { log.append("1s") }
        scheduler.schedule(after: .seconds(5)) { log.append("5s") }
        scheduler.advance(by: .seconds(2))
        #expect(log.all == ["1s"])
        scheduler.advance(by: .seconds(3))
        #expect(log.all == ["1s", "5s"])
    }

    @Test func advancingMovesTheClockByTheInterval() {
        let start = Date(timeIntervalSinceReferenceDate: 100)
        let scheduler = TestScheduler(startDate: start)
        #expect(scheduler.currentDate == start)
        scheduler.advance(by: .seconds(2))
        #expect(scheduler.currentDate == start.addingTimeInterval(2))
    }

    @Test func theClockShowsTheActionsDateWhileItRuns() {
        let scheduler = TestScheduler()
        let start = scheduler.currentDate
        let seen = Locked<[TimeInterval]>([])
        for seconds in [1, 3] {
            scheduler.schedule(after: .seconds(seconds)) {
                let now = scheduler.currentDate.timeIntervalSince(start)
                seen.withLock { $0.append(now) }
            }
        }
        scheduler.advance(by: .seconds(10))
        #expect(seen.withLock { $0 } == [1, 3])
        #expect(scheduler.currentDate == start.addingTimeInterval(10))
    }

    @Test func runRunsEverythingAndMovesTheClockToTheLastAction() {
        let scheduler = TestScheduler()
        let start = scheduler.currentDate
        let log = Log()
        scheduler.schedule(after: .seconds(60)) { log.append("1m") }
        scheduler.schedule(after: .seconds(3_600)) { log.append("1h") }
        scheduler.run()
        #expect(log.all == ["1m", "1h"])
        #expect(scheduler.currentDate == start.addingTimeInterval(3_600))
    }

    @Test func actionsScheduledByARunningActionRunIfTheyFallDueWithinTheAdvance() {
        let scheduler = TestScheduler()
        let log = Log()
        scheduler.schedule(after: .seconds(1)) {
            log.append("1s")
            scheduler.schedule(after: .seconds(1)) { log.append("2s") }
            scheduler.schedule(after: .seconds(5)) { log.append("6s") }
        }
        scheduler.advance(by: .seconds(3))
        #expect(log.all == ["1s", "2s"])
    }

    @Test func aDisposedActionDoesNotRun() {
        let scheduler = TestScheduler()
        let log = Log()
        scheduler.schedule { log.append("cancelled") }?.dispose()
        scheduler.schedule { log.append("kept") }
        #expect(scheduler.pendingCount == 1)
        scheduler.advance()
        #expect(log.all == ["kept"])
    }

    @Test func aDatePassedAlreadyRunsOnTheNextAdvanceWithoutMovingTheClockBack() {
        let scheduler = TestScheduler()
        scheduler.advance(by: .seconds(10))
        let now = scheduler.currentDate
        let log = Log()
        scheduler.schedule(after: now.addingTimeInterval(-5)) { log.append("late") }
        scheduler.advance()
        #expect(log.all == ["late"])
        #expect(scheduler.currentDate == now)
    }
}
