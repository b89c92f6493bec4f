// The crash test's child process (PaginatedListStoreTests, "Crash safety"): opens the store at the path
// given, and pages a store-backed list down an endless feed, one page of 50 posts per transaction, forever.
// After each page lands (that is, after its transaction committed), it prints "page N" on standard output,
// unbuffered. The test kills it with SIGKILL at some point and checks what the file holds.
import Foundation
import PaginatedList
import PaginatedListStore
import Signals

/// A post of the endless feed: page `k` holds ids `k * 50 ..< (k + 1) * 50`.
struct Post: Codable, Identifiable, Sendable {
    var id: Int
    var page: Int
    var body: String
}

/// The endless feed, answered at once.
struct EndlessFeed: KeyedPageSource {
    static let pageSize = 50

    func page(at key: Int?) -> Producer<KeyedPage<Post, Int>, Never> {
        let page = key ?? 0
        let posts = (0 ..< Self.pageSize).map { offset in
            Post(id: page * Self.pageSize + offset, page: page,
                 body: String(repeating: "lorem ipsum ", count: 15))
        }
        return Producer(value: KeyedPage(items: posts, previous: page > 0 ? page - 1 : nil, next: page + 1))
    }
}

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: StoreCrashChild STORE-FILE\n".utf8))
    exit(2)
}
let store: PagingStore
do {
    store = try PagingStore(path: CommandLine.arguments[1])
} catch {
    FileHandle.standardError.write(Data("cannot open the store: \(error)\n".utf8))
    exit(1)
}
let list = PaginatedListViewModel(feed: store.feed("endless", of: Post.self), remote: EndlessFeed(), revalidate: .never,
                                  scheduler: ImmediateScheduler(), maxPages: 4)
list.items.signal.observeValues { items in
    guard let last = items.last else { return }
    FileHandle.standardOutput.write(Data("page \(last.page)\n".utf8))
}
while true {
    list.loadNextPage()
    if let error = list.lastError.value {
        FileHandle.standardError.write(Data("store error: \(error)\n".utf8))
        exit(1)
    }
}
