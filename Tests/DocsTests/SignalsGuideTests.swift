// The samples of Docs/Signals.md, compiled and run. Keep them in sync with the guide:
// `guideSamplesMatchTheTests` fails when a sample's code is not found here verbatim.
import Foundation
import PaginatedListTesting
import Signals
import Testing

/// What the samples print, per test.
final class Printed: Sendable {
    private let storage = Locked<[String]>([])
    var lines: [String] { storage.withLock { $0 } }
    func append(_ line: String) { storage.withLock { $0.append(line) } }
}

enum Guide {
    @TaskLocal static var printed: Printed?

    /// Runs `sample`, returning what it printed.
    static func run(_ sample: () -> Void) -> [String] {
        let printed = Printed()
        $printed.withValue(printed) { sample() }
        return printed.lines
    }

    /// Suspends until `condition` holds, checking after each turn of the main actor (after the first
    /// thousand, every millisecond), for at most a minute; the caller's `#expect` says what did not happen.
    /// Bounded in time, not in turns: on a loaded machine the work it waits for can take any number of turns.
    @MainActor static func waitOnMainActor(until condition: () -> Bool) async {
        let deadline = ContinuousClock.now + .seconds(60)
        var turns = 0
        while !condition(), ContinuousClock.now < deadline {
            turns += 1
            if turns < 1_000 { await Task.yield() } else { try? await Task.sleep(for: .milliseconds(1)) }
        }
    }
}

/// The samples' `print`: records into the running test's `Printed`.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Guide.printed?.append(items.map { "\($0)" }.joined(separator: separator))
}

