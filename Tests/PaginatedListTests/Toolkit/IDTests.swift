import Foundation
import PaginatedList
import Testing

private struct Author {}
private struct Post {}

private struct PostModel: Codable, Equatable {
    var id: ID<Post>
    var author: ID<Author>
}

private func json(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
    try JSONDecoder().decode(type, from: Data(json.utf8))
}

@Suite("ID")
struct IDTests {
    @Test func idsOfDifferentOwnersAreDifferentTypes() {
        let author: ID<Author> = 7
        let post: ID<Post> = 7
        // The property that matters is checked by the compiler: `let p: ID<Post> = author` does not
        // compile ("cannot convert value of type 'ID<Author>' to specified type 'ID<Post>'"). At run time
        // it shows as two distinct types, even for the same raw value.
        #expect(type(of: author) != type(of: post))
        #expect(author.rawValue == post.rawValue)
    }

    @Test func anIntegerLiteralMakesAnIntegerID() {
        let id: ID<Post> = 42
        #expect(id.rawValue == .int(42))
        #expect(id.intValue == 42)
        #expect(id.stringValue == nil)
    }

    @Test func aStringLiteralMakesAStringID() {
        let id: ID<Post> = "a1b2"
        #expect(id.rawValue == .string("a1b2"))
        #expect(id.stringValue == "a1b2")
        #expect(id.intValue == nil)
    }

    @Test func anIntegerIDAndAStringIDOfTheSameDigitsDiffer() {
        #expect(ID<Post>(1) != ID<Post>("1"))
    }

    @Test func equalIDsHashAlike() {
        let ids: Set<ID<Post>> = [1, 1, "1", "x", "x"]
        #expect(ids == [1, "1", "x"])
    }

    @Test func anIntegerIDEncodesAsABareNumber() throws {
        #expect(try json(PostModel(id: 42, author: 7)) == #"{"author":7,"id":42}"#)
    }

    @Test func aStringIDEncodesAsABareString() throws {
        #expect(try json(PostModel(id: "p-1", author: "a-1")) == #"{"author":"a-1","id":"p-1"}"#)
    }

    @Test func integerAndStringIDsRoundTripThroughJSON() throws {
        let ids: [ID<Post>] = [1, "two", 3, "4"]
        let encoded = try json(ids)
        #expect(encoded == #"[1,"two",3,"4"]"#)
        #expect(try decode([ID<Post>].self, encoded) == ids)
    }

    @Test func aModelDecodesItsIDsFromBareValues() throws {
        let post = try decode(PostModel.self, #"{"id": 42, "author": "a-1"}"#)
        #expect(post == PostModel(id: 42, author: "a-1"))
    }

    @Test(arguments: ["1.5", "true", "null", #"{"id":1}"#])
    func decodingSomethingElseThanAnIntegerOrAStringFails(_ json: String) {
        #expect(throws: DecodingError.self) { try decode([ID<Post>].self, "[\(json)]") }
    }

    @Test(arguments: ["1e19", "9223372036854775808", "-1e300"])
    func anIntegerIDBeyondIntIsADecodingErrorNotATrap(_ json: String) {
        #expect(throws: DecodingError.self) { try decode([ID<Post>].self, "[\(json)]") }
    }

    @Test func descriptionIsTheBareRawValue() {
        #expect("\(ID<Post>(42))" == "42")
        #expect("\(ID<Post>("a1b2"))" == "a1b2")
    }

    @Test func debugDescriptionNamesTheOwner() {
        #expect(String(reflecting: ID<Post>(42)) == "ID<Post>(42)")
        #expect(String(reflecting: ID<Post>("a1b2")) == #"ID<Post>("a1b2")"#)
    }

    @Test func theRawValueRetagsExplicitly() {
        let author: ID<Author> = 7
        let retagged = ID<Post>(rawValue: author.rawValue)
        #expect(retagged == 7)
    }
}
