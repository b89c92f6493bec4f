/// One event of a stream: any number of `value`s, then at most one terminal event.
///
/// The grammar is `value* (failed | completed | interrupted)?`. A `Signal` enforces it: once a
/// terminal event has been accepted, everything sent after it is dropped.
///
/// - `failed`: the work failed with an error of the stream's `Failure` type.
/// - `completed`: the work finished normally.
/// - `interrupted`: the work was cut off before it finished (its run was disposed, or the last
///   reference to its input went away). No error, no result: the consumer should just stop.
public enum Event<Value, Failure: Error> {
    /// A value.
    case value(Value)
    /// The stream failed; no further events follow.
    case failed(Failure)
    /// The stream finished normally; no further events follow.
    case completed
    /// The stream was cut off before it finished; no further events follow.
    case interrupted

    // `isTerminating` and `value` are inlinable: the end of every run goes through them (producer start,
    // `Benchmarks core`).

    /// Whether this event ends the stream (`failed`, `completed` or `interrupted`).
    @inlinable
    public var isTerminating: Bool {
        if case .value = self { return false }
        return true
    }

    /// The value carried by a `value` event, or `nil`.
    @inlinable
    public var value: Value? {
        if case let .value(value) = self { return value }
        return nil
    }

    /// The error carried by a `failed` event, or `nil`.
    public var error: Failure? {
        if case let .failed(error) = self { return error }
        return nil
    }

    /// The same event with `transform` applied to its value; terminal events pass unchanged.
    public func map<U>(_ transform: (Value) -> U) -> Event<U, Failure> {
        switch self {
        case let .value(value): return .value(transform(value))
        case let .failed(error): return .failed(error)
        case .completed: return .completed
        case .interrupted: return .interrupted
        }
    }

    /// The same event with `transform` applied to its error; values and other terminal events pass unchanged.
    public func mapError<F: Error>(_ transform: (Failure) -> F) -> Event<Value, F> {
        switch self {
        case let .value(value): return .value(value)
        case let .failed(error): return .failed(transform(error))
        case .completed: return .completed
        case .interrupted: return .interrupted
        }
    }
}

extension Event: Equatable where Value: Equatable, Failure: Equatable {}
extension Event: Hashable where Value: Hashable, Failure: Hashable {}
extension Event: Sendable where Value: Sendable {}

extension Event: CustomStringConvertible {
    /// `value(…)`, `failed(…)`, `completed` or `interrupted`.
    public var description: String {
        switch self {
        case let .value(value): return "value(\(value))"
        case let .failed(error): return "failed(\(error))"
        case .completed: return "completed"
        case .interrupted: return "interrupted"
        }
    }
}
