import Dispatch
import Foundation
import PaginatedList
@testable import PaginatedListStore
import PaginatedListTesting
import Signals
import Testing

/// `PagingStore` and `StoredFeed` are `Sendable`: lists on several threads page the same feeds while
/// another thread writes in a loop (run under the thread sanitizer by `.ci/run`). Two lists paging one feed
/// past its stored rows race to write the same page: one writes it, the other reads what was written. Once
/// every queue is idle, every list shows the stored value of every item it holds.
@Suite("Store concurrency")
struct StoreConcurrencyTests {
    @Test func listsOnSeveralThreadsPageWhileAWriterLoops() throws {
        let folder = TemporaryFolder()
        let store = try openStore(folder.path())
        let queues = (0 ..< 4).map { DispatchQueue(label: "list \($0)") }
        let feeds = ["a", "a", "b", "b"]
        let lists = (0 ..< 4).map { index in
            StoredList(feed: store.feed(feeds[index], of: Post.self), remote: TestRemote(count: 300), revalidate: .never,
                       scheduler: QueueScheduler(queue: queues[index]), maxPages: 3)
        }
        let side = store.feed("side", of: Post.self)
        let writerErrors = Locked<[StoreError]>([])
        DispatchQueue.concurrentPerform(iterations: 5) { worker in
            if worker == 4 {
                for round in 0 ..< 200 {
                    do throws(StoreError) {
                        try store.update(Post(id: round % 300, title: "edited \(round)"))
                        try side.insert([Post(id: 1000 + round)], at: round / 2)
                        if round % 3 == 0 { try side.remove(id: 1000 + round / 2) }
                        _ = try side.items()
                    } catch {
                        writerErrors.withLock { $0.append(error) }
                    }
                }
                return
            }
            let list = lists[worker]
            for step in 0 ..< 25 {
                if step % 5 == 4 { list.loadPreviousPage() } else { list.loadNextPage() }
                queues[worker].sync {}   // each command runs (and its synchronous page lands) on the list's queue
            }
        }
        #expect(writerErrors.withLock { $0 }.isEmpty, "\(writerErrors.withLock { $0 })")
        for (index, list) in lists.enumerated() {
            queues[index].sync {}
            #expect(list.lastError.value == nil, "list \(index): \(String(describing: list.lastError.value))")
            let held = list.ids
            #expect(!held.isEmpty)
            #expect(held == Array((held.first ?? 0) ..< (held.first ?? 0) + held.count), "list \(index) is not a run of its feed")
            // Every item shows its stored value (LandingTests makes the worst moments for a commit on purpose).
            let stored = Dictionary(uniqueKeysWithValues: ((try? store.feed(feeds[index], of: Post.self).items()) ?? []).map { ($0.id, $0) })
            let stale = list.items.value.filter { stored[$0.id] != $0 }
            #expect(stale.isEmpty, "list \(index) shows values other than the stored ones: \(stale.map(\.id))")
        }
        for (index, name) in feeds.enumerated() {
            let stored = store.feed(name, of: Post.self).ids
            #expect(stored == ids(0 ..< stored.count), "feed \(name) is not the remote's run of pages")
            #expect(stored.count % 10 == 0)
            #expect((lists[index].ids.last ?? 0) < stored.count)
        }
    }
}
