import Foundation
import PaginatedList
import PaginatedListStore
import Signals

extension DemoOptions {
    /// A store-backed view model over `feed`, keeping its pages in `stored`: the keyed form of the source
    /// these options pick (the simulated chain pages by number here: its keys are page numbers), revalidated
    /// with `.mergeOnTop(maxPages: 2, onGap: .keepGap)` once the stored rows land.
    func makeStoredViewModel(feed: SimulatedFeed, stored: StoredFeed<Row>, scheduler: any Scheduler) -> PaginatedListViewModel<Row, FeedError> {
        let revalidate = Revalidation.always(.mergeOnTop(maxPages: 2, onGap: .keepGap))
        func list<Remote: KeyedPageSource>(_ remote: Remote) -> PaginatedListViewModel<Row, FeedError>
            where Remote.Item == Row, Remote.Failure == FeedError {
            PaginatedListViewModel(feed: stored, remote: remote, revalidate: revalidate, scheduler: scheduler, retry: nil,
                                   maxPages: maxPages, remoteFailure: { $0 }, storeFailure: { .store($0) },
                                   follow: { $0.follow($1) })
        }
        switch source {
        case .simulated, .page: return list(pageNumberSource(feed))
        case .cursor: return list(cursorSource(feed))
        case .ids: return list(idSnapshotSource(feed))
        case .array: return list(arraySource(feed))
        case .offset: preconditionFailure("--store refuses --source offset (DemoInvocation.parse)")
        }
    }
}

/// What the status line says about the store: where the rows came from, and how old they are.
package struct StoreStatus: Sendable {
    /// The feed's state when the list opened.
    package let opened: StoredFeedInfo
    /// Whether a refresh landed since (the rows are the network's now).
    package var refreshed = false

    /// One phrase for the status line, `now`.
    package func text(now: Date) -> String {
        if refreshed { return "saved to the store" }
        guard opened.itemCount > 0 else { return "store empty: loading from the network" }
        let age = opened.fetchedAt.map { Self.age(now.timeIntervalSince($0)) } ?? "at an unknown time"
        return "\(opened.itemCount) rows from the store, fetched \(age)"
    }

    /// "just now", "5 min ago", "3 h ago", "2 days ago".
    package static func age(_ seconds: TimeInterval) -> String {
        switch seconds {
        case ..<60: "just now"
        case ..<3600: "\(Int(seconds / 60)) min ago"
        case ..<86400: "\(Int(seconds / 3600)) h ago"
        default: "\(Int(seconds / 86400)) days ago"
        }
    }
}
