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
// Adding and removing a page at an end and adjusting a count are inlinable: every page lands in it, with
// `maxPages` one drops from it, and edits adjust it, specialised for the client's records (`Benchmarks
// itemlist` view model and edit rows, `livinglists` window); re-centring the slots, once in a while, is
// specialised but not inlined. What only refreshes use is out of line.
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
    @usableFromInline private(set) var _slots: [Page?] = []
    /// The Fenwick tree over the slots' counts: `tree[i]` (1-based) sums the counts of slots
    /// `(i - lowbit(i)) ..< i`.
    @usableFromInline private(set) var _tree: [Int] = [0]
    @usableFromInline private(set) var _low = 0
    @usableFromInline private(set) var _high = 0

    /// How many pages are held.
    @inlinable
    var pageCount: Int { _high - _low }
    @inlinable
    var isEmpty: Bool { _high == _low }

    /// The page at the top, if any.
    @inlinable
    var first: Page? { isEmpty ? nil : _slots[_low] }
    /// The page at the bottom, if any.
    @inlinable
    var last: Page? { isEmpty ? nil : _slots[_high - 1] }

    /// The held pages, top to bottom.
    var pages: [Page] { _slots[_low ..< _high].map { $0! } }

    // MARK: - Both ends

    /// Adds a page of `count` items below the last.
    @inlinable
    mutating func append(count: Int, record: Record) {
        defer { _checkInvariants() }
        if _high == _slots.count { recentre() }
        _slots[_high] = Page(count: count, record: record)
        add(count, atSlot: _high)
        _high += 1
    }

    /// Adds a page of `count` items above the first.
    @inlinable
    mutating func prepend(count: Int, record: Record) {
        defer { _checkInvariants() }
        if _low == 0 { recentre() }
        _low -= 1
        _slots[_low] = Page(count: count, record: record)
        add(count, atSlot: _low)
    }

    /// Removes the page at the top.
    @inlinable
    mutating func removeFirst() -> Page {
        precondition(!isEmpty, "PageLedger.removeFirst on an empty ledger")
        defer { _checkInvariants() }
        let page = _slots[_low]!
        add(-page.count, atSlot: _low)
        _slots[_low] = nil
        _low += 1
        if isEmpty { removeAll() }
        return page
    }

    /// Removes the page at the bottom.
    @inlinable
    mutating func removeLast() -> Page {
        precondition(!isEmpty, "PageLedger.removeLast on an empty ledger")
        defer { _checkInvariants() }
        _high -= 1
        let page = _slots[_high]!
        add(-page.count, atSlot: _high)
        _slots[_high] = nil
        if isEmpty { removeAll() }
        return page
    }

    // MARK: - The middle

    /// Adds a page of `count` items at `page` (0 ... `pageCount`): the pages from `page` on move down one.
    /// O(slots), as it shifts the slots below and rebuilds the tree: only `fillGap()` inserts in the
    /// middle, a page at a time.
    mutating func insert(count: Int, record: Record, atPage page: Int) {
        precondition(page >= 0 && page <= pageCount, "PageLedger.insert at page \(page) of \(pageCount)")
        defer { _checkInvariants() }
        if _high == _slots.count { recentre() }
        var slot = _high
        while slot > _low + page {
            _slots[slot] = _slots[slot - 1].take()
            slot -= 1
        }
        _slots[slot] = Page(count: count, record: record)
        _high += 1
        rebuildTree()
    }

    /// Removes page `page` (0 ..< `pageCount`): the pages below it move up one. O(slots), as `insert`.
    mutating func remove(atPage page: Int) {
        precondition(page >= 0 && page < pageCount, "PageLedger.remove at page \(page) of \(pageCount)")
        defer { _checkInvariants() }
        for slot in (_low + page) ..< (_high - 1) { _slots[slot] = _slots[slot + 1].take() }
        _high -= 1
        _slots[_high] = nil
        if isEmpty { removeAll() } else { rebuildTree() }
    }

    @usableFromInline
    mutating func removeAll() {
        _slots = []
        _tree = [0]
        _low = 0
        _high = 0
    }

    // MARK: - Positions

    /// The page (0 = the top page held) that holds item `index`, or `nil` if no page holds it (an index
    /// at or past the end).
    @inlinable
    func page(holding index: Int) -> Int? {
        guard index >= 0 else { return nil }
        // The slot whose running count first exceeds `prefix(low) + index`.
        var remaining = prefix(_low) + index
        var position = 0
        var step = _tree.count - 1 == 0 ? 0 : 1 << (Int.bitWidth - 1 - (_tree.count - 1).leadingZeroBitCount)
        while step > 0 {
            let next = position + step
            if next < _tree.count, _tree[next] <= remaining {
                position = next
                remaining -= _tree[next]
            }
            step >>= 1
        }
        // `position` is the slot whose running count first exceeds the target.
        guard position >= _low, position < _high else { return nil }
        return position - _low
    }

    /// The offset of page `page`'s first item.
    func start(ofPage page: Int) -> Int {
        prefix(_low + page) - prefix(_low)
    }

    /// The number of items held.
    var itemCount: Int { prefix(_high) - prefix(_low) }

    /// Page `page`.
    @inlinable
    subscript(page: Int) -> Page {
        get { _slots[_low + page]! }
    }

    /// Changes page `page`'s count by `delta` (items removed from it or inserted into it by an edit).
    @inlinable
    mutating func adjust(page: Int, by delta: Int) {
        guard delta != 0 else { return }
        defer { _checkInvariants() }
        _slots[_low + page]!.count += delta
        add(delta, atSlot: _low + page)
    }

    /// Replaces page `page`'s record.
    @inlinable
    mutating func setRecord(_ record: Record, ofPage page: Int) {
        _slots[_low + page]!.record = record
    }

    // MARK: - Fenwick tree

    /// The sum of the counts of slots `0 ..< slot`.
    @inlinable
    func prefix(_ slot: Int) -> Int {
        var sum = 0
        var index = slot
        while index > 0 {
            sum += _tree[index]
            index &= index - 1
        }
        return sum
    }

    @inlinable
    mutating func add(_ delta: Int, atSlot slot: Int) {
        var index = slot + 1
        while index < _tree.count {
            _tree[index] += delta
            index += index & -index
        }
    }

    /// Moves the held pages to the middle of a new array with room at both ends (twice the pages held, at
    /// least 8 slots each side), and rebuilds the tree in O(slots).
    ///
    /// The slow path of adding a page: specialised for the client's records, as the adding is (it moves
    /// every record; unspecialised, each move went through generic value witnesses: `Benchmarks
    /// livinglists`, the window, whose drops re-centre often), but not inlined into it.
    @inlinable @inline(never)
    mutating func recentre() {
        let held = _high - _low
        let room = Swift.max(8, held)
        var fresh = [Page?](repeating: nil, count: room + held + room)
        // Moved, not copied: copying retained and released every record's producers (`Benchmarks itemlist`,
        // view model rows).
        for offset in 0 ..< held { fresh[room + offset] = _slots[_low + offset].take() }
        _slots = fresh
        _low = room
        _high = room + held
        rebuildTree()
    }

    /// Builds the tree afresh over the slots' counts, in O(slots).
    @usableFromInline
    mutating func rebuildTree() {
        _tree = [Int](repeating: 0, count: _slots.count + 1)
        for slot in _low ..< _high { _tree[slot + 1] = _slots[slot]!.count }
        for index in 1 ..< _tree.count {
            let parent = index + (index & -index)
            if parent < _tree.count { _tree[parent] += _tree[index] }
        }
    }
}

