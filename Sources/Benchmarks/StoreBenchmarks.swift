import CPaginatedListSQLite
import Foundation
import PaginatedList
import PaginatedListStore
import Signals

/// The offline-first store (issue "PaginatedListStore I"): a store of 1,000,000 posts of ~200 bytes written
/// page by page through a store-backed list, opened and its first page landed, scrolled from end to end with
/// `maxPages: 10` (per-page cost and memory), beside the same page read with the raw SQLite C API and with
/// `LIMIT/OFFSET` at the same depth.
enum StoreBenchmarks: BenchmarkSuite {
    static let name = "store"

    static let pageSize = 50
    /// Posts at full scale; `--quick` writes a tenth.
    static let fullCount = 1_000_000

    static var studies: [Study] {
        [Study(name: "a store of 1,000,000 posts: writing, opening, scrolling, beside raw SQLite and LIMIT/OFFSET", run: store),
         Study(name: "a .replace refresh over a stored feed: the transaction on the list's scheduler", run: replaceRefresh),
         Study(name: "one item, every list: PagingStore.update of an item 10 open lists hold, and a mutation round trip", run: fanOut)]
    }

    /// A post of about 200 bytes of JSON.
    struct Post: Codable, Identifiable, Sendable {
        let id: Int
        let author: String
        let title: String
        let body: String
        let likes: Int
        let createdAt: Date
    }

    static func post(_ id: Int) -> Post {
        Post(id: id, author: "author\(id % 997)@example.org", title: "Post number \(id) of the benchmark feed",
             body: "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor \(id).",
             likes: id % 1000, createdAt: Date(timeIntervalSinceReferenceDate: Double(id)))
    }

    /// The network: page `k` holds posts `k·50 ..< (k+1)·50`, answered at once.
    struct Feed: KeyedPageSource {
        let pages: Int

        func page(at key: Int?) -> Producer<KeyedPage<Post, Int>, Never> {
            let page = key ?? 0
            return Producer(value: KeyedPage(items: (page * pageSize ..< (page + 1) * pageSize).map(StoreBenchmarks.post),
                                             previous: page > 0 ? page - 1 : nil, next: page + 1 < pages ? page + 1 : nil))
        }
    }

    static func list(_ store: PagingStore, pages: Int, maxPages: Int) -> PaginatedListViewModel<Post, StoredListError<Never>> {
        PaginatedListViewModel(feed: store.feed("posts", of: Post.self), remote: Feed(pages: pages), revalidate: .never,
                               scheduler: ImmediateScheduler(), maxPages: maxPages)
    }

