import Foundation
import PaginatedList
import PaginatedListTesting
import Signals

/// The page source the demo loads through over its simulated feed (`--source`): the feed's own naive
/// chain, or one of `PaginatedList`'s sources over the same feed. (An HTTP endpoint, `--url`, is paged
/// through the source its `HTTPStyle` names instead.)
package enum DemoSource: String, CaseIterable, Equatable, Sendable {
    /// The feed's own chain: offsets counted from the rows loaded (no corrections).
    case simulated
    /// `PageNumberSource`: `page=N&size=S`, with totals; drops rows an earlier page delivered.
    case page
    /// `OffsetSource`: `offset=O&limit=L` with a three-row overlap; drops duplicates, closes gaps, reports what it skips.
    case offset
    /// `CursorSource`: `after=ID&limit=L`; drops rows an earlier page delivered.
    case cursor
    /// `IDSnapshotSource`: the feed's IDs once, then the rows of each batch of them.
    case ids
    /// `ArraySource`: a copy of the feed's rows taken at start (it never changes), with the feed's
    /// latency and failures.
    case array

    /// Parses a `--source` value.
    package static func parse(_ text: String) throws(OptionsError) -> DemoSource {
        guard let source = DemoSource(rawValue: text.lowercased()) else {
            let known = allCases.map(\.rawValue).joined(separator: ", ")
            throw OptionsError(message: "unknown source '\(text)' (known: \(known))")
        }
        return source
    }
}

/// A cursor for the demo's `CursorSource`: the feed's cursor (the last row's ID) and the number of the
/// page it ends, for failure messages.
package struct DemoCursor: Codable, Hashable, Sendable {
    package let afterID: Int
    package let page: Int
}

extension DemoOptions {
    /// A view model over `feed`, through the source these options pick, delivering on `scheduler`; with a
    /// `start`, the source opens at the page that holds that row (the simulated chain, page numbers,
    /// offsets and the array; the options refuse a start for the others).
    package func makeViewModel(feed: SimulatedFeed, scheduler: any Scheduler) -> PaginatedListViewModel<Row, FeedError> {
        switch source {
        case .simulated:
            PaginatedListViewModel(dependency: feed, scheduler: scheduler, maxPages: maxPages)
        case .page:
            PaginatedListViewModel(dependency: pageNumberSource(feed), scheduler: scheduler, maxPages: maxPages)
        case .offset:
            PaginatedListViewModel(dependency: offsetSource(feed), scheduler: scheduler, maxPages: maxPages)
        case .cursor:
            PaginatedListViewModel(dependency: cursorSource(feed), scheduler: scheduler, maxPages: maxPages)
        case .ids:
            PaginatedListViewModel(dependency: idSnapshotSource(feed), scheduler: scheduler, maxPages: maxPages)
        case .array:
            PaginatedListViewModel(dependency: arraySource(feed), scheduler: scheduler, maxPages: maxPages)
        }
    }

    /// `PageNumberSource` over the feed: `page=N&size=S`, with totals, opening at the start row's page.
    func pageNumberSource(_ feed: SimulatedFeed) -> PageNumberSource<Row, FeedError> {
        PageNumberSource<Row, FeedError>(startPage: feed.startOffset / pageSize + 1, pageSize: pageSize) { page, size in
            feed.request(page: page) { rows in
                let response = rows.page(page, size: size, includeTotals: true)
                return PageNumberResponse(items: response.items.map(Row.init), totalPages: response.totalPages,
                                          totalItems: response.totalItems)
            }
        }
    }

    /// `OffsetSource` over the feed: `offset=O&limit=L` with its overlap and corrections.
    func offsetSource(_ feed: SimulatedFeed) -> OffsetSource<Row, FeedError> {
        let size = pageSize
        return OffsetSource<Row, FeedError>(limit: size, start: feed.startOffset) { offset, limit in
            // After the first page a window starts `overlap` rows early: page k starts at k·size − overlap.
            feed.request(page: (offset + OffsetSource<Row, FeedError>.overlap) / size + 1) { rows in rows.offset(offset, limit: limit).map(Row.init) }
        }
    }

    /// `CursorSource` over the feed: `after=ID&limit=L`.
    func cursorSource(_ feed: SimulatedFeed) -> CursorSource<Row, DemoCursor, FeedError> {
        let size = pageSize
        return CursorSource<Row, DemoCursor, FeedError> { cursor in
            let page = (cursor?.page ?? 0) + 1
            return feed.request(page: page) { rows in
                let response = rows.cursor(after: cursor.map { $0.afterID - 1 }, limit: size)
                return CursorResponse(items: response.items.map(Row.init),
                                      nextCursor: response.nextCursor.map { DemoCursor(afterID: $0 + 1, page: page) })
            }
        }
    }

    /// `IDSnapshotSource` over the feed: the IDs once, then the rows of each batch.
    func idSnapshotSource(_ feed: SimulatedFeed) -> IDSnapshotSource<Row, FeedError> {
        let size = pageSize
        let positions = SnapshotPositions()
        return IDSnapshotSource<Row, FeedError>(
            batchSize: size,
            fetchIDs: {
                feed.request(page: 1) { rows in
                    let ids = rows.ids().map { $0 + 1 }
                    positions.record(ids)
                    return ids
                }
            },
            fetchItems: { ids in
                feed.request(page: positions.page(of: ids.first, size: size)) { rows in
                    rows.items(ids: ids.map { $0 - 1 }).map(Row.init)
                }
            }
        )
    }

