/// What an operator does with its output signal once its lock is released.
@usableFromInline
enum OutputAction<Value, Failure: Error> {
    /// Nothing: the event was dropped, or queued behind a delivery in progress on another thread.
    case none
    /// Run this delivery.
    case deliver(Signal<Value, Failure>.Delivery)
    /// The output terminated: run the delivery, if any, release the input (outside the lock: releasing it
    /// may run user code), and stop observing the sources.
    case terminate(Signal<Value, Failure>.Delivery?, releasing: Signal<Value, Failure>.Observer)
}

/// The lock-guarded part of an operator's output: the pipe's input while the output runs.
@usableFromInline
struct OutputState<Value, Failure: Error> {
    /// The pipe's input: held while the operator runs, handed out (to release outside the lock) when it
    /// terminates.
    @usableFromInline var input: Signal<Value, Failure>.Observer?

    @usableFromInline
    init(_ input: Signal<Value, Failure>.Observer) {
        self.input = input
    }

    @usableFromInline
    var isTerminated: Bool { input == nil }

    /// Submits `value` unless the output terminated.
    @usableFromInline
    func send(_ value: Value) -> OutputAction<Value, Failure> {
        guard let core = input?.core, let delivery = core.submit(.value(value)) else { return .none }
        return .deliver(delivery)
    }

    /// Terminates the output with `event` (after `value`, if given), unless it already terminated.
    @usableFromInline
    mutating func terminate(_ event: Event<Value, Failure>, after value: Value? = nil) -> OutputAction<Value, Failure> {
        guard let input, let core = input.core else { return .none }
        self.input = nil
        var delivery: Signal<Value, Failure>.Delivery?
        if let value { delivery = core.submit(.value(value)) }
        if let terminal = core.submit(event) { delivery = delivery ?? terminal }
        return .terminate(delivery, releasing: input)
    }
}

/// The output of an operator fed by several signals or by a scheduler: a pipe whose events are submitted
/// while the operator's `lock` is held and delivered after it is released, so that they reach the output
/// in the order the operator decided them (lock order: the operator's, then the output signal's).
///
/// Subclasses keep their own state beside `outputState`, as a value whose methods return an
/// `OutputAction`, guarded by the same `lock`.
@usableFromInline
class OperatorOutput<Value, Failure: Error>: @unchecked Sendable {
    // `@unchecked Sendable`: `outputState` (and the subclasses' state) is only touched with `lock` held.
    @usableFromInline let lock = Lock()
    @usableFromInline let output: Signal<Value, Failure>
    /// Guarded by `lock`.
    @usableFromInline var outputState: OutputState<Value, Failure>

    @usableFromInline
    init() {
        let (output, input) = Signal<Value, Failure>.pipe()
        self.output = output
        outputState = OutputState(input)
    }

    /// Does what a locked section decided; call after releasing `lock`. Returns `true` if the output
    /// terminated (the caller then stops observing its sources).
    @usableFromInline
    @discardableResult
    func perform(_ action: OutputAction<Value, Failure>) -> Bool {
        switch action {
        case .none:
            return false
        case let .deliver(delivery):
            output.deliver(delivery)
            return false
        case let .terminate(delivery, input):
            if let delivery { output.deliver(delivery) }
            withExtendedLifetime(input) {}
            return true
        }
    }
}