// MARK: - Checking

// Checked after every edit with `PAGINATEDLIST_INTERNAL_CHECKS` (O(slots)).
extension PageLedger: InvariantChecking {
    @usableFromInline
    var invariantContext: String { "\(pageCount) pages in slots \(_low) ..< \(_high) of \(_slots.count)" }

    /// What is wrong with the ledger, if anything: the held slots, the counts, and the Fenwick tree
    /// against them. O(slots); for tests and `_checkInvariants()`.
    @usableFromInline
    func invariantViolations() -> [String] {
        var problems: [String] = []
        guard 0 <= _low, _low <= _high, _high <= _slots.count else {
            return ["held slots \(_low) ..< \(_high) outside the \(_slots.count) slots"]
        }
        if _tree.count != _slots.count + 1 { problems.append("a tree of \(_tree.count) entries over \(_slots.count) slots") }
        for (slot, page) in _slots.enumerated() {
            let held = slot >= _low && slot < _high
            if held != (page != nil) { problems.append("slot \(slot) is \(held ? "held but empty" : "not held but filled")") }
            if let page, page.count < 0 { problems.append("page in slot \(slot) counts \(page.count) items") }
        }
        guard problems.isEmpty else { return problems }
        // Entry i sums the counts of slots (i - lowbit(i)) ..< i.
        for index in 1 ..< _tree.count {
            let sum = _slots[(index - (index & -index)) ..< index].reduce(0) { $0 + ($1?.count ?? 0) }
            if _tree[index] != sum { problems.append("tree entry \(index) is \(_tree[index]), its slots count \(sum)") }
        }
        return problems
    }
}
