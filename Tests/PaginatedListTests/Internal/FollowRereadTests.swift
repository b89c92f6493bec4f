@testable import PaginatedList
import PaginatedListTesting
import Signals
import Testing

// `PagingStateMachine.follow(_:window:)` with a window re-read page by page (`FollowedWindow.pages`), driven
// directly: a store that reads again only the page a missed commit touched keeps the other pages as held.
// Those may be behind the store (a change to them is still queued), so the page read again can list an item
// a kept page holds too; the window must still list each id once, with page counts that add up and changes
// that replay exactly.

/// An item with an id and a value, so a re-read value is told from the held one.
private struct Row: Identifiable, Equatable, Sendable, CustomStringConvertible {
    let id: Int
    var value = "held"
    var description: String { "\(id):\(value)" }
}

private typealias Machine = PagingStateMachine<Row, TestError>

/// A page's place in a store, as a keeper would give it.
private final class Origin: PageOrigin {}

private func rows(_ ids: [Int], _ value: String = "held") -> [Row] { ids.map { Row(id: $0, value: value) } }

/// A machine holding two pages with origins, `first` above `second`.
private func holding(_ first: [Int], _ second: [Int]) -> Machine {
    var machine = Machine(retry: nil, generator: SplitMix64(seed: 1))
    for (load, ids) in [first, second].enumerated() {
        _ = machine.loadNextPage()
        let page = Page<Row, TestError>(items: rows(ids), previous: nil, next: .never, diagnostics: [], origin: Origin())
        _ = machine.receive(.value(page), of: LoadID(value: UInt64(load)))
    }
    return machine
}

/// Follows a re-read that read `window`; returns the transition published, if any.
private func follow(_ machine: inout Machine, reading window: [[Row]?]) -> Machine.Transition? {
    let change = FollowedChange<Row, TestError>(reread: { _ in .pages(window) })
    return machine.follow(change, window: .pages(window)).lazy.compactMap { action -> Machine.Transition? in
        if case let .publish(transition) = action, transition.items != nil { transition } else { nil }
    }.last
}

/// The list `changes` make of `before`, as a view replaying them would.
private func replayed(_ before: [Row], _ transition: Machine.Transition) throws -> [Row] {
    let items = try #require(transition.items)
    var mirror = before
    for change in transition.changes {
        try #require(mirror.canApply(change, from: items), "\(change) does not fit \(mirror)")
        mirror.apply(change, from: items)
    }
    return mirror
}

@Suite("PagingStateMachine.follow with pages read again")
struct FollowRereadTests {
    @Test func aPageReadAgainTakesAnItemAKeptPageStillHolds() throws {
        var machine = holding([1, 2, 3], [4, 5])
        let before = Array(machine.items)
        // Item 2 moved into the second page; the change that takes it out of the first is still queued.
        let transition = try #require(follow(&machine, reading: [nil, rows([4, 2, 5], "read")]))
        #expect(machine.items.map(\.id) == [1, 3, 4, 2, 5], "each id once, where the page read again lists it")
        #expect(machine.ledger[0].count == 2 && machine.ledger[1].count == 3, "the pages count what they hold")
        #expect(machine.invariantViolations().isEmpty)
        #expect(try replayed(before, transition) == Array(machine.items), "the changes replay exactly")
    }

    @Test func onlyTheRowsOfThePageReadAgainAreReportedUpdated() throws {
        var machine = holding([1, 2, 3], [4, 5])
        let transition = try #require(follow(&machine, reading: [nil, rows([4, 5], "read")]))
        #expect(transition.changes == [.updated([3, 4])])
        #expect(Array(machine.items) == rows([1, 2, 3]) + rows([4, 5], "read"))
    }

    @Test func aReReadThatReadNoPageChangesNothing() {
        var machine = holding([1, 2, 3], [4, 5])
        #expect(follow(&machine, reading: [nil, nil]) == nil, "no transition")
        #expect(Array(machine.items) == rows([1, 2, 3, 4, 5]))
    }

    @Test func anItemAPageReadAgainNoLongerListsLeavesIt() throws {
        var machine = holding([1, 2, 3], [4, 5, 6])
        let before = Array(machine.items)
        let transition = try #require(follow(&machine, reading: [nil, rows([4, 6], "read")]))
        #expect(machine.items.map(\.id) == [1, 2, 3, 4, 6])
        #expect(machine.ledger[0].count == 3 && machine.ledger[1].count == 2)
        #expect(try replayed(before, transition) == Array(machine.items))
    }
}
