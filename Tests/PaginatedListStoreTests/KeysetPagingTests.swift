import Foundation
import PaginatedList
@testable import PaginatedListStore
import PaginatedListTesting
import Signals
import Testing

/// Contract point 28: paging from the store is keyset-based at every depth: every statement the paging path
/// runs finds its rows through an index (SQLite's plan has no full scan), and none uses `OFFSET`.
@Suite("28. Keyset paging, never OFFSET")
struct KeysetPagingContract {
    /// The SQL of every statement a list runs while it pages down and up through stored and fetched pages
    /// (with `maxPages`, so that dropped pages are read back).
    static func pagingStatements() throws -> (store: PagingStore, statements: Set<String>, folder: TemporaryFolder) {
        let folder = TemporaryFolder()
        do {
            let list = storedList(try openStore(folder.path()), remote: TestRemote(count: 100))
            for _ in 0 ..< 5 { list.loadNextPage() }
        }
        let store = try openStore(folder.path())
        let statements = Locked<Set<String>>([])
        try store.database.trace { sql in statements.withLock { _ = $0.insert(sql) } }
        let list = storedList(store, remote: TestRemote(count: 100), maxPages: 2)
        for _ in 0 ..< 8 { list.loadNextPage() }
        for _ in 0 ..< 6 { list.loadPreviousPage() }
        try store.database.trace(nil)
        #expect(list.ids == ids(0 ..< 20))
        return (store, statements.withLock { $0 }, folder)
    }

    @Test func noPagingStatementUsesOffset() throws {
        let (_, statements, _) = try Self.pagingStatements()
        #expect(!statements.isEmpty)
        #expect(statements.filter { $0.uppercased().contains("OFFSET") }.isEmpty)
    }

    @Test func everyPagingStatementFindsItsRowsThroughAnIndex() throws {
        let (store, statements, _) = try Self.pagingStatements()
        let tables: Set<String> = ["items", "members", "pages", "feeds", "snapshots", "item_types"]
        for sql in statements where !sql.hasPrefix("BEGIN") && !sql.hasPrefix("COMMIT") && !sql.hasPrefix("PRAGMA") {
            let plan = try store.database.read { connection throws(StoreError) in
                let statement = try connection.statement("EXPLAIN QUERY PLAN " + sql)
                var details: [String] = []
                while try statement.step() { details.append(statement.text(3) ?? "") }
                return details
            }
            let scans = plan.filter { detail in tables.contains { detail.hasPrefix("SCAN \($0)") } }
            #expect(scans.isEmpty, "\(sql): \(plan)")
        }
    }
}
