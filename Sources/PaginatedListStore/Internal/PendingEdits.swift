import Foundation
import Signals

// Optimistic edits (`StoredFeed.mutate`) that no send has settled yet.
//
// **In the file** (`pending_edits`): one row per item with an unsettled edit: the server's last value
// (`server`) and the value the store last showed (`shown`, which `items.body` holds after each of the store's
// writes). The row is written by the transaction that stores the edit and deleted by the one that settles
// the item's last edit (or `rollback(id:)`), and goes with its item (a trigger). `pendingEdits()` lists them,
// also after a relaunch.
//
// **In the process** (`PendingEdits`): per item, the chain of its edits whose sends have not answered, in the
// order they started, each with its `change`: the shown value is the server's with every change of the
// chain applied in order. An item pending since an earlier launch has a row and no chain: its shown value is
// kept as it is until a mutation of the item or `rollback(id:)` settles it.
//
// **A write of the item while it is pending** (a page, a refresh's landing, `update`, an insertion that
// repeats it) is the server's new value: before its transaction commits (`settle`), the value written becomes
// `server`, and `items.body` the chain applied to it (or, with no chain, the shown value again); what the
// commit publishes is that shown value, so every list shows the user's edit on top of the new value. The
// writing list's own transition (a refresh's landing, its edit, a page it loaded) shows the shown value
// too, in the same transition: the edit is never undone on screen, not even for one transition. The
// mutation's own transactions write `items.body`, `server` and `shown` themselves and are not settled.

/// An item as the pending edits name it: its type's name and its key.
struct ItemName: Hashable, Sendable {
    let type: String
    let key: String
}

/// The edits of one item whose sends have not answered, in the order they started.
struct EditChain: Sendable {
    /// One edit: its place in the order edits started, and its change of the item (type-erased).
    struct Edit: Sendable {
        let serial: UInt64
        let change: @Sendable (any Sendable) -> any Sendable
    }

    /// The item type's coding, type-erased: a body as a value, and a value as a row.
    let decode: @Sendable (Data) throws(StoreError) -> any Sendable
    let encode: @Sendable (any Sendable) throws(StoreError) -> EncodedItem
    var edits: [Edit] = []
    /// The serial of the latest-started edit whose send answered with a value (0: none).
    var lastConfirmed: UInt64 = 0

    /// The item as shown when the server's value is `server`: every edit started after the last one whose
    /// send answered applied to it, in order. An edit started before that one is left out while it waits
    /// for its own answer: its change went with the later edit's item (each edit starts from the item as
    /// shown), so the server's value already holds it.
    func rebase(_ server: Data) throws(StoreError) -> WrittenItem {
        var value = try decode(server)
        for edit in edits where edit.serial > lastConfirmed { value = edit.change(value) }
        return WrittenItem(body: try encode(value).body, value: value)
    }
}

/// The chains of this process's unsettled edits, and whether the file may hold pending rows (when it cannot,
/// writes skip the look-up). Used inside write transactions, on the writer's queue.
final class PendingEdits: Sendable {
    private struct State {
        var chains: [ItemName: EditChain] = [:]
        var nextSerial: UInt64 = 1
        var mayHaveRows = false
        /// The edits whose item was deleted (or listed by no feed any more) before their sends answered:
        /// their answers are sent on, not stored, also when the item is stored again meanwhile.
        var ended: Set<UInt64> = []
    }

    private let state = Locked(State())

    /// Whether the file may hold a pending row (false only when it was checked to hold none and no edit
    /// started since).
    var mayHaveRows: Bool { state.withLock { $0.mayHaveRows } }

    /// Records whether the file holds pending rows (read at open, after another connection wrote, and when
    /// this process settled its last chain).
    func noteRows(_ exist: Bool) {
        state.withLock { $0.mayHaveRows = exist || !$0.chains.isEmpty }
    }

    /// Appends an edit to the item's chain (made with `coding` if it has none); returns the edit's serial.
    func append(_ change: @escaping @Sendable (any Sendable) -> any Sendable, to name: ItemName, coding: () -> EditChain) -> UInt64 {
        state.withLock { state in
            let serial = state.nextSerial
            state.nextSerial += 1
            var chain = state.chains[name] ?? coding()
            chain.edits.append(EditChain.Edit(serial: serial, change: change))
            state.chains[name] = chain
            state.mayHaveRows = true
            return serial
        }
    }

    /// The item's chain, if it has unanswered edits.
    func chain(of name: ItemName) -> EditChain? {
        state.withLock { $0.chains[name] }
    }

    /// Has the item's chain changed, in a transaction of `record`, put back as it is now if the transaction
    /// rolls back (its commit may fail after the chain changed: a full disk); the file may then hold pending
    /// rows whatever was noted.
    func restoreOnRollback(_ name: ItemName, _ record: ChangeRecord) {
        let before = chain(of: name)
        record.onRollback { [self] in
            state.withLock { state in
                state.chains[name] = before
                state.mayHaveRows = true
            }
        }
    }

    /// Takes the edit `serial` out of the item's chain after its send answered with a value: whether no
    /// later-started edit of the item had answered with one already (then this value is the server's
    /// newest), and the chain left (`nil`: none).
    func confirm(_ serial: UInt64, of name: ItemName) -> (newest: Bool, remaining: EditChain?) {
        state.withLock { state in
            guard var chain = state.chains[name] else { return (true, nil) }
            chain.edits.removeAll { $0.serial == serial }
            let newest = serial > chain.lastConfirmed
            if newest { chain.lastConfirmed = serial }
            state.chains[name] = chain.edits.isEmpty ? nil : chain
            return (newest, state.chains[name])
        }
    }

