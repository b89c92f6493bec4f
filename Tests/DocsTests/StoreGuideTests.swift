// The samples of Docs/Store.md, compiled and run. Keep both in sync.
import Foundation
import PaginatedList
import PaginatedListStore
import PaginatedListTesting
import Signals
import Testing

/// The guide's names, kept apart from the other guides'.
enum StoreGuide {
    struct Post: Codable, Identifiable, Sendable {
        let id: Int
        var title: String
        var likes: Int
    }

    /// The guide's server: posts by cursor (the id after which a page starts), answered at once.
    final class PostServer: Sendable {
        struct Failure: Error, Equatable, Sendable {}
        struct Response: Sendable {
            let posts: [Post]
            let nextCursor: String?
        }

        private let state: Locked<(posts: [Post], online: Bool, requests: Int)>

        init(count: Int) {
            state = Locked(((0 ..< count).map { Post(id: $0, title: "post \($0)", likes: 0) }, true, 0))
        }

        var requests: Int { state.withLock { $0.requests } }
        func setOnline(_ online: Bool) { state.withLock { $0.online = online } }
        func publish(_ post: Post) { state.withLock { $0.posts.insert(post, at: 0) } }

        /// Likes `post` on the server: the post as the server has it then (fails offline).
        func like(_ post: Post) -> Producer<Post, Failure> {
            Producer { observer, _ in
                let liked = self.state.withLock { state -> Post? in
                    guard state.online, let index = state.posts.firstIndex(where: { $0.id == post.id }) else { return nil }
                    state.posts[index].likes += 1
                    return state.posts[index]
                }
                guard let liked else { return observer.send(error: Failure()) }
                observer.send(value: liked)
                observer.sendCompleted()
            }
        }

        func posts(after cursor: String?) -> Producer<Response, Failure> {
            Producer { observer, _ in
                let (posts, online) = self.state.withLock { state in
                    state.requests += 1
                    return (state.posts, state.online)
                }
                guard online else { return observer.send(error: Failure()) }
                let start = cursor.flatMap { cursor in posts.firstIndex { String($0.id) == cursor }.map { $0 + 1 } } ?? 0
                let page = Array(posts[start ..< min(start + 10, posts.count)])
                observer.send(value: Response(posts: page, nextCursor: start + 10 < posts.count ? page.last.map { String($0.id) } : nil))
                observer.sendCompleted()
            }
        }
    }

    struct Draft: Codable, Identifiable, Sendable, StoreNamedItem {
        static var storeTypeName: String { "draft" }
        let id: Int
        var text: String
    }

    struct PostsAPI: KeyedPageSource {
        let server: PostServer

        // The key is the server's cursor.
        func page(at cursor: String?) -> Producer<KeyedPage<Post, String>, PostServer.Failure> {
            server.posts(after: cursor).map { response in
                KeyedPage(items: response.posts, next: response.nextCursor)
            }
        }
    }
}

@Suite("Guide: the offline-first store")
struct StoreGuideTests {
    typealias Post = StoreGuide.Post

    /// A folder for the sample's file.
    static func folder() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("StoreGuide-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aStoreBackedListShowsTheStoredRowsAtTheNextLaunchOffline() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = StoreGuide.PostServer(count: 45)
        // First launch.
        do {
            let store = try PagingStore(path: folder.appendingPathComponent("feeds.sqlite").path)
            let home = store.feed("home", of: Post.self)
            let list = PaginatedListViewModel(feed: home, remote: StoreGuide.PostsAPI(server: server),
                                              revalidate: .always(.replace), scheduler: ImmediateScheduler())
            list.loadNextPage()
            list.loadNextPage()
            #expect(list.items.value.count == 20)
        }
        // Next launch, offline: the rows are there, and the failed revalidation keeps them.
        server.setOnline(false)
        let store = try PagingStore(path: folder.appendingPathComponent("feeds.sqlite").path)
        let home = store.feed("home", of: Post.self)
        let list = PaginatedListViewModel(feed: home, remote: StoreGuide.PostsAPI(server: server),
                                          revalidate: .always(.replace), scheduler: ImmediateScheduler())
        list.loadNextPage()
        list.loadNextPage()
        #expect(list.items.value.map(\.id) == Array(0 ..< 20))
        #expect(list.loadStates.value.refresh == .failed(.remote(StoreGuide.PostServer.Failure())))
        // Online again: paging past the stored rows goes on from the last stored cursor.
        server.setOnline(true)
        let requests = server.requests
        list.loadNextPage()
        #expect(list.items.value.map(\.id) == Array(0 ..< 30))
        #expect(server.requests == requests + 1)
        #expect(try home.info().itemCount == 30)
    }

