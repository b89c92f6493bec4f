import Dispatch
import Testing
import Signals

/// A view-model-like consumer isolated to the main actor, as a Swift 6 UI client writes it: it observes a
/// signal and a property through the `@MainActor` overloads and through `for await` over `values`, with no
/// unchecked Sendable conformance, unsafe nonisolated state or preconcurrency import anywhere (`NoEscapeHatchTests` checks).
@MainActor
final class ScoreBoard {
    private(set) var title = ""
    private(set) var goals: [String] = []
    private(set) var streamedGoals: [String] = []
    private(set) var streamedScores: [Int] = []
    private var observations: [any Disposable] = []
    /// The `for await` loops; they end when their sequence ends or the board stops.
    private(set) var streaming: [Task<Void, Never>] = []

    init(score: Property<Int>, goals goalSignal: Signal<String, Never>) {
        observations.append(score.producer.startWithValues(on: UIScheduler()) { [weak self] score in
            self?.title = "Score: \(score)"
        })
        if let observation = goalSignal.observeValues(on: UIScheduler(), { [weak self] goal in
            self?.goals.append(goal)
        }) {
            observations.append(observation)
        }
        let goalValues = goalSignal.values
        streaming.append(Task { [weak self] in
            for await goal in goalValues { self?.streamedGoals.append(goal) }
        })
        let scoreValues = score.values
        streaming.append(Task { [weak self] in
            for await score in scoreValues { self?.streamedScores.append(score) }
        })
    }

    /// Stops every observation and loop.
    func stop() {
        for observation in observations { observation.dispose() }
        for task in streaming { task.cancel() }
    }
}

/// Resumes once the main queue has run everything enqueued on it before this call.
@MainActor
func drainMainQueue() async {
    await withCheckedContinuation { continuation in
        DispatchQueue.main.async { continuation.resume() }
    }
}

@Suite(.serialized) @MainActor struct MainActorConsumerTests {
    @Test func aMainActorModelSeesThePropertysCurrentValue() async {
        let score = MutableProperty(3)
        let (goals, _) = Signal<String, Never>.pipe()
        let board = ScoreBoard(score: Property(score), goals: goals)
        await drainMainQueue()   // at once when nothing else is queued on the main queue; else soon after
        #expect(board.title == "Score: 3")
        board.stop()
    }

    @Test func aMainActorModelSeesChangesSentFromOtherTasks() async {
        let score = MutableProperty(0)
        let (goals, input) = Signal<String, Never>.pipe()
        let board = ScoreBoard(score: Property(score), goals: goals)
        // The property and the signal's input are Sendable: hand them to a task off the main actor.
        await Task.detached {
            score.value = 1
            input.send(value: "Ada")
            score.value = 2
            input.send(value: "Grace")
        }.value
        await drainMainQueue()
        #expect(board.title == "Score: 2")
        #expect(board.goals == ["Ada", "Grace"])
        board.stop()
    }

    @Test func aMainActorModelIteratesASignalsValuesUntilItCompletes() async {
        let score = MutableProperty(0)
        let (goals, input) = Signal<String, Never>.pipe()
        let board = ScoreBoard(score: Property(score), goals: goals)
        await Task.detached {
            input.send(value: "Ada")
            input.send(value: "Grace")
            input.sendCompleted()
        }.value
        await board.streaming[0].value
        #expect(board.streamedGoals == ["Ada", "Grace"])
        board.stop()
    }

    @Test func aMainActorModelIteratesAPropertysValuesUntilThePropertyIsFreed() async {
        var score: MutableProperty<Int>? = MutableProperty(1)
        let (goals, _) = Signal<String, Never>.pipe()
        let board = ScoreBoard(score: Property(score!), goals: goals)
        await Task.yield()   // the board's loops start, and wait for their next element
        score?.value = 2
        score = nil          // the board holds no reference: the property is freed and its values end
        await board.streaming[1].value
        #expect(board.streamedScores == [1, 2])
        board.stop()
    }
}
