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
struct PageChain<Item: Sendable, Failure: Error, Place: Sendable, Response>: Sendable {
    /// How a page was reached: which of its neighbours it carries onwards and which back.
    enum Role: Sendable {
        /// The page the chain starts at: the pages on both sides lead away from it.
        case start
        /// Reached through `next`: the page after it leads onwards, the page before it back.
        case below
        /// Reached through `previous`: the page before it leads onwards, the page after it back.
        case above
    }

    /// A fetched page, as its source reads it to name its neighbours.
    struct Fetched {
        /// Where the page was fetched.
        let place: Place
        /// How the page was reached.
        let role: Role
        /// What the fetch delivered.
        let response: Response
        /// The page's items that de-duplication kept (all of them when it keeps everything).
        let kept: [Item]
    }

    /// What a source says of a page it fetched: where the pages before and after it are (`nil`: none, or
    /// none that the source reloads), and what it reports besides the duplicates dropped.
    struct Neighbours {
        var previous: Place?
        var next: Place?
        var diagnostics: [PaginatedListDiagnostic] = []
    }

    /// Fetches the page at a place. Called when the producer of the page is made (the page before it
    /// delivered); a fetch that should run when the page's producer starts defers its work.
    let fetch: @Sendable (_ place: Place) -> Producer<Response, Failure>
    /// The items a fetch delivered, in the list's order, before de-duplication.
    let items: @Sendable (_ response: Response, _ role: Role) -> [Item]
    /// Where a page's neighbours are, and what it reports.
    let neighbours: @Sendable (_ page: Fetched) -> Neighbours

    /// The first page of a fresh chain: the page at `place`, with `deduplication` standing at it.
    func firstPage(at place: Place, _ deduplication: Deduplication<Item>) -> Producer<Page<Item, Failure>, Failure> {
        page(at: place, role: .start, depth: 0, deduplication)
    }

    /// The page at `place`, reached as `role`, `depth` pages away from the start page.
    private func page(
        at place: Place, role: Role, depth: Int, _ deduplication: Deduplication<Item>
    ) -> Producer<Page<Item, Failure>, Failure> {
        fetch(place).map { [self] response in
            let admission = deduplication.admit(items(response, role))
            let said = neighbours(Fetched(place: place, role: role, response: response, kept: admission.kept))
            func onward(_ place: Place, _ role: Role, _ standing: Deduplication<Item>) -> Producer<Page<Item, Failure>, Failure> {
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
            return Page(items: admission.kept, previous: previous, next: next, diagnostics: diagnostics)
        }
    }
}
