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
        let state = CombineLatestState<Value, Other, Failure>()
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

/// `combineLatest`'s state: the latest values and which sources completed, guarded by `lock`.
@usableFromInline
final class CombineLatestState<A, B, Failure: Error>: LockedOutput<(A, B), Failure>, @unchecked Sendable {
    struct Side<T> {
        var latest: T?
        var isCompleted = false
    }
    struct Sides {
        var first = Side<A>()
        var second = Side<B>()
    }

    /// Guarded by `lock`.
    var sides = Sides()
    /// The sources' observations, disposed once the output terminated.
    let observations = CompositeDisposable()

    func receive<T>(_ event: Event<T, Failure>, at side: WritableKeyPath<Sides, Side<T>>) {
        typealias Output = Signal<(A, B), Failure>
        let (delivery, termination) = lock.locked { () -> (Output.Delivery?, (Output.Delivery?, Output.Observer?)?) in
            switch event {
            case let .value(value):
                sides[keyPath: side].latest = value
                guard let a = sides.first.latest, let b = sides.second.latest else { return (nil, nil) }
                return (sendLocked((a, b)), nil)
            case .completed:
                sides[keyPath: side].isCompleted = true
                guard sides.first.isCompleted && sides.second.isCompleted else { return (nil, nil) }
                return (nil, terminateLocked(.completed))
            case let .failed(error):
                return (nil, terminateLocked(.failed(error)))
            case .interrupted:
                return (nil, terminateLocked(.interrupted))
            }
        }
        deliver(delivery)
        guard let (terminal, released) = termination else { return }
        deliver(terminal)
        withExtendedLifetime(released) {}
        observations.dispose()
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
