import PaginatedList

/// The interactive screen's model: the cursor, the scrolled window, the prefetch rule, and the lines to draw.
///
/// Pure: it knows nothing of terminals (see `TerminalUI` in `paging-demo`), so it is tested directly.
///
/// **The scroll anchor.** The cursor stays on its row when rows are inserted or removed above it (a page
/// loaded above, new items merged on top, rows dropped by `--max-pages`): feed it the view model's
/// `changes` with `follow(_:rows:)`, and call `settle(rows:)` once a transition's changes are in, which
/// remembers the row under the cursor so that a `.reset` can find it again.
package struct ListScreen: Sendable {
    /// The selected row, in `0 ..< count` (0 when the list is empty).
    package private(set) var cursor = 0
    /// The first line shown, counted in the list's lines (rows, the gap row, the loading rows).
    package private(set) var top = 0
    /// Prefetch when at most this many loaded rows are below the cursor.
    package let prefetchDistance: Int
    /// The id of the row under the cursor when the list last settled.
    package private(set) var anchor: Int?
    /// The rows the list has, as the changes followed so far count them.
    private var count = 0
    /// The row (id) to put the cursor on once the list holds it (the row `--start` names).
    private var startRow: Int?

    /// A screen whose cursor goes to the row `startRow` (an id) when the list first holds it.
    package init(prefetchDistance: Int, startRow: Int? = nil) {
        self.prefetchDistance = prefetchDistance
        self.startRow = startRow
    }

    /// Moves the cursor by `delta` rows, within the `count` rows loaded.
    package mutating func move(by delta: Int, count: Int) {
        cursor = min(max(cursor + delta, 0), max(count - 1, 0))
    }

    /// Moves the cursor to `row`, within the `count` rows loaded.
    package mutating func move(to row: Int, count: Int) {
        cursor = min(max(row, 0), max(count - 1, 0))
    }

    /// Keeps the cursor inside the list after it changed (emptied by a reset, say).
    package mutating func clamp(count: Int) {
        move(to: cursor, count: count)
        if count == 0 { top = 0 }
    }

    /// Keeps the cursor, and the first line shown, on their rows through one of the view model's
    /// `changes`; `rows` is the snapshot the transition leads to (where a `.reset` looks for the anchor).
    package mutating func follow(_ change: ItemListChange, rows: ItemList<Row>) {
        switch change {
        case .reset:
            count = rows.count
            if let anchor, let index = rows.firstIndex(where: { $0.id == anchor }) { cursor = index }
        default:
            if count > 0 {
                cursor = Self.position(ofRow: cursor, after: change)
                top = Self.position(ofRow: top, after: change)
            }
            switch change {
            case let .appended(range), let .inserted(range): count += range.count
            case let .removed(offsets): count -= offsets.count
            case .updated, .moved, .reset: break
            }
        }
        cursor = min(max(cursor, 0), max(count - 1, 0))
    }

    /// Where the row at `row` is after `change` (`ItemListChange.position(ofRow:)`); a removed row's
    /// place goes to the row after it.
    private static func position(ofRow row: Int, after change: ItemListChange) -> Int {
        if let position = change.position(ofRow: row) { return position }
        guard case let .removed(offsets) = change else { return row }
        return row - offsets.prefix { $0 < row }.count
    }

    /// After a transition's changes: the list has `rows`; remembers the row under the cursor.
    package mutating func settle(rows: ItemList<Row>) {
        count = rows.count
        if let startRow, let index = rows.firstIndex(where: { $0.id == startRow }) {
            cursor = index
            self.startRow = nil
        }
        clamp(count: count)
        anchor = rows.isEmpty ? nil : rows[cursor].id
    }

    /// The text and style of one screen line.
    package struct Line: Equatable, Sendable {
        package enum Style: Equatable, Sendable { case title, rule, row, cursorRow, header, placeholder, gap, status, error, help }
        package var text: String
        package var style: Style
    }

    /// What the screen shows of a list that grows both ways, is refreshed and may hold a window.
    package struct Window: Equatable, Sendable {
        /// The load of the page before the first row.
        package var prepend: LoadState<FeedError> = .idle
        /// The index of the first row below the gap, if one is open.
        package var gap: Int?
        /// How many rows the gap hides, when the feed knows.
        package var missing: Int?
        /// The rows dropped (loaded, and no longer held), with `--max-pages`; `nil` without a window.
        package var dropped: Int?
        /// A header line above a row, by row index (the first row of each day).
        package var headers: [Int: String]
        /// How many rows the feed holds, as it last said (`PaginatedListViewModel.totalCount`).
        package var total: Int?

        package init(prepend: LoadState<FeedError> = .idle, gap: Int? = nil, missing: Int? = nil, dropped: Int? = nil,
                     headers: [Int: String] = [:], total: Int? = nil) {
            self.prepend = prepend
            self.gap = gap
            self.missing = missing
            self.dropped = dropped
            self.headers = headers
            self.total = total
        }
    }

    /// One line of the list part of the screen.
    private enum Entry: Equatable {
        case row(Int)
        case header(String)
        case gap
        case earlier(String)
        case later(String)
    }

    /// The whole screen, `height` lines of at most `width` characters: a title, the rows around the
    /// cursor (with a row for the gap, and rows that say a page is loading above or below, by
    /// `loadStates`), a status line (what loads, else `lastError`, else whether the feed is exhausted)
    /// (ending with `note`, if any: the source's corrections) and the key help. Scrolls `top` so that the
    /// cursor is visible.
    package mutating func render(
        rows: ItemList<Row>, loadStates: LoadStates<FeedError>, lastError: FeedError? = nil, title: String,
        width: Int, height: Int, note: String? = nil, window: Window = Window()
    ) -> [Line] {
        let width = max(width, 20)
        let height = max(height, 8)
        clamp(count: rows.count)
        let visible = height - 5   // title, rule, rule, status, help

        var entries: [Entry] = []
        if let earlier = Self.earlierPlaceholder(for: window.prepend, count: rows.count) { entries.append(.earlier(earlier)) }
        for index in 0 ..< rows.count {
            if index == window.gap { entries.append(.gap) }
            if let header = window.headers[index] { entries.append(.header(header)) }
            entries.append(.row(index))
        }
        let later = Self.placeholder(for: loadStates.append, count: rows.count)
        if let later { entries.append(.later(later)) }
        // The placeholder row below the last row counts as part of the list, shown with the last row.
        let cursorLine = entries.firstIndex(of: .row(cursor)) ?? 0
        let focus = later != nil && cursor >= rows.count - 1 ? entries.count - 1 : cursorLine
        if cursorLine < top { top = cursor == 0 ? 0 : cursorLine }
        if focus >= top + visible { top = focus - visible + 1 }
        top = max(0, min(top, max(entries.count - visible, 0)))

        var lines: [Line] = []
        lines.append(Line(text: title, style: .title))
        lines.append(Line(text: String(repeating: "-", count: width), style: .rule))
        for slot in 0 ..< visible {
            let line = top + slot
            guard line < entries.count else {
                lines.append(Line(text: "", style: .row))
                continue
            }
            switch entries[line] {
            case let .row(index):
                let row = rows[index]
                let marker = index == cursor ? ">" : " "
                let likes = row.likes > 0 ? "  +\(row.likes)" : ""
                let text = "\(marker) #\(pad(row.id, to: 4))  \(row.title)\(likes)"
                lines.append(Line(text: text, style: index == cursor ? .cursorRow : .row))
            case let .header(text):
                lines.append(Line(text: "  == \(text) ==", style: .header))
            case .gap:
                let count = window.missing.map { "\($0) new item\($0 == 1 ? "" : "s")" } ?? "new items"
                lines.append(Line(text: "  ~~ \(count) - press f ~~", style: .gap))
            case let .earlier(text), let .later(text):
                lines.append(Line(text: text, style: .placeholder))
            }
        }
        lines.append(Line(text: String(repeating: "-", count: width), style: .rule))
        var statusLine = status(count: rows.count, loadStates: loadStates, lastError: lastError, dropped: window.dropped,
                                total: window.total)
        if let note { statusLine.text += " | \(note)" }
        lines.append(statusLine)
        lines.append(Line(text: "j/k move  / search  u like  d delete  n new  r refresh  f fill  t retry  q quit",
                          style: .help))
        return lines.map { Line(text: Self.truncate($0.text, to: width), style: $0.style) }
    }

    /// The row shown just below the last loaded row, by the state of the next page's load.
    private static func placeholder(for append: LoadState<FeedError>, count: Int) -> String? {
        switch append {
        case .loading: "  ... loading more"
        case .failed: "  !!! load failed: press t to try again"
        case .complete: count == 0 ? "  (the feed is empty)" : "  -- end of feed --"
        case .idle: nil
        }
    }

    /// The row shown just above the first loaded row, when the page before it loads or failed.
    private static func earlierPlaceholder(for prepend: LoadState<FeedError>, count: Int) -> String? {
        guard count > 0 else { return nil }
        switch prepend {
        case .loading: return "  ... loading earlier rows"
        case .failed: return "  !!! loading earlier rows failed: press t to try again"
        case .idle, .complete: return nil
        }
    }

    private func status(count: Int, loadStates: LoadStates<FeedError>, lastError: FeedError?, dropped: Int?, total: Int?) -> Line {
        let held = dropped.map { "held, \($0) dropped" } ?? "loaded"
        let inFeed = total.map { ", \($0) in the feed" } ?? ""
        let position = count == 0 ? "no rows\(inFeed)" : "row \(cursor + 1) of \(count) \(held)\(inFeed)"
        if loadStates.isLoading { return Line(text: "loading... | \(position)", style: .status) }
        if let lastError { return Line(text: "error: \(lastError) (t: try again) | \(position)", style: .error) }
        if loadStates.append.isComplete {
            return Line(text: "exhausted: all \(count) rows loaded | \(position)", style: .status)
        }
        return Line(text: "ready | \(position)", style: .status)
    }

    private func pad(_ number: Int, to width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func truncate(_ text: String, to width: Int) -> String {
        text.count <= width ? text : String(text.prefix(width - 1)) + "~"
    }
}
