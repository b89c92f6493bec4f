@testable import PaginatedList
import PaginatedListTesting
import Signals
import Testing

// `PagingStateMachine.amend(_:showing:)`, driven directly: a keeper that shows other values than those it
// wrote (a store's pending edits) replaces held items inside the transition a page publishes, which stays
// one transition; the rows it replaced that the transition did not bring are reported in an `.updated`.

/// An item with an id and a value, so a replacement is told from the original.
private struct Row: Identifiable, Equatable, Sendable, CustomStringConvertible {
    let id: Int
    var value = "server"
    var description: String { "\(id):\(value)" }
}

private typealias Machine = PagingStateMachine<Row, TestError>

private func rows(_ ids: ClosedRange<Int>) -> [Row] { ids.map { Row(id: $0) } }
private func shown(_ ids: Int...) -> [Row] { ids.map { Row(id: $0, value: "shown") } }

private func page(_ items: [Row]) -> Event<Page<Row, TestError>, TestError> {
    .value(Page(items: items, next: .never))
}

/// The transition the actions publish with items (the last one), if any.
private func published(_ actions: [Machine.Action]) -> Machine.Transition? {
    actions.reversed().lazy.compactMap { action -> Machine.Transition? in
        if case let .publish(transition) = action, transition.items != nil { transition } else { nil }
    }.first
}

/// A machine holding `first` as its first page, and the actions of `second` landing as the next page.
private func landing(_ second: [Row], after first: [Row]) -> (Machine, [Machine.Action]) {
    var machine = Machine(retry: nil, generator: SplitMix64(seed: 1))
    _ = machine.loadNextPage()
    _ = machine.receive(page(first), of: LoadID(value: 0))
    _ = machine.loadNextPage()
    let actions = machine.receive(page(second), of: LoadID(value: 1))
    return (machine, actions)
}

@Suite("PagingStateMachine.amend")
struct AmendTests {
    @Test func aRowHeldBeforeThePageIsReplacedInTheSameTransitionAndReportedUpdated() throws {
        var (machine, actions) = landing(rows(3 ... 4), after: rows(1 ... 2))
        let count = actions.count
        machine.amend(&actions, showing: shown(1))
        #expect(actions.count == count, "still one transition, no action added")
        let transition = try #require(published(actions))
        #expect(transition.items.map(Array.init) == [Row(id: 1, value: "shown")] + rows(2 ... 4))
        #expect(transition.changes == [.appended(2 ..< 4), .updated([0])])
        #expect(Array(machine.items) == Array(try #require(transition.items)), "the snapshot shown is the list's")
    }

    @Test func aRowThePageBroughtIsReplacedWithoutAnUpdateOfItsOwn() throws {
        var (machine, actions) = landing(rows(3 ... 4), after: rows(1 ... 2))
        machine.amend(&actions, showing: shown(4))
        let transition = try #require(published(actions))
        #expect(transition.items.map(Array.init) == rows(1 ... 3) + [Row(id: 4, value: "shown")])
        #expect(transition.changes == [.appended(2 ..< 4)], "the appended row is shown as it lands")
    }

    @Test func rowsNotHeldAreSkippedAndNothingHeldLeavesTheActionsAsTheyWere() throws {
        var (machine, actions) = landing(rows(3 ... 4), after: rows(1 ... 2))
        let before = try #require(published(actions))
        machine.amend(&actions, showing: shown(9, 10))
        let after = try #require(published(actions))
        #expect(after.items.map(Array.init) == before.items.map(Array.init))
        #expect(after.changes == before.changes)
        #expect(Array(machine.items) == rows(1 ... 4))
    }

    @Test func updatedRowsJoinAnUpdateAlreadyAtTheEndOfTheTransition() throws {
        var (machine, actions) = landing(rows(3 ... 4), after: rows(1 ... 2))
        machine.amend(&actions, showing: shown(2))
        machine.amend(&actions, showing: shown(1, 3))
        let transition = try #require(published(actions))
        #expect(transition.changes == [.appended(2 ..< 4), .updated([0, 1])], "one .updated, offsets sorted")
        #expect(transition.items.map { $0.map(\.value) } == ["shown", "shown", "shown", "server"])
    }

    @Test func aTransitionThatResetsTheListReportsNoUpdate() throws {
        var machine = Machine(retry: nil, generator: SplitMix64(seed: 1))
        _ = machine.loadNextPage()
        _ = machine.receive(page(rows(1 ... 2)), of: LoadID(value: 0))
        let start = machine.refresh(.replace, check: nil)
        guard case let .start(load, _)? = start.last else {
            Issue.record("the refresh started no load: \(start)")
            return
        }
        var actions = machine.receive(page(rows(1 ... 3)), of: load)
        machine.amend(&actions, showing: shown(2))
        let transition = try #require(published(actions))
        #expect(transition.changes == [.reset], "a reset covers every row")
        #expect(transition.items.map(Array.init) == [Row(id: 1), Row(id: 2, value: "shown"), Row(id: 3)])
    }

    @Test func actionsThatPublishNoItemsAreLeftAlone() {
        var machine = Machine(retry: nil, generator: SplitMix64(seed: 1))
        _ = machine.loadNextPage()
        _ = machine.receive(page(rows(1 ... 2)), of: LoadID(value: 0))
        var actions = machine.loadNextPage()   // publishes loading, starts a load: no items
        let count = actions.count
        machine.amend(&actions, showing: shown(1))
        #expect(actions.count == count)
        #expect(published(actions) == nil)
        #expect(Array(machine.items) == rows(1 ... 2), "the held row is not replaced outside a transition")
    }
}
