import PaginatedList
import PaginatedListStore
import PaginatedListTesting
import Signals
import Testing

@Suite("Store-backed lists: totals")
struct StoredTotalCountTests {
    @Test func aStoreBackedListShowsTheTotalTheRemoteSaid() throws {
        let folder = TemporaryFolder()
        let list = storedList(try openStore(folder.path()), remote: TestRemote(count: 35))
        list.loadNextPage()
        #expect(list.totalCount.value == 35)
    }

    @Test func aListOpenedFromTheStoreShowsTheStoredTotalBeforeAnyRequest() throws {
        let folder = TemporaryFolder()
        try storePages(1, in: folder)
        let remote = TestRemote(count: 35)
        let list = storedList(try openStore(folder.path()), remote: remote)
        list.loadNextPage()
        #expect(remote.requests.isEmpty)
        #expect(list.totalCount.value == 35)
    }
}
