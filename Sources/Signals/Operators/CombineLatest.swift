extension Signal {
    /// A signal of pairs of the latest values of `a` and `b`, sent whenever either sends a value once
    /// both have sent one.
    ///
    /// Completes once both sources have completed; fails (or is interrupted) as soon as either fails
    /// (or is interrupted), and then stops observing the other. Values from the two sources may arrive
    /// on different threads: a lock orders them, and the pairs are delivered serially in that order.
    /// The sources retain the returned signal's state until they terminate or it does.
    public static func combineLatest<Other>(
        _ a: Signal<Value, Failure>, _ b: Signal<Other, Failure>
    ) -> Signal<(Value, Other), Failure> {
        let state = CombineLatestOperator<Value, Other, Failure>()
        state.observations.add(a.observe { event in state.receive(event, at: \.first) })
        state.observations.add(b.observe { event in state.receive(event, at: \.second) })
        return state.output
    }

    /// A signal of pairs of the latest values of this signal and `other`.
    ///
    /// The same as `Signal.combineLatest(self, other)`.
    public func combineLatest<Other>(with other: Signal<Other, Failure>) -> Signal<(Value, Other), Failure> {
        Signal.combineLatest(self, other)
    }
}

/// `combineLatest`'s lock-guarded state: the latest value of each side, and which sides completed.
struct CombineLatestState<A, B, Failure: Error> {
    struct Side<T> {
        var latest: T?
        var isCompleted = false
    }
    var first = Side<A>()
    var second = Side<B>()

    /// Takes `event` from the side at `side`; says what to do with the output.
    mutating func receive<T>(
        _ event: Event<T, Failure>, at side: WritableKeyPath<Self, Side<T>>,
        _ output: inout OutputState<(A, B), Failure>
    ) -> OutputAction<(A, B), Failure> {
        switch event {
        case let .value(value):
            self[keyPath: side].latest = value
            guard let a = first.latest, let b = second.latest else { return .none }
            return output.send((a, b))
        case .completed:
            self[keyPath: side].isCompleted = true
            guard first.isCompleted && second.isCompleted else { return .none }
            return output.terminate(.completed)
        case let .failed(error):
            return output.terminate(.failed(error))
        case .interrupted:
            return output.terminate(.interrupted)
        }
    }
}

/// `combineLatest`'s output, fed by both sources.
final class CombineLatestOperator<A, B, Failure: Error>: OperatorOutput<(A, B), Failure>, @unchecked Sendable {
    /// Guarded by `lock`.
    var state = CombineLatestState<A, B, Failure>()
    /// The sources' observations, disposed once the output terminated.
    let observations = CompositeDisposable()

    func receive<T>(_ event: Event<T, Failure>, at side: WritableKeyPath<CombineLatestState<A, B, Failure>, CombineLatestState<A, B, Failure>.Side<T>>) {
        if perform(lock.locked { state.receive(event, at: side, &outputState) }) { observations.dispose() }
    }
}

extension Producer {
    /// A producer of pairs of the latest values of a run of `a` and a run of `b`.
    ///
    /// Each run starts `a`, then `b` (unless the run already ended), and combines them as
    /// `Signal.combineLatest(_:_:)` does. When the run ends, both runs are disposed.
    public static func combineLatest<Other>(
        _ a: Producer<Value, Failure>, _ b: Producer<Other, Failure>
    ) -> Producer<(Value, Other), Failure> {
        Producer<(Value, Other), Failure> { observer, lifetime in
            let (first, firstInput) = Signal<Value, Failure>.pipe()
            let (second, secondInput) = Signal<Other, Failure>.pipe()
            Signal.combineLatest(first, second).attachForwarding(observer)
            lifetime.add(a.start(firstInput))
            guard !lifetime.hasEnded else { return }
            lifetime.add(b.start(secondInput))
        }
    }

    /// A producer of pairs of the latest values of this producer and `other`.
    ///
    /// The same as `Producer.combineLatest(self, other)`.
    public func combineLatest<Other>(with other: Producer<Other, Failure>) -> Producer<(Value, Other), Failure> {
        Producer.combineLatest(self, other)
    }
}