/// Every sample in the guide names its test, and its code lines appear here, in order, unchanged.
@Test func guideSamplesMatchTheTests() throws {
    let here = URL(fileURLWithPath: #filePath)
    let guide = try String(contentsOf: here.deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Docs/Signals.md"), encoding: .utf8)
    let tests = try String(contentsOf: here, encoding: .utf8)
    let testLines = tests.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let parts = guide.components(separatedBy: "```swift\n").dropFirst()
    #expect(parts.count == 19)
    for part in parts {
        let code = part.components(separatedBy: "```")[0].split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.hasPrefix("//") }
        let found = testLines.indices.contains { start in
            start + code.count <= testLines.count && Array(testLines[start..<start + code.count]) == code
        }
        #expect(found, "sample not found in SignalsGuideTests.swift:\n\(code.joined(separator: "\n"))")
    }
}

@Test func pipeSendsToEveryObserverInOrder() {
    let printed = Guide.run {
        let (signal, input) = Signal<Int, Never>.pipe()
        signal.observeValues { print("A", $0) }
        signal.observeValues { print("B", $0) }
        input.send(value: 1)
        input.sendCompleted()
        input.send(value: 2)        // dropped: the signal has completed
    }
    #expect(printed == ["A 1", "B 1"])
}

@Test func producerRunsAnewForEveryStart() {
    let printed = Guide.run {
        let numbers = Producer<Int, Never> { observer, lifetime in
            lifetime.observeEnded { print("run ended") }
            for i in 1...2 where !lifetime.hasEnded { observer.send(value: i) }
            observer.sendCompleted()
        }
        numbers.startWithValues { print($0) }
        numbers.startWithValues { print($0) }
    }
    #expect(printed == ["1", "2", "run ended", "1", "2", "run ended"])
}

@Test func disposingARunInterruptsIt() {
    let printed = Guide.run {
        let disposable = Producer<Int, Never>.never
            .on(disposed: { print("run ended") })
            .start { print($0) }
        disposable.dispose()
    }
    #expect(printed == ["interrupted", "run ended"])
}

@Test func propertyProducerStartsWithTheCurrentValue() {
    let printed = Guide.run {
        let count = MutableProperty(0)
        count.producer.startWithValues { print("count", $0) }
        count.value = 1
        count.modify { $0 += 1 }
    }
    #expect(printed == ["count 0", "count 1", "count 2"])
}

@Test func composedPropertiesFollowTheirSources() {
    let printed = Guide.run {
        let first = MutableProperty("Ada")
        let last = MutableProperty("Lovelace")
        let names = Property.combineLatest(Property(first), Property(last))
        let full = names.map { "\($0) \($1)" }
        last.value = "Byron"
        print(full.value)
    }
    #expect(printed == ["Ada Byron"])
}

@Test func testSchedulerRunsInVirtualTime() {
    let printed = Guide.run {
        let scheduler = TestScheduler()
        scheduler.schedule(after: .seconds(2)) { print("two seconds later") }
        scheduler.advance(by: .seconds(1))
        print("one second later")
        scheduler.advance(by: .seconds(1))
    }
    #expect(printed == ["one second later", "two seconds later"])
}

@Test func mapFilterCompactMap() {
    let printed = Guide.run {
        Producer<String, Never>(values: ["1", "x", "2", "3"])
            .compactMap { Int($0) }
            .filter { $0 != 2 }
            .map { $0 * 10 }
            .startWithValues { print($0) }
    }
    #expect(printed == ["10", "30"])
}

@Test func errorOperators() {
    let printed = Guide.run {
        struct Offline: Error {}
        struct LoadError: Error { var reason: String }
        Producer<Int, Offline>(error: Offline())
            .mapError { _ in LoadError(reason: "offline") }
            .start { print($0) }
        Producer<Int, Never>(value: 1).promoteError(LoadError.self).start { print($0) }
        Producer<Int, Offline>(error: Offline()).ignoreErrors().start { print($0) }
    }
    #expect(printed == ["failed(LoadError(reason: \"offline\"))", "value(1)", "completed", "completed"])
}

@Test func scanAccumulates() {
    let printed = Guide.run {
        Producer<Int, Never>(values: [1, 2, 3]).scan(0, +).startWithValues { print($0) }
    }
    #expect(printed == ["1", "3", "6"])
}

@Test func skipRepeatsDropsConsecutiveDuplicates() {
    let printed = Guide.run {
        Producer<Int, Never>(values: [1, 1, 2, 2, 1]).skipRepeats().startWithValues { print($0) }
    }
    #expect(printed == ["1", "2", "1"])
}

@Test func takeOperators() {
    let printed = Guide.run {
        Producer<Int, Never>(values: 1...100).take(first: 2).start { print($0) }
        let (stop, stopNow) = Signal<Void, Never>.pipe()
        let (ticks, tick) = Signal<Int, Never>.pipe()
        ticks.take(until: stop).observe { print($0) }
        tick.send(value: 1)
        stopNow.send(value: ())
        tick.send(value: 2)
    }
    #expect(printed == ["value(1)", "value(2)", "completed", "value(1)", "completed"])
}

@Test func combineLatestPairsTheLatestValues() {
    let printed = Guide.run {
        let (query, setQuery) = Signal<String, Never>.pipe()
        let (page, setPage) = Signal<Int, Never>.pipe()
        Signal.combineLatest(query, page).observeValues { print("\($0) p\($1)") }
        setQuery.send(value: "swift")
        setPage.send(value: 1)
        setPage.send(value: 2)
    }
    #expect(printed == ["swift p1", "swift p2"])
}

@Test func flatMapStrategies() {
    let printed = Guide.run {
        let pages = Producer<Int, Never>(values: [1, 2])
        pages.flatMap(.concat) { page in Producer(values: ["p\(page)a", "p\(page)b"]) }
            .startWithValues { print($0) }
    }
    #expect(printed == ["p1a", "p1b", "p2a", "p2b"])
}

@Test func flatMapLatestSwitchesToTheNewestInner() {
    let printed = Guide.run {
        let scheduler = TestScheduler()
        let (search, type) = Signal<String, Never>.pipe()
        search.flatMap(.latest) { text in
            Producer(value: "results for \(text)").start(on: scheduler)
        }.observeValues { print($0) }
        type.send(value: "s")
        type.send(value: "sw")
        scheduler.advance()
    }
    #expect(printed == ["results for sw"])
}

@Test func onRunsSideEffects() {
    let printed = Guide.run {
        Producer<Int, Never>(value: 1)
            .on(started: { print("started") }, value: { print("value", $0) },
                terminated: { print("terminated") }, disposed: { print("disposed") })
            .start()
    }
    #expect(printed == ["started", "value 1", "terminated", "disposed"])
}

@Test func schedulingOperators() {
    let printed = Guide.run {
        let scheduler = TestScheduler()
        Producer<Int, Never>(value: 1).observe(on: scheduler).startWithValues { print("observed", $0) }
        let cancelled = Producer<Int, Never> { _, _ in print("never printed") }.start(on: scheduler).start()
        cancelled.dispose()
        print("before advance")
        scheduler.advance()
    }
    #expect(printed == ["before advance", "observed 1"])
}

@Test func retryRestartsAFailedProducer() {
    let printed = Guide.run {
        struct Busy: Error {}
        let attempts = MutableProperty(0)
        let flaky = Producer<String, Busy> { observer, _ in
            let attempt = attempts.modify { count -> Int in count += 1; return count }
            if attempt < 3 { observer.send(error: Busy()) } else { observer.send(value: "attempt \(attempt)") }
            observer.sendCompleted()
        }
        flaky.retry(upTo: 2).start { print($0) }
    }
    #expect(printed == ["value(attempt 3)", "completed"])
}

@Test func attemptMapAndDeferred() {
    let printed = Guide.run {
        struct BadNumber: Error {}
        let page = MutableProperty(0)
        let nextPage = Producer<String, BadNumber>.deferred {
            page.value += 1
            return Producer(value: page.value == 1 ? "1" : "two")
        }
        let numbers = nextPage.attemptMap { text throws(BadNumber) -> Int in
            guard let number = Int(text) else { throw BadNumber() }
            return number
        }
        numbers.start { print($0) }
        numbers.start { print($0) }
    }
    #expect(printed == ["value(1)", "completed", "failed(BadNumber())"])
}

@Test func debounceAndThrottle() {
    let printed = Guide.run {
        let scheduler = TestScheduler()
        let (scrolls, scroll) = Signal<Int, Never>.pipe()
        scrolls.debounce(.milliseconds(300), on: scheduler).observeValues { print("debounced", $0) }
        scrolls.throttle(.seconds(1), on: scheduler).observeValues { print("throttled", $0) }
        for offset in [10, 20, 30] { scroll.send(value: offset) }
        scheduler.advance(by: .seconds(1))
    }
    #expect(printed == ["throttled 30", "debounced 30"])
}
