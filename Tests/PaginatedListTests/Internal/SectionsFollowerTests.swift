@testable import PaginatedList
import Testing

/// The follower applies a transition's changes to its grouping only when they lead from the grouping's list
/// to the transition's: a misfit (changes it did not all see, offsets past the list) would trap reading a
/// key, or publish a half-edited array, so it groups the new list afresh instead.
@Suite struct SectionsFollowerTests {
    typealias Follower = SectionsFollower<Int, Int, Never>

    @Test func changesThatLeadFromTheListToTheNewOneFit() {
        #expect(Follower.changes([.appended(4 ..< 6)], lead: 4, to: 6))
        #expect(Follower.changes([.inserted(0 ..< 2), .removed([3, 5]), .updated([0, 3])], lead: 6, to: 6))
        #expect(Follower.changes([.moved(from: 0, to: 3), .updated([3])], lead: 4, to: 4))
        #expect(Follower.changes([.removed([0, 1, 2]), .reset], lead: 3, to: 7))
    }

    @Test func changesThatDoNotFitAreRefused() {
        // Items appended past the list after the changes (their keys would be read there).
        #expect(!Follower.changes([.appended(4 ..< 6)], lead: 4, to: 5))
        // An insertion below the end of the list as it stands.
        #expect(!Follower.changes([.inserted(5 ..< 6)], lead: 4, to: 5))
        // Removals past the end, repeated, or not ascending.
        #expect(!Follower.changes([.removed([4])], lead: 4, to: 3))
        #expect(!Follower.changes([.removed([1, 1])], lead: 4, to: 2))
        #expect(!Follower.changes([.removed([2, 1])], lead: 4, to: 2))
        // An update or a move past the end.
        #expect(!Follower.changes([.updated([4])], lead: 4, to: 4))
        #expect(!Follower.changes([.moved(from: 1, to: 4)], lead: 4, to: 4))
        // Changes that leave another count than the new list's.
        #expect(!Follower.changes([.appended(2 ..< 3)], lead: 2, to: 4))
        // Items inserted, or updated, past the end of the list after the changes, though each fits the list
        // as it stands then (their keys are read from the list after the changes).
        #expect(!Follower.changes([.appended(4 ..< 6), .removed([0, 1])], lead: 4, to: 4))
        #expect(!Follower.changes([.updated([3]), .removed([3])], lead: 4, to: 3))
        // No change at all (a transition with a new list whose changes the follower did not see).
        #expect(!Follower.changes([], lead: 2, to: 2))
    }
}
