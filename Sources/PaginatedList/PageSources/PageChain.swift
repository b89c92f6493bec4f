import Signals

/// The page chain every page source hands out through `Page.previous` and `Page.next`: it grows both ways
/// from the page it starts at, built from what the source says about one page — how to fetch the page at
/// a place, and where the pages before and after it are.
///
/// **Roles.** The page the chain starts at (`.start`) carries the pages on both sides of it. A page reached
/// through `next` (`.below`) carries the page after it, one step further from the start page, and one
/// reached through `previous` (`.above`) the page before it. Each also carries its neighbour back towards
/// the start page when its source names one (so that a page dropped by `maxPages` is loaded again by the
/// page next to it): that neighbour is loaded again in its own role, the start page as the start page.
/// A source answers with places in the list's order (`previous`, `next`) whatever the role; the role tells
/// it which way it reads, when that matters (a page above the start page may need no end-of-list check).
///
/// **De-duplication.** Each page's items go through the `Deduplication` standing at that page, and each
/// neighbour gets the standing the admission hands it: onward from the start page and away from it
/// (`onward`), the start page's page above (`above`), back towards the start page (`back`). The page's
/// diagnostics are the duplicates it dropped, then what the source reports.
///
/// A new source writes `fetch`, `items` and `neighbours`, and opens its chain with `firstPage(at:_:)`;
/// it never builds a `Page` itself.
///
/// (A class, and its role and neighbours types outside it: the sources run unspecialised, where each use
/// of a generic value type looks its metadata up, per page; `Benchmarks sources`.)
final class PageChain<Item: Sendable, Failure: Error, Place: Sendable, Response>: Sendable {
    /// Fetches the page at a place. Called when the producer of the page is made (the page before it
    /// delivered); a fetch that should run when the page's producer starts defers its work.
    let fetch: @Sendable (_ place: Place) -> Producer<Response, Failure>
    /// The items a fetch delivered, in the list's order, before de-duplication.
    let items: @Sendable (_ response: Response, _ role: PageChainRole) -> [Item]
    /// Where the neighbours of a fetched page are, and what it reports, from where it was fetched, how it
    /// was reached, what the fetch delivered and the items de-duplication kept (all of them when it keeps
    /// everything).
    let neighbours: @Sendable (_ place: Place, _ role: PageChainRole, _ response: Response, _ kept: [Item])
        -> PageNeighbours<Place>

    /// A chain made of a source's `fetch`, `items` and `neighbours`.
    init(
        fetch: @escaping @Sendable (_ place: Place) -> Producer<Response, Failure>,
        items: @escaping @Sendable (_ response: Response, _ role: PageChainRole) -> [Item],
        neighbours: @escaping @Sendable (_ place: Place, _ role: PageChainRole, _ response: Response, _ kept: [Item])
            -> PageNeighbours<Place>
    ) {
        self.fetch = fetch
        self.items = items
        self.neighbours = neighbours
    }

    /// The first page of a fresh chain: the page at `place`, with `deduplication` standing at it.
    func firstPage(at place: Place, _ deduplication: Deduplication<Item>) -> Producer<Page<Item, Failure>, Failure> {
        page(at: place, role: .start, depth: 0, deduplication)
    }

    /// The page at `place`, reached as `role`, `depth` pages away from the start page.
    private func page(
        at place: Place, role: PageChainRole, depth: Int, _ deduplication: Deduplication<Item>
    ) -> Producer<Page<Item, Failure>, Failure> {
        fetch(place).map { [self] response in
            let admission = deduplication.admit(items(response, role))
            let said = neighbours(place, role, response, admission.kept)
            func onward(
                _ place: Place, _ role: PageChainRole, _ standing: Deduplication<Item>
            ) -> Producer<Page<Item, Failure>, Failure> {
                page(at: place, role: role, depth: depth + 1, standing)
            }
            // Going back towards the start page, a page loads its neighbour again (the start page as such).
            func back(_ place: Place) -> Producer<Page<Item, Failure>, Failure> {
                page(at: place, role: depth == 1 ? .start : role, depth: depth - 1, admission.back ?? .none)
            }
            let previous: Producer<Page<Item, Failure>, Failure>?
            let next: Producer<Page<Item, Failure>, Failure>?
            switch role {
            case .start:
                previous = said.previous.map { onward($0, .above, admission.above ?? .none) }
                next = said.next.map { onward($0, .below, admission.onward) }
            case .below:
                previous = said.previous.map(back)
                next = said.next.map { onward($0, .below, admission.onward) }
            case .above:
                previous = said.previous.map { onward($0, .above, admission.onward) }
                next = said.next.map(back)
            }
            let diagnostics = admission.dropped == 0 ? said.diagnostics
                : [PaginatedListDiagnostic](droppedDuplicates: admission.dropped) + said.diagnostics
            return Page(items: admission.kept, previous: previous, next: next, diagnostics: diagnostics,
                        totalCount: said.totalCount)
        }
    }
}

/// How a page of a `PageChain` was reached: which of its neighbours it carries onwards and which back.
enum PageChainRole: Sendable {
    /// The page the chain starts at: the pages on both sides lead away from it.
    case start
    /// Reached through `next`: the page after it leads onwards, the page before it back.
    case below
    /// Reached through `previous`: the page before it leads onwards, the page after it back.
    case above
}

/// What a source says of a page of its `PageChain`: where the pages before and after it are (`nil`: none,
/// or none that the source reloads), what it reports besides the duplicates dropped, and how many items
/// the feed holds if the response said (`Page.totalCount`).
struct PageNeighbours<Place> {
    var previous: Place?
    var next: Place?
    var diagnostics: [PaginatedListDiagnostic] = []
    var totalCount: Int? = nil
}
