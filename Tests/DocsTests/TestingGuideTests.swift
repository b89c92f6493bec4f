import PaginatedListTesting
import Signals
import Testing

import Foundation

/// The samples of `Docs/Testing.md`, compiled and run. The last test checks that every `swift` code block
/// of the guide appears here line for line (indentation aside), so the guide cannot drift from this file.
@Suite struct TestingGuideTests {
    // MARK: Recording events

    @Test func aProducerOfThreeNumbers() {
        let recorder = Producer<Int, Never>(values: [1, 2, 3]).record()
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
        #expect(recorder.terminal == .completed)
    }

    @Test func disposingARecorderInterruptsTheRun() {
        let recorder = Producer<Int, Never>.never.record()
        #expect(!recorder.isTerminated)
        recorder.dispose()
        #expect(recorder.events == [.interrupted])
    }

    @Test func aProducerThatCompletesOnAQueue() async {
        let scheduler = QueueScheduler(label: "work")
        let recorder = Producer<Int, Never> { observer, _ in
            scheduler.schedule {
                observer.send(value: 42)
                observer.sendCompleted()
            }
        }.record()
        #expect(await recorder.terminated() == .completed)
        #expect(recorder.values == [42])
    }

    // MARK: Time

    /// Shows a message, then hides it after a while.
    final class Toast: Sendable {
        let message = MutableProperty<String?>(nil)
        private let scheduler: any DateScheduler

        init(scheduler: any DateScheduler) {
            self.scheduler = scheduler
        }

        func show(_ text: String, for duration: Duration = .seconds(3)) {
            message.value = text
            scheduler.schedule(after: duration) { [message] in message.value = nil }
        }
    }

    @Test func theToastHidesAfterThreeSeconds() {
        let scheduler = TestScheduler()
        let toast = Toast(scheduler: scheduler)
        let recorder = toast.message.producer.record()

        toast.show("Saved")
        scheduler.advance(by: .seconds(2))
        #expect(toast.message.value == "Saved")

        scheduler.advance(by: .seconds(1))
        #expect(toast.message.value == nil)
        #expect(recorder.values == [nil, "Saved", nil])
    }

    // MARK: View models

    /// Searches, and publishes the results on `scheduler`.
    final class SearchModel {
        let results = MutableProperty<[String]>([])
        private let scheduler: any Scheduler
        private let search: (String) -> Producer<[String], Never>

        init(scheduler: any Scheduler = UIScheduler(), search: @escaping (String) -> Producer<[String], Never>) {
            self.scheduler = scheduler
            self.search = search
        }

        func submit(_ query: String) {
            let (results, scheduler) = (self.results, self.scheduler)
            search(query).startWithValues { found in
                scheduler.schedule { results.value = found }
            }
        }
    }

    @Test func resultsArriveAtOnceOnAnImmediateScheduler() {
        let model = SearchModel(scheduler: ImmediateScheduler()) { query in
            Producer(value: ["\(query) 1", "\(query) 2"])
        }
        model.submit("swift")
        #expect(model.results.value == ["swift 1", "swift 2"])
    }

    @Test func resultsArriveWhenTheTestSchedulerRuns() {
        let scheduler = TestScheduler()
        let model = SearchModel(scheduler: scheduler) { query in Producer(value: [query]) }
        model.submit("swift")
        #expect(model.results.value == [])
        scheduler.advance()
        #expect(model.results.value == ["swift"])
    }

    // MARK: Leaks

    @Test func theModelIsFreedWithItsObservers() {
        let leaks = LeakChecker()
        do {
            let model = SearchModel(scheduler: ImmediateScheduler()) { _ in .never }
            model.results.producer.startWithValues { _ in }
            model.submit("swift")
            leaks.watch(model)
        }
        #expect(leaks.alive == [])
    }

    // MARK: The guide matches this file

    @Test func everyCodeSampleOfTheGuideIsInThisFile() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("Docs/Testing.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let samples = Self.swiftBlocks(in: guide)
        #expect(samples.count >= 8)
        let sourceLines = Self.significantLines(source)
        for sample in samples {
            let lines = Self.significantLines(sample)
            let found = sourceLines.indices.contains { start in
                sourceLines[start...].starts(with: lines)
            }
            #expect(found, "not compiled by this file:\n\(sample)")
        }
    }

    /// The bodies of the guide's ```swift blocks.
    static func swiftBlocks(in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.hasPrefix("```swift") {
                current = []
            } else if current != nil, line.hasPrefix("```") {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Non-blank lines without their indentation.
    /// Whether `lines` appear in `source` in order, each once, with only `#expect` and `try #require`
    /// lines (the checks standing in for a sample's `print`s) between them.
    static func containsInOrder(_ lines: [Substring], in source: [Substring]) -> Bool {
        guard let first = lines.first else { return true }
        for start in source.indices where source[start] == first {
            var index = start
            var matched = 0
            while index < source.endIndex, matched < lines.count {
                if source[index] == lines[matched] {
                    matched += 1
                } else if !(source[index].hasPrefix("#expect") || source[index].hasPrefix("try #require")) {
                    break
                }
                index += 1
            }
            if matched == lines.count { return true }
        }
        return false
    }

    static func significantLines(_ text: String) -> [Substring] {
        text.split(separator: "\n")
            .map { $0.drop { $0 == " " } }
            .filter { !$0.isEmpty }
    }
}
