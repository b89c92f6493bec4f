import Foundation
import Signals

extension StoredFeed {
    /// Optimistic edit: `change` is stored at once (every open list that holds the item follows, in one
    /// transition each), then `send` runs with the changed item; its value is stored as the server's and
    /// shown, its failure restores the server's last value everywhere and is sent on as `.remote`.
    ///
    /// - The producer does its work when started: it fails with `.notFound` (and `send` does not run) when
    ///   this feed lists no item with `id`, with `.store` when the edit cannot be written. The edit is one
    ///   transaction, and the item's id is in `pendingEdits()` (also after a relaunch) until it is settled.
    /// - `send`'s first value is the server's: it is stored (unless the send of an edit of the item started
    ///   later answered first: the newer value stays), shown with the item's other pending edits on top of
    ///   it, and sent; the producer then completes and `send`'s run is disposed. A `send` that completes with
    ///   no value confirms the changed item as it was sent. Its failure rolls back this edit's part only
    ///   (the server's last value with the item's other pending edits on top) and is sent as `.remote`; its
    ///   interruption rolls back the same way and interrupts the producer.
    /// - **Disposing the producer's run** before `send` answered rolls the edit back, as a failure does, and
    ///   disposes `send`'s run: nobody is left to learn the outcome, and an edit shown as done that no one
    ///   confirms would stay on screen until the next launch (a request that reached the server anyway shows
    ///   at the next refresh).
    /// - **Two edits of one item** compose: the second's `change` applies to the first's result, and its
    ///   `send` gets both. A failure of the first takes only the first's change out (the second is applied
    ///   to the server's value again); the first's success makes its value the base the second applies to.
    /// - **A write of the item while it is pending** (a page or a refresh that brings it, `PagingStore.update`,
    ///   a list's `update`) is the server's new value: it is kept as such, and every pending `change` of the
    ///   item is applied to it again, so the lists show the user's edit on top of the newer value. Write
    ///   `change` as a function of the value it gets (`post.liked = true`), as it may run more than once.
    ///   An edit pending since an earlier launch has no `change` any more: its value stays shown until
    ///   `rollback(id:)`, or until a new mutation of the item settles it with its own outcome.
    /// - A removal of the item from every feed while its edit is pending ends the edit: `send`'s value is
    ///   sent but not stored.
    /// - **Cost**: two write transactions, the edit's (the item read, decoded, changed, encoded and written with
    ///   its pending row) and the answer's. An answer that is the very value `send` was given (a send that
    ///   completes with no value, or sends back its item) is not encoded again: the edit's row is its row.
    ///
    /// The writes run on the thread that starts the producer and on the one `send` answers on. `change` runs
    /// inside the store's write transactions (the edit's, and those of later writes of the item while it is
    /// pending): it must not call the store, and should be quick.
    public func mutate<E: Error>(
        id: Item.ID, _ change: @escaping @Sendable (inout Item) -> Void, send: @escaping @Sendable (Item) -> Producer<Item, E>
    ) -> Producer<Item, MutationError<E>> {
        Producer { [self] observer, lifetime in
            let edit: StartedEdit<Item>?
            do throws(StoreError) { edit = try begin(id: id, change) } catch { return observer.send(error: .store(error)) }
            guard let edit else { return observer.send(error: .notFound) }
            let answered = Once()
            if lifetime.hasEnded {
                answered.claim()
                try? drop(edit)
                return
            }
            let run = send(edit.item).start { [self] event in
                guard !event.isTerminating || event.value == nil, answered.claim() else { return }
                switch event {
                case let .value(value):
                    do throws(StoreError) { try confirm(edit, value, sent: isBitwiseIdentical(value, edit.item)) } catch {
                        return observer.send(error: .store(error))
                    }
                    observer.send(value: value)
                    observer.sendCompleted()
                case .completed:
                    do throws(StoreError) { try confirm(edit, edit.item, sent: true) } catch { return observer.send(error: .store(error)) }
                    observer.send(value: edit.item)
                    observer.sendCompleted()
                case let .failed(error):
                    do throws(StoreError) { try drop(edit) } catch { return observer.send(error: .store(error)) }
                    observer.send(error: .remote(error))
                case .interrupted:
                    try? drop(edit)
                    observer.sendInterrupted()
                }
            }
            lifetime.observeEnded { [self] in
                if answered.claim() { try? drop(edit) }
                run.dispose()
            }
        }
    }

