// `StoreFile`: any bytes as the database file of a `PagingStore`. The input is either a whole file (when it
// starts with SQLite's magic, "SQLite format 3" and a zero byte) or patches to a small valid store that the
// target writes once per process (three pages of posts in the feed "posts", each post's body JSON): pairs
// of an offset and a few bytes written there, so most inputs are a real store damaged in a few places (a
// header field, a b-tree page, a row's JSON body) rather than bytes SQLite rejects at once.
//
// Properties:
// - opening throws a `StoreError` (the signature says so) or succeeds; when it throws, the file's bytes
//   are unchanged and no `-wal` file is left beside it;
// - a store that opens can be read to the end: the feed's `info()` and `items()` return or throw a
//   `StoreError`; a list on the feed pages through every stored row and on to the remote, and ends with
//   its items unique by id, the rows it held never lost by a failure (a page that cannot be read, a body
//   that does not decode, is the list's `lastError`, with the items held before it still shown);
// - the list and the store are released once dropped (no reference cycle keeps them, or their SQLite
//   connections, alive);
// - nothing crashes, whatever SQLite or the decoder is handed.
import Foundation
import FuzzSupport
import PaginatedList
import Signals
import PaginatedListStore

/// The stored item: what the template's rows decode to.
struct Post: Codable, Identifiable, Equatable, Sendable {
    let id: Int
    let title: String
}

/// The network behind the list: posts `0 ..< 60`, pages of 10 keyed by their first id.
struct Remote: KeyedPageSource {
    func page(at key: Int?) -> Producer<KeyedPage<Post, Int>, Never> {
        let first = min(max(key ?? 0, 0), 60)
        let items = (first ..< min(first + 10, 60)).map { Post(id: $0, title: "post \($0)") }
        return Producer(value: KeyedPage(items: items, previous: first > 0 ? max(first - 10, 0) : nil,
                                         next: first + 10 < 60 ? first + 10 : nil))
    }
}

/// A folder of this process's own (fuzzers may run side by side), in memory where the system has a
/// memory file system (SQLite's syncs to disk would otherwise be most of each run's time).
let folder: URL = {
    let memory = URL(fileURLWithPath: "/dev/shm")
    let base = FileManager.default.fileExists(atPath: memory.path) ? memory : FileManager.default.temporaryDirectory
    let url = base.appendingPathComponent("StoreFileFuzzer-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: folder) }
    return url
}()
let path = folder.appendingPathComponent("feed.sqlite").path

/// Removes the store file and SQLite's files beside it.
func removeFiles() {
    for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}

/// The bytes of a valid store: three pages of the feed "posts" written by a list, the store closed (its
/// log checkpointed into the file).
let template: [UInt8] = {
    removeFiles()
    do {
        let store = try PagingStore(path: path)
        let list = PaginatedListViewModel(feed: store.feed("posts", of: Post.self), remote: Remote(), revalidate: .never,
                                          scheduler: ImmediateScheduler())
        for _ in 0 ..< 3 { list.loadNextPage() }
        Fuzz.check(list.items.value.count == 30, "the template store holds three pages (\(list.items.value.count) items)")
    } catch {
        Fuzz.violated("the template store could not be written: \(error)")
    }
    let bytes = FileManager.default.contents(atPath: path).map(Array.init) ?? []
    Fuzz.check(!bytes.isEmpty && !FileManager.default.fileExists(atPath: path + "-wal"),
               "the template store is checkpointed into its file")
    removeFiles()
    // `STORE_FILE_FUZZER_TEMPLATE=<path>` writes the template out: the corpus's whole-file seed is made so.
    if let out = ProcessInfo.processInfo.environment["STORE_FILE_FUZZER_TEMPLATE"] {
        _ = FileManager.default.createFile(atPath: out, contents: Data(bytes))
    }
    return bytes
}()

let magic = Array("SQLite format 3\0".utf8)

/// The file an input stands for: itself, or the template patched.
func file(for bytes: [UInt8]) -> [UInt8] {
    if bytes.starts(with: magic) { return bytes }
    var file = template
    var input = FuzzInput(bytes)
    while !input.isAtEnd {
        let offset = input.int(in: 0 ... file.count - 1)
        let length = input.int(in: 1 ... 8)
        for index in offset ..< min(offset + length, file.count) { file[index] = input.byte() }
    }
    return file
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    Fuzz.run(data, size) { bytes in
        let written = Data(file(for: bytes))
        removeFiles()
        Fuzz.check(FileManager.default.createFile(atPath: path, contents: written), "the input was written")
        defer { removeFiles() }
        let opened: PagingStore
        do throws(StoreError) {
            opened = try PagingStore(path: path)
        } catch {
            // `Data`'s `==` compares the bytes with `memcmp`: an `Array`'s, element by element in code
            // instrumented for coverage, was a sixth of the target's time.
            let after = FileManager.default.contents(atPath: path) ?? Data()
            Fuzz.check(after == written, "a file the store refused (\(error.kind)) was changed: \(written.count) → \(after.count) bytes")
            Fuzz.check(!FileManager.default.fileExists(atPath: path + "-wal") || fileSize(path + "-wal") == 0,
                       "a file the store refused (\(error.kind)) has a write-ahead log beside it")
            return
        }
        weak let store = opened
        weak let list = read(opened)
        _ = consume opened
        Fuzz.check(list == nil, "the list was not released once dropped")
        Fuzz.check(store == nil, "the store was not released once its list and its user dropped it")
    }
}

func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
}

/// Reads the feed every way a client can, and pages a list through it; returns the list.
func read(_ store: PagingStore) -> AnyObject {
    let feed = store.feed("posts", of: Post.self)
    _ = try? feed.info()
    if let items = try? feed.items() {
        Fuzz.check(Set(items.map(\.id)).count == items.count, "the feed's items repeat an id: \(items.map(\.id))")
    }
    let list = PaginatedListViewModel(feed: feed, remote: Remote(), revalidate: .never, scheduler: ImmediateScheduler())
    var held = 0
    for _ in 0 ..< 12 where !list.exhausted.value {
        list.loadNextPage()
        let items = list.items.value
        Fuzz.check(Set(items.map(\.id)).count == items.count, "the list shows an id twice: \(items.map(\.id))")
        if list.lastError.value != nil {
            Fuzz.check(items.count >= held, "a failed page lost items held: \(held) → \(items.count)")
        }
        held = items.count
    }
    return list
}
