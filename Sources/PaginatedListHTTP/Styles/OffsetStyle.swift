import Foundation
import PaginatedList
import Signals

/// `.offset(limit:parameter:limitParameter:start:pastEndStatuses:)`: `?offset=O&limit=L`. Over
/// `Identifiable` items de-duplicated by id, `OffsetSource` walks the windows and corrects for a feed that
/// changes; otherwise `PageNumberSource` steps the offsets by `limit`.
struct OffsetStyle: PaginationStyle {
    /// The number of items asked for per window.
    let limit: Int
    /// The query item of the offset.
    let parameter: String
    /// The query item of the limit.
    let limitParameter: String
    /// The offset the list opens at (0 or above).
    let start: Int
    let pastEndStatuses: Set<Int>

    var name: String { ".offset" }
    var lookups: [JSONPath] { FeedExtent.itemTotals + FeedExtent.more }

    /// The URL of the window of `size` items at `offset`.
    func url(_ url: URL, offset: Int, size: Int) -> URL {
        HTTPQuery.url(url, setting: [(name: parameter, value: String(offset)), (name: limitParameter, value: String(size))])
    }

    func firstURL(from url: URL) -> URL {
        self.url(url, offset: start, size: limit)
    }

    /// The offset response of `page`, a window of `asked` items. What the body says about the rest of the
    /// feed (its total, whether more follow) is passed on for a short window, where it tells a capped
    /// window from the end; a full window goes on regardless (so a total that means something else, the
    /// page's own count say, can never end the list early).
    /// The feed's total the body says, whatever the window's length, is shown (`totalCount`).
    static func response<Item>(_ page: ReadPage<Item>, asked: Int) throws(HTTPError) -> OffsetResponse<Item> {
        let shown = try page.shownTotal(defaults: FeedExtent.itemTotals)
        guard page.items.count < asked else { return OffsetResponse(items: page.items, totalCount: shown) }
        return OffsetResponse(items: page.items, totalItems: FeedExtent.first(FeedExtent.itemTotals, in: page),
                              hasMore: FeedExtent.more(in: page), totalCount: shown)
    }

    /// The window of `size` items at `offset` of `reader`'s feed, or `nil` when the server answers that it
    /// lies past the end. `isFirst`: the window the list opens at (a past-end answer for it is checked
    /// against offset 0; at offset 0 it stays an error).
    private func window<Item>(
        _ reader: PageReader<Item>, at offset: Int, size: Int, isFirst: Bool
    ) -> Producer<ReadPage<Item>?, HTTPError> {
        let pageURL = url(reader.url, offset: offset, size: size)
        guard offset > 0 else { return reader.read(pageURL, isFirst: isFirst).map { $0 } }
        return reader.read(pageURL, isFirst: isFirst, pastEndBelow: isFirst ? url(reader.url, offset: 0, size: size) : nil)
    }

    // MARK: - Stepped windows (`PageNumberSource`)

    func firstPage<Item>(
        _ reader: PageReader<Item>, deduplication: DuplicatePolicy<Item>
    ) -> Producer<Page<Item, HTTPError>, HTTPError> {
        PageNumberSource(firstPageIndex: -((start + limit - 1) / limit), startPage: 0, pageSize: limit,
                         deduplication: deduplication, fetch: steppedFetch(reader)).firstPage()
    }

    /// `PageNumberSource`'s fetch, without corrections: page `n` (0 is the start page) is the window at
    /// `start + n × size`, the top one cut short at offset 0. A server that serves fewer than asked is asked
    /// for the rest from where its answer ended, until the page is full or an answer shows the end (see
    /// `steppedWindow`).
    private func steppedFetch<Item>(_ reader: PageReader<Item>) -> PageNumberSource<Item, HTTPError>.Fetch {
        { [self] number, size in
            let offset = start + number * size
            return steppedWindow(reader, from: max(0, offset), size: size + min(0, offset), isFirst: number == 0, held: [],
                                 served: 0)
        }
    }

