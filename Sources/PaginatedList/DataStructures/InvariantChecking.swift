/// A structure that knows its invariants: `invariantViolations()` says what is wrong with it (for tests),
/// and `_checkInvariants()`, which it calls after each of its edits, stops the program at the first
/// violation when the package is built with `PAGINATEDLIST_INTERNAL_CHECKS` (and compiles to nothing
/// otherwise). See Docs/Internals.md.
@usableFromInline
protocol InvariantChecking {
    /// What is wrong, if anything: empty when every invariant holds.
    func invariantViolations() -> [String]
    /// The state in a few words, for the message of a violation.
    var invariantContext: String { get }
}

extension InvariantChecking {
#if PAGINATEDLIST_INTERNAL_CHECKS
    /// Stops the program if an invariant does not hold.
    @usableFromInline
    func _checkInvariants() {
        let problems = invariantViolations()
        precondition(problems.isEmpty, "\(Self.self): \(problems.joined(separator: "; ")); \(invariantContext)")
    }
#else
    /// Checks the invariants when built with `PAGINATEDLIST_INTERNAL_CHECKS`; else nothing.
    @inlinable @inline(__always)
    func _checkInvariants() {}
#endif
}
