import Foundation

// Model-based tests of the package (package-level: not part of the public API): random sequences of
// operations, each made from a seed, checked after every step; a failure names its seed to replay it.

/// One random sequence of a model-based test: made from its seed, advanced a step at a time, checked
/// after each step.
package protocol SeededSequence: AnyObject {
    init(seed: UInt64)
    /// What the seed drew (the feed, the options), for the failure message.
    var description: String { get }
    /// Applies one random operation and checks the properties.
    func step()
    /// The operations applied so far, for the failure message.
    var trail: [String] { get }
    /// The first property that failed, if any.
    var failure: String? { get }
}

/// Whether `PAGINATED_LIST_TRACE` asks the sequences to print each step.
package let tracingSequences = ProcessInfo.processInfo.environment["PAGINATED_LIST_TRACE"] != nil

/// The share of each seeded suite's runs to make, in percent: `PAGINATED_LIST_SEED_SHARE` (1 to 100), 100
/// when unset. `.ci/run` sets 10 for the model-based suites with the internal checks, 2 for the other suites
/// under the address sanitizer, 5 under the thread sanitizer: each makes each run several times slower, and
/// a share of the runs still drives every operation many times. Coverage counts are only checked on a full
/// run. Suites that loop over seeds themselves take their count from `seededRunCount(_:)`.
package let seedSharePercent: Int = ProcessInfo.processInfo.environment["PAGINATED_LIST_SEED_SHARE"]
    .flatMap(Int.init).map { min(max($0, 1), 100) } ?? 100

/// How many of a seeded suite's `full` runs to make (at least one): `full` unless `PAGINATED_LIST_SEED_SHARE`
/// asks for fewer.
package func seededRunCount(_ full: Int) -> Int {
    max(1, full * seedSharePercent / 100)
}

/// Runs `count` sequences of `steps` steps (fewer when `PAGINATED_LIST_SEED_SHARE` says so), seeded from
/// `base` (or the one `PAGINATED_LIST_SEED` names), calling `finished` with each; stops at the first
/// failure and returns it with how to replay it (`filter`: the suite's name for `swift test --filter`).
/// `complete`: every sequence ran (all seeds, none failed): only then do coverage counts mean anything.
package func runSeededSequences<Sequence: SeededSequence>(
    _: Sequence.Type, base: UInt64, count: Int, steps: Int, filter: String, finished: (Sequence) -> Void = { _ in }
) -> (complete: Bool, failure: String?) {
    var seeds = SplitMix64(seed: base)
    let given = ProcessInfo.processInfo.environment["PAGINATED_LIST_SEED"].flatMap(UInt64.init)
    let all = given.map { [$0] } ?? (0 ..< seededRunCount(count)).map { _ in seeds.next() }
    for seed in all {
        let sequence = Sequence(seed: seed)
        if tracingSequences { print("seed \(seed): \(sequence.description)") }
        for _ in 0 ..< steps where sequence.failure == nil { sequence.step() }
        finished(sequence)
        if let failure = sequence.failure {
            return (false, """
                seed \(seed): \(sequence.description)
                after \(sequence.trail.joined(separator: ", "))
                \(failure)
                (replay: PAGINATED_LIST_SEED=\(seed) swift test --filter \(filter))
                """)
        }
    }
    return (given == nil && seedSharePercent == 100, nil)
}
