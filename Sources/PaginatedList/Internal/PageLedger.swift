/// The pages a view model holds, in list order: how many items each has, and how to load each again.
///
/// An item belongs to the page that loaded it; an item inserted by an edit belongs to the page of the
/// item above it (the first page when inserted at the top). The ledger is what `maxPages` drops and what
/// `.reloadAll` reloads.
///
/// **Cost.** Pages sit in slots of a ring-less array that grows at both ends; a Fenwick tree over the
/// slots' item counts answers "which page holds item `i`" and "where does page `p` start" in
/// O(log slots), and adjusts a count in O(log slots). Adding a page at either end is amortised O(1)
/// (the array is re-centred, doubling, when an end runs out of room); removing one at either end is O(log
/// slots). Slots freed at one end are reclaimed by the next re-centring, so the array stays within a
/// constant factor of the pages held, however far the user scrolls.
// Inlinable: every page lands in it, specialised for the client's records (`Benchmarks itemlist`, view model rows).
@usableFromInline
struct PageLedger<Record> {
    /// One held page.
    @usableFromInline
    struct Page {
        /// Its items held now.
        @usableFromInline var count: Int
        /// What the view model keeps of the page (how to load it again, and what lies around it).
        @usableFromInline var record: Record

        @inlinable
        init(count: Int, record: Record) {
            self.count = count
            self.record = record
        }
    }

    /// Slots `[low, high)` hold the pages, in list order.
    @usableFromInline var slots: [Page?] = []
    /// The Fenwick tree over the slots' counts: `tree[i]` (1-based) sums the counts of slots
    /// `(i - lowbit(i)) ..< i`.
    @usableFromInline var tree: [Int] = [0]
    @usableFromInline var low = 0
    @usableFromInline var high = 0

    /// How many pages are held.
    @inlinable
    var pageCount: Int { high - low }
    @inlinable
    var isEmpty: Bool { high == low }

    /// The page at the top, if any.
    @inlinable
    var first: Page? { isEmpty ? nil : slots[low] }
    /// The page at the bottom, if any.
    @inlinable
    var last: Page? { isEmpty ? nil : slots[high - 1] }

    /// The held pages, top to bottom.
    @inlinable
    var pages: [Page] { slots[low ..< high].map { $0! } }

    // MARK: - Both ends

    /// Adds a page of `count` items below the last.
    @inlinable
    mutating func append(count: Int, record: Record) {
        defer { _checkInvariants() }
        if high == slots.count { recentre() }
        slots[high] = Page(count: count, record: record)
        add(count, atSlot: high)
        high += 1
    }

    /// Adds a page of `count` items above the first.
    @inlinable
    mutating func prepend(count: Int, record: Record) {
        defer { _checkInvariants() }
        if low == 0 { recentre() }
        low -= 1
        slots[low] = Page(count: count, record: record)
        add(count, atSlot: low)
    }

    /// Removes the page at the top.
    @inlinable
    mutating func removeFirst() -> Page {
        precondition(!isEmpty, "PageLedger.removeFirst on an empty ledger")
        defer { _checkInvariants() }
        let page = slots[low]!
        add(-page.count, atSlot: low)
        slots[low] = nil
        low += 1
        if isEmpty { removeAll() }
        return page
    }

    /// Removes the page at the bottom.
    @inlinable
    mutating func removeLast() -> Page {
        precondition(!isEmpty, "PageLedger.removeLast on an empty ledger")
        defer { _checkInvariants() }
        high -= 1
        let page = slots[high]!
        add(-page.count, atSlot: high)
        slots[high] = nil
        if isEmpty { removeAll() }
        return page
    }

    @inlinable
    mutating func removeAll() {
        slots = []
        tree = [0]
        low = 0
        high = 0
    }

    // MARK: - Positions

    /// The page (0 = the top page held) that holds item `index`, or `nil` if no page holds it (an index
    /// at or past the end).
    @inlinable
    func page(holding index: Int) -> Int? {
        guard index >= 0 else { return nil }
        // The slot whose running count first exceeds `prefix(low) + index`.
        var remaining = prefix(low) + index
        var position = 0
        var step = tree.count - 1 == 0 ? 0 : 1 << (Int.bitWidth - 1 - (tree.count - 1).leadingZeroBitCount)
        while step > 0 {
            let next = position + step
            if next < tree.count, tree[next] <= remaining {
                position = next
                remaining -= tree[next]
            }
            step >>= 1
        }
        // `position` is the slot whose running count first exceeds the target.
        guard position >= low, position < high else { return nil }
        return position - low
    }

