import Signals

/// The failure of the streams under test.
struct OperatorTestError: Error, Equatable {
    var code = 0
}

/// The three terminal events, for tests that check each of them.
enum Terminal: CaseIterable, CustomStringConvertible {
    case failed, completed, interrupted

    func event<Value>(_: Value.Type = Value.self) -> Event<Value, OperatorTestError> {
        switch self {
        case .failed: return .failed(OperatorTestError(code: 7))
        case .completed: return .completed
        case .interrupted: return .interrupted
        }
    }

    var description: String { "\(event(Int.self))" }
}

/// Records every event it is sent, from any thread.
final class Recorder<Value: Sendable, Failure: Error>: Sendable {
    private let storage = Locked<[Event<Value, Failure>]>([])

    var events: [Event<Value, Failure>] { storage.withLock { $0 } }
    var values: [Value] { events.compactMap(\.value) }
    var terminal: Event<Value, Failure>? { events.last.flatMap { $0.isTerminating ? $0 : nil } }

    func record(_ event: Event<Value, Failure>) { storage.withLock { $0.append(event) } }
}

/// A thread-safe counter (or log of strings) for side effects.
final class CallLog: Sendable {
    private let storage = Locked<[String]>([])
    var entries: [String] { storage.withLock { $0 } }
    func append(_ entry: String) { storage.withLock { $0.append(entry) } }
}

extension Signal where Value: Sendable {
    func recorded() -> Recorder<Value, Failure> {
        let recorder = Recorder<Value, Failure>()
        observe { recorder.record($0) }
        return recorder
    }
}

extension Producer where Value: Sendable {
    func startRecording() -> (Recorder<Value, Failure>, any Disposable) {
        let recorder = Recorder<Value, Failure>()
        let disposable = start { recorder.record($0) }
        return (recorder, disposable)
    }
}

/// A producer driven by the test: every run's input is kept, and the runs' starts and ends are counted.
final class Probe<Value: Sendable, Failure: Error>: Sendable {
    private struct State {
        var inputs: [Signal<Value, Failure>.Observer] = []
        var ends = 0
    }
    private let state = Locked(State())

    var producer: Producer<Value, Failure> {
        Producer { [self] observer, lifetime in
            state.withLock { $0.inputs.append(observer) }
            lifetime.observeEnded { self.state.withLock { $0.ends += 1 } }
        }
    }

    /// How many runs started.
    var starts: Int { state.withLock { $0.inputs.count } }
    /// How many runs' lifetimes ended.
    var ends: Int { state.withLock { $0.ends } }
    /// The input of the latest run.
    var input: Signal<Value, Failure>.Observer { state.withLock { $0.inputs.last! } }
    /// The input of run `index` (0-based).
    func input(_ index: Int) -> Signal<Value, Failure>.Observer { state.withLock { $0.inputs[index] } }
}
