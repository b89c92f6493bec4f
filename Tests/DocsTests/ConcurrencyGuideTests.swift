import Foundation
import Testing
import Signals

// Compiles every sample of Docs/Concurrency.md; `everySampleOfTheGuideIsCompiledHere` checks that each
// one appears in this file verbatim (ignoring indentation), so the guide cannot drift from the code.

/// The guide's file-scope samples, in a namespace so that their names stay out of other guides' way.
enum ConcurrencyGuide {
    enum LoadError: Error { case offline }

    @MainActor
    final class ProgressLabel {
        private(set) var text = ""
        private var observations: [any Disposable] = []

        init(progress: Property<Double>, messages: Signal<String, Never>) {
            observations.append(progress.producer.startWithValues(on: UIScheduler()) { [weak self] value in
                self?.text = "\(Int(value * 100)) %"
            })
            if let observation = messages.observeValues(on: UIScheduler(), { [weak self] message in
                self?.text = message
            }) {
                observations.append(observation)
            }
        }
    }

    @MainActor
    final class CountLabel {
        private(set) var count = 0

        func follow(_ property: Property<Int>) -> Task<Void, Never> {
            Task { [weak self] in
                for await value in property.values { self?.count = value }
            }
        }
    }
}

@Suite(.serialized) struct ConcurrencyGuideTests {
    @Test func threadingSample() {
        let (signal, input) = Signal<Int, Never>.pipe()
        signal.observeValues { value in
            // Runs on the thread that sent `value` (or the one already delivering), one event at a time.
            print("got", value)
        }
        DispatchQueue.global().async { input.send(value: 1) }
    }

    @Test func schedulersSample() {
        let work = QueueScheduler(label: "work")
        work.schedule { print("on the work queue") }
        UIScheduler().schedule { print("on the main thread") }
    }

    @Test func sendableSample() async {
        let progress = MutableProperty(0.0)
        let (messages, input) = Signal<String, Never>.pipe()
        Task.detached {
            progress.value = 0.5           // MutableProperty<Double> is Sendable
            input.send(value: "halfway")   // so is Signal<String, Never>.Observer
        }
        _ = messages
        _ = await progress.values.first { $0 == 0.5 }
    }

    @Test @MainActor func mainActorOverloadsSample() async {
        let progress = MutableProperty(0.25)
        let (messages, input) = Signal<String, Never>.pipe()
        let label = ConcurrencyGuide.ProgressLabel(progress: Property(progress), messages: messages)
        await drainMainQueue()
        #expect(label.text == "25 %")
        await Task.detached { input.send(value: "done") }.value
        await drainMainQueue()
        #expect(label.text == "done")
    }

    @Test @MainActor func forAwaitSample() async {
        let count = MutableProperty(1)
        let label = ConcurrencyGuide.CountLabel()
        let following = label.follow(Property(count))
        count.value = 2
        await Guide.waitOnMainActor { label.count == 2 }
        #expect(label.count == 2)
        following.cancel()   // the task holds the property until its loop ends
        await following.value
    }

    @Test func valuesSample() async {
        typealias LoadError = ConcurrencyGuide.LoadError
        let numbers = Producer<Int, LoadError>(values: [1, 2])
        do throws(LoadError) {
            for try await value in numbers.values { print(value) }
            print("completed or interrupted")
        } catch {
            print("failed:", error)   // a LoadError
        }
    }

    @Test func asyncProducersAndFirstSamples() async throws {
        let answer = Producer<Int, Never> { () async -> Int in
            try? await Task.sleep(for: .milliseconds(10))
            return 42
        }
        let download = Producer { () async throws -> String in
            try await Task.sleep(for: .milliseconds(10))   // throws CancellationError if the run is disposed
            return "payload"
        }   // a Producer<String, any Error>
        let ticks = Producer(values: AsyncStream<Int> { continuation in
            for tick in 1...3 { continuation.yield(tick) }
            continuation.finish()
        })

        let value = await answer.first()              // 42
        let payload = try await download.first()      // "payload"

        #expect(value == 42)
        #expect(payload == "payload")
        let _: Producer<String, any Error> = download
        var allTicks: [Int] = []
        for await tick in ticks.values { allTicks.append(tick) }
        #expect(allTicks == [1, 2, 3])
    }

    @Test func everySampleOfTheGuideIsCompiledHere() throws {
        let testsFile = URL(fileURLWithPath: #filePath)
        let guide = testsFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Docs/Concurrency.md")
        let markdown = try String(contentsOf: guide, encoding: .utf8)
        let source = normalized(try String(contentsOf: testsFile, encoding: .utf8))
        let samples = swiftBlocks(in: markdown)
        #expect(samples.count == 8)
        for sample in samples {
            #expect(source.contains(normalized(sample)), "not compiled by ConcurrencyGuideTests:\n\(sample)")
        }
    }
}

/// Resumes once the main queue has run everything enqueued on it before this call.
@MainActor
private func drainMainQueue() async {
    await withCheckedContinuation { continuation in
        DispatchQueue.main.async { continuation.resume() }
    }
}

/// The bodies of the ```swift blocks of `markdown`.
private func swiftBlocks(in markdown: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
        if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
            current = []
        } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
            blocks.append(current!.joined(separator: "\n"))
            current = nil
        } else {
            current?.append(line)
        }
    }
    return blocks
}

/// `text` without indentation or blank lines, so that a sample matches its indented copy here.
private func normalized(_ text: String) -> String {
    text.split(separator: "\n")
        .map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }
        .joined(separator: "\n")
}
