import Signals

/// What a `PaginatedListViewModel` loads from: the first page, as a cold producer.
///
/// Each `Page` the producer sends carries the producer of the page after it, so the dependency only
/// describes where the list starts; page sources (`PageNumberSource`, `CursorSource`, …) build such
/// chains for common server styles. `firstPage()` is called on the view model's scheduler each time the
/// list starts over (on the first `loadNextPage()` after creation or `reset()`).
public protocol PaginatedListDependency {
    /// The element type of the list.
    associatedtype Item
    /// The error a page load can fail with.
    associatedtype Failure: Error

    /// A producer that loads the first page: one `Page` value, then `completed` (or `failed`).
    func firstPage() -> Producer<Page<Item, Failure>, Failure>
}
