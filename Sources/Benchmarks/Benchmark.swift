import Synchronization

/// One measured scenario: the core's way of doing some work, and the plain-closure way of doing the
/// same work ("the limit"), each returning a checksum that proves the work was done.
struct Benchmark {
    /// What is measured.
    enum Measure {
        /// Wall time per unit of work (`count` units per run), median of several runs.
        case time
        /// Heap bytes per instance (`count` instances kept alive at once), from allocator statistics.
        case heapBytes
    }

    /// The row's label; `--filter` matches it.
    let name: String
    /// The units of work (events, cycles, instances) at full scale; `--quick` divides by 10.
    let count: Int
    let measure: Measure
    /// Does the work with the core for `count` units and returns the checksum.
    let ours: (Int) -> Int
    /// Does the same work with plain closures and returns the same checksum.
    let limit: (Int) -> Int
    /// The checksum both must return for `count` units.
    let expected: (Int) -> Int
}

/// A measurement whose figures do not fit "ours vs limit per unit": costs per page over a long run, how
/// they scale from the start of the run to its end, peak memory. It runs itself and returns its figures,
/// each with the target it is held to; they are printed as a table of their own.
struct Study {
    /// The study's title; `--filter` matches it.
    let name: String
    /// Runs the study: `quick` asks for a smaller scale (a tenth of the pages), `runs` is how many timed
    /// runs to take the median of where a run is cheap.
    let run: (_ quick: Bool, _ runs: Int) -> StudyResult
}

/// What a study measured.
struct StudyResult {
    /// The figures, in the order they are printed.
    var figures: [Figure] = []
    /// Lines printed under the table (what was measured, and how).
    var notes: [String] = []
    /// Whether the work was verified (every item landed, in order): the studies' checksum.
    var ok = true
}

/// One figure of a study.
struct Figure {
    let name: String
    let value: String
    /// The target, as text (`≤ 1.5`); empty when the figure is informative only.
    var target = ""
    /// Whether the target is met; `nil` when there is none (or the figure is unavailable).
    var met: Bool?
}

/// A group of benchmarks and studies, one file each (`CoreBenchmarks.swift`, `ViewModelBenchmarks.swift`,
/// `SourceBenchmarks.swift`, `ItemListBenchmarks.swift`,
/// `LivingListBenchmarks.swift`, `StoreBenchmarks.swift`, `QueryListBenchmarks.swift`); register new ones in `allSuites`.
protocol BenchmarkSuite: Sendable {
    /// The suite's name; `--filter` matches it too.
    static var name: String { get }
    /// The suite's "ours vs limit" benchmarks, in the order they are printed.
    static var benchmarks: [Benchmark] { get }
    /// The suite's studies, in the order they are printed.
    static var studies: [Study] { get }
}

extension BenchmarkSuite {
    static var benchmarks: [Benchmark] { [] }
    static var studies: [Study] { [] }
}

/// Every suite `Benchmarks` runs, in order.
let allSuites: [any BenchmarkSuite.Type] = [
    CoreBenchmarks.self,
    ViewModelBenchmarks.self,
    SourceBenchmarks.self,
    ItemListBenchmarks.self,
    LivingListBenchmarks.self,
    StoreBenchmarks.self,
    SectionsBenchmarks.self,
    QueryListBenchmarks.self,
]

/// What observers add their values into: cheap, and opaque to the optimiser.
///
/// Single-threaded use only: a relaxed load and store (plain moves on x86-64 and ARM64), not an
/// atomic read-modify-write, so its cost is that of a field update. It is `Sendable` without
/// `@unchecked` because its state is an `Atomic`.
final class Accumulator: Sendable {
    private let total = Atomic<Int>(0)

    @inline(__always)
    func add(_ value: Int) {
        total.store(total.load(ordering: .relaxed) &+ value, ordering: .relaxed)
    }

    var sum: Int { total.load(ordering: .relaxed) }
}

/// Keeps `value` alive and opaque to the optimiser.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Returns `value` through an optimisation barrier.
@inline(never)
func opaque<T>(_ value: T) -> T { value }

/// `0 + 1 + … + (n - 1)`.
func triangle(_ n: Int) -> Int { n &* (n &- 1) / 2 }
