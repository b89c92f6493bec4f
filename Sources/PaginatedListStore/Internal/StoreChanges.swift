import Foundation
import PaginatedList
import Signals

// Every open list follows every write of its store (contract 23), and an item edited once changes in every
// list that holds it (24).
//
// **What a write records.** Every write transaction fills a `ChangeRecord` while it runs: per item type, the
// item rows it wrote (key, JSON body, and the Swift value when the writer has it, which is always so for
// the store's own writers: lists then decode nothing) and the rows it deleted from the store
// (`PagingStore.remove`); per feed, the ids it took out of the feed, the rows it inserted into one of the
// feed's pages (with the ids of the rows right above and below them, which a list finds in O(log n)), or
// "restructured" when the shape is not worth describing (`StoredFeed.clear()`, a refresh's landing, a page
// that filled a gap). A page written past the stored ones records only its items whose stored body changed
// (a row another page or feed lists): the page itself is new, no open list holds it (a list finds it when
// paging there).
//
// **Publishing.** At COMMIT, still on the writer's queue, the record becomes a `StoreCommit` with the next
// sequence number and joins the bus's FIFO: sequence order is commit order. A transaction that rolled back
// publishes nothing. After the writer's queue is released, the writing thread drains the FIFO unless
// another thread is draining it (one drainer at a time: commits are delivered in order, and nothing is
// delivered while the writer's queue is held, since a list's transition may write to the store). A write
// started by a delivery (a list's edit run by an immediate scheduler) queues its commit behind the one
// being delivered.
//
// **Delivery.** The bus holds the open store-backed lists' keepers weakly (`StoreListener`). Each keeper gets
// every commit, ignores those that name neither its item type nor its feed, and queues one
// command on its view model (`FollowedChange`): the machine applies the part that concerns the window it
// holds as one transition (replace held items by id, remove ids its feed no longer lists, insert rows
// inserted into a held page next to a held row, re-read the held pages and apply the differences by id for
// a restructured feed). A list's own writes (the pages it loads, its refresh's landing, its edits) are
// shown by its own transition (one transition, and an edit that cannot be written leaves the list as it
// was and is reported as `.editNotStored`): the commit names the keeper that wrote it (`writer`), which
// is not delivered to it again; but for a page, whose items the writing list may hold elsewhere (the
// feed lists an item once: the page's value goes to the row where it is, which the page's landing does not
// show), the writer follows the items the commit wrote. Another list of the same feed follows it like any
// other write.
//
// **Landing.** A page a list read or wrote is shown when its landing runs, after the commits delivered
// meanwhile: a commit that changes one of its items (or its feed) between the read (or the write) and the
// queueing of the landing is applied before the page is held. The keeper watches for those commits and has
// the list read that page (or, for a reshaped feed, its window) again behind the landing
// (`LandingWatch.swift`).
//
// **Limits.** Items a list inserted while it held
// nothing are held in a page with no origin (the store lists them in its top page), which follows updates
// and removals, and insertions next to its rows, but may miss some (the model test leaves the case out).
// A page a refresh loaded, dropped by `maxPages`, is loaded again by the refresh's producer (from the
// network, not written).
//
// **Ownership.** The bus (of the store's `Database`) holds the keepers weakly; a keeper unregisters when it
// is released, with its view model. Delivery holds a keeper only while it queues the command.

/// A feed as the bus names it: its item type's name and its name.
struct FeedName: Hashable, Sendable {
    let type: String
    let name: String
}

/// An item row a write wrote: its JSON, and the Swift value when the writer had it.
struct WrittenItem: Sendable {
    let body: Data
    let value: (any Sendable)?
}

/// Rows inserted into one page of a feed.
struct InsertedRows: Sendable {
    /// The items' keys, in order.
    let keys: [String]
    /// The page they went into.
    let page: Int64
    /// The key of the row right above them in the feed (in any page), and of the row right below.
    let above: String?
    let below: String?
}

