/// Which items a page source drops because an earlier page of the same chain (or an earlier item of the
/// same page) already delivered them: an explicit argument of `ArraySource`, `CursorSource` and
/// `PageNumberSource`, `.automatic` by default.
///
/// A feed that changes while it is paged (a post inserted above, a re-ranking) sends an item again on a
/// later page; with a policy other than `.keepAll` the source drops it and reports how many it dropped on
/// the page's `diagnostics` (`PaginatedListDiagnostic.SourceCorrection.duplicatesDropped`). Each chain (each
/// `firstPage()`, so each `reset()`) starts with a fresh record of what was delivered; the record is shared
/// by the pages above and below the page the chain starts at, and costs O(page) per page.
public struct DuplicatePolicy<Item>: Sendable {
    /// Makes the de-duplication of a fresh chain, standing at its first page.
    let makeChain: @Sendable () -> Deduplication<Item>
    /// Whether the policy drops items by their `id` (`.byID`, or `.automatic` over `Identifiable` items):
    /// what `OffsetSource`'s corrections do as they go, so a source that can use them (`HTTPPageSource`'s
    /// offset style) knows it may.
    package let dropsByID: Bool

    private init(dropsByID: Bool = false, _ makeChain: @escaping @Sendable () -> Deduplication<Item>) {
        self.dropsByID = dropsByID
        self.makeChain = makeChain
    }

    /// Keeps every item the pages bring.
    public static var keepAll: DuplicatePolicy {
        DuplicatePolicy { .none }
    }

    /// Drops an item whose `key` an earlier page of the chain, or an earlier item of the same page,
    /// delivered (for items that are not `Identifiable`, or to tell them apart by something else than their
    /// id). `key` runs once per item, on the thread that delivers the page.
    public static func byKey<Key: Hashable & Sendable>(_ key: @escaping @Sendable (Item) -> Key) -> DuplicatePolicy {
        DuplicatePolicy { .byID(key) }
    }
}

extension DuplicatePolicy where Item: Sendable {
    /// `byID` when `Item` is `Identifiable`, else `keepAll`: the sources' default, so that `Identifiable`
    /// items are never delivered twice and other items are passed through as the server sends them.
    ///
    /// The id is read through `any Identifiable` (its type is found at run time); `byID`, for an id type
    /// known to be `Sendable`, reads it directly.
    public static var automatic: DuplicatePolicy {
        guard Item.self is any Identifiable.Type else { return .keepAll }
        // The ids are handed to the chain's ledger, which reads them only under its lock (`SeenIDs`).
        return DuplicatePolicy(dropsByID: true) {
            .byID { item in
                let identifiable: any Identifiable = item as! any Identifiable
                return anyID(of: identifiable)
            }
        }
    }
}

/// The id of `item`, type-erased.
private func anyID<Element: Identifiable>(of item: Element) -> AnyHashable {
    AnyHashable(item.id)
}

extension DuplicatePolicy where Item: Identifiable & Sendable, Item.ID: Sendable {
    /// Drops an item whose `id` an earlier page of the chain, or an earlier item of the same page,
    /// delivered: what `.automatic` does for `Identifiable` items, with the id read directly.
    public static var byID: DuplicatePolicy {
        DuplicatePolicy(dropsByID: true) { .byID { $0.id } }
    }
}
