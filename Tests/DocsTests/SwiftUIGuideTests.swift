// The samples of Docs/SwiftUI.md (and the README's SwiftUI sample): the views compiled on Apple platforms,
// everything else compiled and run everywhere. `everySampleIsCompiledHere` checks that each sample appears
// in this file verbatim (ignoring indentation), so the guide cannot drift from the code.
import Foundation
import Observation
import PaginatedList
import PaginatedListStore
import Signals
import Testing
#if canImport(SwiftUI)
import SwiftUI
#endif

/// The guide's samples, in a namespace so that their names stay out of other guides' way.
enum SwiftUIGuide {
    struct Post: Identifiable, Sendable {
        let id: Int
        let title: String
    }

    enum FeedError: Error, Equatable, Sendable {
        case offline
        case server(status: Int)

        /// What an error row says.
        var message: String {
            switch self {
            case .offline: "You are offline."
            case let .server(status): "The server answered \(status)."
            }
        }
    }

    /// Posts, newest first, a page at a time: `cursor` is the id of the last post of the page before.
    protocol PostsAPI: Sendable {
        func posts(after cursor: Int?) -> Producer<CursorResponse<Post, Int>, FeedError>
    }

    struct Message: Identifiable, Sendable {
        let id: Int
        let text: String
    }

    enum ChatError: Error, Sendable { case offline }

    /// The messages before the message `id` (the latest ones when `nil`), oldest first, 30 at most.
    protocol ChatAPI: Sendable {
        func messages(before id: Int?) -> Producer<[Message], ChatError>
    }

    /// A conversation from its latest page upwards.
    struct ChatHistory: PaginatedListDependency {
        let api: any ChatAPI

        func firstPage() -> Producer<Page<Message, ChatError>, ChatError> { page(before: nil) }

        private func page(before id: Int?) -> Producer<Page<Message, ChatError>, ChatError> {
            api.messages(before: id).map { messages in
                let oldest = messages.first?.id
                return Page(items: messages, previous: oldest.map { page(before: $0) }, next: nil)
            }
        }
    }

    // MARK: Stand-ins for the samples

    /// An in-memory `PostsAPI`: posts `newest` down to 1, 20 a page, answered at once.
    final class StubPosts: PostsAPI {
        private struct State {
            var newest: Int
            var offline = false
        }

        private let state: Locked<State>

        init(count: Int) {
            state = Locked(State(newest: count))
        }

        func goOffline() { state.withLock { $0.offline = true } }
        func goOnline() { state.withLock { $0.offline = false } }

        /// Puts `count` new posts on top of the feed.
        func publish(_ count: Int) { state.withLock { $0.newest += count } }

        func posts(after cursor: Int?) -> Producer<CursorResponse<Post, Int>, FeedError> {
            Producer { observer, _ in
                let (newest, offline) = self.state.withLock { ($0.newest, $0.offline) }
                guard !offline else { return observer.send(error: .offline) }
                let first = (cursor ?? newest + 1) - 1
                let ids = Array(stride(from: first, to: max(first - 20, 0), by: -1))
                let next = ids.last.flatMap { $0 > 1 ? $0 : nil }
                observer.send(value: CursorResponse(items: ids.map { Post(id: $0, title: "Post \($0)") }, nextCursor: next))
                observer.sendCompleted()
            }
        }
    }

    /// An in-memory `ChatAPI`: a conversation of messages `0 ..< count`.
    struct StubChat: ChatAPI {
        let count: Int

        func messages(before id: Int?) -> Producer<[Message], ChatError> {
            let end = id ?? count
            return Producer(value: (max(end - 30, 0) ..< end).map { Message(id: $0, text: "Message \($0)") })
        }
    }

    struct LikedPost: Codable, Identifiable, Sendable {
        let id: Int
        var title: String
        var likes: Int
        var liked: Bool
    }

    protocol LikesAPI: Sendable {
        /// Likes the post on the server: the post as the server has it then.
        func like(_ post: LikedPost) -> Producer<LikedPost, FeedError>
    }

    @MainActor @Observable
    final class Likes {
        let list: PaginatedListViewModel<LikedPost, StoredListError<FeedError>>
        let api: any LikesAPI
        /// Why the last like went away (shown under the list), `nil` when it stayed.
        private(set) var refusal: String?

