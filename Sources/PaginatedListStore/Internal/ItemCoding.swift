import Foundation

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

    /// The item's type, as the store names it.
    static var typeName: String { String(reflecting: Item.self) }

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
                throw StoreError(kind: .decoding, path: path, message: "encoding the id \(id) of a \(Self.typeName): \(error)")
            }
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
            throw StoreError(kind: .decoding, path: path, message: "encoding a \(Self.typeName) (id \(item.id)): \(error)")
        }
    }

    /// The item a row's body holds.
    func decode(_ body: UnsafeRawBufferPointer) throws(StoreError) -> Item {
        do {
            return try decoder.decode(Item.self, from: Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: body.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!),
                                                             count: body.count, deallocator: .none))
        } catch {
            throw StoreError(kind: .decoding, path: path, message: "decoding a stored \(Self.typeName): \(error)")
        }
    }
}

/// An item as the store writes it.
struct EncodedItem: Sendable {
    /// The id's JSON text.
    let key: String
    /// The item's JSON.
    let body: Data
}