/// What a write did to one feed's rows.
struct FeedChanges: Sendable {
    /// The keys taken out of the feed (before any insertion of this write).
    var removed: [String] = []
    var inserted: [InsertedRows] = []
    /// The feed changed in a way lists re-read.
    var restructured = false
}

/// What a write did to the rows of one item type.
struct TypeChanges: Sendable {
    /// The rows written, by key (the last value).
    var written: [String: WrittenItem] = [:]
    /// The keys of the rows deleted from the store (out of every feed).
    var deleted: Set<String> = []
}

/// What one write transaction changed, recorded while it runs (on the writer's queue only).
final class ChangeRecord {
    /// The keeper whose own transition shows this write (its page, its refresh, its edit).
    var writer: ObjectIdentifier?
    /// Whether the writer's transition shows only the write's changes of its feed, not those of items
    /// (a page: an item the feed lists elsewhere takes the page's value there, which the page's landing
    /// does not show).
    var writerFollowsItems = false
    private(set) var types: [String: TypeChanges] = [:]
    private(set) var feeds: [FeedName: FeedChanges] = [:]
    /// A transaction of an optimistic edit (`StoredFeed.mutate`, `rollback(id:)`), which writes the pending
    /// rows itself: not settled (see `PendingEdits.swift`).
    var isMutation = false
    /// Whether the pending edits were settled (once per transaction).
    var settled = false
    /// The keys of the items written again with the value they had (a page that brought an item unchanged),
    /// by type: the server's value for a pending item all the same.
    private var rewritten: [String: Set<String>] = [:]
    /// The commit's place in the commit order, once it committed (set by the bus).
    var sequence: UInt64?
    /// What to undo outside the file if the transaction rolls back (state kept in memory), last first.
    private(set) var rollbackActions: [() -> Void] = []

    /// Runs `action` on the writer's queue if the transaction rolls back (its statements, or its commit,
    /// failed): for state in memory changed with the file.
    func onRollback(_ action: @escaping () -> Void) {
        rollbackActions.append(action)
    }

    var isEmpty: Bool { types.isEmpty && feeds.isEmpty }

    /// The keys of the items deleted from the store, by type.
    var deletedItems: [String: Set<String>] {
        types.compactMapValues { $0.deleted.isEmpty ? nil : $0.deleted }
    }

    /// The keys of the items whose rows went because no feed lists them any more (a feed's removal, clear,
    /// refresh or gap fill), by type: not changes the lists follow (their feeds' changes are), but the end
    /// of the items' pending edits, as a deletion is.
    private(set) var orphanedItems: [String: Set<String>] = [:]
    /// Whether the keys of orphaned items are wanted (an edit is pending in this process): else they are
    /// not read back (a `.replace` of a large feed orphans every row).
    var tracksOrphans = true

    func orphaned(_ keys: [String], type: String) {
        guard !keys.isEmpty else { return }
        orphanedItems[type, default: []].formUnion(keys)
    }

    /// The keys of every item written, with a new value or the one it had, by type.
    var serverWrites: [String: Set<String>] {
        var keys = rewritten
        for (type, changes) in types { keys[type, default: []].formUnion(changes.written.keys) }
        return keys
    }

    /// Whether the write recorded a value of the item `key`.
    func wroteItem(_ key: String, type: String) -> Bool {
        types[type]?.written[key] != nil
    }

    /// Records that the item `key` was written with the value it had.
    func rewrote(_ key: String, type: String) {
        rewritten[type, default: []].insert(key)
    }

    func wrote(_ item: EncodedItem, value: (any Sendable)?, type: String) {
        types[type, default: TypeChanges()].written[item.key] = WrittenItem(body: item.body, value: value)
        types[type]!.deleted.remove(item.key)
    }

    func deleted(_ key: String, type: String) {
        types[type, default: TypeChanges()].deleted.insert(key)
        types[type]!.written.removeValue(forKey: key)
    }

