// `JSONCoding`'s dates. The input is eight bytes, a `Date`'s `timeIntervalSince1970` as a `Double`'s bits
// (any: NaN, infinities, 1e300), then any text as an ISO 8601 date string.
//
// Properties:
// - the text decodes to a date or fails with a `JSONCodingError` of one sentence; a decoded date
//   encodes as UTC (`2024-05-01T12:00:00Z`, or with `.SSS`; years past 9999 with more digits) and that
//   decodes to the same millisecond;
// - any date encodes without trapping; one between the years 1 and 9999 decodes back to the same
//   millisecond.
import Foundation
import FuzzSupport
import PaginatedList

struct Stamped: Codable {
    let at: Date
}

/// The seconds from 1970 to 0001-01-01 and to 9999-12-31, with a day to spare.
private let writable = -62_135_596_800.0 + 86_400 ... 253_402_214_400.0 - 86_400

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    Fuzz.run(data, size) { bytes in
        var input = FuzzInput(bytes)
        let seconds = input.doubleBits()
        let text = String(decoding: input.rest(), as: UTF8.self)
        checkDecoding(text)
        checkEncoding(Date(timeIntervalSince1970: seconds))
    }
}

private func checkDecoding(_ text: String) {
    let json = "{\"at\": \(String(decoding: try! JSONEncoder().encode(text), as: UTF8.self))}"
    let date: Date
    do throws(JSONCodingError) {
        date = try JSONCoding.decode(Stamped.self, from: json).at
    } catch {
        let sentence = error.description
        Fuzz.check(sentence.hasPrefix("Could not decode Stamped: ") && sentence.hasSuffix("."), "one sentence: \(Fuzz.quoted(sentence))")
        return
    }
    let written = write(date, from: Fuzz.quoted(text))
    Fuzz.check(isUTC(written), "\(Fuzz.quoted(text)) encodes as \(Fuzz.quoted(written)), not UTC with .SSS or none")
    let back = read(written, from: Fuzz.quoted(text))
    Fuzz.check(milliseconds(back) == milliseconds(date),
               "\(Fuzz.quoted(text)) is \(date.timeIntervalSince1970), written \(Fuzz.quoted(written)), read back \(back.timeIntervalSince1970)")
}

private func checkEncoding(_ date: Date) {
    let written = write(date, from: "\(date.timeIntervalSince1970)")
    guard writable.contains(date.timeIntervalSince1970) else { return }
    Fuzz.check(isUTC(written), "\(date.timeIntervalSince1970) encodes as \(Fuzz.quoted(written)), not UTC with .SSS or none")
    let back = read(written, from: "\(date.timeIntervalSince1970)")
    Fuzz.check(milliseconds(back) == milliseconds(date),
               "\(date.timeIntervalSince1970) written \(Fuzz.quoted(written)) reads back as \(back.timeIntervalSince1970)")
}

/// The date string `date` encodes as.
private func write(_ date: Date, from origin: String) -> String {
    guard let data = try? JSONCoding.encode(Stamped(at: date)),
          let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let text = object["at"] as? String else {
        Fuzz.violated("the date of \(origin) does not encode as a string")
    }
    return text
}

/// The date `text`, written by the encoder, decodes as.
private func read(_ text: String, from origin: String) -> Date {
    let json = "{\"at\": \(String(decoding: try! JSONEncoder().encode(text), as: UTF8.self))}"
    guard let stamped = try? JSONCoding.decode(Stamped.self, from: json) else {
        Fuzz.violated("the date of \(origin), written \(Fuzz.quoted(text)), does not decode")
    }
    return stamped.at
}

/// `yyyy-MM-ddTHH:mm:ssZ` or `yyyy-MM-ddTHH:mm:ss.SSSZ` (a year of four digits or more).
private func isUTC(_ text: String) -> Bool {
    var shape = text.unicodeScalars.map { ("0" ... "9").contains($0) ? "9" : String($0) }.joined()
    while shape.hasPrefix("99999") { shape.removeFirst() }
    return shape == "9999-99-99T99:99:99Z" || shape == "9999-99-99T99:99:99.999Z"
}

private func milliseconds(_ date: Date) -> Double {
    (date.timeIntervalSince1970 * 1000).rounded()
}
