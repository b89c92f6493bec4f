/// Everything an `ObservablePaginatedList` shows, as one value that `ViewModelStorage` sets in every
/// transition and announces last (`mirrorChanged`), so that a mirror reads one consistent state and updates
/// once per transition.
///
/// Neither `ItemList` nor the errors need be `Equatable`; the counters say what changed instead: a mirror
/// compares them with the ones it last showed.
struct MirrorState<Item, Failure: Error> {
    /// The number of transitions published so far.
    var sequence: UInt64 = 0
    var items = ItemList<Item>()
    /// Incremented by every transition that changes `items`.
    var itemsVersion: UInt64 = 0
    var loadStates = LoadStates<Failure>.idle
    /// How many times each kind of load has entered `.failed`: a new error is a new count, even when the
    /// mirror did not see the `.loading` in between.
    var failures = LoadFailures()
    var gap: Int?
    /// How many refresh commands the view model had run by this transition (see `MirrorMark`).
    var refreshes: UInt64 = 0

    /// The state after a transition that publishes `items` (if the list changed), `loadStates` and `gap`,
    /// made by the view model after `refreshes` refresh commands.
    func next(
        items newItems: ItemList<Item>?, loadStates newStates: LoadStates<Failure>, gap: Int?, refreshes: UInt64
    ) -> MirrorState {
        var next = self
        next.sequence += 1
        if let newItems {
            next.items = newItems
            next.itemsVersion += 1
        }
        next.failures.count(from: loadStates, to: newStates)
        next.loadStates = newStates
        next.gap = gap
        next.refreshes = refreshes
        return next
    }
}

/// Per kind of load, how many times it has entered `.failed`.
struct LoadFailures: Equatable, Sendable {
    var refresh: UInt64 = 0
    var prepend: UInt64 = 0
    var append: UInt64 = 0

    /// Counts the kinds that fail in the transition from `old` to `new`. Every failure follows a published
    /// `.loading` of its kind, so a kind that is `.failed` in both did not fail again.
    mutating func count(from old: LoadStates<some Error>, to new: LoadStates<some Error>) {
        if new.refresh.error != nil, old.refresh.error == nil { refresh += 1 }
        if new.prepend.error != nil, old.prepend.error == nil { prepend += 1 }
        if new.append.error != nil, old.append.error == nil { append += 1 }
    }
}

/// Where the view model stands when a command submitted right after a refresh runs: the transitions
/// published so far, whether a refresh is still loading, and how many refresh commands have run.
///
/// `ObservablePaginatedList.refresh()` waits until its mirror shows a state at least that recent in which
/// that refresh has ended: no refresh loading (it landed or failed), or a later refresh command (it was cut
/// off).
struct MirrorMark: Sendable {
    let sequence: UInt64
    let refreshing: Bool
    let refreshes: UInt64

    /// Whether `state` shows the refresh this mark was taken after as ended.
    func isEnded(in state: (sequence: UInt64, refreshing: Bool, refreshes: UInt64)) -> Bool {
        guard state.sequence >= sequence else { return false }
        return !refreshing || !state.refreshing || state.refreshes != refreshes
    }
}
