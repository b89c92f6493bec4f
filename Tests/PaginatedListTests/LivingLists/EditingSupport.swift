import PaginatedList
import Signals

/// A feed post: what the editing tests page through. Its `likes` is the field that changes.
struct FeedPost: Identifiable, Equatable, Sendable, CustomStringConvertible {
    let id: Int
    var likes = 0

    var description: String { likes == 0 ? "\(id)" : "\(id)(\(likes))" }
}

typealias PostViewModel = PaginatedListViewModel<FeedPost, TestError>
typealias PostPage = Page<FeedPost, TestError>
typealias PostProducer = Producer<PostPage, TestError>

/// The ids of the items `viewModel` holds, in order.
func ids(_ viewModel: PostViewModel) -> [Int] { viewModel.items.value.map(\.id) }

/// A chain of pages made of `pages` (each an array of ids), delivered synchronously when started.
func postChain(_ pages: [[Int]]) -> PostProducer {
    func page(_ index: Int) -> PostProducer {
        Producer { observer, _ in
            let next = index + 1 < pages.count ? page(index + 1) : nil
            observer.send(value: Page(items: pages[index].map { FeedPost(id: $0) }, next: next))
            observer.sendCompleted()
        }
    }
    return page(0)
}

/// A view model on an `ImmediateScheduler` over `pages`, with every page loaded.
func loadedPosts(_ pages: [[Int]]) -> PostViewModel {
    let viewModel = PostViewModel(scheduler: ImmediateScheduler()) { postChain(pages) }
    for _ in pages { viewModel.loadNextPage() }
    return viewModel
}

extension Array {
    /// Applies one change of a view model's `changes`, given the snapshot it leads to (`items`), as a
    /// view that mirrors the list would: the result must equal `items`.
    mutating func apply(_ change: ItemListChange, from items: ItemList<Element>) {
        switch change {
        case let .appended(range), let .inserted(range):
            insert(contentsOf: range.map { items[$0] }, at: range.lowerBound)
        case let .removed(offsets):
            for offset in offsets.reversed() { remove(at: offset) }
        case let .updated(offsets):
            for offset in offsets { self[offset] = items[offset] }
        case let .moved(from, to):
            let item = remove(at: from)
            insert(item, at: to)
        case .reset:
            self = Array(items)
        }
    }
}

extension Array {
    /// Whether `apply(change, from: items)` reads and writes only offsets that exist (a change that does
    /// not fits another list than the mirror, or reads rows the snapshot does not have).
    func canApply(_ change: ItemListChange, from items: ItemList<Element>) -> Bool {
        switch change {
        case let .appended(range), let .inserted(range):
            range.lowerBound <= count && range.upperBound <= items.count
        case let .removed(offsets):
            offsets.allSatisfy { $0 >= 0 && $0 < count }
        case let .updated(offsets):
            offsets.allSatisfy { $0 >= 0 && $0 < count && $0 < items.count }
        case let .moved(from, to):
            from >= 0 && from < count && to >= 0 && to < count
        case .reset:
            true
        }
    }
}

/// Mirrors a view model's list from `changes` alone (plus each change's target snapshot, which is what a
/// view reads the new rows from), and records every `items` snapshot to compare.
final class ChangeReplayer<Item: Equatable & Sendable>: Sendable {
    private struct State {
        var mirror: [Item] = []
        var pending: ItemList<Item>?
        var mismatches: [String] = []
    }
    private let state = Locked(State())

    init(_ viewModel: PaginatedListViewModel<Item, TestError>) {
        state.withLock { $0.mirror = Array(viewModel.items.value) }
        viewModel.items.signal.observeValues { [state] items in state.withLock { $0.pending = items } }
        viewModel.changes.observeValues { [state] change in
            state.withLock { state in
                guard let items = state.pending else {
                    state.mismatches.append("\(change) arrived without an items snapshot")
                    return
                }
                guard state.mirror.canApply(change, from: items) else {
                    state.mismatches.append("\(change) does not fit a mirror of \(state.mirror.count) items "
                        + "and a snapshot of \(items.count)")
                    return
                }
                state.mirror.apply(change, from: items)
            }
        }
    }

    /// The mirrored list.
    var mirror: [Item] { state.withLock { $0.mirror } }
    var mismatches: [String] { state.withLock { $0.mismatches } }
}

/// Records what a view model sends: every `items` snapshot and every change.
final class Transitions: Sendable {
    let items: Recorder<[FeedPost]>
    let changes: Recorder<ItemListChange>

    init(_ viewModel: PostViewModel) {
        items = Recorder()
        changes = Recorder(viewModel.changes)
        viewModel.items.signal.observeValues { [items] list in items.append(Array(list)) }
    }
}
