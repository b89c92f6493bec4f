/// Times `benchmark`: one warm-up run of each side, then `runs` runs interleaved; the medians in ns per unit.
func measureTime(_ benchmark: Benchmark, count: Int, runs: Int) -> (ours: Double, limit: Double, ok: Bool) {
    let expected = benchmark.expected(count)
    var ok = true
    var ours: [Double] = []
    var limit: [Double] = []
    for run in 0...runs {
        let (oursTime, oursSum) = timed { benchmark.ours(opaque(count)) }
        let (limitTime, limitSum) = timed { benchmark.limit(opaque(count)) }
        ok = ok && oursSum == expected && limitSum == expected
        if run > 0 {   // run 0 warms up
            ours.append(oursTime / Double(count))
            limit.append(limitTime / Double(count))
        }
    }
    return (median(ours), median(limit), ok)
}

/// Heap bytes per instance of each side; `nil` where allocator statistics are unavailable.
func measureHeap(_ benchmark: Benchmark, count: Int) -> (ours: Double, limit: Double, ok: Bool)? {
    _ = benchmark.ours(count)   // warm up: let the allocator reach a steady state
    let ours = benchmark.ours(count)
    let limit = benchmark.limit(count)
    guard ours >= 0, limit >= 0 else { return nil }
    return (Double(ours) / Double(count), Double(limit) / Double(count), true)
}

/// Runs `body` once; returns the elapsed nanoseconds and its result.
func timed(_ body: () -> Int) -> (Double, Int) {
    let clock = ContinuousClock()
    let start = clock.now
    let result = body()
    let elapsed = clock.now - start
    blackHole(result)
    let (seconds, attoseconds) = elapsed.components
    return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9, result)
}

func median(_ samples: [Double]) -> Double {
    let sorted = samples.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Three significant figures at most, no exponent.
func format(_ value: Double) -> String {
    if value.isNaN { return "-" }
    if value >= 100 { return String(Int(value.rounded())) }
    if value >= 10 { return String(Double(Int((value * 10).rounded())) / 10) }
    return String(Double(Int((value * 100).rounded())) / 100)
}

/// Prints `rows` (the first is the header) as a Markdown table with aligned columns.
func printTable(_ rows: [[String]]) {
    guard let header = rows.first else { return }
    var widths = header.map(\.count)
    for row in rows {
        for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
    }
    func line(_ cells: [String]) -> String {
        let padded = cells.enumerated().map { column, cell in
            let padding = String(repeating: " ", count: widths[column] - cell.count)
            return column == 0 ? cell + padding : padding + cell
        }
        return "| " + padded.joined(separator: " | ") + " |"
    }
    print(line(header))
    print("|" + widths.enumerated().map { column, width in
        column == 0 ? String(repeating: "-", count: width + 2) : " " + String(repeating: "-", count: width) + ":"
    }.joined(separator: "|") + "|")
    for row in rows.dropFirst() { print(line(row)) }
}

/// `duration` in nanoseconds.
func nanoseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
}

/// Times each call of `step(k)` for `k` in `0 ..< count`; the nanoseconds of each, and of them all.
func timePerStep(_ count: Int, _ step: (Int) -> Void) -> (perStep: [Double], total: Double) {
    let clock = ContinuousClock()
    var perStep: [Double] = []
    perStep.reserveCapacity(count)
    let start = clock.now
    var last = start
    for k in 0 ..< count {
        step(k)
        let now = clock.now
        perStep.append(nanoseconds(now - last))
        last = now
    }
    return (perStep, nanoseconds(last - start))
}

/// The median cost of the first `window` steps and of the last `window` steps.
func firstAndLast(_ perStep: [Double], window: Int) -> (first: Double, last: Double) {
    (median(Array(perStep.prefix(window))), median(Array(perStep.suffix(window))))
}

/// `value` (bytes) in MB, three significant figures.
func megabytes(_ value: Double) -> String { format(value / 1_000_000) + " MB" }

/// `value` (ns) in µs, or in ms from 10 ms up.
func duration(_ nanoseconds: Double) -> String {
    nanoseconds >= 10_000_000 ? format(nanoseconds / 1e6) + " ms" : format(nanoseconds / 1e3) + " µs"
}
