import Foundation
import HTTPFixtureServer
import PaginatedList
import PaginatedListHTTP
import Signals
import Testing

/// An item of the fixture feed.
struct FeedItem: Decodable, Identifiable, Equatable, Sendable {
    let id: Int
    let title: String
    let createdAt: Date
}

/// Calls `loadNextPage()` and waits until the load it started ends (at most `timeout`, a safety net);
/// returns the state the next page's load ended in, or `nil` if it started no load or did not end in time.
@discardableResult
func loadNextPage<Item: Sendable>(
    _ list: PaginatedListViewModel<Item, HTTPError>, timeout: Duration = .seconds(60)
) async -> LoadState<HTTPError>? {
    await untilLoadEnds(list.loadStates.signal, isLoading: \.append.isLoading, timeout: timeout) { list.loadNextPage() }?
        .append
}

/// Calls `start` and waits until the load it started ends: until `signal` has sent a value that
/// `isLoading`, then one that is not (at most `timeout`, a safety net); returns that last value, or `nil`
/// if no load started or it did not end in time.
///
/// The observer is attached before the call, so the load's start and its end are both seen, whichever
/// thread delivers them. The transition that ended it may still be delivering to later observers.
func untilLoadEnds<Value: Sendable>(
    _ signal: Signal<Value, Never>, isLoading: @escaping @Sendable (Value) -> Bool, timeout: Duration,
    _ start: () -> Void
) async -> Value? {
    let (values, continuation) = AsyncStream.makeStream(of: Value.self)
    let observation = signal.observeValues { continuation.yield($0) }
    defer { observation?.dispose() }
    start()
    return await withTaskGroup(of: Value?.self) { group in
        group.addTask {
            var started = false
            for await value in values {
                if isLoading(value) { started = true } else if started { return value }
            }
            return nil
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            continuation.finish()
            return nil
        }
        let first = await group.next() ?? nil
        continuation.finish()
        group.cancelAll()
        return first
    }
}

/// Loads pages until the list is exhausted or a load fails (or `maxPages` loads); returns the last state of
/// the next page's load.
@discardableResult
func loadAll<Item: Sendable>(
    _ list: PaginatedListViewModel<Item, HTTPError>, maxPages: Int = 100
) async -> LoadState<HTTPError>? {
    var state: LoadState<HTTPError>? = list.loadStates.value.append
    for _ in 0 ..< maxPages {
        state = await loadNextPage(list)
        guard case .idle? = state else { return state }
    }
    return state
}
