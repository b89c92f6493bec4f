import Signals
import Testing

/// Outer values index the inner probes: `flatMap` over `[inners[i]]`.
private func flattened(
    _ strategy: FlattenStrategy, _ inners: [Probe<String, TestError>]
) -> (outer: Probe<Int, TestError>, recorder: Recorder<String, TestError>, disposable: any Disposable) {
    let outer = Probe<Int, TestError>()
    let (recorder, disposable) = outer.producer.flatMap(strategy) { inners[$0].producer }.startRecording()
    return (outer, recorder, disposable)
}

@Test func mergeForwardsTheValuesOfEveryInnerAsTheyCome() {
    let inners = [Probe<String, TestError>(), Probe<String, TestError>()]
    let (outer, recorder, _) = flattened(.merge, inners)
    outer.input.send(value: 0)
    outer.input.send(value: 1)
    inners[1].input.send(value: "b1")
    inners[0].input.send(value: "a1")
    #expect(recorder.values == ["b1", "a1"])
}

@Test func concatStartsTheNextInnerWhenThePreviousCompletes() {
    let inners = [Probe<String, TestError>(), Probe<String, TestError>()]
    let (outer, recorder, _) = flattened(.concat, inners)
    outer.input.send(value: 0)
    outer.input.send(value: 1)
    #expect(inners[1].starts == 0)
    inners[0].input.send(value: "a")
    inners[0].input.sendCompleted()
    #expect(inners[1].starts == 1)
    inners[1].input.send(value: "b")
    #expect(recorder.values == ["a", "b"])
}

@Test func concatRunsSynchronousInnersInOrderWithoutRecursion() {
    let (recorder, _) = Producer<Int, TestError>(values: 1...3)
        .flatMap(.concat) { Producer(values: ["\($0)a", "\($0)b"]) }
        .startRecording()
    #expect(recorder.events == [.value("1a"), .value("1b"), .value("2a"), .value("2b"), .value("3a"), .value("3b"), .completed])
}

@Test func concatRunsQueuedSynchronousInnersOnceTheBlockingOneCompletes() {
    let blocking = Probe<Int, TestError>()
    let (outer, input) = Signal<Int, TestError>.pipe()
    let recorder = outer.flatMap(.concat) { value in
        value == 0 ? blocking.producer : Producer(value: value)
    }.recorded()
    for value in 0...200 { input.send(value: value) }
    input.sendCompleted()
    blocking.input.sendCompleted()
    #expect(recorder.values == Array(1...200))
    #expect(recorder.terminal == .completed)
}

@Test func latestDisposesTheRunningInnerWhenANewOuterValueArrives() {
    let inners = [Probe<String, TestError>(), Probe<String, TestError>()]
    let (outer, recorder, _) = flattened(.latest, inners)
    outer.input.send(value: 0)
    inners[0].input.send(value: "a")
    outer.input.send(value: 1)
    #expect(inners[0].ends == 1)
    inners[0].input.send(value: "late")
    inners[1].input.send(value: "b")
    #expect(recorder.values == ["a", "b"])
    #expect(recorder.terminal == nil)
}

@Test(arguments: [FlattenStrategy.merge, .concat])
func outerCompletionWaitsForEveryInner(_ strategy: FlattenStrategy) {
    let inners = [Probe<String, TestError>(), Probe<String, TestError>()]
    let (outer, recorder, _) = flattened(strategy, inners)
    outer.input.send(value: 0)
    outer.input.send(value: 1)
    outer.input.sendCompleted()
    inners[0].input.sendCompleted()
    #expect(recorder.terminal == nil)
    inners[1].input.sendCompleted()
    #expect(recorder.terminal == .completed)
}

@Test func latestOuterCompletionWaitsOnlyForTheLatestInner() {
    let inners = [Probe<String, TestError>(), Probe<String, TestError>()]
    let (outer, recorder, _) = flattened(.latest, inners)
    outer.input.send(value: 0)
    outer.input.send(value: 1)
    outer.input.sendCompleted()
    #expect(recorder.terminal == nil)
    inners[1].input.sendCompleted()
    #expect(recorder.terminal == .completed)
}

@Test(arguments: [FlattenStrategy.merge, .concat, .latest])
func outerCompletionWithNoInnerCompletesAtOnce(_ strategy: FlattenStrategy) {
    let (outer, recorder, _) = flattened(strategy, [])
    outer.input.sendCompleted()
    #expect(recorder.events == [.completed])
}

@Test(arguments: [FlattenStrategy.merge, .concat, .latest])
func innerFailureFailsTheResultAndDisposesTheOuterRun(_ strategy: FlattenStrategy) {
    let inners = [Probe<String, TestError>()]
    let (outer, recorder, _) = flattened(strategy, inners)
    outer.input.send(value: 0)
    inners[0].input.send(error: TestError(code: 1))
    #expect(recorder.events == [.failed(TestError(code: 1))])
    #expect(outer.ends == 1)
}

