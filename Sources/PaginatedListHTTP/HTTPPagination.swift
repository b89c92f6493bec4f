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
/// **Both ways.** A list may open in the middle of the feed (a deep link, a chat's first unread message)
/// and grow both ways with `loadPreviousPage()`: page numbers (`startPage:`) and offsets (`start:`) page
/// back to the top by themselves; a body cursor (`start:`, and `previous:` where the body names the page
/// before), a next-page URL in the body (`previous:`, with the URL of the page to open at as `url`) and
/// `Link` headers (`rel="prev"`) page back as far as the API names the pages before.
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

    /// Where the list opens, for the styles whose position is a value of the request.
    enum Start: Sendable, Equatable {
        /// A page number.
        case page(Int)
        /// An offset.
        case offset(Int)
        /// A cursor (or, for `startingAfter`, an id) sent in the style's parameter.
        case cursor(String)
    }

    let style: Style
    /// Where the list opens (`nil`: the first page).
    var start: Start?
    /// Where a body names the page before (the cursor and next-URL styles).
    var previous: JSONPath?
    /// The query item a previous cursor is sent back in (`nil`: the style's parameter).
    var previousParameter: String?

    /// Page numbers: `?page=P&limit=pageSize`, the first page numbered `firstPage`.
    ///
    /// The list ends at a page shorter than `pageSize` (an empty one included), or when the total says
    /// the page was the last: at `totalItems` or `totalPages` when given (then required in every body),
    /// else at `total`, `total_count`, `total_items`, `count`, `total_pages` or `page_count` if the body
    /// has one. `sizeParameter: nil` sends no page size.
    ///
    /// The list opens at page `startPage` (`nil`: `firstPage`; a number below `firstPage` opens there); the
    /// pages before it, down to `firstPage`, come with `loadPreviousPage()`. A start page past the end
    /// comes back empty: the list is empty, with nothing before it.
    public static func pageNumber(
        pageSize: Int, parameter: String = "page", sizeParameter: String? = "limit", firstPage: Int = 1,
        totalItems: JSONPath? = nil, totalPages: JSONPath? = nil, startPage: Int? = nil
    ) -> HTTPPagination {
        precondition(pageSize > 0, "HTTPPagination.pageNumber: pageSize must be positive")
        return HTTPPagination(style: .pageNumber(pageSize: pageSize, parameter: parameter, sizeParameter: sizeParameter,
                                                 firstPage: firstPage, totalItems: totalItems, totalPages: totalPages),
                              start: startPage.map { .page(max($0, firstPage)) })
    }

    /// Offsets: `?offset=O&limit=L`. With `Identifiable` items the source is an `OffsetSource`, which
    /// overlaps pages and corrects for a feed that changes while it is paged; otherwise offsets step by
    /// `limit` and a short page ends the list.
    ///
    /// The list opens at offset `start` (0 by default; a negative one is 0); the items above it come with
    /// `loadPreviousPage()`, `limit` at a time (the top page may be shorter), read upwards with the same
    /// corrections. A start past the end opens an empty list, with nothing before it.
    public static func offset(
        limit: Int, parameter: String = "offset", limitParameter: String = "limit", start: Int = 0
    ) -> HTTPPagination {
        precondition(limit > 0, "HTTPPagination.offset: limit must be positive")
        return HTTPPagination(style: .offset(limit: limit, parameter: parameter, limitParameter: limitParameter),
                              start: start > 0 ? .offset(start) : nil)
    }

    /// A cursor in the body at `path`, sent back as the query item `parameter`.
    ///
    /// Without `hasMore`, the key must be in every body: a `null` or `""` cursor ends the list. With
    /// `hasMore` (a boolean at that path, required), `false` ends the list and `true` requires a cursor.
    /// A cursor may be a string or a number.
    ///
    /// The list opens at the page of the cursor `start` (`nil` or `""`: the first page). With `previous`,
    /// the body names the page before at that path (required in every body; `null` or `""`: nothing
    /// before), sent back in `previousParameter` (`nil`: `parameter`): `loadPreviousPage()` follows it. A
    /// next or previous cursor that repeats the cursor of its own page fails the page with an `HTTPError`
    /// (following it would load the same page for ever).
    public static func cursor(
        at path: JSONPath = "next_cursor", parameter: String = "cursor", hasMore: JSONPath? = nil,
        previous: JSONPath? = nil, previousParameter: String? = nil, start: String? = nil
    ) -> HTTPPagination {
        HTTPPagination(style: .cursor(at: path, parameter: parameter, hasMore: hasMore),
                       start: start.flatMap { $0.isEmpty ? nil : .cursor($0) }, previous: previous,
                       previousParameter: previousParameter)
    }

    /// Stripe's style: the next page starts after the last item, `?starting_after=<its idField>`, and the
    /// boolean at `hasMore` (required) says whether there is one.
    ///
    /// The list opens after the item whose id is `start` (`nil` or `""`: at the first page). It does not
    /// page backwards (Stripe's `ending_before` pages are not followed): nothing comes before the first
    /// page.
    public static func startingAfter(idField: String = "id", parameter: String = "starting_after",
                                     hasMore: JSONPath = "has_more", start: String? = nil) -> HTTPPagination {
        HTTPPagination(style: .startingAfter(idField: idField, parameter: parameter, hasMore: hasMore),
                       start: start.flatMap { $0.isEmpty ? nil : .cursor($0) })
    }

    /// The next page's URL in the body at `path` (absolute, or relative to the response's URL), as Django
    /// REST framework (`next`) and JSON:API (`links.next`) send it. `null` or `""` ends the list; so does a
    /// missing key when `absentMeansEnd` (JSON:API leaves `next` out on the last page), else a missing key
    /// is an error.
    ///
    /// The list opens at the source's URL: to open in the middle, pass the URL of that page. With
    /// `previous` (Django REST framework's `previous`, JSON:API's `links.prev`), the body names the page
    /// before at that path, read the same way (`null`, `""`, or a missing key when `absentMeansEnd`:
    /// nothing before): `loadPreviousPage()` follows it.
    public static func nextURL(
        at path: JSONPath = "next", absentMeansEnd: Bool = false, previous: JSONPath? = nil
    ) -> HTTPPagination {
        HTTPPagination(style: .nextURL(at: path, absentMeansEnd: absentMeansEnd), previous: previous)
    }

    /// The next page's URL in the `Link` header (RFC 8288), as the target of the link with `relation`
    /// (GitHub's style); a response without that link is the last page (GitHub sends no `Link` at all
    /// when everything fits on one page).
    ///
    /// A page whose `Link` header names a `prev` (or `previous`) link carries the page it names as its
    /// `Page.previous`: a list opened in the middle (the source's URL is `?page=3`) loads the pages above
    /// with `loadPreviousPage()`.
    public static func linkHeader(relation: String = "next") -> HTTPPagination {
        HTTPPagination(style: .linkHeader(relation: relation))
    }

    /// The body values the style reads.
    var lookups: [JSONPath] {
        styleLookups + (previous.map { [$0] } ?? [])
    }

    private var styleLookups: [JSONPath] {
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
