import Foundation
import PaginatedList
import PaginatedListHTTP
import PaginatedListStore
import Signals

/// The demo's settings, from its command line.
///
/// Latency and failure rate default by mode: an interactive run shows them (600 ms, 10 %), a script run
/// is deterministic and instant unless they are given (0 ms, 0 %).
package struct DemoOptions: Equatable, Sendable {
    package var items = 200
    package var pageSize = 20
    /// `nil`: the mode's default.
    package var latencyMilliseconds: Int?
    /// `nil`: the mode's default.
    package var failureRate: Double?
    package var seed: UInt64 = 1
    /// Prefetch when at most this many loaded rows are below the cursor.
    package var prefetch = 5
    /// The commands of a non-interactive run; `nil` for the interactive mode.
    package var script: [ScriptCommand]?
    /// The HTTP endpoint to page (`--url`); `nil`: the in-process simulated feed.
    package var url: URL?
    /// How the endpoint pages (`--style`).
    package var style: HTTPStyle = .page
    /// Where the endpoint's items are (`--items-at`); `nil`: where the style's API puts them.
    package var itemsPath: JSONPath?
    /// The page source the list loads through, over the simulated feed (`--source`; not with `url`).
    package var source: DemoSource = .simulated
    /// Rows the simulated feed inserts, and rows it deletes, at random positions after every request
    /// (`--churn`; not with `url`).
    package var churn = 0
    /// The row the list opens at, counted from 1 (`--start`; the simulated feed through its own chain, the
    /// page, offset or array source): the view model's first page is the page that holds it, and scrolling
    /// up loads the pages before.
    package var start: Int?
    /// The most pages the list holds (`--max-pages`): pages beyond it are dropped away from where the
    /// user scrolls, and loaded again on the way back.
    package var maxPages: Int?
    /// The store file the list keeps its pages in (`--store`): the rows are there at the next launch, offline.
    package var storePath: String?
    /// Whether the simulated server refuses every like (`--fail-mutations`): with `--store`, a like is an
    /// optimistic edit, shown at once and rolled back when the refusal arrives.
    package var failMutations = false

    package init() {}

    package var isScripted: Bool { script != nil }

    /// The latency the feed uses in this mode.
    package var effectiveLatencyMilliseconds: Int { latencyMilliseconds ?? (isScripted ? 0 : 600) }

    /// The failure rate the feed uses in this mode.
    package var effectiveFailureRate: Double { failureRate ?? (isScripted ? 0 : 0.1) }

    /// The list these options describe, delivering on `scheduler`: over the HTTP endpoint (through the
    /// `style`'s source) if `url` is set, else over the simulated feed through the `source` (the feed is
    /// also returned, for the commands that drive it and the audit); with `storePath`, store-backed (the
    /// store's feed is returned too).
    ///
    /// - Throws: the store's error when `storePath` names a file the store cannot open.
    package func makeList(scheduler: any Scheduler) throws(StoreError)
        -> (list: PaginatedListViewModel<Row, FeedError>, simulated: SimulatedFeed?, stored: StoredFeed<Row>?) {
        if let url {
            let feed = HTTPDemoFeed(url: url, style: style, pageSize: pageSize, items: itemsPath)
            return (PaginatedListViewModel(dependency: feed, scheduler: scheduler, maxPages: maxPages), nil, nil)
        }
        let feed = makeFeed()
        if let storePath {
            let stored = try PagingStore(path: storePath).feed("paging-demo", of: Row.self)
            return (makeStoredViewModel(feed: feed, stored: stored, scheduler: scheduler), feed, stored)
        }
        return (makeViewModel(feed: feed, scheduler: scheduler), feed, nil)
    }

    /// Whether `/` searches the list: over the simulated feed's own chain (`--source simulated`), without
    /// `--url`, `--store` or `--max-pages` (the search's query list makes a plain view model per query).
    package var canSearch: Bool {
        url == nil && storePath == nil && source == .simulated && maxPages == nil
    }

    /// The simulated feed these options describe.
    package func makeFeed() -> SimulatedFeed {
        SimulatedFeed(
            itemCount: items, pageSize: pageSize, latency: .milliseconds(effectiveLatencyMilliseconds),
            failureRate: effectiveFailureRate, seed: seed, churn: churn, start: max((start ?? 1) - 1, 0)
        )
    }
}

