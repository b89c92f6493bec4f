import Foundation

/// RFC 9110's HTTP date (section 5.6.7), read byte by byte: no formatter, no locale, no allocation, so any
/// header value is read in time linear in its length and on any thread.
///
/// The three forms a recipient must accept, and nothing else:
/// - IMF-fixdate, what servers send: `Sun, 06 Nov 1994 08:49:37 GMT`;
/// - the obsolete RFC 850 form: `Sunday, 06-Nov-94 08:49:37 GMT`, whose two-digit year is the one in the
///   century that puts the date at most 50 years after `now` (RFC 9110's rule);
/// - the obsolete asctime form: `Sun Nov  6 08:49:37 1994` (a space pads a one-digit day).
///
/// Names are case-sensitive as the grammar writes them; the zone is `GMT` only. The day must exist in its
/// month (no 30 February), the hour is 00-23, the minute 00-59, the second 00-60 (a leap second counts as
/// the first second of the next minute). The day name is checked to be a day name, not against the date:
/// a server whose weekday is wrong still means the date it wrote. Spaces and tabs around the value are
/// allowed (HTTP's optional whitespace).
enum HTTPDate {
    /// The instant `text` names, or `nil` if it is not an HTTP date in one of the three forms.
    static func parse(_ text: String, now: Date) -> Date? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = Reader(bytes: bytes)
            reader.skipWhitespace()
            guard let fields = reader.imfFixdate() ?? reader.rfc850(now: now) ?? reader.asctime() else { return nil }
            reader.skipWhitespace()
            guard reader.atEnd else { return nil }
            return fields.date
        }
    }

    /// A date and a time of day as written, checked for range.
    struct Fields {
        var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int

        /// The instant, or `nil` when a field is out of range.
        var date: Date? {
            guard (1 ... 12).contains(month), (1 ... HTTPDate.days(inMonth: month, of: year)).contains(day),
                  (0 ... 23).contains(hour), (0 ... 59).contains(minute), (0 ... 60).contains(second)
            else { return nil }
            let days = HTTPDate.daysSince1970(year: year, month: month, day: day)
            return Date(timeIntervalSince1970: TimeInterval(((days * 24 + hour) * 60 + minute) * 60 + second))
        }
    }

    static let shortDays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the proleptic Gregorian date (negative before it): the civil-from-days
    /// inverse, counting in 400-year eras of 146,097 days from 0000-03-01.
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// A cursor over the value's bytes; each form's reader starts from the same position and leaves it
    /// where it stopped only when it succeeded.
    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var atEnd: Bool { index == bytes.count }

        mutating func skipWhitespace() {
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        }

        /// `Sun, 06 Nov 1994 08:49:37 GMT`
        mutating func imfFixdate() -> Fields? {
            attempt { r in
                guard r.word(in: HTTPDate.shortDays) != nil, r.literal(", "),
                      let day = r.number(digits: 2), r.literal(" "), let month = r.month(), r.literal(" "),
                      let year = r.number(digits: 4), r.literal(" "), let time = r.timeOfDay(), r.literal(" GMT")
                else { return nil }
                return Fields(year: year, month: month, day: day, hour: time.0, minute: time.1, second: time.2)
            }
        }

        /// `Sunday, 06-Nov-94 08:49:37 GMT`
        mutating func rfc850(now: Date) -> Fields? {
            attempt { r in
                guard r.word(in: HTTPDate.longDays) != nil, r.literal(", "),
                      let day = r.number(digits: 2), r.literal("-"), let month = r.month(), r.literal("-"),
                      let shortYear = r.number(digits: 2), r.literal(" "), let time = r.timeOfDay(), r.literal(" GMT")
                else { return nil }
                return Fields(year: HTTPDate.fullYear(shortYear, now: now), month: month,
                              day: day, hour: time.0, minute: time.1, second: time.2)
            }
        }

        /// `Sun Nov  6 08:49:37 1994`
        mutating func asctime() -> Fields? {
            attempt { r in
                guard r.word(in: HTTPDate.shortDays) != nil, r.literal(" "), let month = r.month(), r.literal(" ")
                else { return nil }
                let day: Int
                if r.literal(" ") {
                    guard let digit = r.number(digits: 1) else { return nil }
                    day = digit
                } else {
                    guard let digits = r.number(digits: 2) else { return nil }
                    day = digits
                }
                guard r.literal(" "), let time = r.timeOfDay(), r.literal(" "), let year = r.number(digits: 4)
                else { return nil }
                return Fields(year: year, month: month, day: day, hour: time.0, minute: time.1, second: time.2)
            }
        }

        /// Runs `read` from here; keeps its position only when it returns a value.
        private mutating func attempt(_ read: (inout Reader) -> Fields?) -> Fields? {
            var copy = self
            guard let fields = read(&copy) else { return nil }
            self = copy
            return fields
        }

        /// `HH:MM:SS`, each exactly two digits (ranges are checked with the date).
        private mutating func timeOfDay() -> (Int, Int, Int)? {
            guard let hour = number(digits: 2), literal(":"), let minute = number(digits: 2), literal(":"),
                  let second = number(digits: 2) else { return nil }
            return (hour, minute, second)
        }

        /// The month's number, 1-12, from its three-letter name.
        private mutating func month() -> Int? {
            word(in: HTTPDate.months).map { $0 + 1 }
        }

        /// The index of the word of `words` that the bytes here spell (case-sensitive), moving past it.
        private mutating func word(in words: [String]) -> Int? {
            for (offset, word) in words.enumerated() {
                let utf8 = word.utf8
                guard bytes.count - index >= utf8.count,
                      zip(utf8, bytes[index ..< index + utf8.count]).allSatisfy({ $0 == $1 }) else { continue }
                index += utf8.count
                return offset
            }
            return nil
        }

        /// Whether the bytes here spell `text` (ASCII), moving past it if so.
        private mutating func literal(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for offset in 0 ..< count where bytes[index + offset] != text.utf8Start[offset] { return false }
            index += count
            return true
        }

        /// Exactly `digits` ASCII digits as a number.
        private mutating func number(digits: Int) -> Int? {
            guard bytes.count - index >= digits else { return nil }
            var value = 0
            for offset in 0 ..< digits {
                let byte = bytes[index + offset]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += digits
            return value
        }
    }

    /// RFC 850's two-digit year as a full year: the latest year ending in those digits that is at most
    /// 50 years after `now`'s (RFC 9110, section 5.6.7: a date that seems more than 50 years ahead is in
    /// the past century).
    static func fullYear(_ shortYear: Int, now: Date) -> Int {
        let currentYear = year(of: now)
        let year = currentYear - currentYear % 100 + shortYear
        return year > currentYear + 50 ? year - 100 : year
    }

    /// The Gregorian year (UTC) of `date`: the days-from-civil computation above, inverted.
    static func year(of date: Date) -> Int {
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153   // 0 is March
        return era * 400 + yearOfEra + (shiftedMonth >= 10 ? 1 : 0)
    }
}