    /// The window of `size` items from `offset`, `held` of them already read (the first `served` by one
    /// answer: a cap, perhaps): asks for the rest. An answer shorter than asked is the end when it holds no
    /// item (whatever the body says of more), when the body's total or next link says so, when it holds
    /// fewer than an answer before, or when the rest asked was no more than a full answer held; else the
    /// server capped it, and the window goes on. Each request of the window adds at least one item. The
    /// page's `hasMore` says whether the feed went on after it (`false` at the end).
    private func steppedWindow<Item>(
        _ reader: PageReader<Item>, from offset: Int, size: Int, isFirst: Bool, held: [Item], served: Int
    ) -> Producer<PageNumberResponse<Item>, HTTPError> {
        let rest = offset + held.count
        let asked = size - held.count
        return window(reader, at: rest, size: asked, isFirst: isFirst && held.isEmpty)
            .flatMap(.concat) { [self] page -> Producer<PageNumberResponse<Item>, HTTPError> in
                let items = page?.items ?? []
                let window = held + items
                let response: OffsetResponse<Item>?
                do throws(HTTPError) {
                    response = try page.map { page throws(HTTPError) in try Self.response(page, asked: asked) }
                } catch {
                    return Producer(error: error)
                }
                guard items.count < asked else {
                    return Producer(value: PageNumberResponse(items: window, totalCount: response?.totalCount))
                }
                let end = rest + items.count
                // An answer with no item ends the window whatever its body says: a total or a `has_more` that
                // promises more with nothing served is stale (the feed shrank), and asking the same window
                // again would get the same answer, request after request.
                switch items.isEmpty ? false : response?.hasMore ?? response?.totalItems.map({ end < $0 }) {
                case true?:
                    break
                case false?:
                    return Producer(value: PageNumberResponse(items: window, hasMore: false, totalCount: response?.totalCount))
                case nil:
                    // Nothing came, fewer than an answer of this window held, or no more than it held was
                    // asked: the end. Else the next request settles it.
                    if items.isEmpty || items.count < served || (served > 0 && asked <= served) {
                        return Producer(value: PageNumberResponse(items: window, hasMore: false,
                                                                  totalCount: response?.totalCount))
                    }
                }
                return steppedWindow(reader, from: offset, size: size, isFirst: isFirst, held: window,
                                     served: max(served, items.count))
            }
    }

    // MARK: - Corrected windows (`OffsetSource`)

    /// Over items de-duplicated by id (`.automatic` or `.byID`), `OffsetSource` with its corrections;
    /// under another policy, stepped windows de-duplicated by it.
    func identifiableFirstPage<Item: Identifiable>(
        _ reader: PageReader<Item>, deduplication: DuplicatePolicy<Item>
    ) -> Producer<Page<Item, HTTPError>, HTTPError> where Item.ID: Sendable {
        guard deduplication.dropsByID else { return firstPage(reader, deduplication: deduplication) }
        return OffsetSource(limit: limit, start: start, fetchResponse: correctedFetch(reader)).firstPage()
    }

    /// `OffsetSource`'s fetch: the start page's request (the window at `start`, of `limit` items) records
    /// the first page's version. A short window carries what the body says about the rest of the feed; a
    /// window past the end (a status of `pastEndStatuses` at an offset above 0) is an empty one.
    private func correctedFetch<Item: Identifiable>(
        _ reader: PageReader<Item>
    ) -> OffsetSource<Item, HTTPError>.FetchResponse where Item.ID: Sendable {
        { [self] offset, size in
            window(reader, at: offset, size: size, isFirst: offset == start && size == limit).attemptMap { page throws(HTTPError) in
                try page.map { page throws(HTTPError) in try Self.response(page, asked: size) } ?? OffsetResponse(items: [])
            }
        }
    }

    // MARK: - Keyed windows

    /// The window of `limit` items at the key's offset (`nil`: `start`; cut short at the top of the feed),
    /// with the windows above and below it.
    ///
    /// A window shorter than asked ends the list only when the body says nothing follows (its total, its
    /// next link, `has_more`); when it says nothing, the window below is asked for and an empty one ends
    /// the list (a server that caps `limit` never ends it silently). A window past the end answered with a
    /// status of `pastEndStatuses` is an empty one (for the first page at a `start` past the end, when
    /// offset 0 answers). A short window steps up by what it held, so that the window above ends where it
    /// begins even under a cap (overlapping items are kept once by the list).
    ///
    /// A key's offset is bounded as `start` is, at 2^40, and below at the window that holds the feed's
    /// first item and `limit - 1` above it: a key read back from a store file can hold any number.
    func keyedPage<Item>(at key: HTTPPageKey?, _ reader: PageReader<Item>) -> Producer<KeyedPage<Item, HTTPPageKey>, HTTPError>? {
        let offset: Int
        switch key {
        case nil: offset = start
        case let .offset(keyOffset)?: offset = min(max(keyOffset, 1 - limit), 1 << 40)
        case .page?, .url?: return nil
        }
        let isFirst = key == nil
        let top = max(0, offset)
        let size = limit + min(0, offset)
        return window(reader, at: top, size: size, isFirst: isFirst).attemptMap { [limit] page throws(HTTPError) in
            let items = page?.items ?? []
            let response = try page.map { page throws(HTTPError) in try Self.response(page, asked: size) }
            let end = top + items.count
            let goesOn = items.count >= size || (!items.isEmpty
                && (response?.hasMore ?? response?.totalItems.map { end < $0 } ?? true))
            let step = items.isEmpty || items.count >= size ? limit : items.count
            let validators = isFirst ? page.flatMap { PageValidators($0.response.validators) } : nil
            return KeyedPage(items: items, previous: top > 0 && !(isFirst && page == nil) ? .offset(top - step) : nil,
                             next: goesOn ? .offset(end) : nil, totalCount: response?.totalCount ?? response?.totalItems,
                             validators: validators)
        }
    }
}

extension PageValidators {
    /// The validators of a response, or `nil` when it has none.
    init?(_ validators: HTTPValidators) {
        guard !validators.isEmpty else { return nil }
        self.init(etag: validators.etag, lastModified: validators.lastModified)
    }
}