    @Test func aTypeThatNamesItselfIsStoredUnderItsName() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try PagingStore(path: folder.appendingPathComponent("feeds.sqlite").path)
        let drafts = store.feed("drafts", of: StoreGuide.Draft.self)
        try drafts.insert([StoreGuide.Draft(id: 1, text: "Hello")], at: 0)
        #expect(try drafts.items().map(\.text) == ["Hello"])
    }

    @Test func revalidationChoicesAndMaxPagesCompile() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = StoreGuide.PostServer(count: 45)
        let store = try PagingStore(path: folder.appendingPathComponent("feeds.sqlite").path)
        let home = store.feed("home", of: Post.self)
        let deepList = PaginatedListViewModel(feed: home, remote: StoreGuide.PostsAPI(server: server), maxPages: 10)
        let calm = PaginatedListViewModel(feed: home, remote: StoreGuide.PostsAPI(server: server),
                                          revalidate: .ifOlderThan(.seconds(15 * 60), .mergeOnTop(maxPages: 3, onGap: .keepGap)))
        #expect(deepList.items.value.isEmpty)
        #expect(calm.items.value.isEmpty)
    }

    @Test func aMergeOnTopRevalidationStoresTheNewPostAboveTheStoredOnes() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = StoreGuide.PostServer(count: 45)
        let path = folder.appendingPathComponent("feeds.sqlite").path
        do {
            let list = PaginatedListViewModel(feed: try PagingStore(path: path).feed("home", of: Post.self),
                                              remote: StoreGuide.PostsAPI(server: server), scheduler: ImmediateScheduler())
            list.loadNextPage()
        }
        server.publish(Post(id: 100, title: "new", likes: 0))
        let home = try PagingStore(path: path).feed("home", of: Post.self)
        let list = PaginatedListViewModel(feed: home, remote: StoreGuide.PostsAPI(server: server),
                                          revalidate: .always(.mergeOnTop(maxPages: 3, onGap: .keepGap)),
                                          scheduler: ImmediateScheduler())
        list.loadNextPage()
        #expect(list.items.value.map(\.id) == [100] + Array(0 ..< 10))
        #expect(try home.items().map(\.id) == [100] + Array(0 ..< 10))
    }

    // "One item, every list".
    @Test func anItemEditedInOneListChangesInTheOtherFeedsList() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = StoreGuide.PostServer(count: 45)
        let store = try PagingStore(path: folder.appendingPathComponent("feeds.sqlite").path)
        let home = store.feed("home", of: Post.self)
        let profile = store.feed("profile-7", of: Post.self)
        let homeList = PaginatedListViewModel(feed: home, remote: StoreGuide.PostsAPI(server: server), scheduler: ImmediateScheduler())
        let profileList = PaginatedListViewModel(feed: profile, remote: StoreGuide.PostsAPI(server: server),
                                                 scheduler: ImmediateScheduler())
        homeList.loadNextPage()
        profileList.loadNextPage()

        homeList.update(id: 3) { $0.likes += 1 }    // the profile's row 3 shows the like too
        #expect(profileList.items.value[3].likes == 1)
        try store.remove(Post.self, id: 5)          // deleted at the source: out of both lists
        #expect(!homeList.items.value.contains { $0.id == 5 } && !profileList.items.value.contains { $0.id == 5 })
        #expect(try store.checkForChanges() == false)   // no other process wrote the file
    }

    @Test func anOptimisticLikeShowsAtOnceAndRollsBackWhenTheServerRefusesIt() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = StoreGuide.PostServer(count: 45)
        let store = try PagingStore(path: folder.appendingPathComponent("feeds.sqlite").path)
        let home = store.feed("home", of: Post.self)
        let homeList = PaginatedListViewModel(feed: home, remote: StoreGuide.PostsAPI(server: server), scheduler: ImmediateScheduler())
        homeList.loadNextPage()

        homeList.mutate(id: 3, { $0.likes += 1 }, send: { server.like($0) })
            .start { event in
                if case let .failed(.remote(error)) = event { print("not liked: \(error)") }
            }
        #expect(homeList.items.value[3].likes == 1)
        server.setOnline(false)
        let refused = homeList.mutate(id: 3, { $0.likes += 1 }, send: { server.like($0) }).record()
        #expect(refused.terminal?.error == .remote(StoreGuide.PostServer.Failure()))
        #expect(homeList.items.value[3].likes == 1)

        for id in try home.pendingEdits() {
            try home.rollback(id: id)   // or send it again
        }
        #expect(try home.pendingEdits().isEmpty)
    }
}