    /// Takes the edit `serial` out of the item's chain after its send failed (or its run was disposed):
    /// whether it was there (not rolled back meanwhile), and the chain left.
    func drop(_ serial: UInt64, of name: ItemName) -> (found: Bool, remaining: EditChain?) {
        state.withLock { state in
            guard var chain = state.chains[name], chain.edits.contains(where: { $0.serial == serial }) else { return (false, nil) }
            chain.edits.removeAll { $0.serial == serial }
            state.chains[name] = chain.edits.isEmpty ? nil : chain
            return (true, state.chains[name])
        }
    }

    /// An item deleted (or no longer listed by any feed) ends its edits, as its pending row goes with it
    /// (the file's trigger): their answers settle nothing of the item any more, nor of one with its id
    /// stored later. Undone if the write rolls back.
    private func endChains(ofItemsDeletedBy record: ChangeRecord) {
        guard !hasNoChains else { return }
        for (type, changes) in record.deletedItems.merging(record.orphanedItems, uniquingKeysWith: { $0.union($1) }) {
            for key in changes {
                let name = ItemName(type: type, key: key)
                guard let chain = chain(of: name) else { continue }
                restoreOnRollback(name, record)
                clear(name)
                let serials = chain.edits.map(\.serial)
                state.withLock { $0.ended.formUnion(serials) }
                record.onRollback { [self] in state.withLock { $0.ended.subtract(serials) } }
            }
        }
    }

    /// Forgets the item's chain (`rollback(id:)`): its sends' answers settle nothing of it any more.
    func clear(_ name: ItemName) {
        state.withLock { _ = $0.chains.removeValue(forKey: name) }
    }

    /// Whether edit `serial` was ended by its item's deletion (`endChains`), forgetting it: its send's
    /// answer (or its end) then settles nothing. Put back if the transaction of `record` rolls back.
    func takeEnded(_ serial: UInt64, _ record: ChangeRecord) -> Bool {
        let ended = state.withLock { $0.ended.remove(serial) != nil }
        if ended { record.onRollback { [self] in state.withLock { _ = $0.ended.insert(serial) } } }
        return ended
    }

    /// Every item's chain (for the tests' checks).
    var chains: [ItemName: EditChain] { state.withLock { $0.chains } }

    /// Whether this process has no unanswered edit.
    var hasNoChains: Bool { state.withLock { $0.chains.isEmpty } }

    /// Applies the rule for a write of an item while it is pending (see the top of this file) to every
    /// item `record` wrote (or wrote again with the value it had), once, before the transaction commits.
    /// Returns each pending item it met, by key and type, with the value now shown, and whether that differs
    /// from the value written (the writer's own transition shows the shown one: `PageKeeper.persist(_:)`,
    /// the page a list wrote).
    @discardableResult
    func settle(_ connection: SQLiteConnection, _ record: ChangeRecord) throws(StoreError) -> [ItemName: SettledItem] {
        guard !record.settled else { return [:] }
        record.settled = true
        endChains(ofItemsDeletedBy: record)
        guard !record.isMutation, mayHaveRows else { return [:] }
        var shown: [ItemName: SettledItem] = [:]
        for (type, keys) in record.serverWrites {
            for key in keys {
                let name = ItemName(type: type, key: key)
                guard let row = try PendingRow.read(connection, name) else { continue }
                let value: WrittenItem
                if let chain = chain(of: name) {
                    value = try chain.rebase(row.body)
                } else {
                    value = WrittenItem(body: row.shown, value: nil)
                }
                try connection.run("UPDATE pending_edits SET server = ?, shown = ? WHERE item = ?",
                                   .blob(row.body), .blob(value.body), .integer(row.item))
                let changed = value.body != row.body
                if changed { try connection.run("UPDATE items SET body = ? WHERE id = ?", .blob(value.body), .integer(row.item)) }
                if changed || record.wroteItem(key, type: type) {
                    record.wrote(EncodedItem(key: key, body: value.body), value: value.value, type: type)
                }
                shown[name] = SettledItem(shown: value, differs: changed)
            }
        }
        // The writer's own transition shows the shown values; it follows them too (a commit delivered to it
        // after that transition, written before, may have replaced them), skipping those it holds.
        if !shown.isEmpty, record.writer != nil { record.writerFollowsItems = true }
        return shown
    }
}

/// A pending item a write wrote: the value shown (its pending edits on top of the value written), and
/// whether it differs from the value written.
struct SettledItem {
    let shown: WrittenItem
    let differs: Bool
}

/// An item's pending row, with the item's stored body.
struct PendingRow {
    /// The item's row (the pending row's key).
    let item: Int64
    let server: Data
    let shown: Data
    /// The item's stored body.
    let body: Data

    /// The pending row of the item `name`, if it has one. Found by name, not by a row id kept from when the
    /// edit was stored: an item's row id is taken again by an item stored after it was deleted.
    static func read(_ connection: SQLiteConnection, _ name: ItemName) throws(StoreError) -> PendingRow? {
        let statement = try connection.statement("""
            SELECT i.id, p.server, p.shown, i.body FROM items i JOIN item_types t ON t.id = i.type
              JOIN pending_edits p ON p.item = i.id WHERE t.name = ? AND i.key = ?
            """)
        try statement.bind([.text(name.type), .text(name.key)])
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return PendingRow(item: statement.int64(0), server: statement.blob(1) ?? Data(), shown: statement.blob(2) ?? Data(),
                          body: statement.blob(3) ?? Data())
    }
}
