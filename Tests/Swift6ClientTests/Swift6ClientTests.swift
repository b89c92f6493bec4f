// A client written in Swift 6 language mode with complete concurrency checking. It hands the core's
// thread-safe types to tasks and observes from @MainActor code with no escape hatch: no unchecked
// Sendable conformance, no unsafe nonisolated state, no preconcurrency import (the last test checks).
import Foundation
import Signals
import Testing

/// What observers received, from whichever thread they ran on.
final class Inbox: Sendable {
    private let received = Locked<[Int]>([])
    func append(_ value: Int) { received.withLock { $0.append(value) } }
    var all: [Int] { received.withLock { $0 } }
}

/// Compiles only for `Sendable` types.
func requireSendable<T: Sendable>(_: T.Type) {}

@Suite struct SendableTypesTests {
    @Test func theCoresThreadSafeTypesAreSendable() {
        requireSendable(Signal<Int, Never>.self)
        requireSendable(Signal<Int, Never>.Observer.self)
        requireSendable(MutableProperty<Int>.self)
        requireSendable(Property<Int>.self)
        requireSendable(Lifetime.self)
        requireSendable(Lifetime.Token.self)
        requireSendable(Event<Int, CancellationError>.self)
        requireSendable((any Disposable).self)
        requireSendable((any Scheduler).self)
    }
}

@Suite struct TaskClientTests {
    @Test func aPipeInputHandedToADetachedTaskSendsFromThere() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        let inbox = Inbox()
        signal.observeValues { inbox.append($0) }
        await Task.detached {
            for value in 1...3 { input.send(value: value) }
            input.sendCompleted()
        }.value
        #expect(inbox.all == [1, 2, 3])
    }

    @Test func manyChildTasksSendOnOneInput() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        let inbox = Inbox()
        signal.observeValues { inbox.append($0) }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for value in 0..<100 { input.send(value: task * 100 + value) }
                }
            }
        }
        #expect(inbox.all.sorted() == Array(0..<800))
    }

    @Test func aMutablePropertyHandedToTasksIsSetAndModifiedFromThem() async {
        let count = MutableProperty(0)
        let inbox = Inbox()
        count.signal.observeValues { inbox.append($0) }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<100 { count.modify { $0 += 1 } }
                }
            }
        }
        await Task.detached { count.value += 1 }.value
        #expect(count.value == 801)
        #expect(inbox.all == Array(1...801))
    }

    @Test func aReadOnlyPropertyIsReadFromADetachedTask() async {
        let source = MutableProperty("first")
        let view = Property(source)
        source.value = "second"
        let read = await Task.detached { view.value }.value
        #expect(read == "second")
    }
}

/// State that lives on the main actor, as a screen's would.
@MainActor final class Screen {
    private(set) var shown: [Int] = []
    private var observation: (any Disposable)?

    /// Shows every value of `count`. The observer runs on the thread that changes `count`: this screen's
    /// contract is that `count` is changed on the main actor, which `assumeIsolated` checks.
    init(count: Property<Int>) {
        observation = count.producer.startWithValues { [weak self] value in
            MainActor.assumeIsolated { self?.shown.append(value) }
        }
    }

    func show(_ value: Int) { shown.append(value) }
}

@Suite struct MainActorClientTests {
    @MainActor @Test func mainActorCodeObservesAPropertyChangedOnTheMainActor() {
        let count = MutableProperty(0)
        let screen = Screen(count: Property(count))
        count.value = 1
        count.modify { $0 += 1 }
        #expect(screen.shown == [0, 1, 2])
    }

    @MainActor @Test func mainActorCodeConsumesValuesSentFromADetachedTaskThroughAnAsyncStream() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        signal.observe { event in
            switch event {
            case let .value(value): continuation.yield(value)
            case .completed, .interrupted: continuation.finish()
            }
        }
        Task.detached {
            for value in 1...3 { input.send(value: value) }
            input.sendCompleted()
        }
        let screen = Screen(count: Property(value: 0))
        for await value in stream { screen.show(value) }     // on the main actor, in order
        #expect(screen.shown == [0, 1, 2, 3])
    }

    @MainActor @Test func mainActorCodeHandsAnObserverToABackgroundTaskAndAwaitsItsValues() async {
        let count = MutableProperty(0)
        let inbox = Inbox()
        let observation = count.signal.observeValues { inbox.append($0) }
        await Task.detached { count.value = 42 }.value
        observation?.dispose()
        #expect(inbox.all == [42])
    }
}

@Suite struct NoEscapeHatchTests {
    @Test func thisTargetUsesNoConcurrencyEscapeHatch() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let forbidden = ["@un" + "checked", "nonisolated" + "(unsafe)", "@pre" + "concurrency"]
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }
        #expect(!files.isEmpty)
        for file in files {
            let source = try String(contentsOf: file, encoding: .utf8)
            for word in forbidden {
                #expect(!source.contains(word), "\(file.lastPathComponent) uses \(word)")
            }
        }
    }
}
