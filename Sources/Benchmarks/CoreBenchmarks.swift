import Signals

/// The reactive core (`Signals`) against plain closures doing the same work.
enum CoreBenchmarks: BenchmarkSuite {
    static let name = "core"

    static var benchmarks: [Benchmark] {
        [
            Benchmark(name: "signal send, 1 observer (ns/event)", count: 10_000_000, measure: .time,
                      ours: { hot(observers: 1, $0) }, limit: { plainHot(observers: 1, $0) },
                      expected: { triangle($0) }),
            Benchmark(name: "signal send, 10 observers (ns/send)", count: 10_000_000, measure: .time,
                      ours: { hot(observers: 10, $0) }, limit: { plainHot(observers: 10, $0) },
                      expected: { 10 &* triangle($0) }),
            Benchmark(name: "Producer(values:) + 5 map (ns/event)", count: 1_000_000, measure: .time,
                      ours: coldFiveMaps, limit: plainFiveMaps,
                      expected: { triangle($0) &+ 5 &* $0 }),
            Benchmark(name: "signal + map, filter, compactMap, scan, skipRepeats (ns/event)", count: 1_000_000,
                      measure: .time, ours: signalOperators, limit: { plainSteps(adding: [1, 0, 1, 1, 0], $0) },
                      expected: { triangle($0) &+ 3 &* $0 }),
            Benchmark(name: "Producer(values:) + filter, compactMap, mapError, map, ignoreErrors (ns/event)",
                      count: 1_000_000, measure: .time, ours: producerOperators,
                      limit: { plainSteps(adding: [0, 1, 0, 1, 0], $0) }, expected: { triangle($0) &+ 2 &* $0 }),
            Benchmark(name: "observe + dispose (ns/cycle)", count: 100_000, measure: .time,
                      ours: observeDispose, limit: plainObserveDispose,
                      expected: { $0 }),
            Benchmark(name: "MutableProperty set, 1 observer (ns/set)", count: 1_000_000, measure: .time,
                      ours: propertySet, limit: plainPropertySet,
                      expected: { triangle($0) }),
            Benchmark(name: "producer start (ns/start)", count: 100_000, measure: .time,
                      ours: producerStarts, limit: plainStarts,
                      expected: { triangle($0) }),
            Benchmark(name: "heap per signal (pipe) (bytes)", count: 10_000, measure: .heapBytes,
                      ours: signalHeap, limit: plainSignalHeap, expected: { _ in 0 }),
            Benchmark(name: "heap per observer (bytes)", count: 10_000, measure: .heapBytes,
                      ours: observerHeap, limit: plainObserverHeap, expected: { _ in 0 }),
            Benchmark(name: "heap per property (bytes)", count: 10_000, measure: .heapBytes,
                      ours: propertyHeap, limit: plainPropertyHeap, expected: { _ in 0 }),
        ]
    }

    // MARK: - The core

    static func hot(observers: Int, _ n: Int) -> Int {
        let accumulator = Accumulator()
        let (signal, input) = Signal<Int, Never>.pipe()
        var observations: [(any Disposable)?] = []
        for _ in 0..<observers {
            observations.append(signal.observeValues { accumulator.add($0) })
        }
        for i in 0..<n { input.send(value: i) }
        input.sendCompleted()
        blackHole(observations)
        return accumulator.sum
    }

    static func coldFiveMaps(_ n: Int) -> Int {
        let accumulator = Accumulator()
        let run = Producer<Int, Never>(values: 0..<n)
            .map { $0 &+ 1 }
            .map { $0 &+ 1 }
            .map { $0 &+ 1 }
            .map { $0 &+ 1 }
            .map { $0 &+ 1 }
            .startWithValues { accumulator.add($0) }
        blackHole(run)
        return accumulator.sum
    }

    static func signalOperators(_ n: Int) -> Int {
        let accumulator = Accumulator()
        let (signal, input) = Signal<Int, Never>.pipe()
        let observation = signal
            .map { $0 &+ 1 }
            .filter { $0 >= 0 }
            .compactMap { $0 &+ 1 }
            .scan(0) { _, value in value &+ 1 }
            .skipRepeats()
            .observeValues { accumulator.add($0) }
        for i in 0..<n { input.send(value: i) }
        input.sendCompleted()
        blackHole(observation)
        return accumulator.sum
    }

    static func producerOperators(_ n: Int) -> Int {
        let accumulator = Accumulator()
        let run = Producer<Int, Never>(values: 0..<n)
            .filter { $0 >= 0 }
            .compactMap { $0 &+ 1 }
            .mapError { never -> Never in }
            .map { $0 &+ 1 }
            .ignoreErrors()
            .startWithValues { accumulator.add($0) }
        blackHole(run)
        return accumulator.sum
    }

    static func observeDispose(_ n: Int) -> Int {
        let accumulator = Accumulator()
        let (signal, input) = Signal<Int, Never>.pipe()
        for _ in 0..<n {
            signal.observeValues { accumulator.add($0) }?.dispose()
        }
        input.send(value: 1)   // nothing may still be attached
        input.sendCompleted()
        return n &+ accumulator.sum
    }