    /// The ids of this feed's items whose optimistic edit no `send` settled yet, in the order their edits
    /// started: those of mutations in flight, and after a relaunch those the app never learnt the outcome
    /// of (show them as unsent, send them again with `mutate`, or `rollback(id:)`).
    ///
    /// - Throws: `StoreError` when the store cannot be read.
    public func pendingEdits() throws(StoreError) -> [Item.ID] {
        let coding = ItemCoding<Item>(path: store.path)
        return try store.database.read { connection throws(StoreError) in
            let tables = FeedTables(connection)
            guard let feedRow = try row(tables, create: false) else { return [] }
            let statement = try connection.statement("""
                SELECT i.key FROM pending_edits p JOIN members m ON m.item = p.item AND m.feed = ?
                  JOIN items i ON i.id = p.item ORDER BY p.started
                """)
            try statement.bind(.integer(feedRow.id), at: 1)
            var ids: [Item.ID] = []
            while try statement.step() {
                if let key = statement.text(0), let id = coding.id(ofKey: key) { ids.append(id) }
            }
            return ids
        }
    }

    /// Restores the server's last value of the item with `id` (stored once, whichever feeds list it) and ends
    /// its pending edits: every open list that holds it follows, in one transition each. Nothing when the
    /// item has no pending edit.
    ///
    /// A `send` still running for one of its edits settles nothing of them any more: its failure changes
    /// nothing, its value is stored as the server's (the server took the edit after all).
    ///
    /// - Throws: `StoreError` when the store cannot be written (nothing changed then).
    public func rollback(id: Item.ID) throws(StoreError) {
        let name = try itemName(of: id)
        let pending = store.database.pending
        try store.database.write(by: nil) { connection, record throws(StoreError) in
            record.isMutation = true
            pending.restoreOnRollback(name, record)
            pending.clear(name)
            defer { settledChain(connection) }
            guard let row = try PendingRow.read(connection, name) else { return }
            try connection.run("DELETE FROM pending_edits WHERE item = ?", .integer(row.item))
            try show(WrittenItem(body: row.server, value: nil), of: row, name: name, connection, record)
        }
    }

    // MARK: - The edit's transactions

    /// The item's name in the pending edits.
    private func itemName(of id: Item.ID) throws(StoreError) -> ItemName {
        ItemName(type: try ItemCoding<Item>.typeName(path: store.path), key: try ItemCoding<Item>(path: store.path).key(of: id))
    }

    /// Stores the changed item and records the edit; `nil` when this feed lists no item with `id`.
    private func begin(id: Item.ID, _ change: @escaping @Sendable (inout Item) -> Void) throws(StoreError) -> StartedEdit<Item>? {
        let name = try itemName(of: id)
        let coding = ItemCoding<Item>(path: store.path)
        let path = store.path
        let pending = store.database.pending
        return try store.database.write(by: nil) { connection, record throws(StoreError) -> StartedEdit<Item>? in
            record.isMutation = true
            guard let (item, body) = try listedItem(name, connection) else { return nil }
            var value = try coding.decode(body)
            change(&value)
            let encoded = try coding.encode(value)
            guard encoded.key == name.key else {
                throw StoreError(kind: .decoding, path: path, message: "the change of the \(Item.self) \(name.key) gave it another id (\(encoded.key))")
            }
            // The item's pending row: made with the server's value, last in the order edits started, or
            // (another edit of it pending) kept with both.
            try connection.run("""
                INSERT INTO pending_edits(item, started, server, shown)
                  VALUES (?1, (SELECT coalesce(max(started), 0) + 1 FROM pending_edits), ?2, ?3)
                  ON CONFLICT(item) DO UPDATE SET shown = excluded.shown
                """, .integer(item), .blob(body), .blob(encoded.body))
            if encoded.body != body {
                try connection.run("UPDATE items SET body = ? WHERE id = ?", .blob(encoded.body), .integer(item))
                record.wrote(encoded, value: value, type: name.type)
            }
            pending.restoreOnRollback(name, record)
            let serial = pending.append({ value in
                guard var item = value as? Item else { return value }
                change(&item)
                return item
            }, to: name) {
                EditChain(decode: { body throws(StoreError) in
                    try ItemCoding<Item>(path: path).decode(body)
                }, encode: { value throws(StoreError) in
                    guard let item = value as? Item else {
                        throw StoreError(kind: .decoding, path: path, message: "an edit of a \(Item.self) made a \(type(of: value))")
                    }
                    return try ItemCoding<Item>(path: path).encode(item)
                })
            }
            return StartedEdit(name: name, serial: serial, item: value, body: encoded.body)
        }
    }

