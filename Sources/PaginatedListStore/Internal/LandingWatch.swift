import Foundation
import PaginatedList
import Signals

// A page on its way to the list (see `StoreChanges.swift`, "Landing").
//
// A stored page is read, and a remote page is written, before the view model lands it: the producer sends
// it, and its landing is queued on the view model behind the commands already queued. A commit delivered to
// the list between the read (or the write) and that moment queued its change ahead of the landing: it was
// applied while the page was not held, so the page would show the value it was read with. The keeper
// therefore watches the commits delivered while a page is on its way: the page remembers the last commit
// its read or write could miss (`since`: the bus's last sequence number, taken before the transaction
// starts), and once it is sent, a commit after that one which touched its items (written, deleted, taken
// out of the feed) or inserted rows into it makes the list read that page again; one that reshaped the feed
// (or came from another connection), the whole window. Either is one more transition, queued behind the
// landing, and only when such a commit came.
//
// **Locking.** `since` is taken and the page registered under the watch's lock, and each delivered commit is
// recorded under it, before its change is queued on the view model: a commit either was queued on the bus
// before `since` was taken (the read sees it), or is recorded before the page is sent and checked (its
// change may be queued ahead of the landing), or is delivered after the check (its change is queued behind
// the landing, which was queued while the page was sent). Lock order: the watch's lock, then the bus's (the
// bus calls its listeners with no lock held).

/// The commits delivered to a list while pages of its are on their way to its view model.
struct LandingWatch {
    /// A page on its way: the last commit its read or write may not have seen.
    struct Ticket {
        let id: UInt64
        let since: UInt64
    }

    /// A commit delivered while a page was on its way, as far as that page cares.
    struct Delivered {
        let sequence: UInt64
        /// The keys of the list's item type it wrote, deleted, took out of the feed or inserted into it.
        let keys: Set<String>
        /// The rows of the feed's pages it inserted rows into.
        let pages: Set<Int64>
        /// Whether it restructured the feed or came from another connection (the whole window is read again).
        let reshaped: Bool
    }

    private var open: [UInt64: UInt64] = [:]
    private var nextTicket: UInt64 = 0
    private var delivered: [Delivered] = []

    /// Registers a page about to be read or written, after the commit `lastSequence` (read under this lock).
    mutating func begin(lastSequence: UInt64) -> Ticket {
        nextTicket += 1
        open[nextTicket] = lastSequence
        return Ticket(id: nextTicket, since: lastSequence)
    }

    /// Records a commit delivered to the list, if a page is on its way.
    mutating func record(_ commit: @autoclosure () -> Delivered) {
        guard !open.isEmpty else { return }
        delivered.append(commit())
    }

    /// The page of `ticket` was sent (or failed): the commits delivered since its `since`, other than
    /// `ownCommit` (the page's own write). Forgets what no page on its way still needs.
    mutating func end(_ ticket: Ticket, ownCommit: UInt64?) -> [Delivered] {
        open.removeValue(forKey: ticket.id)
        let missed = delivered.filter { $0.sequence > ticket.since && $0.sequence != ownCommit }
        if let oldest = open.values.min() {
            delivered.removeAll { $0.sequence <= oldest }
        } else {
            delivered.removeAll()
        }
        return missed
    }
}

extension StoredListKeeper {
    /// Registers a page about to be read or written.
    func beginLanding() -> LandingWatch.Ticket {
        landing.withLock { $0.begin(lastSequence: store.database.bus.lastSequence) }
    }

    /// Records a commit delivered to this list, for the pages on their way (one that touches neither the
    /// list's item type nor its feed is left out).
    func recordLanding(_ commit: StoreCommit) {
        let types = commit.types[busName.type]
        let feed = commit.feeds[busName]
        guard types != nil || feed != nil || commit.external else { return }
        landing.withLock { watch in
            watch.record({
                var keys: Set<String> = types.map { Set($0.written.keys).union($0.deleted) } ?? []
                keys.formUnion(feed?.removed ?? [])
                for rows in feed?.inserted ?? [] { keys.formUnion(rows.keys) }
                return LandingWatch.Delivered(sequence: commit.sequence, keys: keys, pages: Set((feed?.inserted ?? []).map(\.page)),
                                              reshaped: commit.external || feed?.restructured == true)
            }())
        }
    }

    /// Forgets a page that will not be sent (its read or write failed).
    func abandonLanding(_ ticket: LandingWatch.Ticket) {
        _ = landing.withLock { $0.end(ticket, ownCommit: nil) }
    }

    /// Sends `page`, read or written under `ticket` (by the commit `ownCommit`, for a page written); then, if
    /// a commit delivered meanwhile touched its items or inserted rows into it, has the list read it again
    /// (its whole window, when a commit reshaped the feed), behind the page's landing.
    func send(_ page: ListPage, _ ticket: LandingWatch.Ticket, ownCommit: UInt64? = nil, to observer: Signal<ListPage, Failure>.Observer) {
        observer.send(value: page)
        let missed = landing.withLock { $0.end(ticket, ownCommit: ownCommit) }
        guard !missed.isEmpty, let row = (page.origin as? Origin)?.row else { return }
        let whole = missed.contains { $0.reshaped }
        let touched = whole || missed.contains { $0.pages.contains(row) } || {
            let coding = ItemCoding<Item>(path: store.path)
            let keys = Set(page.items.compactMap { try? coding.key(of: $0.id) })
            return missed.contains { !$0.keys.isDisjoint(with: keys) }
        }()
        guard touched, let viewModel = list.withLock({ $0.value }) else { return }
        follow(viewModel, FollowedChange(reread: { [self] origins in reread(origins, only: whole ? nil : row) }))
    }
}
