/// How a page chain drops items an earlier page of the same chain already delivered.
///
/// A value stands at one page of a chain: `admit` filters that page's items and returns the value the
/// next page stands at. `.none` keeps everything; `byID` keeps a `SeenIDs` ledger shared along the chain
/// (see there for why every start of a page's producer sees the same thing). O(page) per page.
struct Deduplication<Item>: Sendable {
    /// What `admit` returns: the items to deliver, how many were dropped, and the next page's state.
    struct Admission {
        let kept: [Item]
        let dropped: Int
        let next: Deduplication<Item>
    }

    /// Filters a page's items (in order) against earlier pages and against each other.
    let admit: @Sendable ([Item]) -> Admission

    /// Keeps every item.
    static var none: Deduplication {
        Deduplication { items in Admission(kept: items, dropped: 0, next: .none) }
    }

    /// Drops items whose `id` an earlier page (or an earlier item of the same page) delivered; a fresh ledger.
    static func byID<ID: Hashable & Sendable>(_ id: @escaping @Sendable (Item) -> ID) -> Deduplication {
        at(SeenIDs<ID>(), generation: 0, id: id)
    }

    private static func at<ID: Hashable & Sendable>(
        _ ledger: SeenIDs<ID>, generation: Int, id: @escaping @Sendable (Item) -> ID
    ) -> Deduplication {
        Deduplication { items in
            let ids = items.map(id)
            let earlier = ledger.ordinals(of: ids, before: generation)
            var kept: [Item] = []
            var keptIDs: [ID] = []
            var inPage = Set<ID>(minimumCapacity: ids.count)
            kept.reserveCapacity(items.count)
            for index in items.indices where earlier[index] == nil && inPage.insert(ids[index]).inserted {
                kept.append(items[index])
                keptIDs.append(ids[index])
            }
            let (nextLedger, nextGeneration) = ledger.record(keptIDs, at: generation)
            return Admission(kept: kept, dropped: items.count - kept.count,
                             next: at(nextLedger, generation: nextGeneration, id: id))
        }
    }
}

extension Deduplication where Item: Identifiable & Sendable, Item.ID: Sendable {
    /// Drops items whose `id` an earlier page delivered.
    static var byIdentity: Deduplication { byID { $0.id } }
}

extension Array where Element == PaginatedListDiagnostic {
    /// The diagnostics of a page that dropped `dropped` items as already delivered.
    init(droppedDuplicates dropped: Int) {
        self = dropped > 0 ? [.sourceCorrection(.duplicatesDropped(count: dropped))] : []
    }
}
