import PaginatedList
import Signals
import Testing

/// An item whose release a weak reference can watch.
private final class Token: Sendable {}

/// A weak reference to a token, for closures that may run on any thread.
private struct WeakToken {
    weak var token: Token?
}

@Suite("The view model's inbox")
struct InboxTests {
    @Test func aDeliveredPageIsFreedWhileTheInboxIsStillBusy() {
        let watched = Locked(WeakToken())
        let viewModel = PaginatedListViewModel<Token, Never>(scheduler: ImmediateScheduler()) {
            Producer { observer, _ in
                let delivered = Token()
                watched.withLock { $0.token = delivered }
                observer.send(value: Page(items: [delivered], next: nil))
                observer.sendCompleted()
            }
        }
        let aliveWhileBusy = Locked<[Bool]>([])
        let pagesSeen = Counter()
        viewModel.items.signal.observeValues { [weak viewModel] items in
            if items.count == 1 {
                pagesSeen.increment()
                guard pagesSeen.count == 1 else { return }
                // Queue two commands behind the page's event: the inbox stays busy until both have run.
                viewModel?.reset()
                viewModel?.loadNextPage()
            } else if items.isEmpty {
                // The reset ran; the load queued behind it has not: the page's event was consumed and
                // nothing but the inbox could still hold the page.
                let alive = watched.withLock { $0.token != nil }
                aliveWhileBusy.withLock { $0.append(alive) }
            }
        }
        withExtendedLifetime(viewModel) {
            viewModel.loadNextPage()
        }
        #expect(aliveWhileBusy.withLock { $0 } == [false])
    }
}