    /// The study "a store of 1,000,000 posts": writing, opening, scrolling, then pages near the end beside raw
    /// SQLite and `LIMIT/OFFSET`.
    ///
    /// **Comparing two builds' page path by instruction counts.** On a loaded machine, wall-clock medians move
    /// by more than 5% between runs, but instruction counts stay the same. Build each version with
    /// `swift build -c release --product Benchmarks --scratch-path .build-release`, copy the binary and
    /// `strip --strip-debug` the copy (valgrind fails on the unstripped binary with "corrupted debuginfo").
    /// Then run each copy with `valgrind --tool=callgrind --dump-before=SYMBOL BINARY --quick --filter
    /// "a store of 1,000,000"`, where `SYMBOL` is the mangled `PagingStore.init(path:now:)` that `nm` lists
    /// ending in `cfc` (the benchmark inlines the allocating `cfC`, so `cfC` never triggers a dump).
    /// Each `PagingStore(path:)` then begins a new part (`callgrind.out.PID.N`): with `--quick`, parts 2-4 hold
    /// the 1,000-page writes, part 5 the whole feed's 2,000 pages, parts 6-9 the opens, and parts 10-12 the
    /// three scrolls of 2,000 stored pages each; kill the run once `callgrind.out.PID.12` exists. Apart from
    /// the timing and creating and releasing a list, a part holds only its pages. So a part's instructions per
    /// page are its `summary:` minus the inclusive cost of `PagingStore.init(path:now:)` in it
    /// (`callgrind_annotate --inclusive=yes`), divided by its pages. That covers the whole `loadNextPage()`:
    /// the network's page made, encoded, written, published and shown, or read, decoded and shown.
    /// `callgrind_annotate` of one part in each build, compared function by function, shows where a
    /// difference comes from.
    static func store(quick: Bool, runs: Int) -> StudyResult {
        let count = quick ? fullCount / 10 : fullCount
        let pages = count / pageSize
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("StoreBenchmarks-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("posts.sqlite").path
        var result = StudyResult()
        do {
            // Writing: 1,000 pages into a new store, several times; then every page of the big feed.
            var firstThousand: [Double] = []
            var lastThousand: [Double] = []
            var thousandMedians: [Double] = []
            for run in 0 ..< runs {
                let small = folder.appendingPathComponent("thousand-\(run).sqlite").path
                let store = try PagingStore(path: small)
                let writer = list(store, pages: 1_000, maxPages: 2)
                let times = timePerStep(1_000) { _ in writer.loadNextPage() }.perStep
                result.ok = result.ok && writer.items.value.last?.id == 1_000 * pageSize - 1
                let (first, last) = firstAndLast(times, window: 100)
                firstThousand.append(first)
                lastThousand.append(last)
                thousandMedians.append(median(times))
            }
            var writes: [Double] = []
            do {
                let store = try PagingStore(path: path)
                let writer = list(store, pages: pages, maxPages: 2)
                writes = timePerStep(pages) { _ in writer.loadNextPage() }.perStep
                result.ok = result.ok && writer.loadStates.value.append == .complete && writer.items.value.last?.id == count - 1
                    && writer.lastError.value == nil
            }
            let write = median(thousandMedians)
            let (firstWrites, lastWrites) = (median(firstThousand), median(lastThousand))
            let (firstAll, lastAll) = firstAndLast(writes, window: pages / 10)
            result.figures += [
                Figure(name: "write a network page of 50 posts (1,000 pages into a new store, median)", value: duration(write),
                       target: "≤ 1 ms", met: write <= 1_000_000),
                Figure(name: "1,000 pages written in a row: last 10% / first 10% (\(duration(lastWrites)) / \(duration(firstWrites)))",
                       value: format(lastWrites / firstWrites) + "x", target: "≤ 1.5x", met: lastWrites / firstWrites <= 1.5),
                Figure(name: "all \(pages) pages of the big store: last 10% / first 10% (\(duration(lastAll)) / \(duration(firstAll)))",
                       value: format(lastAll / firstAll) + "x"),
            ]

            // Opening the store and landing its first stored page in a list.
            var opens: [Double] = []
            for _ in 0 ... runs {
                opens.append(timePerStep(1) { _ in
                    guard let store = try? PagingStore(path: path) else { return }
                    let viewer = list(store, pages: pages, maxPages: 10)
                    viewer.loadNextPage()
                    result.ok = result.ok && viewer.items.value.count == pageSize
                }.total)
            }
            let open = median(Array(opens.dropFirst()))
            result.figures.append(Figure(name: "open the store and land its first page of 50 in a list (median)",
                                         value: duration(open), target: "≤ 5 ms", met: open <= 5_000_000))

            // Scrolling from the first stored page to the last, maxPages 10: per page and memory.
            let scrolls = try (0 ..< runs).map { run in try scrollStored(path: path, pages: pages, sampleHeap: run == 0) }
            let scroll = scrolls[0]
            result.ok = result.ok && scrolls.allSatisfy(\.ok)
            let window = pages / 10
            let windows = scrolls.map { firstAndLast($0.perPage, window: window) }
            let (firstPage, lastPage) = (median(windows.map(\.first)), median(windows.map(\.last)))
            result.figures += [
                Figure(name: "stored page of 50 landed in the list: first 10% (median)", value: duration(firstPage)),
                Figure(name: "stored page of 50 landed in the list: last 10% (median)", value: duration(lastPage)),
                Figure(name: "last 10% / first 10%", value: format(lastPage / firstPage) + "x", target: "≤ 1.5x",
                       met: lastPage / firstPage <= 1.5),
            ]
            if scroll.heap.count == pages {
                let firstHeap = scroll.heap.prefix(window).max()!
                let lastHeap = scroll.heap.suffix(window).max()!
                let ratio = Double(lastHeap) / Double(max(firstHeap, 1))
                result.figures += [
                    Figure(name: "heap over baseline while scrolling, peak of the first / last 10%",
                           value: "\(megabytes(Double(firstHeap))) / \(megabytes(Double(lastHeap)))"),
                    Figure(name: "memory: last 10% / first 10%", value: format(ratio) + "x", target: "≤ 1.1x", met: ratio <= 1.1),
                ]
            } else {
                result.figures.append(Figure(name: "memory while scrolling", value: "n/a (no mallinfo2)"))
            }

            // Pages near the end, side by side: the list at the bottom loads the pages above its window back from
            // the store (loadPreviousPage), each beside the raw C API's keyset read of the same page, interleaved;
            // then LIMIT/OFFSET at that depth.
            let raw = try RawReader(path: path)
            let endPages = try raw.lastPages(10 + 100)
            let sideBySide = try readBackNearTheEnd(path: path, pages: pages, raw: raw, rawPages: Array(endPages.dropFirst(10)))
            result.ok = result.ok && sideBySide.ok
            let offsetPages = Array(endPages.prefix(quick ? 10 : 5))
            let rawOffset = median(offsetPages.map { page in timePerStep(1) { _ in blackHole(raw.readOffset(index: page.index)) }.total })
            result.figures += [
                Figure(name: "a page of 50 near the end, read back from the store into the list (median)", value: duration(sideBySide.store)),
                Figure(name: "the same page, raw sqlite3 keyset query + decoding, interleaved (median)", value: duration(sideBySide.raw)),
                Figure(name: "store / raw", value: format(sideBySide.store / sideBySide.raw) + "x", target: "≤ 1.5x",
                       met: sideBySide.store / sideBySide.raw <= 1.5),
                Figure(name: "the same depth with LIMIT 50 OFFSET (what Room's paging source does) + decoding",
                       value: duration(rawOffset)),
                Figure(name: "LIMIT/OFFSET / the store's keyset page", value: format(rawOffset / sideBySide.store) + "x"),
            ]
        } catch {
            result.ok = false
            result.notes.append("failed: \(error)")
        }
        result.notes += [
            "\(count) posts of ~200 bytes of JSON in pages of \(pageSize), one feed, ImmediateScheduler, revalidate: .never.",
            "Writing: a store-backed list (maxPages 2) over a network that answers at once pages 1,000 pages into a new store "
                + "(\(runs) times, medians), then the whole feed into the big store: each page is encoded, written with its keys "
                + "in one BEGIN IMMEDIATE transaction, and shown; each loadNextPage() timed.",
            "Opening: PagingStore(path:) (the checks at open), a list, its first loadNextPage() landing 50 stored posts; median "
                + "of \(runs) after a warm-up. Scrolling: a list with maxPages 10 lands every stored page, top to bottom, each "
                + "timed (reading the page by keyset and decoding its 50 posts, then the view model's transition), \(runs) times "
                + "(medians of the windows); mallinfo2() sampled after every page of the first.",
            "Side by side: a list scrolled to the bottom loads the 100 pages above its window back from the store "
                + "(loadPreviousPage(): the keyset read, the decoding, the view model's transition), each followed by a read-only "
                + "sqlite3 connection running the store's query for the same page (SELECT items.body FROM members JOIN items "
                + "... WHERE page = ? ORDER BY position) and decoding its 50 posts with a JSONDecoder, hand-written; "
                + "LIMIT/OFFSET: the feed's rows ORDER BY position LIMIT 50 OFFSET n·50 for pages at that depth, decoded.",
        ]
        return result
    }

    /// A `.replace` refresh of a list over a feed of n stored posts: its landing deletes the n stored rows and
    /// writes the new first page in one transaction, on the list's scheduler (the main thread in an app).
    static func replaceRefresh(quick: Bool, runs: Int) -> StudyResult {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("StoreBenchmarks-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var result = StudyResult()
        do {
            for rows in quick ? [1_000, 10_000] : [1_000, 10_000, 100_000] {
                var times: [Double] = []
                for run in 0 ..< runs {
                    let store = try PagingStore(path: folder.appendingPathComponent("refresh-\(rows)-\(run).sqlite").path)
                    let writer = list(store, pages: rows / pageSize, maxPages: 2)
                    for _ in 0 ..< rows / pageSize { writer.loadNextPage() }
                    let refresher = list(store, pages: rows / pageSize, maxPages: 2)
                    refresher.loadNextPage()   // the stored first page
                    times.append(timePerStep(1) { _ in refresher.refresh() }.total)
                    let info = try store.feed("posts", of: Post.self).info()
                    result.ok = result.ok && refresher.lastError.value == nil && info.itemCount == pageSize
                }
                result.figures.append(Figure(name: ".replace refresh over \(rows) stored posts: the first page fetched, the "
                                                 + "old rows deleted, the new page written (median)", value: duration(median(times))))
            }
        } catch {
            result.ok = false
            result.notes.append("failed: \(error)")
        }
        result.notes.append("A store-backed list (ImmediateScheduler, revalidate: .never) over a feed of n posts written page by page "
            + "lands its stored first page, then refresh() (.replace) is timed: the network (answering at once) sends page 0 "
            + "again, and one transaction deletes the feed's pages, rows and the n - 50 items no feed lists any more, and "
            + "writes the page; \(runs) runs each, medians.")
        return result
    }

    /// `PagingStore.update` of one item held by 1 and by 10 open lists of a feed of 1,000,000 stored posts, each
    /// holding a window of 10 pages: from the call to the last list's transition (the writing thread delivers
    /// the commit to every list, each on an immediate scheduler, before the call returns).
    static func fanOut(quick: Bool, runs: Int) -> StudyResult {
        let count = quick ? fullCount / 10 : fullCount
        let pages = count / pageSize
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("StoreBenchmarks-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var result = StudyResult()
        do {
            let store = try PagingStore(path: folder.appendingPathComponent("fan-out.sqlite").path)
            do {
                let writer = list(store, pages: pages, maxPages: 2)
                for _ in 0 ..< pages { writer.loadNextPage() }
                result.ok = writer.loadStates.value.append == .complete
            }
            var medians: [Int: Double] = [:]
            var mutationMedians: [Int: Double] = [:]
            for listCount in [1, 10] {
                let lists = (0 ..< listCount).map { _ in list(store, pages: pages, maxPages: 10) }
                for viewer in lists { for _ in 0 ..< 10 { viewer.loadNextPage() } }
                // The item in the middle of the windows, liked once per update; each update is followed by the same
                // like as an optimistic edit whose send answers at once with the item it was given, so that both
                // are timed under the same conditions (the ratio of their medians is side by side, step by step).
                let id = 5 * pageSize + 7
                let feed = store.feed("posts", of: Post.self)
                @Sendable func liked(_ likes: Int) -> Post {
                    let item = post(id)
                    return Post(id: id, author: item.author, title: item.title, body: item.body, likes: likes, createdAt: item.createdAt)
                }
                var times: [Double] = []
                var mutationTimes: [Double] = []
                for run in 0 ..< runs {
                    for step in 0 ..< 200 {
                        let likes = run * 1_000 + step
                        times.append(timePerStep(1) { _ in try? store.update(liked(likes)) }.total)
                        result.ok = result.ok && lists.allSatisfy { $0.items.value[id].likes == likes }
                        mutationTimes.append(timePerStep(1) { _ in
                            feed.mutate(id: id, { $0 = liked(500_000 + likes) }, send: { Producer<Post, Never>(value: $0) }).start()
                        }.total)
                        result.ok = result.ok && lists.allSatisfy { $0.items.value[id].likes == 500_000 + likes }
                    }
                }
                medians[listCount] = median(times)
                mutationMedians[listCount] = median(mutationTimes)
            }
            let pending = try store.feed("posts", of: Post.self).pendingEdits()
            result.ok = result.ok && pending.isEmpty
            let (one, ten) = (medians[1]!, medians[10]!)
            let (mutationOne, mutationTen) = (mutationMedians[1]!, mutationMedians[10]!)
            result.figures += [
                Figure(name: "PagingStore.update of one item held by 1 open list of \(count) stored rows (window of 10 pages): "
                           + "call to last transition (median)", value: duration(one)),
                Figure(name: "PagingStore.update of one item held by 10 open lists of \(count) stored rows (window of 10 pages each): "
                           + "call to last transition (median)", value: duration(ten), target: "≤ 200 µs", met: ten <= 200_000),
                Figure(name: "10 lists / 1 list", value: format(ten / one) + "x", target: "≤ 2x", met: ten / one <= 2),
                Figure(name: "mutation round trip with an immediate send, item held by 1 open list: call to the send's value "
                           + "stored (median)", value: duration(mutationOne)),
                Figure(name: "mutation round trip with an immediate send, item held by 10 open lists: call to the send's value "
                           + "stored (median)", value: duration(mutationTen)),
                Figure(name: "mutation round trip / PagingStore.update, 10 lists", value: format(mutationTen / ten) + "x",
                       target: "≤ 2x", met: mutationTen / ten <= 2),
            ]
        } catch {
            result.ok = false
            result.notes.append("failed: \(error)")
        }
        result.notes.append("A feed of \(count) posts written page by page; 1, then 10, store-backed lists (ImmediateScheduler, "
            + "maxPages 10) each land the first 10 stored pages; then PagingStore.update of post 257 (in the 6th page), 200 times "
            + "per run, \(runs) runs, each call timed: the write (encode, one UPDATE, COMMIT), the commit delivered on the "
            + "calling thread to every list, and each list's transition (the item found by id, replaced, published). Each "
            + "update is followed by a mutation round trip, timed alone (the two alternate, so that both see the same "
            + "conditions): StoredFeed.mutate of the same post with a send that answers at once with the item it was "
            + "given: the edit's transaction (read, decode, change, encode, pending row, COMMIT) "
            + "delivered to every list, then the answer's transaction (the pending row deleted; the value equal to the "
            + "edit's: no list changes).")
        return result
    }

    /// Scrolls a list with `maxPages: 10` over every stored page: the time of each page and the heap growth after each.
    static func scrollStored(path: String, pages: Int, sampleHeap: Bool) throws -> (perPage: [Double], heap: [Int], ok: Bool) {
        let store = try PagingStore(path: path)
        let viewer = list(store, pages: pages, maxPages: 10)
        var heap: [Int] = []
        heap.reserveCapacity(pages)
        let observation = viewer.items.signal.observeValues { items in blackHole(items) }
        let baseline = sampleHeap ? heapBytesInUse() : nil
        let perPage = timePerStep(pages) { _ in
            viewer.loadNextPage()
            if let baseline, let now = heapBytesInUse() { heap.append(now - baseline) }
        }.perStep
        observation?.dispose()
        let items = viewer.items.value
        let ok = viewer.loadStates.value.append == .complete && items.count == 10 * pageSize
            && items.last?.id == pages * pageSize - 1 && viewer.lastError.value == nil
        return (perPage, heap, ok)
    }

    /// Opens a list at the bottom of the feed (scrolling there through the stored pages, maxPages 10), then
    /// loads the pages above its window back from the store one by one, each timed beside the raw read of the
    /// same page (`rawPages`, nearest first).
    static func readBackNearTheEnd(
        path: String, pages: Int, raw: RawReader, rawPages: [(id: Int64, index: Int)]
    ) throws -> (store: Double, raw: Double, ok: Bool) {
        let store = try PagingStore(path: path)
        let viewer = list(store, pages: pages, maxPages: 10)
        for _ in 0 ..< pages { viewer.loadNextPage() }
        var ours: [Double] = []
        var limit: [Double] = []
        var ok = viewer.items.value.last?.id == pages * pageSize - 1
        for page in rawPages {
            ours.append(timePerStep(1) { _ in viewer.loadPreviousPage() }.total)
            var count = 0
            limit.append(timePerStep(1) { _ in count = raw.readKeyset(page: page.id) }.total)
            ok = ok && count == pageSize && viewer.items.value.first?.id == page.index * pageSize
        }
        return (median(ours), median(limit), ok && viewer.lastError.value == nil)
    }

    /// A read-only connection with the raw C API, running the store's keyset query and LIMIT/OFFSET.
    final class RawReader {
        private var handle: OpaquePointer?
        private let keyset: OpaquePointer
        private let offset: OpaquePointer
        private let decoder = JSONDecoder()

        init(path: String) throws {
            guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
                throw StoreError(kind: .cannotOpen, path: path, message: "raw open failed")
            }
            var statement: OpaquePointer?
            sqlite3_prepare_v2(handle, """
                SELECT items.body FROM members JOIN items ON items.id = members.item WHERE members.page = ? ORDER BY members.position
                """, -1, &statement, nil)
            keyset = statement!
            sqlite3_prepare_v2(handle, """
                SELECT items.body FROM members JOIN items ON items.id = members.item WHERE members.feed = 1
                ORDER BY members.position LIMIT 50 OFFSET ?
                """, -1, &statement, nil)
            offset = statement!
        }

        deinit {
            sqlite3_finalize(keyset)
            sqlite3_finalize(offset)
            sqlite3_close_v2(handle)
        }

        /// The last `count` pages of the feed: their rows and their index in the feed's order.
        func lastPages(_ count: Int) throws -> [(id: Int64, index: Int)] {
            var statement: OpaquePointer?
            sqlite3_prepare_v2(handle, "SELECT id, (SELECT count(*) FROM pages) FROM pages WHERE feed = 1 ORDER BY seq DESC LIMIT ?",
                               -1, &statement, nil)
            defer { sqlite3_finalize(statement) }
            sqlite3_bind_int64(statement, 1, Int64(count))
            var pages: [(Int64, Int)] = []
            while sqlite3_step(statement) == SQLITE_ROW {
                let total = Int(sqlite3_column_int64(statement, 1))
                pages.append((sqlite3_column_int64(statement, 0), total - 1 - pages.count))
            }
            return pages
        }

        /// Reads and decodes page `id` by its keyset query; the number of posts.
        func readKeyset(page id: Int64) -> Int {
            sqlite3_bind_int64(keyset, 1, id)
            defer { sqlite3_reset(keyset) }
            return decodeRows(keyset)
        }

        /// Reads and decodes the page at `index` by LIMIT/OFFSET; the number of posts.
        func readOffset(index: Int) -> Int {
            sqlite3_bind_int64(offset, 1, Int64(index * StoreBenchmarks.pageSize))
            defer { sqlite3_reset(offset) }
            return decodeRows(offset)
        }

        private func decodeRows(_ statement: OpaquePointer) -> Int {
            var posts: [Post] = []
            while sqlite3_step(statement) == SQLITE_ROW {
                let bytes = Int(sqlite3_column_bytes(statement, 0))
                let data = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: sqlite3_column_blob(statement, 0)!), count: bytes,
                                deallocator: .none)
                if let post = try? decoder.decode(Post.self, from: data) { posts.append(post) }
            }
            blackHole(posts)
            return posts.count
        }
    }
}
