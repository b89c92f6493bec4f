import Foundation
import Signals

/// A scheduler in virtual time, for testing time-based code without sleeping.
///
/// Nothing runs until the test advances time: `advance()` runs what is due now, `advance(by:)` moves
/// the clock forward and runs every action due by then (in date order, FIFO for equal dates, with the
/// clock set to each action's date while it runs), `run()` runs everything, however far in the future.
/// Actions scheduled by running actions are run too if they fall due within the advanced span.
/// Thread-safe; actions run on the thread that advances.
public final class TestScheduler: DateScheduler {
    private struct Item {
        let date: Date
        let order: UInt64
        let action: @Sendable () -> Void
        let cancellation: AnyDisposable
    }

    private struct State {
        var now: Date
        var items: [Item] = []
        var nextOrder: UInt64 = 0
    }

    private let state: Locked<State>

    /// A scheduler whose clock starts at `startDate` (the reference date by default).
    public init(startDate: Date = Date(timeIntervalSinceReferenceDate: 0)) {
        state = Locked(State(now: startDate))
    }

    /// The virtual now.
    public var currentDate: Date { state.withLock { $0.now } }

    /// The number of actions scheduled and neither run nor cancelled.
    public var pendingCount: Int {
        state.withLock { $0.items.filter { !$0.cancellation.isDisposed }.count }
    }

    /// Enqueues `action` to run at the current virtual date (on the next `advance`).
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        schedule(after: currentDate, action: action)
    }

    /// Enqueues `action` to run at `date` in virtual time.
    @discardableResult
    public func schedule(after date: Date, action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        let cancellation = AnyDisposable()
        state.withLock { state in
            state.items.append(Item(date: max(date, state.now), order: state.nextOrder, action: action,
                                    cancellation: cancellation))
            state.nextOrder += 1
        }
        return cancellation
    }

    /// Runs every action due at the current date.
    public func advance() {
        advance(to: currentDate)
    }

    /// Moves the clock forward by `interval` and runs every action due by then.
    public func advance(by interval: Duration) {
        advance(to: currentDate.addingTimeInterval(interval.timeInterval))
    }

    /// Moves the clock to `date` (if later) and runs every action due by then.
    public func advance(to date: Date) {
        while let item = takeNext(dueBy: date) {
            if !item.cancellation.isDisposed { item.action() }
        }
        state.withLock { state in state.now = max(state.now, date) }
    }

    /// Runs every scheduled action, moving the clock as far as the last one needs.
    public func run() {
        while let item = takeNext(dueBy: .distantFuture) {
            if !item.cancellation.isDisposed { item.action() }
        }
    }

    private func takeNext(dueBy date: Date) -> Item? {
        state.withLock { state -> Item? in
            state.items.removeAll { $0.cancellation.isDisposed }
            guard let index = state.items.indices.min(by: { lhs, rhs in
                let (a, b) = (state.items[lhs], state.items[rhs])
                return a.date != b.date ? a.date < b.date : a.order < b.order
            }), state.items[index].date <= date else { return nil }
            let item = state.items.remove(at: index)
            state.now = max(state.now, item.date)
            return item
        }
    }
}
