import Foundation
import Signals

/// When the top of a view model's list was last loaded (its first page after creation or a reset, or a
/// refresh that ended), on a `DateScheduler`'s clock: what `refresh(whenever:ifOlderThan:policy:on:)` and
/// `QueryRevalidation.ifOlderThan` tell a stale list by.
///
/// Follows the view model's `firstPageLanded` signal from `watch(_:)` on; a list that already held items
/// then counts as loaded at that moment. Thread-safe.
final class FirstPageClock: Sendable {
    private let scheduler: any DateScheduler
    // Guarded by its own lock (`Locked`).
    private let landedAt = Locked<Date?>(nil)

    init(on scheduler: any DateScheduler) {
        self.scheduler = scheduler
    }

    /// Starts following `viewModel`; the disposable stops it. Holds the clock, not the view model.
    func watch<Item, Failure>(_ viewModel: PaginatedListViewModel<Item, Failure>) -> (any Disposable)? {
        let observation = viewModel.core.firstPageLanded.output.observeValues { [self] in landed() }
        if !viewModel.items.value.isEmpty {
            let now = scheduler.currentDate
            landedAt.withLock { landed in if landed == nil { landed = now } }
        }
        return observation
    }

    /// The top of the list was loaded now.
    func landed() {
        let now = scheduler.currentDate
        landedAt.withLock { $0 = now }
    }

    /// Whether the top was loaded at least `age` ago; `false` when it was never loaded.
    func isOlder(than age: Duration) -> Bool {
        guard let landed = landedAt.withLock({ $0 }) else { return false }
        return scheduler.currentDate.timeIntervalSince(landed) >= age.timeInterval
    }
}
