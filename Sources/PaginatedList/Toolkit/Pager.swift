import Signals

/// A page counter for page-numbered APIs: holds the current page, moves it with `next()` and `reset()`,
/// and calls back with the page to fetch on every change.
///
/// The first page is configurable: `0` for zero-based APIs, `1` (the default) for the others. The current
/// page is observable as `page`, and `onPageUpdate` is called with it after every `next()`, `reset()` and
/// `fetchPage()`. A new pager does not call back: call `fetchPage()` to ask for the first page.
///
/// **Threading.** Every method may be called from any thread, also concurrently: the count is a
/// `MutableProperty` and every change is made under that property's lock (`modify`), so no change is
/// lost, and each change is one transition that calls back exactly once. Callbacks (and `page`'s
/// observers) run one at a time, in the order the changes were made, each with its own change's page:
/// on the thread that made the change, or, when another thread is delivering an earlier change at that
/// moment, on that thread after it (so `next()` may return before its callback has run). A change made
/// from inside the callback is delivered after the callback returns: no deadlock, no nesting.
///
/// **Ownership.** The pager retains `onPageUpdate` until it is freed; then the callback is never called
/// again. Capture weakly what owns the pager.
///
/// ```swift
/// let pager = Pager(firstPage: 1) { page in api.fetchPosts(page: page) }
/// pager.fetchPage()   // fetches page 1
/// pager.nextPage()    // fetches page 2
/// pager.refresh()     // fetches page 1 again
/// ```
public final class Pager: Pageable, Refreshable, Sendable {
    /// The page `reset()` returns to, and the page a new pager is at.
    public let firstPage: Int

    /// The current page: sends it, then every change (also `reset()` to the page it is at, and
    /// `fetchPage()`, which re-sends the current page).
    public let page: Property<Int>

    /// The count; every change goes through its `modify`, under its lock.
    private let current: MutableProperty<Int>
    /// The callback's observation of `current`, disposed when the pager is freed.
    private let callback: (any Disposable)?

    /// A pager at `firstPage` that calls `onPageUpdate` with the page after every change.
    ///
    /// - Parameters:
    ///   - firstPage: the number of the first page: `0` or `1` for most APIs.
    ///   - onPageUpdate: called with the page to fetch after every `next()`, `reset()` and `fetchPage()`;
    ///     see the type's threading notes for which thread calls it.
    public init(firstPage: Int = 1, onPageUpdate: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.firstPage = firstPage
        current = MutableProperty(firstPage)
        page = Property(current)
        callback = current.signal.observeValues(onPageUpdate)
    }

    /// The current page.
    public var currentPage: Int { current.value }

    /// Moves to the next page and calls back with it.
    ///
    /// - Returns: the new page (concurrent callers each get a different one).
    @discardableResult
    public func next() -> Int {
        current.modify { page in
            page += 1
            return page
        }
    }

    /// Moves back to the first page and calls back with it, also when the pager is already there (a
    /// refresh fetches the first page again).
    public func reset() {
        current.modify { page in page = firstPage }
    }

    /// `next()`: moves to the next page and calls back with it.
    public func nextPage() {
        next()
    }

    /// Calls back with the current page, without moving: the first fetch, or a retry.
    public func fetchPage() {
        current.modify { _ in }
    }

    /// `reset()`: moves back to the first page and calls back with it.
    public func refresh() {
        reset()
    }

    deinit {
        callback?.dispose()
    }
}
