import PaginatedList

/// The interactive screen's model: the cursor, the scrolled window, the prefetch rule, and the lines to draw.
///
/// Pure: it knows nothing of terminals (see `TerminalUI` in `paging-demo`), so it is tested directly.
package struct ListScreen: Sendable {
    /// The selected row, in `0 ..< count` (0 when the list is empty).
    package private(set) var cursor = 0
    /// The first row shown.
    package private(set) var top = 0
    /// Prefetch when at most this many loaded rows are below the cursor.
    package let prefetchDistance: Int

    package init(prefetchDistance: Int) {
        self.prefetchDistance = prefetchDistance
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

    /// The text and style of one screen line.
    package struct Line: Equatable, Sendable {
        package enum Style: Equatable, Sendable { case title, rule, row, cursorRow, placeholder, status, error, help }
        package var text: String
        package var style: Style
    }

    /// The whole screen, `height` lines of at most `width` characters: a title, the rows around the
    /// cursor, a status line (ending with `note`, if any: the source's corrections) and the key help.
    /// Scrolls `top` so that the cursor is visible.
    package mutating func render(
        rows: ItemList<Row>, state: PaginatedListState<FeedError>, title: String, width: Int, height: Int,
        note: String? = nil
    ) -> [Line] {
        let width = max(width, 20)
        let height = max(height, 8)
        clamp(count: rows.count)
        let visible = height - 5   // title, rule, rule, status, help
        let placeholder = Self.placeholder(for: state, count: rows.count)
        // The placeholder row below the last row counts as part of the list, shown with the last row.
        let shown = rows.count + (placeholder == nil ? 0 : 1)
        let focus = placeholder != nil && cursor >= rows.count - 1 ? shown - 1 : cursor
        if cursor < top { top = cursor }
        if focus >= top + visible { top = focus - visible + 1 }
        top = max(0, min(top, max(shown - visible, 0)))

        var lines: [Line] = []
        lines.append(Line(text: title, style: .title))
        lines.append(Line(text: String(repeating: "-", count: width), style: .rule))
        for slot in 0 ..< visible {
            let index = top + slot
            if index < rows.count {
                let row = rows[index]
                let marker = index == cursor ? ">" : " "
                let text = "\(marker) #\(pad(row.id, to: 4))  \(row.title)"
                lines.append(Line(text: text, style: index == cursor ? .cursorRow : .row))
            } else if index == rows.count, let placeholder {
                lines.append(Line(text: placeholder, style: .placeholder))
            } else {
                lines.append(Line(text: "", style: .row))
            }
        }
        lines.append(Line(text: String(repeating: "-", count: width), style: .rule))
        var statusLine = status(count: rows.count, state: state)
        if let note { statusLine.text += " | \(note)" }
        lines.append(statusLine)
        lines.append(Line(text: "up/down j/k move  PgUp/PgDn page  g/G ends  r retry  R/x reload  q quit", style: .help))
        return lines.map { Line(text: Self.truncate($0.text, to: width), style: $0.style) }
    }

    /// The row shown just below the last loaded row.
    private static func placeholder(for state: PaginatedListState<FeedError>, count: Int) -> String? {
        switch state {
        case .loading: "  ... loading more"
        case .failed: "  !!! load failed: press r to retry"
        case .exhausted: count == 0 ? "  (the feed is empty)" : "  -- end of feed --"
        case .idle: nil
        }
    }

    private func status(count: Int, state: PaginatedListState<FeedError>) -> Line {
        let position = count == 0 ? "no rows" : "row \(cursor + 1) of \(count) loaded"
        switch state {
        case .idle: return Line(text: "ready | \(position)", style: .status)
        case .loading: return Line(text: "loading... | \(position)", style: .status)
        case let .failed(error): return Line(text: "error: \(error) (r: retry) | \(position)", style: .error)
        case .exhausted: return Line(text: "exhausted: all \(count) rows loaded | \(position)", style: .status)
        }
    }

    private func pad(_ number: Int, to width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func truncate(_ text: String, to width: Int) -> String {
        text.count <= width ? text : String(text.prefix(width - 1)) + "~"
    }
}
