import Foundation
import PaginatedList
import Signals

/// A page of a store-backed list as the list holds it (`Page.origin`): its row in the store, or, for a
/// refresh's page not written yet, what the page is (its keys and its items, encoded).
final class StoredPageOrigin<Key: Sendable>: PageOrigin {
    private struct State {
        var row: Int64?
        var fresh: FreshPage<Key>?
    }

    private let state: Locked<State>

    /// A stored page.
    init(row: Int64) {
        state = Locked(State(row: row, fresh: nil))
    }

    /// A refresh's page, to be written when the refresh lands.
    init(fresh: FreshPage<Key>) {
        state = Locked(State(row: nil, fresh: fresh))
    }

    /// The page's row, once it is stored.
    var row: Int64? { state.withLock { $0.row } }
    /// The refresh's page, until it is stored.
    var fresh: FreshPage<Key>? { state.withLock { $0.fresh } }

    /// The page was written as `row` (after the commit): its fresh data is no longer needed.
    func stored(as row: Int64) {
        state.withLock { $0 = State(row: row, fresh: nil) }
    }
}

/// A page a refresh loaded from the remote source, not written yet.
struct FreshPage<Key: Sendable>: Sendable {
    /// The key it was loaded with (`nil`: the source's first page).
    let key: Key?
    let previous: Key?
    let next: Key?
    /// Its items, encoded on the thread that received them.
    let items: [EncodedItem]
    /// When it was fetched (the store's clock).
    let fetchedAt: Double
    let validators: PageValidators?
    let totalCount: Int?
}
