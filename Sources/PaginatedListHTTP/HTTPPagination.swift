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
/// style says it is (a `false` `has_more`, a `null` or `""` cursor, no `next` link, a short page that
/// nothing says more follow, a page past the end).
///
/// **Servers that cap the page size** (GitHub's `per_page` ≤ 100, Stripe's and Notion's `limit` ≤ 100,
/// Slack's ≤ 1000, Django REST framework's `max_limit` and `max_page_size`) serve fewer items than asked,
/// without an error. The page-number and offset styles read what the body says about the rest of the
/// feed — a total (`count`, `total`, …) and whether more follow (`next`, `has_more`, …) — and a short
/// page ends the list only when nothing says more remain; the sources learn the size the server serves
/// and never ask more of it (see `OffsetSource` and `PageNumberSource`). The cursor-like styles follow
/// the server's own next page, capped or not.
///
/// **Past the end.** A page number or offset past the last one is the end of the list, not a failure,
/// when the server answers it with a status of `pastEndStatuses` (`404` by default: Django REST framework
/// and Laravel answer `404 {"detail": "Invalid page."}`; add `400` for servers that use it so, pass `[]`
/// where a 404 means something else): the feed shrank while it was paged, and the page source reports it
/// on `diagnostics` (`PageNumberSource`: `.feedShrank(possiblySkipped:)`; `OffsetSource` looks back for
/// its place, as after deletions). Such a status for the first page (page `firstPage`, offset 0) stays
/// an error, and so does one for a later start page (`startPage:`, `start:`) when the first page fails
/// too (a wrong URL); when the first page answers, the start page is past the end: the list is empty,
/// complete at both ends.
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
    /// The style: what it reads, the requests it makes, the source that walks the pages (one file each
    /// under `Styles/`).
    let style: any PaginationStyle

    /// Page numbers: `?page=P&limit=pageSize`, the first page numbered `firstPage`.
    ///
    /// The list ends at an empty page, when the total says the page was the last — `totalItems` or
    /// `totalPages` when given (then required in every body, a count of 0 or more: else the page fails with
    /// `.decoding`), else `total`, `total_count`, `total_items`, `count`, `meta.total`, `meta.count`,
    /// `total_pages`, `page_count` or `meta.total_pages` if the body has one (a negative number is no
    /// total) — or at a page shorter than the page size the server serves when nothing says more follow.
    /// A total, a non-null `next` (Django REST framework, `links.next` of JSON:API, Laravel's
    /// `next_page_url`) or a `true` `has_more` keeps a short page from ending the list: the server capped
    /// the page size (see `PageNumberSource`). `sizeParameter: nil` sends no page size.
    ///
    /// A page past the last answered with a status of `pastEndStatuses` (`404` by default) ends the list
    /// (see "Past the end" above).
    ///
    /// The list opens at page `startPage` (`nil`: `firstPage`; a number below `firstPage` opens there, one
    /// more than 2^30 pages after it opens 2^30 pages after it); the pages before it, down to `firstPage`,
    /// come with `loadPreviousPage()`. As `PageNumberSource` takes them, `firstPage` is taken within ±2^30
    /// and `pageSize` as at most 2^30. A start page past the end
    /// (empty, or answered with a status of `pastEndStatuses` while page `firstPage` answers) opens an
    /// empty list, complete at both ends.
    public static func pageNumber(
        pageSize: Int, parameter: String = "page", sizeParameter: String? = "limit", firstPage: Int = 1,
        totalItems: JSONPath? = nil, totalPages: JSONPath? = nil, startPage: Int? = nil,
        pastEndStatuses: Set<Int> = [404]
    ) -> HTTPPagination {
        precondition(pageSize > 0, "HTTPPagination.pageNumber: pageSize must be positive")
        // Bounded as `PageNumberSource` bounds them (so that the style and the source agree on the start page).
        let pages = 1 << 30
        let first = min(max(firstPage, -pages), pages)
        return HTTPPagination(style: PageNumberStyle(
            pageSize: min(pageSize, 1 << 30), parameter: parameter, sizeParameter: sizeParameter, firstPage: first,
            totalItems: totalItems, totalPages: totalPages, startPage: min(max(startPage ?? first, first), first + pages),
            pastEndStatuses: pastEndStatuses))
    }

    /// Offsets: `?offset=O&limit=L`. With `Identifiable` items de-duplicated by id (the source's default
    /// `deduplication`) the source is an `OffsetSource`, which overlaps pages and corrects for a feed that
    /// changes while it is paged; otherwise offsets step by `limit` and a page that comes back short ends
    /// the list.
    ///
    /// A window shorter than asked ends the list only when nothing says more follow: a total (`count`,
    /// `total`, `total_count`, `total_items`, `meta.total`, `meta.count`; a negative number is no total)
    /// beyond it, a non-null `next`
    /// (Django REST framework's `LimitOffsetPagination`, `links.next`, `next_page_url`) or a `true`
    /// `has_more` say the server capped the limit; without them the next request settles it. Over
    /// `Identifiable` items the source then asks no more than the server serves; stepping, it asks for the
    /// rest of the page from where the capped answer ended. A window past the end answered with a status of
    /// `pastEndStatuses` (`404` by default) is an empty one (see "Past the end" above).
    ///
    /// The list opens at offset `start` (0 by default; a negative one is 0, one beyond 2^40 is 2^40; a
    /// `limit` beyond 2^30 is 2^30); the items above it come with
    /// `loadPreviousPage()`, `limit` at a time (the top page may be shorter), read upwards with the same
    /// corrections. A start past the end (an empty window, or one answered with a status of
    /// `pastEndStatuses` while offset 0 answers) opens an empty list, complete at both ends.
    public static func offset(
        limit: Int, parameter: String = "offset", limitParameter: String = "limit", start: Int = 0,
        pastEndStatuses: Set<Int> = [404]
    ) -> HTTPPagination {
        precondition(limit > 0, "HTTPPagination.offset: limit must be positive")
        // Bounded as `OffsetSource` bounds them (a limit of 2^30, a start of 2^40 at most), so that no
        // window arithmetic can overflow.
        return HTTPPagination(style: OffsetStyle(limit: min(limit, 1 << 30), parameter: parameter, limitParameter: limitParameter,
                                                 start: min(max(start, 0), 1 << 40), pastEndStatuses: pastEndStatuses))
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
        HTTPPagination(style: CursorStyle(path: path, parameter: parameter, hasMore: hasMore, previous: previous,
                                          previousParameter: previousParameter, start: start.flatMap { $0.isEmpty ? nil : $0 }))
    }

    /// Stripe's style: the next page starts after the last item, `?starting_after=<its idField>`, and the
    /// boolean at `hasMore` (required) says whether there is one.
    ///
    /// The list opens after the item whose id is `start` (`nil` or `""`: at the first page). It does not
    /// page backwards (Stripe's `ending_before` pages are not followed): nothing comes before the first
    /// page.
    public static func startingAfter(idField: String = "id", parameter: String = "starting_after",
                                     hasMore: JSONPath = "has_more", start: String? = nil) -> HTTPPagination {
        HTTPPagination(style: StartingAfterStyle(idField: idField, parameter: parameter, hasMore: hasMore,
                                                 start: start.flatMap { $0.isEmpty ? nil : $0 }))
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
        HTTPPagination(style: NextURLStyle(path: path, absentMeansEnd: absentMeansEnd, previous: previous))
    }

    /// The next page's URL in the `Link` header (RFC 8288), as the target of the link with `relation`
    /// (GitHub's style); a response without that link is the last page (GitHub sends no `Link` at all
    /// when everything fits on one page).
    ///
    /// A page whose `Link` header names a `prev` (or `previous`) link carries the page it names as its
    /// `Page.previous`: a list opened in the middle (the source's URL is `?page=3`) loads the pages above
    /// with `loadPreviousPage()`.
    public static func linkHeader(relation: String = "next") -> HTTPPagination {
        HTTPPagination(style: LinkHeaderStyle(relation: relation))
    }
}