    func removed(_ keys: [String], from feed: FeedName) {
        guard !keys.isEmpty else { return }
        var changes = feeds[feed, default: FeedChanges()]
        // A removal after an insertion of this write cannot be applied before it: re-read instead.
        if !changes.inserted.isEmpty { changes.restructured = true }
        changes.removed += keys
        feeds[feed] = changes
    }

    func inserted(_ rows: InsertedRows, into feed: FeedName) {
        guard !rows.keys.isEmpty else { return }
        feeds[feed, default: FeedChanges()].inserted.append(rows)
    }

    func restructured(_ feed: FeedName) {
        feeds[feed, default: FeedChanges()].restructured = true
    }
}

/// A committed write, as the bus delivers it.
struct StoreCommit: Sendable {
    /// Its place in the commit order.
    let sequence: UInt64
    let writer: ObjectIdentifier?
    let writerFollowsItems: Bool
    let types: [String: TypeChanges]
    let feeds: [FeedName: FeedChanges]
    /// Another connection wrote the file (`PagingStore.checkForChanges()`): every list re-reads.
    let external: Bool
}

/// An open list that follows its store.
protocol StoreListener: AnyObject, Sendable {
    /// Receives a committed write (on the draining thread, in commit order; no lock of the store held).
    func receive(_ commit: StoreCommit)
}

/// The store's change bus (see the comment at the top of this file).
final class ChangeBus: Sendable {
    private struct Listener {
        weak var value: (any StoreListener)?
    }

    private struct State {
        var nextSequence: UInt64 = 1
        var queue = FIFO<StoreCommit>()
        var draining = false
        var listeners: [ObjectIdentifier: Listener] = [:]
    }

    private let state = Locked(State())

    /// Adds `listener` (held weakly) to those every commit is delivered to.
    func register(_ listener: any StoreListener) {
        state.withLock { $0.listeners[ObjectIdentifier(listener)] = Listener(value: listener) }
    }

    /// Removes the listener with this identity.
    func unregister(_ id: ObjectIdentifier) {
        state.withLock { _ = $0.listeners.removeValue(forKey: id) }
    }

    /// The sequence number of the last commit queued (0 before the first): a read that starts after this
    /// call sees every commit up to it.
    var lastSequence: UInt64 { state.withLock { $0.nextSequence - 1 } }

    /// How many listeners are registered (alive or not yet removed).
    var listenerCount: Int { state.withLock { $0.listeners.count } }

    /// Queues a committed write; called on the writer's queue right after COMMIT, so that the sequence
    /// numbers follow the commit order.
    func committed(_ record: ChangeRecord) {
        guard !record.isEmpty else { return }
        state.withLock { state in
            record.sequence = state.nextSequence
            state.queue.append(StoreCommit(sequence: state.nextSequence, writer: record.writer, writerFollowsItems: record.writerFollowsItems,
                                           types: record.types,
                                           feeds: record.feeds, external: false))
            state.nextSequence += 1
        }
    }

    /// Queues a write of another connection (every list re-reads its window).
    func externalWrite() {
        state.withLock { state in
            state.queue.append(StoreCommit(sequence: state.nextSequence, writer: nil, writerFollowsItems: false, types: [:], feeds: [:],
                                           external: true))
            state.nextSequence += 1
        }
    }

    /// Delivers the queued commits, in order, unless another thread (or an outer frame of this one) is
    /// delivering: that drainer delivers them. Never called on the writer's queue.
    func drain() {
        let acquired = state.withLock { state -> Bool in
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
        guard acquired else { return }
        while let (commit, listeners) = next() {
            for listener in listeners { listener.receive(commit) }
        }
    }

    /// The next commit and the listeners alive, or `nil` after giving the drain token back.
    private func next() -> (StoreCommit, [any StoreListener])? {
        state.withLock { state -> (StoreCommit, [any StoreListener])? in
            guard let commit = state.queue.popFirst() else {
                state.draining = false
                return nil
            }
            var alive: [any StoreListener] = []
            state.listeners = state.listeners.filter { _, listener in
                guard let value = listener.value else { return false }
                alive.append(value)
                return true
            }
            return (commit, alive)
        }
    }
}
