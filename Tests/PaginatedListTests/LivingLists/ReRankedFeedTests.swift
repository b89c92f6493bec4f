import PaginatedListTesting
import PaginatedList
import Signals
import Testing

/// A ranked feed behind an ID-snapshot API: `ids` answers the current ranking, `items` the posts.
private final class RankedFeed: @unchecked Sendable {
    // `@unchecked`: every access holds `lock`.
    private let lock = Locked<Void>(())
    private var ranking: [Int]
    private var version = 1
    private(set) var idRequests = 0

    init(ranking: [Int]) { self.ranking = ranking }

    func rerank(_ new: [Int]) { lock.withLock { _ in ranking = new; version += 1 } }

    var source: IDSnapshotSource<FeedPost, TestError> {
        IDSnapshotSource(batchSize: 3, fetchIDs: { [self] in
            Producer { observer, _ in
                let ids = self.lock.withLock { _ in self.idRequests += 1; return self.ranking }
                observer.send(value: ids)
                observer.sendCompleted()
            }
        }, fetchItems: { [self] ids in
            Producer { observer, _ in
                let present = self.lock.withLock { _ in Set(self.ranking) }
                observer.send(value: ids.filter { present.contains($0) }.map { FeedPost(id: $0) })
                observer.sendCompleted()
            }
        })
    }

    /// A freshness check: whether the ranking changed since `seen`.
    func changed(since seen: Int) -> Producer<Bool, TestError> {
        Producer { observer, _ in
            observer.send(value: self.lock.withLock { _ in self.version != seen })
            observer.sendCompleted()
        }
    }
}

@Suite("Re-ranked feeds: an ID-snapshot refresh reconciles by ids")
struct ReRankedFeedTests {
    @Test func aReRankedFeedIsReconciledByIdsWithTheListVisibleThroughout() {
        let feed = RankedFeed(ranking: Array(1 ... 9))
        let viewModel = PaginatedListViewModel(dependency: feed.source, scheduler: ImmediateScheduler())
        let replayer = ChangeReplayer(viewModel)
        viewModel.loadNextPage()
        viewModel.loadNextPage()
        #expect(viewModel.items.value.map(\.id) == [1, 2, 3, 4, 5, 6])
        // 5 rises to the top, 2 is deleted, 10 is new at the third place.
        feed.rerank([5, 1, 10, 3, 4, 6, 7, 8, 9])
        let changes = Recorder(viewModel.changes)
        viewModel.refresh(.reloadAll, ifChanged: feed.changed(since: 1))
        #expect(viewModel.items.value.map(\.id) == [5, 1, 10, 3, 4, 6])
        #expect(changes.values.contains { if case .moved = $0 { true } else { false } })
        #expect(!changes.values.contains(.reset))
        #expect(replayer.mirror == Array(viewModel.items.value))
        #expect(feed.idRequests == 2)
    }

    @Test func anUnchangedRankingTakesNoNewSnapshot() {
        let feed = RankedFeed(ranking: Array(1 ... 9))
        let viewModel = PaginatedListViewModel(dependency: feed.source, scheduler: ImmediateScheduler())
        viewModel.loadNextPage()
        viewModel.refresh(.reloadAll, ifChanged: feed.changed(since: 1))
        #expect(feed.idRequests == 1)
        #expect(viewModel.items.value.map(\.id) == [1, 2, 3])
    }
}
