import PaginatedList
import Signals
import Synchronization

/// A thread-safe log of strings, shared by reference.
final class Log: Sendable {
    private let lines = Locked<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    var value: [String] { lines.withLock { $0 } }
}

/// A `Refreshable` that writes its name into a log on every refresh.
final class LoggingRefreshable: Refreshable, Sendable {
    let name: String
    let log: Log

    init(_ name: String, log: Log) {
        self.name = name
        self.log = log
    }

    func refresh() { log.append(name) }
}

/// `pages` pages of three consecutive numbers; counts the first-page requests.
final class CountingNumbers: PaginatedListDependency, Sendable {
    let pages: Int
    private let requests = Atomic<Int>(0)

    init(pages: Int) { self.pages = pages }

    /// How many times the view model asked for a first page.
    var firstPageRequests: Int { requests.load(ordering: .relaxed) }

    func firstPage() -> Producer<Page<Int, Never>, Never> {
        requests.add(1, ordering: .relaxed)
        return page(0)
    }

    private func page(_ k: Int) -> Producer<Page<Int, Never>, Never> {
        let pages = pages
        func page(_ k: Int) -> Producer<Page<Int, Never>, Never> {
            Producer(value: Page(items: Array(k * 3 ..< k * 3 + 3), next: k + 1 < pages ? page(k + 1) : nil))
        }
        return page(k)
    }
}
