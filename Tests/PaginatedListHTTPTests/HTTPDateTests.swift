import Foundation
@testable import PaginatedListHTTP
import Testing

/// RFC 9110's HTTP dates (section 5.6.7) as `Retry-After` and `Date` carry them: the three forms a recipient
/// must accept, read exactly, and everything else refused.
@Suite struct HTTPDateTests {
    /// 2024-01-01T00:00:00Z, the instant the dates below name unless said otherwise.
    static let newYear2024 = Date(timeIntervalSince1970: 1_704_067_200)
    /// The reader's clock for RFC 850's two-digit years.
    static let now = Date(timeIntervalSince1970: 1_795_000_000)   // 2026-11-18

    @Test(arguments: ["Mon, 01 Jan 2024 00:00:00 GMT", "Monday, 01-Jan-24 00:00:00 GMT", "Mon Jan  1 00:00:00 2024",
                      " \tMon, 01 Jan 2024 00:00:00 GMT\t "])
    func eachOfTheThreeFormsIsRead(_ text: String) {
        #expect(HTTPDate.parse(text, now: Self.now) == Self.newYear2024)
    }

    @Test func theRFCsOwnExampleIsReadInEachForm() {
        let example = Date(timeIntervalSince1970: 784_111_777)   // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT", now: Self.now) == example)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: Self.now) == example)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994", now: Self.now) == example)
    }

    @Test func aTwoDigitYearMoreThan50YearsAheadIsInThePastCentury() {
        // Read in 2026: 76 is 2076 (50 years on), 77 is 1977.
        #expect(HTTPDate.parse("Wednesday, 01-Jan-76 00:00:00 GMT", now: Self.now) == Date(timeIntervalSince1970: 3_345_062_400))
        #expect(HTTPDate.parse("Saturday, 01-Jan-77 00:00:00 GMT", now: Self.now) == Date(timeIntervalSince1970: 220_924_800))
    }

    @Test func dayAndTimeArithmeticMatchesFoundationAcrossLeapYearsAndCenturies() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "GMT"))
        for (year, month, day) in [(1970, 1, 1), (1969, 12, 31), (2000, 2, 29), (2024, 2, 29), (2100, 3, 1), (1900, 2, 28),
                                   (2038, 1, 19), (9999, 12, 31), (1601, 1, 1)] {
            let expected = try #require(calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 13, minute: 5, second: 9)))
            let text = String(format: "Mon, %02d %@ %04d 13:05:09 GMT", day, HTTPDate.months[month - 1], year)
            #expect(HTTPDate.parse(text, now: Self.now) == expected, "\(text)")
        }
    }

    @Test func aLeapSecondIsTheFirstSecondOfTheNextMinute() {
        #expect(HTTPDate.parse("Sun, 31 Dec 2023 23:59:60 GMT", now: Self.now) == Self.newYear2024)
    }

    @Test(arguments: [
        "Mon, 1 Jan 2024 00:00:00 GMT",          // a one-digit day in IMF-fixdate
        "Mon, 01 Jan 24 00:00:00 GMT",           // a two-digit year in IMF-fixdate
        "Monday, 01 Jan 2024 00:00:00 GMT",      // a long day name in IMF-fixdate
        "Mon, 01-Jan-24 00:00:00 GMT",           // a short day name in the RFC 850 form
        "Mon Jan 1 00:00:00 2024",               // asctime's day without its padding space
        "mon, 01 jan 2024 00:00:00 gmt",         // names are case-sensitive
        "Mon, 01 Jan 2024 00:00:00 UTC",         // the zone is GMT only
        "Mon, 01 Jan 2024 00:00:00 +0000",
        "Mon, 01 Jan 2024 00:00:00",             // no zone
        "Mon, 01 Jan 2024 00:00:00 GMT x",       // anything after the date
        "Mon, 01 Jan 2024 00:00 GMT",            // no seconds
        "Mon, 01 Jan 2024 24:00:00 GMT",         // hour 24
        "Mon, 01 Jan 2024 00:60:00 GMT",         // minute 60
        "Mon, 01 Jan 2024 00:00:61 GMT",         // second 61
        "Thu, 30 Feb 2024 00:00:00 GMT",         // no 30 February
        "Mon, 29 Feb 2100 00:00:00 GMT",         // 2100 is not a leap year
        "Mon, 31 Apr 2024 00:00:00 GMT",
        "Mon, 00 Jan 2024 00:00:00 GMT",
        "Mon, 01 Foo 2024 00:00:00 GMT",
        "Mon, ０1 Jan 2024 00:00:00 GMT",         // a fullwidth digit
        "", "   ", "Mon", "Mon, ", "1704067200", "2024-01-01T00:00:00Z",
    ])
    func anythingElseIsNotADate(_ text: String) {
        #expect(HTTPDate.parse(text, now: Self.now) == nil)
    }

    @Test func theDayNameIsNotCheckedAgainstTheDate() {
        #expect(HTTPDate.parse("Fri, 01 Jan 2024 00:00:00 GMT", now: Self.now) == Self.newYear2024)
    }
}
