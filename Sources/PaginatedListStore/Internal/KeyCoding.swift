import Foundation
import PaginatedList
import Signals

/// How a keyed source's keys are written: as JSON; a key with a part every page of a chain shares (an ID
/// snapshot, `SplitPageKey`) keeps that part once per feed in `snapshots`, and only its own part in the
/// page's row.
///
/// Thread-safe: the last snapshot written and the last one read are remembered under a lock, so a feed
/// that pages through one snapshot encodes and decodes it once.
final class KeyCoding<Key: Codable & Hashable & Sendable>: Sendable {
    private let split: SplitCoding<Key>?
    private let path: String

    init(path: String) {
        self.path = path
        if let type = Key.self as? any SplitPageKey.Type {
            split = SplitCoding(type, path: path)
        } else {
            split = nil
        }
    }

    /// `key` as stored (`nil`: no page; `.some(nil)`: the source's first page), writing its shared part.
    func encode(_ key: Key??, feed: Int64, tables: FeedTables) throws(StoreError) -> (Data?, snapshot: Int64?) {
        guard case let .some(key) = key else { return (nil, nil) }
        guard let key else { return (Data(), nil) }
        if let split { return try split.encode(key, feed: feed, tables: tables) }
        do {
            return (try JSONEncoder().encode(key), nil)
        } catch {
            throw StoreError(kind: .decoding, path: path, message: "encoding the page key \(key): \(error)")
        }
    }

    /// The links of a page: its own key and its neighbours' (all of one snapshot, for split keys).
    func links(key: Key?, previous: Key?, next: Key?, feed: Int64, tables: FeedTables) throws(StoreError) -> StoredLinks {
        let own = try encode(.some(key), feed: feed, tables: tables)
        let before = try encode(previous.map { .some($0) }, feed: feed, tables: tables)
        let after = try encode(next.map { .some($0) }, feed: feed, tables: tables)
        return StoredLinks(key: key == nil ? nil : own.0, previous: before.0, next: after.0,
                           snapshot: own.snapshot ?? before.snapshot ?? after.snapshot)
    }

    /// The key a stored link holds (`nil` for an empty blob: the source's first page).
    func decode(_ data: Data, snapshot: Int64?, tables: FeedTables) throws(StoreError) -> Key? {
        if data.isEmpty { return nil }
        if let split { return try split.decode(data, snapshot: snapshot, tables: tables) }
        do {
            return try JSONDecoder().decode(Key.self, from: data)
        } catch {
            throw StoreError(kind: .decoding, path: path, message: "decoding a stored page key as \(Key.self): \(error)")
        }
    }
}

/// The split coding of `SplitPageKey` keys, for a `Key` that is one.
private final class SplitCoding<Key>: Sendable {
    private let encodeKey: @Sendable (Key, Int64, FeedTables) throws(StoreError) -> (Data?, snapshot: Int64?)
    private let decodeKey: @Sendable (Data, Int64?, FeedTables) throws(StoreError) -> Key

    init<Split: SplitPageKey>(_ type: Split.Type, path: String) {
        // The shared part last written (with its row) and last read, each under the lock.
        let written = Locked<(shared: Split.Shared, row: Int64)?>(nil)
        let read = Locked<(row: Int64, shared: Split.Shared)?>(nil)
        encodeKey = { key, feed, tables throws(StoreError) in
            let split = key as! Split
            let local: Data
            do { local = try JSONEncoder().encode(split.local) } catch {
                throw StoreError(kind: .decoding, path: path, message: "encoding a page key: \(error)")
            }
            if let last = written.withLock({ $0 }), last.shared == split.shared,
               try tables.connection.integer("SELECT 1 FROM snapshots WHERE id = ? AND feed = ?", .integer(last.row), .integer(feed)) != nil {
                return (local, last.row)
            }
            let shared: Data
            do { shared = try JSONEncoder().encode(split.shared) } catch {
                throw StoreError(kind: .decoding, path: path, message: "encoding an ID snapshot: \(error)")
            }
            try tables.connection.run("INSERT INTO snapshots(feed, ids) VALUES (?, ?)", .integer(feed), .blob(shared))
            let row = tables.connection.lastInsertRowID
            try tables.connection.run("UPDATE feeds SET snapshot = ? WHERE id = ?", .integer(row), .integer(feed))
            written.withLock { $0 = (split.shared, row) }
            return (local, row)
        }
        decodeKey = { data, snapshot, tables throws(StoreError) in
            guard let snapshot else {
                throw StoreError(kind: .corrupt, path: path, message: "a page key of \(Split.self) without its snapshot")
            }
            do {
                let local = try JSONDecoder().decode(Split.Local.self, from: data)
                if let last = read.withLock({ $0 }), last.row == snapshot {
                    return Split(shared: last.shared, local: local) as! Key
                }
                let statement = try tables.connection.statement("SELECT ids FROM snapshots WHERE id = ?")
                try statement.bind(.integer(snapshot), at: 1)
                guard try statement.step(), let blob = statement.blob(0) else {
                    throw StoreError(kind: .corrupt, path: path, message: "the ID snapshot \(snapshot) of a page is missing")
                }
                statement.reset()
                let shared = try JSONDecoder().decode(Split.Shared.self, from: blob)
                read.withLock { $0 = (snapshot, shared) }
                return Split(shared: shared, local: local) as! Key
            } catch let error as StoreError {
                throw error
            } catch {
                throw StoreError(kind: .decoding, path: path, message: "decoding a stored page key as \(Split.self): \(error)")
            }
        }
    }

    func encode(_ key: Key, feed: Int64, tables: FeedTables) throws(StoreError) -> (Data?, snapshot: Int64?) {
        try encodeKey(key, feed, tables)
    }

    func decode(_ data: Data, snapshot: Int64?, tables: FeedTables) throws(StoreError) -> Key {
        try decodeKey(data, snapshot, tables)
    }
}
