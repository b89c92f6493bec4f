import Signals

/// Where a page of an `IDSnapshotSource` starts: the snapshot of ids its chain pages over, and the index
/// in it of the page's first id.
///
/// A store keeps the snapshot once per feed (the seed's Feed object) rather than in every page's key.
public struct IDSnapshotPageKey<ID: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
    /// The ids of the feed, in order, as fetched for the first page.
    public let ids: [ID]
    /// The index in `ids` of the page's first id.
    public let index: Int

    /// The page of `ids` that starts at `index`.
    public init(ids: [ID], index: Int) {
        self.ids = ids
        self.index = index
    }

    /// Equal keys hash alike; the hash reads only the snapshot's length and the index (hashing every id
    /// of a long snapshot would cost more than comparing the few keys that collide).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ids.count)
        hasher.combine(index)
    }
}

extension IDSnapshotPageKey: SplitPageKey {
    package var shared: [ID] { ids }
    package var local: Int { index }
    package init(shared: [ID], local: Int) {
        self.init(ids: shared, index: local)
    }
}

/// The key of an `IDSnapshotSource` page is the snapshot and the index of its first id: after a relaunch,
/// a list goes on over the same snapshot.
extension IDSnapshotSource: KeyedPageSource where Item.ID: Codable {
    /// The page of the snapshot at `key` (`nil`: a fresh snapshot from `fetchIDs`, and its first page), by
    /// the source's rules (missing ids skipped, at most `maxRequestsPerPage` requests). The pages go one way:
    /// `previous` is always `nil`. Keeps every item: a keyed page is loaded from its key alone. The first
    /// page says the feed's total (the snapshot's distinct ids less those it found deleted); the pages of a
    /// key say none (they know nothing of the pages before them), so the first page's total stays shown.
    /// A key's index is taken within the snapshot: a negative one as 0, one past the end as the end (an
    /// empty last page). A key read back from a store may hold any number.
    public func page(at key: IDSnapshotPageKey<Item.ID>?) -> Producer<KeyedPage<Item, IDSnapshotPageKey<Item.ID>>, Failure> {
        Producer<Outcome, Failure> { [self] observer, lifetime in
            if let key {
                let index = min(max(key.index, 0), key.ids.count)
                let position = Position(ids: key.ids, index: index, deduplication: .none, growth: 1, served: ServedSize(),
                                        tally: nil)
                batch(Progress(position: position), observer, lifetime)
                return
            }
            fetchIDs().startFirst(in: lifetime) { [self] event in
                switch event {
                case let .value(ids):
                    let position = Position(ids: ids, index: 0, deduplication: .none, growth: 1, served: ServedSize(),
                                            tally: Tally(ids))
                    batch(Progress(position: position), observer, lifetime)
                case let .failed(error): observer.send(error: error)
                case .completed: observer.sendCompleted()
                case .interrupted: observer.sendInterrupted()
                }
            }
        }
        .map { outcome in
            KeyedPage(items: outcome.items, previous: nil,
                      next: outcome.next.map { IDSnapshotPageKey(ids: $0.ids, index: $0.index) },
                      totalCount: outcome.total)
        }
    }
}
