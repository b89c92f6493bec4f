// `ID<Owner>` decoding: any bytes as the JSON of an ID, alone and as a model's field.
//
// Properties (a JSON oracle, `JSONTree`, reads the bytes independently):
// - decoding gives an ID or a `DecodingError`, the same with `JSONCoding`'s decoder and a plain one;
// - an ID is decoded exactly when the JSON is a string (`.string`, the same text) or an integer that
//   fits `Int` (`.int`, the same number); a fraction, a Boolean, null, an object or an array is an error;
// - an ID encodes back to JSON that decodes to the same ID, and describes itself without trapping;
// - as a model's field, it decodes the same or fails with a `JSONCodingError` of one sentence.
import Foundation
import FuzzSupport
import PaginatedList

enum Post {}

struct Model: Codable, Equatable {
    let id: ID<Post>
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    Fuzz.run(data, size) { bytes in
        let json = Data(bytes)
        let context = Fuzz.quoted(String(decoding: bytes.prefix(200), as: UTF8.self))
        let plain = decode(json, with: JSONDecoder())
        let conventional = decode(json, with: JSONCoding.makeDecoder())
        Fuzz.check(plain == conventional, "the decoders agree: \(plain) vs \(conventional) for \(context)")
        checkDecoded(plain, expected: expectedID(bytes), context)
        checkField(json, plain, context)
    }
}

/// The ID the oracle reads in `bytes`: a string, or an integer that fits `Int`. An array or an object is
/// none, whatever it holds, so the oracle does not read one: `JSONTree` builds each failed attempt's coding
/// path, which makes a deeply nested document quadratic (2 KB of nested arrays took a second).
private func expectedID(_ bytes: [UInt8]) -> ID<Post>? {
    let whitespace: [UInt8] = [0x20, 0x09, 0x0A, 0x0D]
    if let first = bytes.first(where: { !whitespace.contains($0) }), first == UInt8(ascii: "[") || first == UInt8(ascii: "{") {
        return nil
    }
    return switch JSONTree.parse(bytes) {
    case let .string(text)?: ID(text)
    case let .integer(integer)?: Int(exactly: integer).map { ID($0) }
    default: nil
    }
}

private func checkDecoded(_ decoded: Result<ID<Post>, DecodingFailure>, expected: ID<Post>?, _ context: String) {
    switch decoded {
    case let .success(id):
        Fuzz.check(id == expected, "\(context) decoded as \(id.debugDescription), expected \(String(describing: expected))")
        let encoded = try? JSONCoding.encode(id)
        Fuzz.check(encoded.flatMap { try? JSONCoding.decode(ID<Post>.self, from: $0) } == id,
                   "\(id.debugDescription) does not encode back: \(String(describing: encoded))")
        let bare = id.intValue.map { String($0) } ?? id.stringValue
        Fuzz.check(id.description == bare, "description is the bare value")
        Fuzz.check(!id.debugDescription.isEmpty, "debugDescription")
    case let .failure(error):
        Fuzz.check(expected == nil, "\(context) failed though it is \(String(describing: expected)): \(error)")
    }
}

/// As a model's field, the JSON decodes the same, or fails with a `JSONCodingError` of one sentence.
private func checkField(_ json: Data, _ decoded: Result<ID<Post>, DecodingFailure>, _ context: String) {
    let field = Data(#"{"id": "#.utf8) + json + Data("}".utf8)
    do throws(JSONCodingError) {
        let model = try JSONCoding.decode(Model.self, from: field)
        if case let .success(id) = decoded { Fuzz.check(model.id == id, "as a field, \(context) decodes the same") }
    } catch {
        let sentence = error.description
        Fuzz.check(sentence.hasPrefix("Could not decode Model: ") && sentence.hasSuffix("."), "one sentence: \(Fuzz.quoted(sentence))")
    }
}

/// The ID in `json`, or the `DecodingError` decoding it threw.
private func decode(_ json: Data, with decoder: JSONDecoder) -> Result<ID<Post>, DecodingFailure> {
    do {
        return .success(try decoder.decode(ID<Post>.self, from: json))
    } catch let error as DecodingError {
        return .failure(DecodingFailure(error))
    } catch {
        Fuzz.violated("decoding an ID threw \(type(of: error)), not a DecodingError: \(error)")
    }
}

/// A `DecodingError`'s case, comparable.
struct DecodingFailure: Error, Equatable {
    let kind: String

    init(_ error: DecodingError) {
        kind = switch error {
        case .typeMismatch: "typeMismatch"
        case .valueNotFound: "valueNotFound"
        case .keyNotFound: "keyNotFound"
        case .dataCorrupted: "dataCorrupted"
        @unknown default: "unknown"
        }
    }
}