    /// The offset of page `page`'s first item.
    @inlinable
    func start(ofPage page: Int) -> Int {
        prefix(low + page) - prefix(low)
    }

    /// The number of items held.
    @inlinable
    var itemCount: Int { prefix(high) - prefix(low) }

    /// Page `page`.
    @inlinable
    subscript(page: Int) -> Page {
        get { slots[low + page]! }
    }

    /// Changes page `page`'s count by `delta` (items removed from it or inserted into it by an edit).
    @inlinable
    mutating func adjust(page: Int, by delta: Int) {
        guard delta != 0 else { return }
        defer { _checkInvariants() }
        slots[low + page]!.count += delta
        add(delta, atSlot: low + page)
    }

    /// Replaces page `page`'s record.
    @inlinable
    mutating func setRecord(_ record: Record, ofPage page: Int) {
        slots[low + page]!.record = record
    }

    // MARK: - Fenwick tree

    /// The sum of the counts of slots `0 ..< slot`.
    @inlinable
    func prefix(_ slot: Int) -> Int {
        var sum = 0
        var index = slot
        while index > 0 {
            sum += tree[index]
            index &= index - 1
        }
        return sum
    }

    @inlinable
    mutating func add(_ delta: Int, atSlot slot: Int) {
        var index = slot + 1
        while index < tree.count {
            tree[index] += delta
            index += index & -index
        }
    }

    /// Moves the held pages to the middle of a new array with room at both ends (twice the pages held, at
    /// least 8 slots each side), and rebuilds the tree in O(slots).
    @inlinable
    mutating func recentre() {
        let held = high - low
        let room = Swift.max(8, held)
        var fresh = [Page?](repeating: nil, count: room + held + room)
        // Moved, not copied: copying retained and released every record's producers (`Benchmarks itemlist`,
        // view model rows).
        for offset in 0 ..< held { fresh[room + offset] = slots[low + offset].take() }
        slots = fresh
        low = room
        high = room + held
        tree = [Int](repeating: 0, count: slots.count + 1)
        for slot in low ..< high { tree[slot + 1] = slots[slot]!.count }
        for index in 1 ..< tree.count {
            let parent = index + (index & -index)
            if parent < tree.count { tree[parent] += tree[index] }
        }
    }
}

// MARK: - Checking

extension PageLedger {
#if PAGINATEDLIST_INTERNAL_CHECKS
    /// Stops the program if the ledger is broken (O(slots)): after every edit, in builds with
    /// `PAGINATEDLIST_INTERNAL_CHECKS`.
    @usableFromInline
    func _checkInvariants() {
        let problems = invariantViolations()
        precondition(problems.isEmpty, "PageLedger of \(pageCount) pages: \(problems.joined(separator: "; "))")
    }
#else
    /// Checks the ledger when built with `PAGINATEDLIST_INTERNAL_CHECKS`; else nothing.
    @inlinable @inline(__always)
    func _checkInvariants() {}
#endif

    /// What is wrong with the ledger, if anything: the held slots, the counts, and the Fenwick tree
    /// against them. O(slots); for tests and `_checkInvariants()`.
    func invariantViolations() -> [String] {
        var problems: [String] = []
        guard 0 <= low, low <= high, high <= slots.count else {
            return ["held slots \(low) ..< \(high) outside the \(slots.count) slots"]
        }
        if tree.count != slots.count + 1 { problems.append("a tree of \(tree.count) entries over \(slots.count) slots") }
        for (slot, page) in slots.enumerated() {
            let held = slot >= low && slot < high
            if held != (page != nil) { problems.append("slot \(slot) is \(held ? "held but empty" : "not held but filled")") }
            if let page, page.count < 0 { problems.append("page in slot \(slot) counts \(page.count) items") }
        }
        guard problems.isEmpty else { return problems }
        // Entry i sums the counts of slots (i - lowbit(i)) ..< i.
        for index in 1 ..< tree.count {
            let sum = slots[(index - (index & -index)) ..< index].reduce(0) { $0 + ($1?.count ?? 0) }
            if tree[index] != sum { problems.append("tree entry \(index) is \(tree[index]), its slots count \(sum)") }
        }
        return problems
    }
}