        init(list: PaginatedListViewModel<LikedPost, StoredListError<FeedError>>, api: any LikesAPI) {
            self.list = list
            self.api = api
        }

        func like(_ post: LikedPost) async {
            let api = api
            do throws(MutationError<FeedError>) {
                _ = try await list.mutate(id: post.id, { $0.liked = true; $0.likes += 1 }, send: { api.like($0) }).first()
                refusal = nil
            } catch {
                switch error {
                case let .remote(failure): refusal = failure.message   // rolled back in every list already
                case .notFound, .store: refusal = "The like could not be saved."
                }
            }
        }
    }

    /// An in-memory server of 20 liked posts, as pages of 10 keyed by number and as a `LikesAPI`, online
    /// until `goOffline()`.
    final class StubLikes: LikesAPI, KeyedPageSource {
        private let state = Locked((posts: (0 ..< 20).map { LikedPost(id: $0, title: "Post \($0)", likes: 0, liked: false) },
                                    offline: false))

        func goOffline() { state.withLock { $0.offline = true } }

        func page(at key: Int?) -> Producer<KeyedPage<LikedPost, Int>, FeedError> {
            let page = key ?? 0
            let posts = state.withLock { Array($0.posts[page * 10 ..< page * 10 + 10]) }
            return Producer(value: KeyedPage(items: posts, next: page == 0 ? 1 : nil))
        }

        func like(_ post: LikedPost) -> Producer<LikedPost, FeedError> {
            Producer { observer, _ in
                let liked = self.state.withLock { state -> LikedPost? in
                    guard !state.offline else { return nil }
                    state.posts[post.id].likes += 1
                    state.posts[post.id].liked = true
                    return state.posts[post.id]
                }
                guard let liked else { return observer.send(error: .offline) }
                observer.send(value: liked)
                observer.sendCompleted()
            }
        }
    }

    /// Whether something happened, settable from any thread.
    final class Flag: Sendable {
        private let state = Locked(false)
        func set() { state.withLock { $0 = true } }
        var isSet: Bool { state.withLock { $0 } }
    }
}

#if canImport(SwiftUI)
extension SwiftUIGuide {
    struct PostsList: View {
        let feed: ObservablePaginatedList<Post, FeedError>

        var body: some View {
            List(feed.rows) { row in
                Text(row.item.title).onAppear { feed.rowAppeared(row.index) }
            }
            .onAppear { if feed.items.isEmpty { feed.loadNextPage() } }
            .refreshable { await feed.refresh() }
        }
    }

    struct FeedScreen: View {
        let feed: ObservablePaginatedList<Post, FeedError>

        var body: some View {
            List {
                if let error = feed.loadStates.refresh.error {
                    Text(error.message).foregroundStyle(.secondary)
                }
                ForEach(feed.rows) { row in
                    if row.index == feed.gap {
                        Button("Load newer posts") { feed.fillGap() }
                            .disabled(feed.loadStates.refresh.isLoading)
                    }
                    Text(row.item.title)
                        .onAppear { feed.rowAppeared(row.index) }
                }
                if let error = feed.loadStates.append.error {
                    Button(error.message + " Retry") { feed.retry() }
                } else if feed.loadStates.append.isLoading {
                    ProgressView()
                }
            }
            .refreshable { await feed.refresh(.mergeOnTop(maxPages: 3, onGap: .keepGap)) }
            .onAppear {
                if feed.items.isEmpty { feed.loadNextPage() }
            }
        }
    }

    struct ChatScreen: View {
        let chat: ObservablePaginatedList<Message, ChatError>

        var body: some View {
            ScrollView {
                LazyVStack(alignment: .leading) {
                    if chat.loadStates.prepend.isLoading {
                        ProgressView()
                    }
                    if chat.loadStates.prepend.error != nil {
                        Button("Could not load older messages. Retry") { chat.retry() }
                    }
                    ForEach(chat.rows) { row in
                        Text(row.item.text)
                            .onAppear { chat.rowAppeared(row.index) }
                    }
                }
            }
            .defaultScrollAnchor(.bottom)
            .onAppear {
                if chat.items.isEmpty { chat.loadNextPage() }
            }
        }
    }

