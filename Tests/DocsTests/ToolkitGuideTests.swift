// The samples of Docs/Toolkit.md, compiled and run. Keep both in sync.
// The samples' declarations are nested in `ToolkitGuide` (free functions become `static`) so that their
// names (`Author`, `Post`, …) stay out of the DocsTests namespace; otherwise they are verbatim.
import Foundation
import PaginatedList
import Signals
import Synchronization
import Testing

enum ToolkitGuide {
    // MARK: Refreshing

    final class HomeScreen: Sendable {
        let feed: PaginatedListViewModel<Int, Never>
        let favourites: PaginatedListViewModel<Int, Never>
        let refresher = RefresherGroup()

        init(feed: PaginatedListViewModel<Int, Never>, favourites: PaginatedListViewModel<Int, Never>) {
            self.feed = feed
            self.favourites = favourites
            refresher.add(feed)
            refresher.add(favourites)
        }

        /// Pull to refresh: both lists reload their first page, neither goes blank.
        func pullToRefresh() {
            refresher.refresh()
        }
    }

    /// Something the guide's closures reload; counts its reloads.
    final class Reloadable: Sendable {
        private let count = Atomic(0)
        func reload() { count.add(1, ordering: .relaxed) }
        var reloads: Int { count.load(ordering: .relaxed) }
    }

    // MARK: Counting pages

    /// A page-numbered API that records the pages asked for.
    final class PostsAPI: Sendable {
        private let pages = Locked<[Int]>([])
        func fetchPosts(page: Int) { pages.withLock { $0.append(page) } }
        var requested: [Int] { pages.withLock { $0 } }
    }

    // MARK: Pageable

    /// The user reached the end of the list.
    static func userReachedTheEnd(of list: some Pageable) {
        list.nextPage()
    }

    /// The user tapped "Try again" under a failed page.
    static func userTappedRetry(on list: some Pageable) {
        list.fetchPage()
    }

    // MARK: Typed identifiers

    struct Author: Codable, Sendable {
        var id: ID<Author>
        var name: String
    }

    struct Post: Codable, Sendable {
        var id: ID<Post>
        var authorId: ID<Author>
        var title: String
    }

    static func posts(by author: ID<Author>, in posts: [Post]) -> [Post] {
        posts.filter { $0.authorId == author }
    }

    // MARK: JSON

    struct Article: Codable, Sendable {
        var id: ID<Article>
        var authorId: ID<Author>
        var title: String
        var publishedAt: Date
    }
}

extension ToolkitGuide {
    /// Pages of three numbers from `start`, two pages in all.
    static func twoPages(from start: Int = 0) -> Producer<Page<Int, Never>, Never> {
        Producer(value: Page(items: [start, start + 1, start + 2], next: start == 0 ? twoPages(from: 3) : nil))
    }

    @Suite("Guide: the toolkit")
    struct ToolkitGuideTests {
        @Test func pullToRefreshStartsBothListsOver() {
            let feed = PaginatedListViewModel<Int, Never>(scheduler: ImmediateScheduler()) { twoPages() }
            let favourites = PaginatedListViewModel<Int, Never>(scheduler: ImmediateScheduler()) { twoPages() }
            let screen = HomeScreen(feed: feed, favourites: favourites)
            feed.loadNextPage()
            feed.loadNextPage()
            screen.pullToRefresh()
            #expect(Array(feed.items.value) == [0, 1, 2])
            #expect(Array(favourites.items.value) == [0, 1, 2])
        }

        @Test func aRefresherIsKeptByItsOwnerAClosureByTheGroup() {
            let group = RefresherGroup()
            let banner = Reloadable(), stats = Reloadable()

            let header = Refresher { [weak banner] in banner?.reload() }   // keep `header` as a property
            group.add(header)
            group.add { stats.reload() }                                    // retained by the group

            group.refresh()
            #expect(banner.reloads == 1)
            #expect(stats.reloads == 1)
            withExtendedLifetime(header) {}
        }

