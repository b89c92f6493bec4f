import Foundation

/// How an HTTP API pages: how the source asks for a page, and how it reads from the response where the
/// next page is and whether there is one. Each common style is one call:
///
/// | API | style |
/// | --- | --- |
/// | GitHub (`Link: <…>; rel="next"`) | `.linkHeader()` |
/// | Stripe (`starting_after` = the last item's id, `has_more`) | `.startingAfter()` |
/// | Slack (`response_metadata.next_cursor`, `""` at the end) | `.cursor(at: "response_metadata.next_cursor")` |
/// | Notion (`next_cursor` + `has_more`, sent back as `start_cursor`) | `.cursor(parameter: "start_cursor", hasMore: "has_more")` |
/// | JSON:API (`links.next`, left out at the end) | `.nextURL(at: "links.next", absentMeansEnd: true)` |
/// | Django REST framework (`next`) | `.nextURL()` |
/// | `?page=3&limit=20` | `.pageNumber(pageSize: 20)` |
/// | `?offset=40&limit=20` | `.offset(limit: 20)` |
///
/// **Loud, never silent.** A key the style needs that is missing, or holds a value of the wrong kind,
/// fails the page with an `HTTPError` of kind `.decoding` whose `keyPath` names it: the list never
/// ends quietly because a key was misspelt or the API changed. The end of the list is only what the
/// style says it is (a `false` `has_more`, a `null` or `""` cursor, no `next` link, a short page).
///
/// Requests are built with `HTTPQuery`: cursors and values of any characters reach the server exactly.
/// A value; `Sendable`.
public struct HTTPPagination: Sendable {
    enum Style: Sendable {
        case pageNumber(pageSize: Int, parameter: String, sizeParameter: String?, firstPage: Int,
                        totalItems: JSONPath?, totalPages: JSONPath?)
        case offset(limit: Int, parameter: String, limitParameter: String)
        case cursor(at: JSONPath, parameter: String, hasMore: JSONPath?)
        case startingAfter(idField: String, parameter: String, hasMore: JSONPath)
        case nextURL(at: JSONPath, absentMeansEnd: Bool)
        case linkHeader(relation: String)
    }

    let style: Style

    /// Page numbers: `?page=P&limit=pageSize`, the first page numbered `firstPage`.
    ///
    /// The list ends at a page shorter than `pageSize` (an empty one included), or when the total says
    /// the page was the last: at `totalItems` or `totalPages` when given (then required in every body),
    /// else at `total`, `total_count`, `total_items`, `count`, `total_pages` or `page_count` if the body
    /// has one. `sizeParameter: nil` sends no page size.
    public static func pageNumber(
        pageSize: Int, parameter: String = "page", sizeParameter: String? = "limit", firstPage: Int = 1,
        totalItems: JSONPath? = nil, totalPages: JSONPath? = nil
    ) -> HTTPPagination {
        precondition(pageSize > 0, "HTTPPagination.pageNumber: pageSize must be positive")
        return HTTPPagination(style: .pageNumber(pageSize: pageSize, parameter: parameter, sizeParameter: sizeParameter,
                                                 firstPage: firstPage, totalItems: totalItems, totalPages: totalPages))
    }

    /// Offsets: `?offset=O&limit=L`. With `Identifiable` items the source is an `OffsetSource`, which
    /// overlaps pages by one and corrects for a feed that changes while it is paged; otherwise offsets
    /// step by `limit` and a short page ends the list.
    public static func offset(limit: Int, parameter: String = "offset", limitParameter: String = "limit") -> HTTPPagination {
        precondition(limit > 0, "HTTPPagination.offset: limit must be positive")
        return HTTPPagination(style: .offset(limit: limit, parameter: parameter, limitParameter: limitParameter))
    }

    /// A cursor in the body at `path`, sent back as the query item `parameter`.
    ///
    /// Without `hasMore`, the key must be in every body: a `null` or `""` cursor ends the list. With
    /// `hasMore` (a boolean at that path, required), `false` ends the list and `true` requires a cursor.
    /// A cursor may be a string or a number.
    public static func cursor(at path: JSONPath = "next_cursor", parameter: String = "cursor",
                              hasMore: JSONPath? = nil) -> HTTPPagination {
        HTTPPagination(style: .cursor(at: path, parameter: parameter, hasMore: hasMore))
    }

    /// Stripe's style: the next page starts after the last item, `?starting_after=<its idField>`, and the
    /// boolean at `hasMore` (required) says whether there is one.
    public static func startingAfter(idField: String = "id", parameter: String = "starting_after",
                                     hasMore: JSONPath = "has_more") -> HTTPPagination {
        HTTPPagination(style: .startingAfter(idField: idField, parameter: parameter, hasMore: hasMore))
    }

    /// The next page's URL in the body at `path` (absolute, or relative to the response's URL), as Django
    /// REST framework (`next`) and JSON:API (`links.next`) send it. `null` or `""` ends the list; so does a
    /// missing key when `absentMeansEnd` (JSON:API leaves `next` out on the last page), else a missing key
    /// is an error.
    public static func nextURL(at path: JSONPath = "next", absentMeansEnd: Bool = false) -> HTTPPagination {
        HTTPPagination(style: .nextURL(at: path, absentMeansEnd: absentMeansEnd))
    }

    /// The next page's URL in the `Link` header (RFC 8288), as the target of the link with `relation`
    /// (GitHub's style); a response without that link is the last page (GitHub sends no `Link` at all
    /// when everything fits on one page).
    ///
    /// A page whose `Link` header names a `prev` (or `previous`) link carries the page it names as its
    /// `Page.previous`: a list opened in the middle (`?page=3`) loads the pages above with
    /// `loadPreviousPage()`.
    public static func linkHeader(relation: String = "next") -> HTTPPagination {
        HTTPPagination(style: .linkHeader(relation: relation))
    }

    /// The body values the style reads.
    var lookups: [JSONPath] {
        switch style {
        case let .pageNumber(_, _, _, _, totalItems, totalPages):
            if totalItems != nil || totalPages != nil { return [totalItems, totalPages].compactMap(\.self) }
            return Self.automaticTotals.map { JSONPath($0) }
        case .offset, .linkHeader: return []
        case let .cursor(path, _, hasMore): return [path] + (hasMore.map { [$0] } ?? [])
        case let .startingAfter(_, _, hasMore): return [hasMore]
        case let .nextURL(path, _): return [path]
        }
    }

    /// The last item's field the style reads, if any.
    var lastItemField: String? {
        if case let .startingAfter(idField, _, _) = style { return idField }
        return nil
    }

    /// The keys looked at for totals when none are named: item totals first, then page totals.
    static let automaticTotals = ["total", "total_count", "total_items", "count", "total_pages", "page_count"]
}
