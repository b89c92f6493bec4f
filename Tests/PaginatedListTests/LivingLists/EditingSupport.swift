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
