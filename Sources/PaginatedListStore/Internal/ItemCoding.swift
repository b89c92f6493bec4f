import Foundation
import Signals

/// How items and their ids are written in the store.
///
/// **Items** are JSON (Foundation's coders with their default strategies, keys sorted): measured on this
/// kind of machine for a 286-byte post, decoding takes 10 µs and encoding 9 µs, against 15 / 14 µs with the
/// package's `JSONCoding` conventions (snake_case keys, ISO 8601 dates, which also round dates to the
/// millisecond) and 25 / 16 µs for a binary property list (344 bytes). JSON also keeps a type's added
/// optional properties readable from rows written before, and the rows readable with `sqlite3`'s JSON
/// functions. **Ids** are the id's JSON text (`42`, `"a1"`), written without an encoder for integers and
/// strings: one id has one key, so an item is stored once per type and id.
///
/// Not thread-safe: each queue (and each page encoded off them) uses its own coder.
final class ItemCoding<Item: Codable & Identifiable> where Item.ID: Codable {
    let path: String
    private let encoder: JSONEncoder
    private let decoder = JSONDecoder()

    init(path: String) {
        self.path = path
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    /// The name the item type's rows are kept under: its `StoreNamedItem.storeTypeName`, else its full Swift
    /// name. `.decoding` for an empty name, and for a type with no stable Swift name (a local or private type,
    /// whose context Swift names by an address that changes from launch to launch).
    static func typeName(path: String) throws(StoreError) -> String {
        let type = ObjectIdentifier(Item.self)
        if let name = typeNames.withLock({ $0[type] }) { return name }
        let name = try uncachedTypeName(path: path)
        typeNames.withLock { $0[type] = name }
        return name
    }

    private static func uncachedTypeName(path: String) throws(StoreError) -> String {
        if let named = Item.self as? any StoreNamedItem.Type {
            let name = named.storeTypeName
            guard !name.isEmpty else {
                throw StoreError(kind: .decoding, path: path, message: "\(Item.self).storeTypeName is empty: the rows of an item type need a name")
            }
            return name
        }
        let name = String(reflecting: Item.self)
        guard !name.contains("(unknown context at ") else {
            throw StoreError(kind: .decoding, path: path, message: """
                the item type \(name) has no stable name (a local or private type: Swift names it by an address that \
                changes from launch to launch); make it StoreNamedItem, or declare it outside functions and not private
                """)
        }
        return name
    }

    /// The key of `id`.
    func key(of id: Item.ID) throws(StoreError) -> String {
        switch id {
        case let integer as Int: return String(integer)
        case let integer as Int64: return String(integer)
        case let integer as Int32: return String(integer)
        case let integer as UInt64: return String(integer)
        case let string as String: return Self.quoted(string)
        case let uuid as UUID: return "\"\(uuid.uuidString)\""
        default:
            do {
                return String(decoding: try encoder.encode(id), as: UTF8.self)
            } catch {
                throw StoreError(kind: .decoding, path: path, message: "encoding the id \(id) of a \(Item.self): \(error)")
            }
        }
    }

    /// The id whose key is `key` (the inverse of `key(of:)`); `nil` when `key` is not one.
    func id(ofKey key: String) -> Item.ID? {
        switch Item.ID.self {
        case is Int.Type: return Int(key) as? Item.ID
        case is Int64.Type: return Int64(key) as? Item.ID
        default: return try? decoder.decode(Item.ID.self, from: Data(key.utf8))
        }
    }

    /// `string` as a JSON string.
    static func quoted(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `item` as a row: its key and its body.
    func encode(_ item: Item) throws(StoreError) -> EncodedItem {
        do {
            return EncodedItem(key: try key(of: item.id), body: try encoder.encode(item))
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(kind: .decoding, path: path, message: "encoding a \(Item.self) (id \(item.id)): \(error)")
        }
    }

    /// The item a row's body holds.
    func decode(_ body: UnsafeRawBufferPointer) throws(StoreError) -> Item {
        do {
            return try decoder.decode(Item.self, from: Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: body.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!),
                                                             count: body.count, deallocator: .none))
        } catch {
            throw StoreError(kind: .decoding, path: path, message: "decoding a stored \(Item.self): \(error)")
        }
    }
}

extension ItemCoding {
    /// The item `body` holds.
    func decode(_ body: Data) throws(StoreError) -> Item {
        let result: Result<Item, StoreError> = body.withUnsafeBytes { bytes in
            do throws(StoreError) { return .success(try decode(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

/// The item types' names, once worked out (`String(reflecting:)` of a type takes microseconds, and every
/// write of an item names its type).
private let typeNames = Locked<[ObjectIdentifier: String]>([:])

/// An item as the store writes it.
struct EncodedItem: Sendable {
    /// The id's JSON text.
    let key: String
    /// The item's JSON.
    let body: Data
}
