import PaginatedList
import PaginatedListTesting
import Testing

/// Thousands of seeded sessions per source and per profile against `ChangingFeed`, a feed that changes
/// between every two requests: what each source guarantees (the table in Docs/PageSources.md).
///
/// A *stable* item is one that was in the feed from the start and was never deleted or re-ranked itself;
/// changes elsewhere never change the order of stable items among themselves.
@Suite("Changing-feed sessions")
struct FeedSessionTests {
    typealias Kind = FeedSessions.Kind
    typealias Profile = FeedSessions.Profile
    typealias Session = FeedSessions.Session

    static let sessions: UInt64 = 2_000

    /// Runs the sessions and returns the first few that break a rule, described.
    static func failures(_ kind: Kind, _ profile: Profile, _ broken: (Session) -> String?) -> [String] {
        var failures: [String] = []
        for seed in 0 ..< sessions {
            let session = FeedSessions.run(kind, profile, seed: seed)
            if let reason = broken(session) {
                failures.append("\(reason): \(session)")
                if failures.count >= 5 { break }
            }
        }
        return failures
    }

    /// No item twice, none the feed never had, and the end reached.
    static func sound(_ session: Session) -> String? {
        if !session.audit.duplicates.isEmpty { return "duplicates" }
        if !session.audit.unknown.isEmpty { return "unknown items" }
        if !session.reachedEnd { return "never reached the end" }
        return nil
    }

    /// Sound, and every stable item shown once and in order.
    static func loseNothing(_ session: Session) -> String? {
        if let reason = sound(session) { return reason }
        if !session.audit.lost.isEmpty { return "stable items lost" }
        if !session.audit.misordered.isEmpty { return "stable items out of order" }
        return nil
    }

    /// Lose nothing, with at most three times the fewest requests.
    static func holds(_ session: Session) -> String? {
        if let reason = loseNothing(session) { return reason }
        if session.requests > 3 * session.minimumRequests {
            return "\(session.requests) requests for a minimum of \(session.minimumRequests)"
        }
        return nil
    }

    // MARK: - Within the bounds

    @Test(arguments: Profile.withinBounds)
    func offsetSourceShowsEveryStableItemOnceInOrderWithinThreeTimesTheFewestRequests(profile: Profile) {
        let failures = Self.failures(.offset, profile, Self.holds)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test(arguments: Profile.withinBounds)
    func idSnapshotSourceShowsEveryStableItemOnceInOrderWithinThreeTimesTheFewestRequests(profile: Profile) {
        let failures = Self.failures(.ids, profile, Self.holds)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test(arguments: Profile.withinBounds)
    func keysetCursorSourceShowsEveryStableItemOnceInOrderWithinThreeTimesTheFewestRequests(profile: Profile) {
        let failures = Self.failures(.cursor, profile, Self.holds)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    // MARK: - Beyond the bounds

    /// In deletion storms most of a feed may go: the fewest requests for the few items left say little
    /// (an ID snapshot still walks the deleted IDs), so only losses count.
    @Test(arguments: [Kind.ids, .cursor])
    func idSnapshotAndKeysetCursorSourcesLoseNoStableItemBeyondTheOffsetSourcesBounds(kind: Kind) {
        for profile in [Profile.deletionStorms, .tinyPagesReRanked] {
            let failures = Self.failures(kind, profile, Self.loseNothing)
            #expect(failures.isEmpty, "\(profile): \(failures.joined(separator: "\n"))")
        }
    }

    @Test(arguments: [Profile.deletionStorms, .tinyPagesReRanked])
    func offsetSourceReportsEveryStableItemItMayHaveLostBeyondItsBounds(profile: Profile) {
        var losses = 0
        let failures = Self.failures(.offset, profile) { session in
            losses += session.audit.lost.count
            if let reason = Self.sound(session) { return reason }
            if !session.audit.misordered.isEmpty { return "stable items out of order" }
            if !session.uncoveredLosses.isEmpty { return "losses no page reports: \(session.uncoveredLosses)" }
            if session.requests > session.pages.count * 8 { return "more than 8 requests a page" }
            return nil
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        if profile.name == Profile.deletionStorms.name {
            #expect(losses > 0, "the storms exceed the search: some sessions must lose (and report) items")
        }
    }

    // MARK: - Page numbers

    @Test(arguments: [Profile.churn, .moves, .bursts, .tinyPages, .tinyPagesReRanked, .deletionStorms])
    func pageNumberSourceShowsNothingTwiceAndReachesTheEndWithOneRequestAPage(profile: Profile) {
        var lost = 0
        let failures = Self.failures(.pageNumber, profile) { session in
            lost += session.audit.lost.count
            if let reason = Self.sound(session) { return reason }
            return session.requests == session.pages.count ? nil : "\(session.requests) requests for \(session.pages.count) pages"
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(lost > 0, "page numbers lose items on a changing feed, and cannot tell")
    }
}
