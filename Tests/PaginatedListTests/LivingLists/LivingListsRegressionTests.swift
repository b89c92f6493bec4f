import PaginatedList
import PaginatedListTesting
import Signals
import Testing

// The smallest cases the randomized tests (BothDirectionsModelTests, RefreshModelTests) found, one test
// each, named for the rule they broke.

private func ids(_ viewModel: PostViewModel) -> [Int] { viewModel.items.value.map(\.id) }

/// A view model over `feed` (first page at offset 0) with `pages` pages loaded, and a replayer.
private func loaded(_ feed: ScriptedFeed, pages: Int, maxPages: Int? = nil) -> (PostViewModel, ChangeReplayer<FeedPost>) {
    let viewModel = PostViewModel(scheduler: ImmediateScheduler(), maxPages: maxPages) { feed.page(at: 0) }
    let replayer = ChangeReplayer(viewModel)
    for _ in 0 ..< pages { viewModel.loadNextPage() }
    return (viewModel, replayer)
}

@Suite("Living lists: regressions")
struct LivingListsRegressionTests {
    /// A page that lands beyond `maxPages` at the bottom drops the top page in the same transition: the
    /// changes must name the landed rows by their offsets in that transition's snapshot.
    @Test func anAppendThatDropsTheTopPageSendsChangesThatReplay() {
        let feed = ScriptedFeed(ids: [1, 2, 3, 4], size: 2)
        let (viewModel, replayer) = loaded(feed, pages: 2, maxPages: 1)
        #expect(ids(viewModel) == [3, 4])
        #expect(replayer.mismatches.isEmpty)
        #expect(replayer.mirror == Array(viewModel.items.value))
    }

    /// `.reloadAll` when the feed's first item is gone: the first fresh page's items are already where
    /// they belong but were counted in the page below; each later page must still find its own range.
    @Test func reloadAllAfterTheFirstItemWasDeletedReloadsEveryPage() {
        let feed = ScriptedFeed(ids: [1, 2, 3], size: 1)
        let (viewModel, replayer) = loaded(feed, pages: 3)
        feed.edit { posts in
            posts.removeFirst()
            posts.append(FeedPost(id: 4))
        }
        viewModel.refresh(.reloadAll)
        #expect(ids(viewModel) == [2, 3, 4])
        #expect(replayer.mismatches.isEmpty)
        #expect(replayer.mirror == Array(viewModel.items.value))
    }
}