        @Test func thePagerFetchesThePagesTheGuideShows() {
            let api = PostsAPI()
            let pager = Pager(firstPage: 1) { page in api.fetchPosts(page: page) }
            pager.fetchPage()   // fetches page 1: a new pager does not call back on its own
            pager.nextPage()    // fetches page 2
            pager.nextPage()    // fetches page 3
            pager.fetchPage()   // fetches page 3 again (a retry)
            pager.refresh()     // fetches page 1
            #expect(api.requested == [1, 2, 3, 3, 1])
        }

        @Test func pageableCodeDrivesAViewModelAndAPager() {
            let list = PaginatedListViewModel<Int, Never>(scheduler: ImmediateScheduler()) { twoPages() }
            let api = PostsAPI()
            let pager = Pager(firstPage: 0) { page in api.fetchPosts(page: page) }
            userReachedTheEnd(of: list)
            userReachedTheEnd(of: pager)
            userTappedRetry(on: pager)
            #expect(Array(list.items.value) == [0, 1, 2])
            #expect(api.requested == [1, 1])
        }

        @Test func postsByAnAuthorTakesOnlyAnAuthorID() {
            let all = [Post(id: 1, authorId: 7, title: "A"), Post(id: 2, authorId: "a-8", title: "B")]
            #expect(posts(by: 7, in: all).map(\.id) == [1])
            // `posts(by: all[0].id, in: all)` does not compile: an ID<Post> is not an ID<Author>.
            #expect(type(of: all[0].id) != type(of: all[0].authorId))
        }

        @Test func idsEncodeAsBareValues() throws {
            let post = Post(id: 42, authorId: "a-7", title: "Hi")
            let json = String(decoding: try JSONCoding.encode(post), as: UTF8.self)
            #expect(json == #"{"author_id":"a-7","id":42,"title":"Hi"}"#)
            #expect(String(describing: post.id) == "42")
            #expect(String(reflecting: post.id) == "ID<Post>(42)")
            #expect(ID<Post>(rawValue: post.authorId.rawValue) == "a-7")
        }

        @Test func theJSONSampleRunsAsWritten() {
            let json = #"{"id": 1, "author_id": 7, "title": "Hello", "published_at": "2024-05-01T12:00:00.250Z"}"#

            do {
                let article = try JSONCoding.decode(Article.self, from: json)
                let data = try JSONCoding.encode(article)
                print(String(decoding: data, as: UTF8.self))
                // {"author_id":7,"id":1,"published_at":"2024-05-01T12:00:00.250Z","title":"Hello"}
            } catch {
                print(error)   // Could not decode Article: missing key "title".
            }
        }

        @Test func theArticleRoundTripsAsTheGuidePrints() throws {
            let json = #"{"id": 1, "author_id": 7, "title": "Hello", "published_at": "2024-05-01T12:00:00.250Z"}"#
            let article = try JSONCoding.decode(Article.self, from: json)
            let data = try JSONCoding.encode(article)
            #expect(String(decoding: data, as: UTF8.self)
                == #"{"author_id":7,"id":1,"published_at":"2024-05-01T12:00:00.250Z","title":"Hello"}"#)
            let preview = JSONCoding.decodeOrTrap(Article.self, from: json)
            #expect(preview.title == "Hello")
        }

        @Test func aMissingKeyReadsAsTheGuideShows() throws {
            let json = #"{"id": 1, "author_id": 7, "published_at": "2024-05-01T12:00:00Z"}"#
            let error = try #require(throws: JSONCodingError.self) { try JSONCoding.decode(Article.self, from: json) }
            #expect(error.description == #"Could not decode Article: missing key "title"."#)
        }

        @Test func aNullReadsAsTheGuideShows() throws {
            struct Feed: Decodable { var page2Items: [Author] }
            struct Author: Decodable { var displayName: String }
            let json = #"{"page2_items": [{"display_name": "Ada"}, {"display_name": null}]}"#
            let error = try #require(throws: JSONCodingError.self) { try JSONCoding.decode(Feed.self, from: json) }
            #expect(error.description == "Could not decode Feed: expected String, found null at page2_items[1].display_name.")
        }
    }
}
