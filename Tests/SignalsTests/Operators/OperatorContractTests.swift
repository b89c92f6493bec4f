import Signals
import Testing

/// The contract every operator keeps, whatever it is for, checked on each of them (`OperatorCase.all`):
/// the event grammar, disposal, interruption, reentrancy, serial delivery, and the release of the upstream
/// run and of the observers. See "Writing an operator" in `Docs/Signals.md`.
@Suite struct OperatorContractTests {
    /// Whatever the upstream sends after its terminal event, the result sends one terminal event, last:
    /// the operator's answer to the upstream's.
    @Test(arguments: OperatorCase.all, Terminal.allCases)
    func producerKeepsTheEventGrammar(_ operation: OperatorCase, _ terminal: Terminal) {
        let probe = Probe<Int, TestError>()
        let (recorder, _) = operation.producer(probe.producer).startRecording()
        probe.input.send(value: 1)
        probe.input.send(terminal.event())
        probe.input.send(value: 2)
        probe.input.send(Terminal.failed.event())
        #expect(recorder.events == [.value(1), operation.terminal(terminal).event()])
    }

    @Test(arguments: OperatorCase.withSignalForm, Terminal.allCases)
    func signalKeepsTheEventGrammar(_ operation: OperatorCase, _ terminal: Terminal) {
        let (upstream, input) = Signal<Int, TestError>.pipe()
        let recorder = operation.signal!(upstream).recorded()
        input.send(value: 1)
        input.send(terminal.event())
        input.send(value: 2)
        #expect(recorder.events == [.value(1), operation.terminal(terminal).event()])
    }

    /// The upstream's terminal event ends the run: the upstream run's lifetime has ended and the result's
    /// observer is released.
    @Test(arguments: OperatorCase.all, Terminal.allCases)
    func producerEndsWithTheUpstreamAndReleasesEverything(_ operation: OperatorCase, _ terminal: Terminal) {
        let probe = Probe<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        weak var observer: Tracked?
        do {
            let tracked = Tracked()
            observer = tracked
            operation.producer(probe.producer).start { event in
                withExtendedLifetime(tracked) {}
                recorder.record(event)
            }
        }
        probe.input.send(terminal.event())
        #expect(recorder.terminal == operation.terminal(terminal).event())
        #expect(probe.ends == probe.starts)
        #expect(observer == nil)
    }

    @Test(arguments: OperatorCase.withSignalForm, Terminal.allCases)
    func signalEndsWithTheUpstreamAndReleasesItsObserver(_ operation: OperatorCase, _ terminal: Terminal) {
        let (upstream, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Int, TestError>()
        weak var observer: Tracked?
        do {
            let tracked = Tracked()
            observer = tracked
            operation.signal!(upstream).observe { event in
                withExtendedLifetime(tracked) {}
                recorder.record(event)
            }
        }
        input.send(terminal.event())
        #expect(recorder.terminal == operation.terminal(terminal).event())
        #expect(observer == nil)
    }

    /// Disposing the run interrupts it: the upstream run ends, nothing arrives afterwards, and the
    /// observer is released.
    @Test(arguments: OperatorCase.all)
    func producerDisposalEndsTheUpstreamRun(_ operation: OperatorCase) {
        let probe = Probe<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        weak var observer: Tracked?
        let disposable: any Disposable
        do {
            let tracked = Tracked()
            observer = tracked
            disposable = operation.producer(probe.producer).start { event in
                withExtendedLifetime(tracked) {}
                recorder.record(event)
            }
        }
        probe.input.send(value: 1)
        disposable.dispose()
        let upstream = probe.input
        upstream.send(value: 2)
        #expect(recorder.events == [.value(1), .interrupted])
        #expect(probe.ends == probe.starts)
        #expect(disposable.isDisposed)
        #expect(observer == nil)
    }

    /// When the last reference to the upstream's input goes away, the result is interrupted (after the
    /// value sent before, unless the operator holds it: `combineLatest` waits for its other source).
    @Test(arguments: OperatorCase.all)
    func producerIsInterruptedWhenNothingHoldsTheUpstreamInput(_ operation: OperatorCase) {
        let upstream = Producer<Int, TestError> { observer, _ in observer.send(value: 1) }
        let (recorder, _) = operation.producer(upstream).startRecording()
        #expect(recorder.events.last == .interrupted)
        #expect(recorder.events.filter(\.isTerminating).count == 1)
        #expect(recorder.values.allSatisfy { $0 == 1 })
    }

    /// A value sent from inside the result's observer is delivered after the current one, in order, and
    /// the observer is never re-entered.
    @Test(arguments: OperatorCase.all)
    func producerQueuesReentrantSendsInOrder(_ operation: OperatorCase) {
        let probe = Probe<Int, TestError>()
        let detector = OverlapDetector()
        let values = Log<Int>()
        operation.producer(probe.producer).startWithValues { value in
            detector.during {
                values.append(value)
                if value < 20 { probe.input.send(value: value + 1) }
            }
        }
        probe.input.send(value: 0)
        #expect(values.all == Array(0...20))
        #expect(detector.overlaps == 0)
    }

    @Test(arguments: OperatorCase.withSignalForm)
    func signalQueuesReentrantSendsInOrder(_ operation: OperatorCase) {
        let (upstream, input) = Signal<Int, TestError>.pipe()
        let detector = OverlapDetector()
        let values = Log<Int>()
        operation.signal!(upstream).observeValues { value in
            detector.during {
                values.append(value)
                if value < 20 { input.send(value: value + 1) }
            }
        }
        input.send(value: 0)
        #expect(values.all == Array(0...20))
        #expect(detector.overlaps == 0)
    }

    /// Values sent from several threads at once reach the observer one at a time, none lost.
    @Test(arguments: OperatorCase.all)
    func producerDeliversConcurrentSendsSerially(_ operation: OperatorCase) {
        let probe = Probe<Int, TestError>()
        let detector = OverlapDetector()
        let values = Log<Int>()
        operation.producer(probe.producer).startWithValues { value in
            detector.during { values.append(value) }
        }
        let upstream = probe.input
        onThreads(4) { thread in
            for index in 0..<20 { upstream.send(value: thread * 1_000 + index) }
        }
        #expect(detector.overlaps == 0)
        #expect(values.count == 80)
    }
}
