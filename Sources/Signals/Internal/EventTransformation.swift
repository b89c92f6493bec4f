/// How a stream ended: the terminal events of `Event`, without a value case.
@usableFromInline
enum Termination<Failure: Error> {
    case failed(Failure)
    case completed
    case interrupted

    /// The same termination as an event of a stream of `Value`s.
    @inlinable
    func event<Value>(_: Value.Type = Value.self) -> Event<Value, Failure> {
        switch self {
        case let .failed(error): return .failed(error)
        case .completed: return .completed
        case .interrupted: return .interrupted
        }
    }
}

extension Event {
    /// The termination this event is, or `nil` for a value.
    @inlinable
    var termination: Termination<Failure>? {
        switch self {
        case .value: return nil
        case let .failed(error): return .failed(error)
        case .completed: return .completed
        case .interrupted: return .interrupted
        }
    }
}

/// A unary operator, written once as what it does with a stream's events: for each value, what it sends
/// downstream (any number of values, through `send`, from a handler made once per stream, which may keep
/// state); for the terminal event, which terminal event it sends.
///
/// Both forms of the operator are derived from it, so they cannot disagree: on `Signal`
/// (`Signal.transformed(by:)`: an observation of the upstream signal that sends into a new pipe) and on
/// `Producer` (`Producer.transformed(by:)`, fused with the upstream start handler: no intermediate
/// signal, no allocation per value). See "Writing an operator" in `Docs/Signals.md` for the contract.
///
/// Inlinable, with both derived forms and every operator written with it: unspecialised, five operators
/// on a signal cost 14,385 instructions per value instead of 602, five fused on a producer 3,532 instead of
/// 272 (the operator rows of `Benchmarks core`, measured with callgrind).
@usableFromInline
struct EventTransformation<Value, Failure: Error, Output, OutputFailure: Error> {
    /// Where the operator sends: the input of the next signal, or the next stage of a fused producer.
    @usableFromInline typealias Downstream = Signal<Output, OutputFailure>.Observer

    /// Makes the value handler for one stream (one signal, or one producer run), sending to `downstream`
    /// (values only: the terminal event is `termination`'s). The handler is called serially, one value at
    /// a time, when the operator runs on a signal; on a fused producer it is called from the threads the
    /// upstream sends on, so only a stateless handler may be fused.
    @usableFromInline let values: (Downstream) -> (Value) -> Void
    /// The terminal event the operator sends for the upstream's.
    @usableFromInline let termination: (Termination<Failure>) -> Termination<OutputFailure>

    @inlinable
    init(
        values: @escaping (Downstream) -> (Value) -> Void,
        termination: @escaping (Termination<Failure>) -> Termination<OutputFailure>
    ) {
        self.values = values
        self.termination = termination
    }

    /// The upstream observer of one stream: values go through the handler, the terminal event through
    /// `termination`, into `downstream`.
    @inlinable
    func observer(sendingTo downstream: Signal<Output, OutputFailure>.Observer) -> Signal<Value, Failure>.Observer {
        let onValue = values(downstream)
        let termination = self.termination
        return Signal<Value, Failure>.Observer(forwarding: { event in
            if let ended = event.termination {
                downstream.send(termination(ended).event())
            } else if case let .value(value) = event {
                onValue(value)
            }
        }, values: onValue, keepAliveTarget: downstream)
    }
}

extension EventTransformation where OutputFailure == Failure {
    /// An operator that forwards the terminal event unchanged.
    @inlinable
    init(values: @escaping (Downstream) -> (Value) -> Void) {
        self.init(values: values, termination: { $0 })
    }
}

extension Signal {
    /// The `Signal` form of an operator: a new signal fed by an observation of this one, which this signal
    /// retains until either terminates. On a signal that has already terminated, the result is sent what
    /// the operator makes of `interrupted`.
    @inlinable
    func transformed<Output, OutputFailure>(
        by transformation: EventTransformation<Value, Failure, Output, OutputFailure>
    ) -> Signal<Output, OutputFailure> {
        let (output, input) = Signal<Output, OutputFailure>.pipe()
        let termination = transformation.termination
        let attached = core.attach(.forwarding(
            values: transformation.values(input),
            termination: { event in
                if let ended = event.termination { input.send(termination(ended).event()) }
            }))
        if attached == nil { input.send(termination(.interrupted).event()) }
        return output
    }
}

extension Producer {
    /// The fused `Producer` form of a stateless operator: every run starts this producer with the
    /// operator's observer in front of the run's input. No intermediate signal; the handler runs on the
    /// thread the upstream sends from.
    @inlinable
    func transformed<Output, OutputFailure>(
        by transformation: EventTransformation<Value, Failure, Output, OutputFailure>
    ) -> Producer<Output, OutputFailure> {
        let upstream = startHandler
        return Producer<Output, OutputFailure> { observer, lifetime in
            upstream(transformation.observer(sendingTo: observer), lifetime)
        }
    }
}