@Test func innerFailureDisposesTheOtherInners() {
    let inners = [Probe<String, TestError>(), Probe<String, TestError>()]
    let (outer, recorder, _) = flattened(.merge, inners)
    outer.input.send(value: 0)
    outer.input.send(value: 1)
    inners[1].input.send(error: TestError())
    #expect(recorder.terminal == .failed(TestError()))
    #expect(inners[0].ends == 1)
}

@Test func innerInterruptionInterruptsTheResult() {
    let inners = [Probe<String, TestError>()]
    let (outer, recorder, _) = flattened(.merge, inners)
    outer.input.send(value: 0)
    inners[0].input.sendInterrupted()
    #expect(recorder.events == [.interrupted])
}

@Test(arguments: [Terminal.failed, .interrupted])
func outerFailureOrInterruptionEndsTheResultAndInterruptsTheInners(_ terminal: Terminal) {
    let inners = [Probe<String, TestError>(), Probe<String, TestError>()]
    let (outer, recorder, _) = flattened(.merge, inners)
    outer.input.send(value: 0)
    outer.input.send(value: 1)
    outer.input.send(terminal.event())
    #expect(recorder.events == [terminal.event()])
    #expect(inners[0].ends == 1 && inners[1].ends == 1)
}

@Test(arguments: [FlattenStrategy.merge, .concat, .latest])
func disposalDisposesTheOuterAndInnerRuns(_ strategy: FlattenStrategy) {
    let inners = [Probe<String, TestError>(), Probe<String, TestError>()]
    let (outer, recorder, disposable) = flattened(strategy, inners)
    outer.input.send(value: 0)
    outer.input.send(value: 1)
    disposable.dispose()
    #expect(recorder.events == [.interrupted])
    #expect(outer.ends == 1)
    #expect(inners.map(\.ends) == inners.map(\.starts))
    #expect(inners[0].ends == 1)
}

@Test(arguments: [FlattenStrategy.merge, .concat, .latest])
func disposalAfterTheOuterCompletedDisposesTheInnerRuns(_ strategy: FlattenStrategy) {
    let inners = [Probe<String, TestError>(), Probe<String, TestError>()]
    let (outer, recorder, disposable) = flattened(strategy, inners)
    outer.input.send(value: 0)
    outer.input.send(value: 1)
    outer.input.sendCompleted()
    disposable.dispose()
    #expect(recorder.events == [.interrupted])
    #expect(inners.map(\.ends) == inners.map(\.starts))
    #expect(inners.allSatisfy { $0.starts <= 1 })
}

@Test func concatDisposalAfterTheOuterCompletedNeverStartsTheQueuedInners() {
    let inners = [Probe<String, TestError>(), Probe<String, TestError>()]
    let (outer, _, disposable) = flattened(.concat, inners)
    outer.input.send(value: 0)
    outer.input.send(value: 1)
    outer.input.sendCompleted()
    disposable.dispose()
    #expect(inners[0].ends == 1)
    inners[0].input.sendCompleted()
    #expect(inners[1].starts == 0)
}

@Test func concatDisposalNeverStartsTheQueuedInners() {
    let inners = [Probe<String, TestError>(), Probe<String, TestError>()]
    let (outer, _, disposable) = flattened(.concat, inners)
    outer.input.send(value: 0)
    outer.input.send(value: 1)
    disposable.dispose()
    #expect(inners[1].starts == 0)
}

/// Weak references to the objects the inner producers of a test capture, by outer value.
private final class CapturedObjects: Sendable {
    private let references = Locked<[Int: WeakReference]>([:])

    /// A new object for outer value `index`, watched weakly.
    func make(_ index: Int) -> Tracked {
        let object = Tracked()
        references.withLock { $0[index] = WeakReference(object) }
        return object
    }

    /// Whether the object made for `index` is still alive.
    func isAlive(_ index: Int) -> Bool {
        references.withLock { $0[index]?.isAlive ?? false }
    }
}

@Test func concatReleasesAnInnerThatRanWhileLaterOnesAreStillQueued() {
    let objects = CapturedObjects()
    let runs = Probe<String, TestError>()
    let (outer, input) = Signal<Int, TestError>.pipe()
    let recorder = outer.flatMap(.concat) { index in
        let object = objects.make(index)
        return Producer { observer, lifetime in
            withExtendedLifetime(object) {}
            runs.producer.start(observer)
        }
    }.recorded()
    for index in 0..<4 { input.send(value: index) }
    runs.input(0).sendCompleted()
    runs.input(1).sendCompleted()
    #expect(runs.starts == 3)
    #expect(!objects.isAlive(0))
    #expect(!objects.isAlive(1))
    #expect(objects.isAlive(3))
    withExtendedLifetime(recorder) {}
}