    /// `ArraySource` over a copy of the feed's rows, with its latency and failures.
    func arraySource(_ feed: SimulatedFeed) -> ArraySource<Row, FeedError> {
        let rows = feed.rows.currentItems.map(Row.init)
        // With a latency, pages arrive on a queue of their own after the delay; without, inside `start`.
        let delivery = feed.latency > .zero ? QueueScheduler(label: "paging-demo.array") : nil
        return ArraySource<Row, FeedError>(rows, pageSize: pageSize, start: feed.startOffset, latency: feed.latency,
                                           on: delivery) { index, _ in
            feed.drawFailure(page: index + 1)
        }
    }
}

/// Where each ID stands in the latest ID snapshot, so a batch request can name its page in failure messages.
final class SnapshotPositions: Sendable {
    private let positions = Locked<[Int: Int]>([:])

    /// Records a fresh snapshot.
    func record(_ ids: [Int]) {
        var table = [Int: Int](minimumCapacity: ids.count)
        for (index, id) in ids.enumerated() where table[id] == nil { table[id] = index }
        positions.withLock { $0 = table }
    }

    /// The page (from 1) of a batch that starts with `id`.
    func page(of id: Int?, size: Int) -> Int {
        let index = id.flatMap { id in positions.withLock { $0[id] } } ?? 0
        return index / size + 1
    }
}

extension PaginatedListDiagnostic {
    /// One line for the demo: what the view model or its source noticed, and what it did about it.
    package var demoDescription: String {
        switch self {
        case let .sourceCorrection(.duplicatesDropped(count)):
            "correction: dropped \(count) row\(count == 1 ? "" : "s") already loaded (rows were inserted above)"
        case let .sourceCorrection(.resynchronised(by)):
            "correction: stepped back \(by) row\(by == 1 ? "" : "s") to close a gap (rows were deleted above)"
        case .sourceCorrection(.resynchronisationFailed):
            "correction: no loaded row found nearby; went on from the last window"
        case let .sourceCorrection(.missingItemsSkipped(count)):
            "correction: skipped \(count) row\(count == 1 ? "" : "s") deleted since the ID snapshot"
        case let .sourceCorrection(.itemsAboveSkipped(count)):
            "correction: \(count) row\(count == 1 ? "" : "s") now above the rows shown not shown (refresh to see)"
        case let .sourceCorrection(.shownOutOfOrder(count)):
            "correction: \(count) row\(count == 1 ? "" : "s") shown came back below new rows; order differs from the feed"
        case .sourceCorrection(.feedOutpaced):
            "correction: the feed grew faster than it could be paged; no new rows in this page"
        case let .sourceCorrection(.feedShrank(skipped)):
            "correction: the feed shrank past the page asked for; the list ends here"
                + (skipped.map { ", up to \($0) row\($0 == 1 ? "" : "s") that moved up not shown (refresh to see)" }
                    ?? "; rows that moved up may not be shown (refresh to see)")
        case .extraPageIgnored: "diagnostic: a producer sent a second page; ignored"
        case .failureAfterPageIgnored: "diagnostic: a producer failed after its page; ignored"
        case .completedWithoutPage: "diagnostic: a producer completed without a page; it is retried next"
        case .interruptedWithoutPage: "diagnostic: a producer interrupted itself without a page; it is retried next"
        case .stalePageDiscarded: "diagnostic: a page from a load cut off by reset arrived; discarded"
        case let .retryScheduled(retry, delay): "diagnostic: automatic retry \(retry) in \(delay)"
        case let .retriesExhausted(failures):
            "diagnostic: \(failures) failure\(failures == 1 ? "" : "s") in a row; automatic retries used up"
        case let .emptyPagesLimitReached(count):
            "diagnostic: \(count) empty pages in a row; stopped loading until asked again"
        case .retryNotAttempted: "diagnostic: the failure cannot succeed as sent; no automatic retry"
        case .waitingForConnectivity: "diagnostic: offline; the failed page waits for the network"
        case let .editNotStored(reason): "diagnostic: an edit could not be stored (\(reason)); the list is unchanged"
        }
    }

    /// A few words for the interactive status line.
    package var demoShortDescription: String {
        switch self {
        case let .sourceCorrection(.duplicatesDropped(count)): "dropped \(count) already loaded"
        case let .sourceCorrection(.resynchronised(by)): "stepped back \(by) over a gap"
        case .sourceCorrection(.resynchronisationFailed): "lost its place"
        case let .sourceCorrection(.missingItemsSkipped(count)): "skipped \(count) deleted"
        case let .sourceCorrection(.itemsAboveSkipped(count)): "\(count) above not shown"
        case let .sourceCorrection(.shownOutOfOrder(count)): "\(count) out of order"
        case .sourceCorrection(.feedOutpaced): "feed outpaced"
        case .sourceCorrection(.feedShrank): "feed shrank; ended"
        case .extraPageIgnored: "extra page ignored"
        case .failureAfterPageIgnored: "late failure ignored"
        case .completedWithoutPage, .interruptedWithoutPage: "no page; retried next"
        case .stalePageDiscarded: "stale page discarded"
        case let .retryScheduled(retry, delay): "retry \(retry) in \(delay)"
        case .retriesExhausted: "retries used up"
        case let .emptyPagesLimitReached(count): "\(count) empty pages; paused"
        case .retryNotAttempted: "not retried"
        case .waitingForConnectivity: "waiting for the network"
        case .editNotStored: "edit not stored"
        }
    }

    /// Whether this is a page source's correction (not a producer's misbehaviour).
    package var isCorrection: Bool {
        if case .sourceCorrection = self { return true }
        return false
    }
}
