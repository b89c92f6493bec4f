import Foundation
import PaginatedListHTTP
import Testing

/// `Link` header parsing (RFC 8288): several links, quoted parameters, relative and absolute targets.
@Suite struct WebLinkTests {
    let base = URL(string: "https://api.example.com/v1/items?page=2")!

    @Test func parsesSeveralLinksAndTheirRelations() {
        let header = #"<https://api.example.com/v1/items?page=3>; rel="next", <https://api.example.com/v1/items?page=9>; rel="last""#
        let links = WebLink.parse(header, relativeTo: base)
        #expect(links.map(\.target.absoluteString) == [
            "https://api.example.com/v1/items?page=3", "https://api.example.com/v1/items?page=9",
        ])
        #expect(links.map(\.relations) == [["next"], ["last"]])
    }

    @Test func resolvesRelativeTargetsAgainstTheRequestURL() {
        let links = WebLink.parse(#"</v1/items?page=3>; rel=next, <items?page=4>; rel="other""#, relativeTo: base)
        #expect(links.map(\.target.absoluteString) == [
            "https://api.example.com/v1/items?page=3", "https://api.example.com/v1/items?page=4",
        ])
    }

    @Test func quotedParametersMayHoldCommasSemicolonsAndEscapes() {
        let header = #"<a?x=1>; title="one, two; \"three\""; rel="next", <b>; rel=prev"#
        let links = WebLink.parse(header, relativeTo: base)
        #expect(links.count == 2)
        #expect(links.first?.parameters["title"] == #"one, two; "three""#)
        #expect(links.first?.has(relation: "next") == true)
        #expect(links.last?.has(relation: "prev") == true)
    }

    @Test func relationTypesAreSpaceSeparatedAndCaseInsensitive() {
        let link = WebLink.parse(#"<x>; REL="Next Last""#, relativeTo: base).first
        #expect(link?.relations == ["next", "last"])
        #expect(link?.has(relation: "NEXT") == true)
    }

    @Test func theFirstRelParameterWins() {
        let link = WebLink.parse(#"<x>; rel="prev"; rel="next""#, relativeTo: base).first
        #expect(link?.relations == ["prev"])
    }

    @Test func targetOfFindsTheNextLinkAmongOthers() {
        let header = #"<?page=1>; rel="first", <?page=3>; rel="next""#
        #expect(WebLink.target(of: "next", in: header, relativeTo: base)?.absoluteString
            == "https://api.example.com/v1/items?page=3")
        #expect(WebLink.target(of: "prev", in: header, relativeTo: base) == nil)
    }

    @Test func aTargetCutShortIsSkippedWithoutSwallowingTheLinksAfterIt() {
        let header = #"<https://example.org/items?page=1; rel="prev", <https://example.org/items?page=3>; rel="next""#
        let links = WebLink.parse(header, relativeTo: base)
        #expect(links.map(\.target.absoluteString) == ["https://example.org/items?page=3"])
        #expect(links.map(\.relations) == [["next"]])
    }

    @Test func aTargetThatIsNotAURLIsSkipped() {
        let header = #"<http://[host/items?page=3>; rel="next", <https://example.org/last>; rel="last""#
        #expect(WebLink.parse(header, relativeTo: base).map(\.target.absoluteString) == ["https://example.org/last"])
        #expect(WebLink.target(of: "next", in: header, relativeTo: base) == nil)
    }

    @Test func malformedPartsAreSkipped() {
        let header = #"garbage; rel="next", <https://example.org/ok>; rel="next""#
        #expect(WebLink.parse(header, relativeTo: base).map(\.target.absoluteString) == ["https://example.org/ok"])
        #expect(WebLink.parse("", relativeTo: base).isEmpty)
    }
}
