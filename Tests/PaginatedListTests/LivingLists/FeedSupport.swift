import PaginatedList
import PaginatedListTesting
import Signals

/// A feed of posts that tests change between requests, paged by id cursors both ways: a page after an
/// item is the `size` items that follow it in the feed *now*, a page before an item the `size` items that
/// precede it. Requests are counted.
final class ScriptedFeed: @unchecked Sendable {
    // `@unchecked`: every access goes through `lock`.
    private let lock = Locked<Void>(())
    private var posts: [FeedPost]
    private var requestCount = 0
    let size: Int

    init(ids: [Int], size: Int) {
        posts = ids.map { FeedPost(id: $0) }
        self.size = size
    }

    var ids: [Int] { lock.withLock { _ in posts.map(\.id) } }
    var contents: [FeedPost] { lock.withLock { _ in posts } }
    var requests: Int { lock.withLock { _ in requestCount } }

    /// Changes the feed.
    func edit(_ change: (inout [FeedPost]) -> Void) {
        lock.withLock { _ in change(&posts) }
    }

    /// The page that starts at the feed's `offset` (clamped), with its producers both ways.
    func page(at offset: Int) -> PostProducer {
        Producer { [self] observer, _ in
            observer.send(value: makePage { posts in
                let start = min(max(offset, 0), posts.count)
                return start ..< min(start + size, posts.count)
            })
            observer.sendCompleted()
        }
    }

    /// The page of the items after the item `id` (from the top if it is gone).
    func page(after id: Int) -> PostProducer {
        Producer { [self] observer, _ in
            observer.send(value: makePage { posts in
                let start = (posts.firstIndex { $0.id == id }).map { $0 + 1 } ?? 0
                return start ..< min(start + size, posts.count)
            })
            observer.sendCompleted()
        }
    }

    /// The page of the items before the item `id` (none if it is gone).
    func page(before id: Int) -> PostProducer {
        Producer { [self] observer, _ in
            observer.send(value: makePage { posts in
                let end = posts.firstIndex { $0.id == id } ?? 0
                return max(end - size, 0) ..< end
            })
            observer.sendCompleted()
        }
    }

    private func makePage(_ range: ([FeedPost]) -> Range<Int>) -> PostPage {
        lock.withLock { _ in
            requestCount += 1
            let slice = Array(posts[range(posts)])
            let endsFeed = range(posts).upperBound >= posts.count
            let startsFeed = range(posts).lowerBound == 0
            let next = endsFeed ? nil : slice.last.map { page(after: $0.id) }
            let previous = startsFeed ? nil : slice.first.map { page(before: $0.id) }
            return Page(items: slice, previous: previous, next: next)
        }
    }
}

/// A page producer the test answers by hand: `producer` hands its observer here when started.
final class PendingPage: @unchecked Sendable {
    // `@unchecked`: used from the test's thread only (the view model runs on an `ImmediateScheduler`).
    private(set) var observer: Signal<PostPage, TestError>.Observer?

    var producer: PostProducer {
        Producer { observer, _ in self.observer = observer }
    }

    func send(_ ids: [Int], previous: PostProducer? = nil, next: PostProducer? = nil) {
        observer?.send(value: Page(items: ids.map { FeedPost(id: $0) }, previous: previous, next: next))
    }

    func fail(_ error: TestError) {
        observer?.send(error: error)
    }
}

/// A view model over `feed` from its top (first page at offset 0), with `pages` pages loaded, and a replayer
/// of its changes.
func loaded(_ feed: ScriptedFeed, pages: Int, maxPages: Int? = nil) -> (PostViewModel, ChangeReplayer<FeedPost>) {
    let viewModel = PostViewModel(scheduler: ImmediateScheduler(), maxPages: maxPages) { feed.page(at: 0) }
    let replayer = ChangeReplayer(viewModel)
    for _ in 0 ..< pages { viewModel.loadNextPage() }
    return (viewModel, replayer)
}
