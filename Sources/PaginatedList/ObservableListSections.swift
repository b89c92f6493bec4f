import Observation
import Signals

/// A main-actor mirror of `PaginatedListViewModel.sections(by:)` for SwiftUI's `List { Section }`: its
/// `sections` show the view model's items grouped by a key, each with its rows (an item and its index in
/// the whole list, for `rowAppeared(_:)`).
///
/// ```swift
/// List {
///     ForEach(days.sections) { section in
///         Section(section.key.formatted()) {
///             ForEach(section.rows) { row in
///                 Text(row.item.title).onAppear { list.rowAppeared(row.index) }
///             }
///         }
///     }
/// }
/// ```
///
/// **Updates.** Each transition of the view model that changes its items is one update, on the main actor
/// (as `ObservablePaginatedList`'s; transitions that pile up before the main actor runs show as one).
/// **Ownership.** It holds the grouping; releasing it stops the grouping. It does not keep the view model
/// alive.
@MainActor
@Observable
public final class ObservableListSections<Key: Hashable & Sendable, Item> {
    /// One section as a list view shows it: its id and key, and its rows.
    public struct Section: Identifiable {
        /// The section's id (`ListSection.ID`): stays the same while the run of items lives.
        public var id: ListSection<Key, Item>.ID { section.id }
        /// The key every item of the section has (the header).
        public var key: Key { section.key }
        /// The section, as `sections(by:)` publishes it.
        public let section: ListSection<Key, Item>
        /// The index in the whole list of the section's first item.
        public let startIndex: Int
        /// The section's items, each with its index in the whole list (what `rowAppeared(_:)` takes).
        public var rows: ObservablePaginatedList<Item, Never>.Rows {
            ObservablePaginatedList<Item, Never>.Rows(items: section.items, offset: startIndex)
        }
    }

    /// The sections, in list order, as of the last transition applied.
    public private(set) var sections: [Section] = []

    /// The view model's grouping, observed.
    @ObservationIgnored private let source: Property<[ListSection<Key, Item>]>
    @ObservationIgnored private let observation = SerialDisposable()

    /// A mirror of `viewModel`'s items grouped by `key` (see `PaginatedListViewModel.sections(by:)`),
    /// showing the current sections at once. Create it on the main actor, where it stays.
    public init<Failure: Error>(_ viewModel: PaginatedListViewModel<Item, Failure>, by key: @escaping @Sendable (Item) -> Key) {
        source = viewModel.sections(by: key)
        observation.inner = source.signal.observeValues { [weak self] _ in
            onMainActor(self) { $0.showLatest() }
        }
        showLatest()
    }

    deinit {
        observation.dispose()
    }

    /// Shows the grouping's latest sections, with where each starts. O(sections).
    private func showLatest() {
        var start = 0
        sections = source.value.map { section in
            defer { start += section.items.count }
            return Section(section: section, startIndex: start)
        }
    }
}

extension ObservablePaginatedList {
    /// The items grouped into consecutive sections by `key`, for `List { Section }`: a mirror of
    /// `viewModel.sections(by:)` on the main actor (see `ObservableListSections`). Keep the returned object
    /// (in the view's state): each call groups anew.
    public func sections<Key: Hashable & Sendable>(by key: @escaping @Sendable (Item) -> Key) -> ObservableListSections<Key, Item> {
        ObservableListSections(viewModel, by: key)
    }
}
