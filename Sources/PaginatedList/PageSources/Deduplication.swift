/// How a page chain drops items an earlier page of the same chain already delivered.
///
/// A value stands at one page of a chain: `admit` filters that page's items and returns the values the
/// pages around it stand at. `.none` keeps everything; `byID` keeps a `SeenIDs` ledger shared along the
/// chain (see there for why every start of a page's producer sees the same thing). O(page) per page.
///
/// **Both ways.** A chain starts at a page that may have pages above it as well as below (a list opened
/// in the middle). Each side keeps its own ledger, the start page recorded at the bottom of both: a page
/// below the start checks the start page and the pages between, a page above it the same upwards, and
/// each also checks what the other side delivered (`ChainSides`), so no ID is delivered twice across
/// the start either.
struct Deduplication<Item>: Sendable {
    /// What `admit` returns: the items to deliver, how many were dropped, and where the next pages stand.
    struct Admission {
        let kept: [Item]
        let dropped: Int
        /// Where the page one step further from the start page stands, on this page's side: below, for
        /// the start page and the pages below it; above, for the pages above it.
        let onward: Deduplication<Item>
        /// For the start page: where the page above it stands. `nil` for every other page.
        let above: Deduplication<Item>?
        /// Where the page one step back towards the start page stands, for loading it again (a page dropped
        /// by `maxPages`): the start page's own standing when that page is the start page. `nil` for the
        /// start page.
        let back: Deduplication<Item>?
    }

    private let run: @Sendable ([Item]) -> Admission

    private init(_ run: @escaping @Sendable ([Item]) -> Admission) {
        self.run = run
    }

    /// Filters a page's items (in order) against earlier pages and against each other.
    func admit(_ items: [Item]) -> Admission {
        run(items)
    }

    /// Keeps every item.
    static var none: Deduplication {
        Deduplication { items in Admission(kept: items, dropped: 0, onward: .none, above: .none, back: .none) }
    }

    /// Drops items whose `id` an earlier page (or an earlier item of the same page) delivered; fresh
    /// ledgers. The value stands at the start page.
    static func byID<ID: Hashable & SendableMetatype>(_ id: @escaping @Sendable (Item) -> ID) -> Deduplication {
        start(Chain(sides: ChainSides(), below: SeenIDs(), above: SeenIDs(), id: id))
    }

    /// What every standing of a chain shares: its sides, the ledgers its start page records in first, and
    /// how to read an ID. (The start page's standing is made from it again when needed, so that no
    /// standing refers to another: nothing keeps a chain alive but its pages' producers.)
    private struct Chain<ID: Hashable & SendableMetatype>: Sendable {
        let sides: ChainSides<ID>
        let below: SeenIDs<ID>
        let above: SeenIDs<ID>
        let id: @Sendable (Item) -> ID
    }

    /// The start page's standing: it records its items at the bottom of both sides' ledgers (a restart of
    /// it forks them).
    private static func start<ID: Hashable & SendableMetatype>(_ chain: Chain<ID>) -> Deduplication {
        Deduplication { items in
            let ids = items.map(chain.id)
            var kept: [Item] = []
            var keptIDs: [ID] = []
            var inPage = Set<ID>(minimumCapacity: ids.count)
            kept.reserveCapacity(items.count)
            for index in items.indices where inPage.insert(ids[index]).inserted {
                kept.append(items[index])
                keptIDs.append(ids[index])
            }
            let (aboveLedger, aboveGeneration) = chain.above.record(keptIDs, at: 0)
            return chain.sides.admit(on: .below) { _ in
                let (ledger, generation) = chain.below.record(keptIDs, at: 0)
                let admission = Admission(
                    kept: kept, dropped: items.count - kept.count,
                    onward: at(ledger, generation: generation, side: .below, chain),
                    above: at(aboveLedger, generation: aboveGeneration, side: .above, chain), back: nil)
                return (admission, ledger)
            }
        }
    }

    private static func at<ID: Hashable & SendableMetatype>(
        _ ledger: SeenIDs<ID>, generation: Int, side: ChainSides<ID>.Side, _ chain: Chain<ID>
    ) -> Deduplication {
        let (sides, id) = (chain.sides, chain.id)
        return Deduplication { items in
            let ids = items.map(id)
            return sides.admit(on: side) { deliveredOpposite in
                let earlier = ledger.ordinals(of: ids, before: generation)
                var kept: [Item] = []
                var keptIDs: [ID] = []
                var inPage = Set<ID>(minimumCapacity: ids.count)
                kept.reserveCapacity(items.count)
                for index in items.indices
                where earlier[index] == nil && deliveredOpposite?(ids[index]) != true && inPage.insert(ids[index]).inserted {
                    kept.append(items[index])
                    keptIDs.append(ids[index])
                }
                let (nextLedger, nextGeneration) = ledger.record(keptIDs, at: generation)
                let back = generation > 1 ? at(nextLedger, generation: generation - 1, side: side, chain) : start(chain)
                let admission = Admission(
                    kept: kept, dropped: items.count - kept.count,
                    onward: at(nextLedger, generation: nextGeneration, side: side, chain), above: nil, back: back)
                return (admission, nextLedger)
            }
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
