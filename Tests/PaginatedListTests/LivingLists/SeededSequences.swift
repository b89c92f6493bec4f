import PaginatedListTesting
import Testing

/// Runs the seeded sequences (`PaginatedListTesting`'s runner) and records the first failure as an issue.
/// Returns whether every sequence ran (all seeds, none failed): only then do coverage counts mean anything.
func runSeededSequences<Sequence: SeededSequence>(
    _ type: Sequence.Type, base: UInt64, count: Int = 10_000, steps: Int, filter: String,
    finished: (Sequence) -> Void = { _ in }
) -> Bool {
    let (complete, failure) = PaginatedListTesting.runSeededSequences(
        type, base: base, count: count, steps: steps, filter: filter, finished: finished)
    if let failure { Issue.record("\(failure)") }
    return complete
}
