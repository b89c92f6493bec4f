import Signals

/// Records the events of a signal or of a producer's run, in the order they arrive, for assertions in tests.
///
/// ```swift
/// let recorder = Producer<Int, Never>(values: [1, 2]).record()
/// #expect(recorder.values == [1, 2])
/// #expect(recorder.terminal == .completed)
/// ```
///
/// Thread-safe: events may be recorded from any thread while the test reads the accessors. The recorder
/// records what it is sent and enforces nothing, so a misbehaving sender shows up in `events`. It holds
/// the disposable of what it records (see `record()`), and disposing the recorder disposes that.
public final class EventRecorder<Value: Sendable, Failure: Error>: Disposable {
    private struct State {
        var events: [Event<Value, Failure>] = []
        var waiters: [CheckedContinuation<Event<Value, Failure>, Never>] = []
        var source: (any Disposable)?
        var isDisposed = false
    }

    private let state = Locked(State())

    /// An empty recorder. Feed it with `observer`, `record(_:)`, or use `Signal.record()` / `Producer.record()`.
    public init() {}

    /// An observer that records every event it is sent: `producer.start(recorder.observer)`.
    public var observer: Signal<Value, Failure>.Observer {
        Signal<Value, Failure>.Observer { [self] event in record(event) }
    }

    /// Records `event`. Resumes the tasks waiting in `terminated()` if it is the first terminal event.
    public func record(_ event: Event<Value, Failure>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Event<Value, Failure>, Never>] in
            let firstTerminal = event.isTerminating && !state.events.contains { $0.isTerminating }
            state.events.append(event)
            guard firstTerminal else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: event) }
    }

    /// Every event recorded so far, in order.
    public var events: [Event<Value, Failure>] {
        state.withLock { $0.events }
    }

    /// The values recorded so far, in order.
    public var values: [Value] {
        state.withLock { $0.events.compactMap(\.value) }
    }

    /// The first terminal event recorded (`failed`, `completed` or `interrupted`), or `nil`.
    public var terminal: Event<Value, Failure>? {
        state.withLock { $0.events.first { $0.isTerminating } }
    }

    /// Whether a terminal event has been recorded.
    public var isTerminated: Bool {
        terminal != nil
    }

    /// Waits until a terminal event is recorded and returns it (at once if one already was).
    ///
    /// Does not return before then, even if the calling task is cancelled: use it for streams that end.
    public func terminated() async -> Event<Value, Failure> {
        await withCheckedContinuation { continuation in
            let terminal = state.withLock { state -> Event<Value, Failure>? in
                if let terminal = state.events.first(where: { $0.isTerminating }) { return terminal }
                state.waiters.append(continuation)
                return nil
            }
            if let terminal { continuation.resume(returning: terminal) }
        }
    }

    /// Makes the recorder responsible for `source`, the disposable of what it records: disposing the
    /// recorder disposes it (at once if the recorder is already disposed).
    public func hold(_ source: (any Disposable)?) {
        let disposeNow = state.withLock { state -> Bool in
            if state.isDisposed { return true }
            state.source = source
            return false
        }
        if disposeNow { source?.dispose() }
    }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    /// Disposes what the recorder records: a producer's run is interrupted (and `interrupted` recorded),
    /// a signal's observation is detached. Later calls do nothing.
    public func dispose() {
        let source = state.withLock { state -> (any Disposable)? in
            guard !state.isDisposed else { return nil }
            state.isDisposed = true
            defer { state.source = nil }
            return state.source
        }
        source?.dispose()
    }
}

extension Signal where Value: Sendable {
    /// Observes this signal with a new `EventRecorder`, which holds the observation.
    ///
    /// On a signal that has already terminated, the recorder holds `[.interrupted]` (the late-observer rule).
    /// The signal retains the recorder until it terminates or the recorder is disposed.
    public func record() -> EventRecorder<Value, Failure> {
        let recorder = EventRecorder<Value, Failure>()
        recorder.hold(observe { [recorder] event in recorder.record(event) })
        return recorder
    }
}

extension Producer where Value: Sendable {
    /// Starts a run of this producer with a new `EventRecorder`, which holds the run's disposable.
    ///
    /// Events the run sends synchronously are recorded before `record()` returns. Disposing the recorder
    /// interrupts the run. The run and the recorder retain each other until the run terminates.
    public func record() -> EventRecorder<Value, Failure> {
        let recorder = EventRecorder<Value, Failure>()
        recorder.hold(start { [recorder] event in recorder.record(event) })
        return recorder
    }
}
