import Foundation
import PaginatedList
import Synchronization
import Testing

private struct Author: Codable, Equatable {
    var displayName: String
    var avatarUrl: String?
}

private struct Post: Codable, Equatable {
    var id: ID<Post>
    var title: String
    var createdAt: Date
    var author: Author
}

/// 2024-05-01T12:00:00Z
private let noon = Date(timeIntervalSince1970: 1_714_564_800)

private func string(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

@Suite("JSONCoding")
struct JSONCodingTests {
    @Test func decodesSnakeCaseKeysIntoCamelCaseProperties() throws {
        let author = try JSONCoding.decode(Author.self, from: #"{"display_name": "Ada", "avatar_url": "a.png"}"#)
        #expect(author == Author(displayName: "Ada", avatarUrl: "a.png"))
    }

    @Test func decodesISO8601DatesWithoutFractionalSeconds() throws {
        let date = try JSONCoding.decode(Date.self, from: #""2024-05-01T12:00:00Z""#)
        #expect(date == noon)
    }

    @Test func decodesISO8601DatesWithFractionalSeconds() throws {
        let date = try JSONCoding.decode(Date.self, from: #""2024-05-01T12:00:00.250Z""#)
        #expect(date == noon.addingTimeInterval(0.25))
    }

    @Test func decodesISO8601DatesWithAnOffset() throws {
        let date = try JSONCoding.decode(Date.self, from: #""2024-05-01T14:00:00+02:00""#)
        #expect(date == noon)
    }

    /// Found by the `JSONDates` fuzz target: Foundation's parser reads `0-1-1T0:0:0+02:00Z` as a date in the
    /// year 0, which would be written back as `-0001-12-31T22:00:00Z`, a text this format cannot read.
    @Test(arguments: [#""0-1-1T0:0:0+02:00Z""#, #""0000-06-01T00:00:00Z""#])
    func aDateBeforeTheYearOneIsADecodingError(json: String) {
        #expect(throws: JSONCodingError.self) { try JSONCoding.decode(Date.self, from: json) }
    }

    @Test func theFirstDateOfTheYearOneDecodesAndIsWrittenBackAsItself() throws {
        let date = try JSONCoding.decode(Date.self, from: #""0001-01-01T00:00:00Z""#)
        #expect(string(try JSONCoding.encode(date)) == #""0001-01-01T00:00:00Z""#)
    }

    @Test func encodesCamelCasePropertiesAsSnakeCaseKeysInSortedOrder() throws {
        let json = try JSONCoding.encode(Author(displayName: "Ada", avatarUrl: "https://a.example/a.png"))
        #expect(string(json) == #"{"avatar_url":"https://a.example/a.png","display_name":"Ada"}"#)
    }

    @Test func encodesAWholeSecondDateWithoutAFraction() throws {
        #expect(string(try JSONCoding.encode(noon)) == #""2024-05-01T12:00:00Z""#)
    }

    @Test func encodesMillisecondsWhenTheDateHasAFraction() throws {
        let date = Date(timeIntervalSince1970: 1_714_564_800.123)
        #expect(string(try JSONCoding.encode(date)) == #""2024-05-01T12:00:00.123Z""#)
    }

    @Test(arguments: [1e300, -1e300, .infinity, .nan] as [TimeInterval])
    func aDateWhoseMillisecondsADoubleCannotHoldEncodesInWholeSecondsWithoutTrapping(_ seconds: TimeInterval) throws {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(string(try JSONCoding.encode(date)) == "\"\(Date.ISO8601FormatStyle().format(date))\"")
    }

    @Test(arguments: [
        #"{"author":{"display_name":"Ada"},"created_at":"2024-05-01T12:00:00Z","id":1,"title":"Hello"}"#,
        #"{"author":{"display_name":"Ada"},"created_at":"2024-05-01T12:00:00.123Z","id":"p-1","title":"Hi"}"#,
    ])
    func aDecodedDocumentEncodesBackToTheSameJSON(_ json: String) throws {
        let post = try JSONCoding.decode(Post.self, from: json)
        #expect(string(try JSONCoding.encode(post)) == json)
    }

    @Test func aMissingKeyThrowsAnErrorNamingTheTypeTheKeyAndThePath() {
        let json = #"{"id":1,"title":"Hi","created_at":"2024-05-01T12:00:00Z","author":{}}"#
        #expect {
            try JSONCoding.decode(Post.self, from: json)
        } throws: { error in
            let error = error as? JSONCodingError
            return error?.operation == .decoding && error?.path == "author"
                && error?.description.contains("Post") == true
                && error?.description.contains(#"missing key "display_name" at author"#) == true
        }
    }

    @Test func aWrongTypeThrowsAnErrorWithTheSnakeCasePath() throws {
        let json = #"{"id":1,"title":"Hi","created_at":"2024-05-01T12:00:00Z","author":{"display_name":7}}"#
        let error = try #require(throws: JSONCodingError.self) { try JSONCoding.decode(Post.self, from: json) }
        #expect(error.path == "author.display_name")
        #expect(error.description.contains("expected String"))
        #expect(error.underlying is DecodingError)
    }

    @Test func aMalformedDateThrowsAnErrorQuotingIt() throws {
        let error = try #require(throws: JSONCodingError.self) {
            try JSONCoding.decode([Date].self, from: #"["yesterday"]"#)
        }
        #expect(error.path == "[0]")
        #expect(error.description.contains(#""yesterday""#))
    }

    @Test func invalidJSONThrowsAnErrorSayingSo() throws {
        let error = try #require(throws: JSONCodingError.self) { try JSONCoding.decode(Author.self, from: "{") }
        #expect(error.description.hasPrefix("Could not decode"))
        #expect(error.description.contains("JSON"))
    }

    @Test func aValueJSONCannotHoldThrowsAnEncodingError() throws {
        let error = try #require(throws: JSONCodingError.self) { try JSONCoding.encode(["ratio": Double.nan]) }
        #expect(error.operation == .encoding)
        #expect(error.description.hasPrefix("Could not encode"))
    }

    @Test func anErrorPathUsesTheJSONSpellingOfTheKeys() throws {
        struct Feed: Decodable { var page2Items: [Author] }
        let json = #"{"page2_items": [{"display_name": "Ada"}, {"display_name": null}]}"#
        let error = try #require(throws: JSONCodingError.self) { try JSONCoding.decode(Feed.self, from: json) }
        #expect(error.path == "page2_items[1].display_name")
        #expect(error.description.hasSuffix("found null at page2_items[1].display_name."))
    }

    @Test func anAcronymPropertyNeedsAnExplicitCodingKeyToBeDecoded() throws {
        // Foundation's `.convertFromSnakeCase` turns `avatar_url` into `avatarUrl`, which is not `avatarURL`:
        // such a property is written but never read back unless it names its key.
        struct Implicit: Codable { var avatarURL: String? }
        struct Explicit: Codable {
            var avatarURL: String?
            enum CodingKeys: String, CodingKey { case avatarURL = "avatarUrl" }
        }
        let json = #"{"avatar_url":"a.png"}"#
        #expect(try JSONCoding.decode(Implicit.self, from: json).avatarURL == nil)
        #expect(try JSONCoding.decode(Explicit.self, from: json).avatarURL == "a.png")
        #expect(string(try JSONCoding.encode(Explicit(avatarURL: "a.png"))) == json)
    }

    @Test func decodeOrTrapReturnsTheDecodedValue() {
        let author = JSONCoding.decodeOrTrap(Author.self, from: #"{"display_name":"Ada"}"#)
        #expect(author.displayName == "Ada")
    }

    @Test func encodeOrTrapReturnsTheJSON() {
        #expect(string(JSONCoding.encodeOrTrap(ID<Post>(7))) == "7")
    }

    #if os(macOS) || os(Linux) || os(Windows)   // exit tests need to spawn a process
    @Test func decodeOrTrapStopsTheProgramOnJSONThatDoesNotMatch() async {
        await #expect(processExitsWith: .failure) {
            _ = JSONCoding.decodeOrTrap(Author.self, from: "{}")
        }
    }
    #endif

    @Test func everyCallGetsItsOwnDecoder() {
        #expect(JSONCoding.makeDecoder() !== JSONCoding.makeDecoder())
    }

    @Test func decodingFromManyThreadsAtOnceGivesEveryoneTheRightValue() {
        let json = #"{"id":1,"title":"Hi","created_at":"2024-05-01T12:00:00.500Z","author":{"display_name":"Ada"}}"#
        let expected = Post(id: 1, title: "Hi", createdAt: noon.addingTimeInterval(0.5),
                            author: Author(displayName: "Ada"))
        let mismatches = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0 ..< 200 where (try? JSONCoding.decode(Post.self, from: json)) != expected {
                mismatches.add(1, ordering: .relaxed)
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
    }
}