    static func propertySet(_ n: Int) -> Int {
        let accumulator = Accumulator()
        let property = MutableProperty(0)
        let run = property.producer.startWithValues { accumulator.add($0) }   // current value (0) first
        for i in 0..<n { property.value = i }
        run.dispose()
        return accumulator.sum
    }

    static func producerStarts(_ n: Int) -> Int {
        let accumulator = Accumulator()
        let producer = Producer<Int, Never> { observer, _ in
            observer.send(value: 1)
            observer.sendCompleted()
        }
        for i in 0..<n {
            let offset = opaque(i) &- 1
            producer.startWithValues { accumulator.add($0 &+ offset) }
        }
        return accumulator.sum
    }

    static func signalHeap(_ n: Int) -> Int {
        heapGrowth(count: n) { _ in Signal<Int, Never>.pipe().input }   // the input retains the signal
    }

    static func observerHeap(_ n: Int) -> Int {
        let accumulator = Accumulator()
        let (signal, input) = Signal<Int, Never>.pipe()
        let growth = heapGrowth(count: n) { _ in
            signal.observeValues { accumulator.add($0) }   // the disposable is dropped; the signal keeps the observer
            return nil
        }
        blackHole(input)
        return growth
    }

    static func propertyHeap(_ n: Int) -> Int {
        heapGrowth(count: n) { MutableProperty($0) }
    }

    // MARK: - The limit: plain closures behind optimisation barriers, no locking, no grammar

    @inline(never)
    static func makeSink(_ accumulator: Accumulator) -> (Int) -> Void {
        { accumulator.add($0) }
    }

    @inline(never)
    static func makeMap(_ next: @escaping (Int) -> Void) -> (Int) -> Void {
        { next($0 &+ 1) }
    }

    /// A signal reduced to its observer list.
    final class PlainSubject {
        var observers: ContiguousArray<(Int) -> Void> = []
        func send(_ value: Int) { for observer in observers { observer(value) } }
    }

    /// A property reduced to a stored value and an observer list.
    final class PlainProperty {
        var observers: [(Int) -> Void] = []
        var value: Int { didSet { for observer in observers { observer(value) } } }
        init(_ value: Int) { self.value = value }
    }

    static func plainHot(observers: Int, _ n: Int) -> Int {
        let accumulator = Accumulator()
        let subject = opaque(PlainSubject())
        for _ in 0..<observers { subject.observers.append(makeSink(accumulator)) }
        if observers == 1 {
            let sink = opaque(subject.observers[0])
            for i in 0..<n { sink(i) }
        } else {
            for i in 0..<n { subject.send(i) }
        }
        return accumulator.sum
    }

    static func plainFiveMaps(_ n: Int) -> Int {
        let accumulator = Accumulator()
        var chain = makeSink(accumulator)
        for _ in 0..<5 { chain = makeMap(chain) }
        chain = opaque(chain)
        for i in 0..<n { chain(i) }
        return accumulator.sum
    }

    /// Nested opaque closures, one per step, each adding its figure (0 for the steps that only pass on).
    static func plainSteps(adding steps: [Int], _ n: Int) -> Int {
        let accumulator = Accumulator()
        var chain = makeSink(accumulator)
        for step in steps.reversed() { chain = makeStep(adding: step, chain) }
        chain = opaque(chain)
        for i in 0..<n { chain(i) }
        return accumulator.sum
    }

    @inline(never)
    static func makeStep(adding step: Int, _ next: @escaping (Int) -> Void) -> (Int) -> Void {
        { next($0 &+ step) }
    }

    static func plainObserveDispose(_ n: Int) -> Int {
        let accumulator = Accumulator()
        let subject = opaque(PlainSubject())
        for _ in 0..<n {
            subject.observers.append(makeSink(accumulator))
            subject.observers.removeLast()
        }
        subject.send(1)
        return n &+ accumulator.sum
    }

    static func plainPropertySet(_ n: Int) -> Int {
        let accumulator = Accumulator()
        let property = opaque(PlainProperty(0))
        property.observers.append(makeSink(accumulator))
        for i in 0..<n { property.value = i }
        return accumulator.sum
    }

    static func plainStarts(_ n: Int) -> Int {
        let accumulator = Accumulator()
        let start: ((Int) -> Void) -> Void = opaque { sink in sink(1) }
        for i in 0..<n {
            let offset = opaque(i) &- 1
            start { accumulator.add($0 &+ offset) }
        }
        return accumulator.sum
    }

    static func plainSignalHeap(_ n: Int) -> Int {
        heapGrowth(count: n) { _ in PlainSubject() }
    }

    static func plainObserverHeap(_ n: Int) -> Int {
        let accumulator = Accumulator()
        let subject = PlainSubject()
        return heapGrowth(count: n) { _ in
            subject.observers.append(makeSink(accumulator))
            return nil
        }
    }

    static func plainPropertyHeap(_ n: Int) -> Int {
        heapGrowth(count: n) { PlainProperty($0) }
    }
}
