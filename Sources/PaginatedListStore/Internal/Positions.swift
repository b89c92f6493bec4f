/// Sparse positions: the order of a feed's rows and pages as 64-bit integers with room between them.
enum Positions {
    /// The distance between two numbers written at an end of a feed.
    static let step: Int64 = 1 << 32

    /// `count` increasing numbers strictly between `low` and `high` (`nil`: no bound on that side), spread
    /// evenly; `nil` when there is no room (the caller renumbers and asks again).
    static func allocate(_ count: Int, after low: Int64?, before high: Int64?) -> [Int64]? {
        guard count > 0 else { return [] }
        let n = Int64(count)
        switch (low, high) {
        case (nil, nil):
            return (0 ..< n).map { $0 * step }
        case let (low?, nil):
            guard low <= Int64.max - (n + 1) * step else { return nil }
            return (1 ... n).map { low + $0 * step }
        case let (nil, high?):
            guard high >= Int64.min + (n + 1) * step else { return nil }
            return (1 ... n).map { high - (n + 1 - $0) * step }
        case let (low?, high?):
            // In 128 bits: `high - low` overflows 64 for far-apart bounds.
            let gap = Int128(high) - Int128(low)
            guard gap > Int128(n) else { return nil }
            let spacing = min(gap / Int128(n + 1), Int128(step))
            let first = Int128(low) + (gap - spacing * Int128(n - 1)) / 2
            return (0 ..< n).map { Int64(first + Int128($0) * spacing) }
        }
    }
}
