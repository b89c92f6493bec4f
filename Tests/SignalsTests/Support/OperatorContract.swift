import Foundation
import Signals

/// One operator under the contract battery (`OperatorContractTests`): how it is applied to a producer and
/// to a signal of `Int`s, as an `Int` stream again (an operator that changes the types is followed by the
/// one that changes them back, or by a `map`).
///
/// With the arguments given here every operator lets each of the first 100 values through, in order, as
/// one value, and answers every terminal event with a terminal event (`terminal`): the battery checks what
/// every operator must do whatever it is for — the event grammar, disposal, interruption, reentrancy,
/// serial delivery and the release of the upstream run and of the observers.
struct OperatorCase: CustomStringConvertible, Sendable {
    let description: String
    let producer: @Sendable (Producer<Int, TestError>) -> Producer<Int, TestError>
    /// `nil` for the operators that exist on `Producer` only.
    let signal: (@Sendable (Signal<Int, TestError>) -> Signal<Int, TestError>)?
    /// The terminal event the operator answers the upstream's with (the same one, for all but
    /// `ignoreErrors`).
    let terminal: @Sendable (Terminal) -> Terminal

    static let all: [OperatorCase] = [
        OperatorCase("map", { $0.map { $0 } }, { $0.map { $0 } }),
        OperatorCase("filter", { $0.filter { _ in true } }, { $0.filter { _ in true } }),
        OperatorCase("compactMap", { $0.compactMap { $0 } }, { $0.compactMap { $0 } }),
        OperatorCase("mapError", { $0.mapError { $0 } }, { $0.mapError { $0 } }),
        OperatorCase("ignoreErrors + promoteError",
                     { $0.ignoreErrors().promoteError(TestError.self) },
                     { $0.ignoreErrors().promoteError(TestError.self) },
                     terminal: { $0 == .failed ? .completed : $0 }),
        OperatorCase("attemptMap", { $0.attemptMap { $0 } }, { $0.attemptMap { $0 } }),
        OperatorCase("scan", { $0.scan(0) { _, value in value } }, { $0.scan(0) { _, value in value } }),
        OperatorCase("skipRepeats", { $0.skipRepeats() }, { $0.skipRepeats() }),
        OperatorCase("take(first:)", { $0.take(first: 100) }, { $0.take(first: 100) }),
        OperatorCase("take(until:)", { $0.take(until: Producer<Void, Never>.never) },
                     { $0.take(until: Signal<Void, Never>.pipe().output) }),
        OperatorCase("on", { $0.on(value: { _ in }, terminated: {}) }, { $0.on(value: { _ in }, terminated: {}) }),
        OperatorCase("observe(on:)", { $0.observe(on: ImmediateScheduler()) }, { $0.observe(on: ImmediateScheduler()) }),
        OperatorCase("debounce", { $0.debounce(.seconds(1), on: ImmediateDateScheduler()) },
                     { $0.debounce(.seconds(1), on: ImmediateDateScheduler()) }),
        OperatorCase("throttle", { $0.throttle(.seconds(1), on: ImmediateDateScheduler()) },
                     { $0.throttle(.seconds(1), on: ImmediateDateScheduler()) }),
        OperatorCase("flatMap(.merge)", { $0.flatMap(.merge) { Producer(value: $0) } },
                     { $0.flatMap(.merge) { Producer(value: $0) } }),
        OperatorCase("flatMap(.concat)", { $0.flatMap(.concat) { Producer(value: $0) } },
                     { $0.flatMap(.concat) { Producer(value: $0) } }),
        OperatorCase("flatMap(.latest)", { $0.flatMap(.latest) { Producer(value: $0) } },
                     { $0.flatMap(.latest) { Producer(value: $0) } }),
        OperatorCase("combineLatest", { $0.combineLatest(with: Producer(value: 0)).map { $0.0 } },
                     { combinedWithZero($0) }),
        OperatorCase("start(on:)", { $0.start(on: ImmediateScheduler()) }, nil),
        OperatorCase("retry", { $0.retry(upTo: 0) }, nil),
        OperatorCase("deferred", { upstream in Producer.deferred { upstream } }, nil),
    ]

    init(
        _ description: String,
        _ producer: @escaping @Sendable (Producer<Int, TestError>) -> Producer<Int, TestError>,
        _ signal: (@Sendable (Signal<Int, TestError>) -> Signal<Int, TestError>)?,
        terminal: @escaping @Sendable (Terminal) -> Terminal = { $0 }
    ) {
        self.description = description
        self.producer = producer
        self.signal = signal
        self.terminal = terminal
    }

    static var withSignalForm: [OperatorCase] { all.filter { $0.signal != nil } }
}

/// `upstream` combined with a signal that sent 0 and completed once `combineLatest` observed it: every
/// value of `upstream` comes out paired with 0, and the result terminates when `upstream` does.
private func combinedWithZero(_ upstream: Signal<Int, TestError>) -> Signal<Int, TestError> {
    let (other, input) = Signal<Int, TestError>.pipe()
    let combined = Signal.combineLatest(upstream, other).map { $0.0 }
    input.send(value: 0)
    input.sendCompleted()
    return combined
}

/// A date scheduler that runs every action at once, whatever its date: time-based operators under it
/// forward every value as it comes.
struct ImmediateDateScheduler: DateScheduler {
    var currentDate: Date { Date(timeIntervalSinceReferenceDate: 0) }

    @discardableResult
    func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        action()
        return nil
    }

    @discardableResult
    func schedule(after date: Date, action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        action()
        return nil
    }
}