    struct LikeButton: View {
        let post: LikedPost
        let likes: Likes

        var body: some View {
            Button {
                Task { await likes.like(post) }
            } label: {
                Label("\(post.likes)", systemImage: post.liked ? "heart.fill" : "heart")
            }
            .disabled(post.liked)
        }
    }

    /// The README's SwiftUI sample.
    struct Feed: View {
        @State private var feed = ObservablePaginatedList(PaginatedListViewModel { page(0) })

        var body: some View {
            List(feed.rows, id: \.index) { row in
                Text(row.item).onAppear { feed.rowAppeared(row.index) }
            }
            .onAppear { if feed.items.isEmpty { feed.loadNextPage() } }   // the first page
            .refreshable { await feed.refresh() }
        }
    }
}

/// The README's page chain.
private func page(_ number: Int) -> Producer<Page<String, Never>, Never> {
    Producer(value: Page(items: (0 ..< 20).map { "row \(number * 20 + $0)" }, next: number < 4 ? page(number + 1) : nil))
}
#endif

@Suite(.serialized) @MainActor struct SwiftUIGuideTests {
    typealias Flag = SwiftUIGuide.Flag
    typealias Likes = SwiftUIGuide.Likes
    typealias ChatHistory = SwiftUIGuide.ChatHistory

    @Test func theMirrorSampleMakesAMirrorThatLoadsOnTheMainThread() async {
        let api = SwiftUIGuide.StubPosts(count: 100)
        let feed = ObservablePaginatedList(PaginatedListViewModel(dependency: CursorSource { cursor in api.posts(after: cursor) }))
        feed.loadNextPage()
        await Guide.waitOnMainActor { !feed.items.isEmpty }
        #expect(feed.items.map(\.id) == Array((81 ... 100).reversed()))
    }

