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
    /// it forks them). What the other side delivered does not concern it: the pages of both sides come
    /// after it.
    private static func start<ID: Hashable & SendableMetatype>(_ chain: Chain<ID>) -> Deduplication {
        Deduplication { items in
            let ids = items.map(chain.id)
            let below = chain.sides.admit(items, ids: ids, on: .below, recordingIn: chain.below, at: 0) { _, _ in true }
            let above = chain.above.record(below.kept.map(chain.id), at: 0)
            return Admission(
                kept: below.kept, dropped: items.count - below.kept.count,
                onward: at(below.ledger, generation: below.generation, side: .below, chain),
                above: at(above.ledger, generation: above.generation, side: .above, chain), back: nil)
        }
    }

    /// The standing of the page at `generation` on `side`: it drops what the pages before it on its side
    /// recorded and what the other side delivered.
    private static func at<ID: Hashable & SendableMetatype>(
        _ ledger: SeenIDs<ID>, generation: Int, side: ChainSides<ID>.Side, _ chain: Chain<ID>
    ) -> Deduplication {
        Deduplication { items in
            let ids = items.map(chain.id)
            // The pages before this one recorded everything they will (the ledger's tip is past them).
            let earlier = ledger.ordinals(of: ids, before: generation)
            let page = chain.sides.admit(items, ids: ids, on: side, recordingIn: ledger, at: generation) { index, deliveredOpposite in
                earlier[index] == nil && !deliveredOpposite
            }
            let back = generation > 1 ? at(page.ledger, generation: generation - 1, side: side, chain) : start(chain)
            return Admission(
                kept: page.kept, dropped: items.count - page.kept.count,
                onward: at(page.ledger, generation: page.generation, side: side, chain), above: nil, back: back)
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