    /// Stores `value`, the answer of the edit's `send`, as the server's value (see `mutate`). `sent`: the
    /// answer is the item `send` was given, whose row the edit wrote (it is not encoded again).
    private func confirm(_ edit: StartedEdit<Item>, _ value: Item, sent: Bool) throws(StoreError) {
        let encoded = sent ? EncodedItem(key: edit.name.key, body: edit.body) : try ItemCoding<Item>(path: store.path).encode(value)
        guard encoded.key == edit.name.key else {
            try drop(edit)
            throw StoreError(kind: .decoding, path: store.path, message:
                "the send of an edit of the \(Item.self) \(edit.name.key) answered with another item (\(encoded.key)): the edit was rolled back")
        }
        let pending = store.database.pending
        try store.database.write(by: nil) { connection, record throws(StoreError) in
            record.isMutation = true
            defer { settledChain(connection) }
            // Its item was deleted since: the answer is sent on, not stored (the item may be stored again).
            guard !pending.takeEnded(edit.serial, record) else { return }
            pending.restoreOnRollback(edit.name, record)
            let (newest, remaining) = pending.confirm(edit.serial, of: edit.name)
            if let row = try PendingRow.read(connection, edit.name) {
                let server = newest ? encoded.body : row.server
                let shown: WrittenItem
                if let remaining {
                    shown = try remaining.rebase(server)
                    try connection.run("UPDATE pending_edits SET server = ?, shown = ? WHERE item = ?",
                                       .blob(server), .blob(shown.body), .integer(row.item))
                } else {
                    shown = WrittenItem(body: server, value: newest ? value : nil)
                    try connection.run("DELETE FROM pending_edits WHERE item = ?", .integer(row.item))
                }
                try show(shown, of: row, name: edit.name, connection, record)
            } else if newest {
                // Rolled back meanwhile (or pending no more): the server took the edit all the same.
                let tables = FeedTables(connection)
                guard let type = try tables.type(named: edit.name.type, create: false) else { return }
                if try tables.replaceBody(encoded, type: type) { record.wrote(encoded, value: value, type: edit.name.type) }
            }
        }
    }

    /// Takes the edit out after its send failed or its run ended (see `mutate`).
    private func drop(_ edit: StartedEdit<Item>) throws(StoreError) {
        let pending = store.database.pending
        try store.database.write(by: nil) { connection, record throws(StoreError) in
            record.isMutation = true
            defer { settledChain(connection) }
            guard !pending.takeEnded(edit.serial, record) else { return }
            pending.restoreOnRollback(edit.name, record)
            let (found, remaining) = pending.drop(edit.serial, of: edit.name)
            guard found, let row = try PendingRow.read(connection, edit.name) else { return }
            if let remaining {
                let shown = try remaining.rebase(row.server)
                try connection.run("UPDATE pending_edits SET shown = ? WHERE item = ?", .blob(shown.body), .integer(row.item))
                try show(shown, of: row, name: edit.name, connection, record)
            } else {
                try connection.run("DELETE FROM pending_edits WHERE item = ?", .integer(row.item))
                try show(WrittenItem(body: row.server, value: nil), of: row, name: edit.name, connection, record)
            }
        }
    }

    /// Writes `shown` as the item's body when it differs from the stored one, for every open list.
    private func show(_ shown: WrittenItem, of row: PendingRow, name: ItemName, _ connection: SQLiteConnection,
                      _ record: ChangeRecord) throws(StoreError) {
        guard shown.body != row.body else { return }
        try connection.run("UPDATE items SET body = ? WHERE id = ?", .blob(shown.body), .integer(row.item))
        record.wrote(EncodedItem(key: name.key, body: shown.body), value: shown.value, type: name.type)
    }

    /// After an edit was settled: when this process has no edit left in flight, whether the file still holds
    /// pending rows (writes skip the look-up when it holds none).
    private func settledChain(_ connection: SQLiteConnection) {
        let pending = store.database.pending
        guard pending.hasNoChains, let rows = try? Database.hasPendingRows(connection) else { return }
        pending.noteRows(rows)
    }

    /// The row and stored body of the item `name` when this feed lists it (one statement: the type's, the
    /// feed's and the item's rows, and the membership).
    private func listedItem(_ name: ItemName, _ connection: SQLiteConnection) throws(StoreError) -> (Int64, Data)? {
        let statement = try connection.statement("""
            SELECT i.id, i.body FROM item_types t JOIN feeds f ON f.type = t.id AND f.name = ?2
              JOIN items i ON i.type = t.id AND i.key = ?3
              WHERE t.name = ?1 AND EXISTS (SELECT 1 FROM members WHERE item = i.id AND feed = f.id)
            """)
        try statement.bind([.text(name.type), .text(self.name), .text(name.key)])
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return (statement.int64(0), statement.blob(1) ?? Data())
    }
}

/// An edit stored and waiting for its send: the item's name, the edit's serial, the changed item and the
/// body the edit wrote for it.
struct StartedEdit<Item: Sendable>: Sendable {
    let name: ItemName
    let serial: UInt64
    let item: Item
    let body: Data
}

/// Whether `a` and `b` are the same value bit for bit: the same inline bytes and the same references (a
/// `send` that answers with the item it was given). `false` says nothing: equal values can differ in their
/// bits (two copies of a string, padding).
func isBitwiseIdentical<T>(_ a: T, _ b: T) -> Bool {
    withUnsafeBytes(of: a) { a in
        withUnsafeBytes(of: b) { b in
            a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
        }
    }
}

/// A flag claimed once, from any thread.
final class Once: Sendable {
    private let done = Locked(false)

    /// `true` for the first call only.
    @discardableResult
    func claim() -> Bool {
        done.withLock { done in
            defer { done = true }
            return !done
        }
    }
}