/// What the command line asks for.
package enum DemoInvocation: Equatable, Sendable {
    case help
    case run(DemoOptions)
}

/// A command line the demo cannot run; `message` says why.
package struct OptionsError: Error, Equatable, Sendable, CustomStringConvertible {
    package let message: String
    package var description: String { message }
}

extension DemoInvocation {
    /// Parses the arguments (without the program name). Accepts `--flag value` and `--flag=value`.
    package static func parse(_ arguments: [String]) throws(OptionsError) -> DemoInvocation {
        var options = DemoOptions()
        var remaining = arguments[...]
        // The flags given that work on the simulated feed only: refused with `--url`.
        var simulatedOnly: Set<String> = []
        while let argument = remaining.popFirst() {
            if argument == "--help" || argument == "-h" { return .help }
            guard argument.hasPrefix("--") else {
                throw OptionsError(message: "unexpected argument '\(argument)'")
            }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            func nextValue() throws(OptionsError) -> String {
                if let value { return value }
                guard let next = remaining.popFirst() else {
                    throw OptionsError(message: "--\(name) needs a value")
                }
                return next
            }
            switch name {
            case "items":
                options.items = try integer(try nextValue(), for: name, in: 0 ... 1_000_000)
            case "page-size":
                options.pageSize = try integer(try nextValue(), for: name, in: 1 ... 10_000)
            case "latency-ms":
                options.latencyMilliseconds = try integer(try nextValue(), for: name, in: 0 ... 600_000)
            case "failure-rate":
                let text = try nextValue()
                guard let rate = Double(text), rate >= 0, rate <= 1 else {
                    throw OptionsError(message: "--failure-rate must be a number from 0 to 1, not '\(text)'")
                }
                options.failureRate = rate
            case "seed":
                let text = try nextValue()
                guard let seed = UInt64(text) else {
                    throw OptionsError(message: "--seed must be a non-negative integer, not '\(text)'")
                }
                options.seed = seed
            case "prefetch":
                options.prefetch = try integer(try nextValue(), for: name, in: 0 ... 10_000)
            case "script":
                options.script = try ScriptCommand.parseScript(try nextValue())
            case "url":
                let text = try nextValue()
                guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                      scheme == "http" || scheme == "https", url.host != nil else {
                    throw OptionsError(message: "--url must be an http or https URL, not '\(text)'")
                }
                options.url = url
            case "style":
                let text = try nextValue()
                guard let style = HTTPStyle(rawValue: text.lowercased()) else {
                    let known = HTTPStyle.allCases.map(\.rawValue).joined(separator: ", ")
                    throw OptionsError(message: "--style must be one of \(known), not '\(text)'")
                }
                options.style = style
            case "items-at":
                let text = try nextValue()
                guard !text.isEmpty, !text.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) else {
                    throw OptionsError(message: "--items-at must be a dotted key path such as data or result.items, not '\(text)'")
                }
                options.itemsPath = JSONPath(text)
            case "source":
                options.source = try DemoSource.parse(try nextValue())
                simulatedOnly.insert("--source")
            case "churn":
                options.churn = try integer(try nextValue(), for: name, in: 0 ... 10_000)
                simulatedOnly.insert("--churn")
            case "start":
                options.start = try integer(try nextValue(), for: name, in: 1 ... 1_000_000)
                simulatedOnly.insert("--start")
            case "max-pages":
                options.maxPages = try integer(try nextValue(), for: name, in: 1 ... 10_000)
            case "store":
                let path = try nextValue()
                guard !path.isEmpty else { throw OptionsError(message: "--store needs a file path") }
                options.storePath = path
            case "fail-mutations":
                options.failMutations = true
            default:
                throw OptionsError(message: "unknown option '--\(name)'")
            }
        }
        if options.url != nil, !simulatedOnly.isEmpty {
            let flags = simulatedOnly.sorted(by: >)   // --source, then --churn
            throw OptionsError(message: "--url pages an HTTP endpoint, but \(flags.joined(separator: " and ")) "
                + "\(flags.count == 1 ? "works" : "work") on the simulated feed only; use one or the other "
                + "(how an endpoint pages is --style)")
        }
        if options.url == nil, options.itemsPath != nil {
            throw OptionsError(message: "--items-at says where an HTTP endpoint's items are; it needs --url")
        }
        if options.start != nil, options.url == nil, [.cursor, .ids].contains(options.source) {
            throw OptionsError(message: "--start opens the list in the middle through --source simulated, page, "
                + "offset or array; --source \(options.source.rawValue) always starts at the first page")
        }
        if options.failMutations, options.storePath == nil {
            throw OptionsError(message: "--fail-mutations makes the store's optimistic likes fail; it needs --store")
        }
        if options.storePath != nil, options.url != nil {
            throw OptionsError(message: "--store keeps the simulated feed's pages; it does not work with --url yet")
        }
        if options.storePath != nil, options.source == .offset {
            throw OptionsError(message: "--store goes on from the keys it stored, and --source offset's corrections "
                + "cannot be resumed from a key (they need the pages loaded in memory); use simulated, page, cursor, "
                + "ids or array")
        }
        if options.source == .array && options.churn > 0 {
            throw OptionsError(message: "--churn changes the feed, but --source array pages a copy taken at start; "
                + "pick another source")
        }
        if !options.canSearch, options.script?.contains(where: { if case .search = $0 { true } else { false } }) == true {
            throw OptionsError(message: "the search command searches the simulated feed's own pages; it does not work "
                + "with --url, --store, --max-pages or --source other than simulated")
        }
        return .run(options)
    }

    /// The integer `text` says, within `range`: a demo's sizes and delays are bounded, so that a mistyped
    /// value is refused here rather than exhausting memory, or overflowing a page's offset, later.
    private static func integer(_ text: String, for name: String, in range: ClosedRange<Int>) throws(OptionsError) -> Int {
        guard let number = Int(text), range.contains(number) else {
            throw OptionsError(message: "--\(name) must be an integer from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return number
    }

    /// The text of `--help`.
    package static let usage = """
        paging-demo: an infinite-scroll list over a simulated feed, or a real HTTP endpoint, built on
        PaginatedListViewModel.

        USAGE
          paging-demo [options]                     interactive (needs a terminal)
          paging-demo --script "next,fail,retry"    non-interactive: prints each state, exits
          paging-demo --url URL [--style STYLE]     pages an HTTP endpoint instead of the simulated feed

        OPTIONS
          --items N            rows in the feed (default 200)
          --page-size N        rows per page (default 20)
          --latency-ms N       delay of each page load (default 600; 0 in script mode)
          --failure-rate P     chance from 0 to 1 that a load fails (default 0.1; 0 in script mode)
          --seed N             seed of the failure draws (default 1)
          --prefetch N         load the next page when at most N rows are below the cursor (default 5)
          --url URL            page this HTTP endpoint; items are JSON objects with an "id" (a number or
                               a string) and a "title" or "name" (also under "attributes")
          --style STYLE        how the endpoint pages (default page):
                                 page     ?page=P&limit=N (--page-size); ends at a short page or a total
                                 cursor   "next_cursor" in the body, sent back as ?cursor=C
                                 link     Link: <...>; rel="next" headers (GitHub)
                                 offset   ?offset=O&limit=N, corrected for a feed that changes
                                 stripe   items under "data", ?starting_after=<last id> while "has_more"
                                 slack    items under "channels", "response_metadata.next_cursor",
                                          {"ok": false} errors
                                 notion   items under "results", "next_cursor" + "has_more", sent back
                                          as ?start_cursor=C
                                 jsonapi  items under "data", the next page at "links.next"
                               (stripe, slack, notion and jsonapi set their page size, N, unless the
                               URL does: limit, limit, page_size, page[size])
          --items-at PATH      with --url: where the items are, a dotted key path (members, result.items)
          --source NAME        the page source over the simulated feed (default simulated):
                                 simulated  the feed's own chain: next offset = rows loaded
                                 page       PageNumberSource (page=N&size=S, with totals)
                                 offset     OffsetSource (offset/limit, three-row overlap, corrections)
                                 cursor     CursorSource (after=ID&limit=L)
                                 ids        IDSnapshotSource (the IDs once, then rows by batch of IDs)
                                 array      ArraySource (a copy of the rows taken at start)
          --churn N            after every request the simulated feed inserts N rows and deletes N rows
                               at random positions (seeded by --seed); corrections are shown (default 0);
                               and before each refresh (r) it gains 0-30 rows at the top
                               (--source, --churn and --start apply to the simulated feed only: given
                               with --url they are an error, exit status 2; an endpoint's paging is --style)
          --start N            open the list at row N (the page that holds it; --source simulated,
                               page, offset or array): scrolling up loads the pages before it
          --max-pages N        hold at most N pages: the pages farthest from where you scroll are
                               dropped and loaded again when you come back (the status line counts
                               the rows held and dropped)
          --store FILE         keep the pages in a store (SQLite) at FILE: quit, start again (say with
                               --failure-rate 1, offline), and the rows are there; the status line says
                               they came from the store and how old they are. The list refreshes
                               (.mergeOnTop) once the stored rows land. Not with --url or --source offset.
                               Interactive: two feeds of the store side by side ("home" and "profile",
                               sharing posts); tab or w switches which one the keys act on, and a like
                               (u) is an optimistic edit that shows in both at once
          --fail-mutations     with --store: the simulated server refuses every like after the latency,
                               so the like shows, then is rolled back in both feeds
          --script LIST        comma-separated commands:
                                 next    loadNextPage()
                                 retry   loadNextPage() after a failure (retries the failed page)
                                 fail    make the next page load fail, and start it (simulated feed;
                                         with --url it only starts the load)
                                 reset   reset(): empty the list, start over on the next load
                                 reload  reload(): reset(), then load the first page
                                 wait    wait until the load in flight (if any) ends (use it after
                                         next with --url: requests take time)
                                 prev    loadPreviousPage() (a list opened with --start)
                                 up, down  move the cursor one row (it stays on its row when rows
                                         are inserted or removed above it)
                                 like    like the row under the cursor: update(id:) bumps its counter
                                 delete  delete the row under the cursor: remove(id:)
                                 new     a new post at the top of the feed, inserted at the top
                                 refresh refresh(.mergeOnTop(maxPages: 2, onGap: .keepGap)) (with
                                         --churn the feed first gains 0-30 rows at the top)
                                 fill    fillGap(): load the rows missing at the gap
                                 search=TEXT  show the rows whose title contains TEXT (search=
                                         alone: the whole feed); the rows shown stay until the
                                         new query's first page lands (as / does)
                               With --start, --max-pages or any of the last eight, each line also
                               shows the cursor's row, the first and last rows held, the gap and the
                               rows dropped.
                               Corrections are printed under the command's line; with --churn, a last
                               line audits the rows loaded (duplicates, holes).
          -h, --help           show this help

        KEYS (interactive)
          up/down, k/j  move the cursor (pages load as it nears either end)
          PgUp/PgDn     move a screenful      g/G   first/last row
          u             like the row under the cursor      d   delete it
          n             a new post at the top
          r             refresh: new rows arrive on top (.mergeOnTop, 2 pages, gap kept)
          f             fill the gap (the "~~ N new items - press f ~~" row)
          t             try again after an error (the failed page or refresh)
          R or x        reload from the first page
          /             search as you type: the rows whose title contains the query (Return or
                        Esc ends typing; an empty query is the whole feed). Not with --source,
                        --max-pages, --store or --url
          q             quit (Ctrl-C works too; the terminal is restored either way)
        """
}