    @Test func theFeedBehaviourSamplePrintsWhatTheGuideSays() {
        let api = SwiftUIGuide.StubPosts(count: 100)
        let printed = Guide.run {
            let source = CursorSource { cursor in api.posts(after: cursor) }
            let feed = ObservablePaginatedList(PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler()))
            feed.loadNextPage()                       // the list appeared: posts 100-81
            feed.rowAppeared(16)                      // within 5 rows of the end: posts 80-61 load
            api.goOffline()
            feed.rowAppeared(36)                      // the next page fails
            print(feed.items.count, feed.loadStates.append.error?.message ?? "")   // 40 You are offline.
            api.goOnline()
            feed.retry()                              // the error row's button
            print(feed.items.count, feed.loadStates.append.error == nil)           // 60 true
        }
        #expect(printed == ["40 You are offline.", "60 true"])
    }

    @Test func aMergingRefreshLeavesAGapThatTheLoadNewerRowFills() async {
        let api = SwiftUIGuide.StubPosts(count: 100)
        let feed = ObservablePaginatedList(PaginatedListViewModel(dependency: CursorSource { cursor in api.posts(after: cursor) },
                                                                  scheduler: ImmediateScheduler()))
        feed.loadNextPage()
        feed.rowAppeared(19)
        feed.rowAppeared(39)
        #expect(feed.items.count == 60)
        api.publish(70)
        // What the screen's pull-to-refresh does: three pages of new posts, none of them held yet.
        await feed.refresh(.mergeOnTop(maxPages: 3, onGap: .keepGap))
        #expect(feed.gap == 60)
        #expect(feed.items[59].id == 111 && feed.items[60].id == 100)
        // The "load newer" row's button.
        feed.fillGap()
        #expect(feed.gap == nil)
        #expect(feed.items.map(\.id) == Array((41 ... 170).reversed()))
    }

    @Test func theRefreshErrorShowsAboveTheListThatStays() async {
        let api = SwiftUIGuide.StubPosts(count: 100)
        let feed = ObservablePaginatedList(PaginatedListViewModel(dependency: CursorSource { cursor in api.posts(after: cursor) },
                                                                  scheduler: ImmediateScheduler()))
        feed.loadNextPage()
        api.goOffline()
        await feed.refresh(.mergeOnTop(maxPages: 3, onGap: .keepGap))
        #expect(feed.loadStates.refresh.error?.message == "You are offline.")
        #expect(feed.items.count == 20)
        api.goOnline()
        feed.retry()
        #expect(feed.loadStates.refresh.error == nil)
    }

    @Test func theChatSamplePrintsWhatTheGuideSays() {
        let api = SwiftUIGuide.StubChat(count: 100)
        let printed = Guide.run {
            let chat = ObservablePaginatedList(PaginatedListViewModel(dependency: ChatHistory(api: api), scheduler: ImmediateScheduler()))
            chat.loadNextPage()                       // the latest 30 messages: 70-99
            chat.rowAppeared(29)                      // the bottom row: nothing lies below, nothing loads
            chat.rowAppeared(3)                       // scrolled up near the top: messages 40-69 land above
            print(chat.items.first!.id, chat.items.count, chat.exhausted)   // 40 60 true
        }
        #expect(printed == ["40 60 true"])
    }

    @Test func theChatLoadsBackToItsFirstMessage() {
        let api = SwiftUIGuide.StubChat(count: 100)
        let chat = ObservablePaginatedList(PaginatedListViewModel(dependency: ChatHistory(api: api), scheduler: ImmediateScheduler()))
        chat.loadNextPage()
        for _ in 0 ..< 5 { chat.rowAppeared(0) }
        #expect(chat.loadStates.prepend.isComplete)
        #expect(chat.items.map(\.id) == Array(0 ..< 100))
        #expect(!chat.loadStates.prepend.isLoading && chat.loadStates.prepend.error == nil)
    }

    @Test func theTestingSampleRuns() {
        let api = SwiftUIGuide.StubPosts(count: 100)
        let source = CursorSource { cursor in api.posts(after: cursor) }
        let feed = ObservablePaginatedList(PaginatedListViewModel(dependency: source, scheduler: ImmediateScheduler()))
        feed.loadNextPage()
        let rowsChanged = Flag()
        withObservationTracking { _ = feed.rows } onChange: { rowsChanged.set() }
        api.goOffline()
        feed.loadNextPage()
        #expect(feed.loadStates.append.error == .offline)
        #expect(!feed.loadStates.append.isLoading)
        #expect(!rowsChanged.isSet)
    }

    @Test func aLikeShowsAtOnceAndARefusedOneIsRolledBackWithItsReason() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("SwiftUIGuide-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try PagingStore(path: folder.appendingPathComponent("likes.sqlite").path)
        let api = SwiftUIGuide.StubLikes()
        let list = PaginatedListViewModel(feed: store.feed("home", of: SwiftUIGuide.LikedPost.self), remote: api,
                                          revalidate: .never, scheduler: ImmediateScheduler())
        list.loadNextPage()
        let printed = await Guide.run {
            let likes = Likes(list: list, api: api)
            await likes.like(list.items.value[0])
            print(list.items.value[0].likes, list.items.value[0].liked)   // 1 true
            api.goOffline()
            await likes.like(list.items.value[1])
            print(list.items.value[1].likes, likes.refusal ?? "")         // 0 You are offline.
        }
        #expect(printed == ["1 true", "0 You are offline."])
    }

    @Test func everySampleIsCompiledHere() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let source = Self.normalized(try String(contentsOf: here, encoding: .utf8))
        let guide = Self.swiftBlocks(in: try String(contentsOf: root.appendingPathComponent("Docs/SwiftUI.md"), encoding: .utf8))
        let readme = Self.swiftBlocks(in: try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8))
            .filter { $0.contains("ObservablePaginatedList") }
        #expect(guide.count == 12)
        #expect(readme.count == 1)
        for sample in guide + readme {
            #expect(source.contains(Self.normalized(sample)), "not compiled by SwiftUIGuideTests:\n\(sample)")
        }
    }

    /// The bodies of the ```swift blocks of `markdown`.
    static func swiftBlocks(in markdown: String) -> [String] {
        markdown.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "\n```").first ?? "" }
    }

    /// `text` without indentation or blank lines, so that a sample matches its indented copy here.
    static func normalized(_ text: String) -> String {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "\n")
    }
}

extension Guide {
    /// Runs `sample`, which awaits, returning what it printed.
    static func run(isolation: isolated (any Actor)? = #isolation, _ sample: () async -> Void) async -> [String] {
        let printed = Printed()
        await $printed.withValue(printed) { await sample() }
        return printed.lines
    }
}
