/// Everything an `ObservablePaginatedList` shows, as one value that `ViewModelStorage` sets in every
/// transition and announces last (`mirrorChanged`), so that a mirror reads one consistent state and updates
/// once per transition.
///
/// Neither `ItemList` nor the errors need be `Equatable`; the counters say what changed instead: a mirror
/// compares them with the ones it last showed.
// Inlinable: every transition makes one, specialised for the client's types (`Benchmarks itemlist`, all rows).
@usableFromInline
struct MirrorState<Item, Failure: Error> {
    /// The number of transitions published so far.
    @usableFromInline var sequence: UInt64 = 0
    @usableFromInline var items = ItemList<Item>()
    /// Incremented by every transition that changes `items`.
    @usableFromInline var itemsVersion: UInt64 = 0
    @usableFromInline var loadStates = LoadStates<Failure>.idle
    /// The view model's `lastError`.
    @usableFromInline var lastError: Failure?
    /// How many times each kind of load has entered `.failed`: a new error is a new count, even when the
    /// mirror did not see the `.loading` in between.
    @usableFromInline var failures = LoadFailures()
    @usableFromInline var gap: Int?
    /// The view model's `totalCount`.
    @usableFromInline var totalCount: Int?
    /// How many refresh commands the view model had run by this transition (see `MirrorMark`).
    @usableFromInline var refreshes: UInt64 = 0

    /// Moves to the state after a transition that publishes `items` (if the list changed), `loadStates`
    /// (whose cases, and those of the load states before, are `shapes`), `lastError` and `gap`, made by
    /// the view model after `refreshes` refresh commands. In place: a copy of the whole state per
    /// transition showed in the profile (`Benchmarks itemlist`, view model rows).
    @inlinable
    mutating func advance(
        items newItems: ItemList<Item>?, loadStates newStates: LoadStates<Failure>, shapes: (old: LoadShape, new: LoadShape),
        lastError: Failure?, gap: Int?, totalCount: Int?, refreshes: UInt64
    ) {
        self.totalCount = totalCount
        sequence += 1
        if let newItems {
            items = newItems
            itemsVersion += 1
        }
        failures.count(from: shapes.old, to: shapes.new)
        loadStates = newStates
        self.lastError = lastError
        self.gap = gap
        self.refreshes = refreshes
    }
}

/// Per kind of load, how many times it has entered `.failed`.
// Inlinable: counted in every transition (see `MirrorState`).
@usableFromInline
struct LoadFailures: Equatable, Sendable {
    @usableFromInline var refresh: UInt64 = 0
    @usableFromInline var prepend: UInt64 = 0
    @usableFromInline var append: UInt64 = 0

    /// Counts the kinds that fail in the transition from `old` to `new`. Every failure follows a published
    /// `.loading` of its kind, so a kind that is `.failed` in both did not fail again.
    @inlinable
    mutating func count(from old: LoadShape, to new: LoadShape) {
        if new.refresh == .failed, old.refresh != .failed { refresh += 1 }
        if new.prepend == .failed, old.prepend != .failed { prepend += 1 }
        if new.append == .failed, old.append != .failed { append += 1 }
    }
}

/// The cases of `LoadStates`, without their errors: what the view model compares to publish only what
/// changed. Not generic: comparing needs neither the errors nor `Equatable` failures.
// Inlinable: compared in every transition (see `MirrorState`).
@usableFromInline
struct LoadShape: Equatable, Sendable {
    /// The case of a `LoadState`.
    @usableFromInline
    enum Case: UInt8, Sendable {
        case idle, loading, failed, complete

        @inlinable
        init(_ state: LoadState<some Error>) {
            switch state {
            case .idle: self = .idle
            case .loading: self = .loading
            case .failed: self = .failed
            case .complete: self = .complete
            }
        }
    }

    @usableFromInline var refresh: Case
    @usableFromInline var prepend: Case
    @usableFromInline var append: Case

    @inlinable
    static var idle: LoadShape { LoadShape(refresh: .idle, prepend: .idle, append: .idle) }

    @inlinable
    init(refresh: Case, prepend: Case, append: Case) {
        self.refresh = refresh
        self.prepend = prepend
        self.append = append
    }

    @inlinable
    init(_ states: LoadStates<some Error>) {
        self.init(refresh: Case(states.refresh), prepend: Case(states.prepend), append: Case(states.append))
    }

    /// Whether any kind of load is loading.
    @inlinable
    var isLoading: Bool { refresh == .loading || prepend == .loading || append == .loading }

    /// Whether any kind of load has failed.
    @inlinable
    var hasFailure: Bool { refresh == .failed || prepend == .failed || append == .failed }
}

/// Where the view model stands when a command submitted right after a refresh runs: the transitions
/// published so far, whether a refresh is still loading, and how many refresh commands have run.
///
/// `ObservablePaginatedList.refresh()` waits until its mirror shows a state at least that recent in which
/// that refresh has ended: no refresh loading (it landed or failed), or a later refresh command (it was cut
/// off).
// `@usableFromInline`: the storage's commands carry a closure that takes one (made out of line).
@usableFromInline
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
