// swift-tools-version:6.0
//
// PaginatedList: paginated lists ("infinite scroll") that are easy to build and hard to get wrong.
// No package dependencies: the reactive core (`Signals`) is the package's own.
//
//   paging-demo (executable) ─► PagingDemoKit ─► PaginatedListHTTP ─► PaginatedList ─► Signals
//                                     ├───────► PaginatedListStore ─► PaginatedList, CPaginatedListSQLite
//                                     └───────► PaginatedListTesting (ChangingFeed: the demo's --churn)
//   Benchmarks  (executable) ─► PaginatedList ─► Signals
//                     ├───────► PaginatedListStore (the store's figures), CPaginatedListSQLite (raw SQLite beside it)
//                     └───────► PaginatedListTesting (ChangingFeed: the sources' request overhead)
//   PaginatedListTesting ─────► PaginatedList ─► Signals
import PackageDescription

// The package recognises one conditional compilation flag, for its own tests (never for a release):
//
//     swift test -Xswiftc -DPAGINATEDLIST_INTERNAL_CHECKS --scratch-path .build-checks
//
// makes the view model's state machine, its item store, `ItemList`, `IDPositions` and the page ledger
// check their invariants after every input and edit, and stop at the first that breaks one (O(n) each:
// no performance figure holds then). `.ci/run` runs the model-based suites once that way.
let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "PaginatedList",
    // `Synchronization` (Mutex, Atomic) sets the floor on Apple platforms.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Signals", targets: ["Signals"]),
        .library(name: "PaginatedList", targets: ["PaginatedList"]),
        .library(name: "PaginatedListTesting", targets: ["PaginatedListTesting"]),
        .library(name: "PaginatedListHTTP", targets: ["PaginatedListHTTP"]),
        .library(name: "PaginatedListStore", targets: ["PaginatedListStore"]),
        .executable(name: "paging-demo", targets: ["paging-demo"]),
        .executable(name: "Benchmarks", targets: ["Benchmarks"]),
    ],
    targets: [
        .target(name: "Signals", swiftSettings: settings),
        .target(name: "PaginatedList", dependencies: ["Signals"], swiftSettings: settings),
        .target(name: "PaginatedListTesting", dependencies: ["PaginatedList", "Signals"], swiftSettings: settings),
        // URLSession requests as producers, and page sources for HTTP conventions. The only module that
        // imports FoundationNetworking (on Linux).
        .target(name: "PaginatedListHTTP", dependencies: ["PaginatedList", "Signals"], swiftSettings: settings),
        // The system SQLite (no package, no vendored copy): Debian's libsqlite3-dev on Linux, the SDK's on Apple
        // platforms. Only PaginatedListStore imports it, so a client that does not import the store never builds it.
        .systemLibrary(name: "CPaginatedListSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // The offline-first store: feeds and items in SQLite, store-backed view models.
        .target(name: "PaginatedListStore", dependencies: ["PaginatedList", "Signals", "CPaginatedListSQLite"],
                swiftSettings: settings),
        // The demo's testable parts (options, simulated feed, script mode, screen model); not a product.
        .target(name: "PagingDemoKit", dependencies: ["PaginatedList", "PaginatedListHTTP", "PaginatedListStore", "PaginatedListTesting", "Signals"],
                swiftSettings: settings),
        .executableTarget(name: "paging-demo", dependencies: ["PagingDemoKit", "PaginatedList", "PaginatedListHTTP", "Signals"],
                          swiftSettings: settings),
        .executableTarget(name: "Benchmarks", dependencies: ["PaginatedList", "PaginatedListStore", "CPaginatedListSQLite",
                                                            "PaginatedListTesting", "Signals", "HeapStatistics"],
                          swiftSettings: settings),
        // glibc's mallinfo2() for the Benchmarks' heap figures (Swift's Glibc module lacks <malloc.h>).
        .target(name: "HeapStatistics"),

        .testTarget(name: "SignalsTests", dependencies: ["Signals", "PaginatedListTesting"], swiftSettings: settings),
        .testTarget(name: "PaginatedListTests", dependencies: ["PaginatedList", "PaginatedListTesting", "Signals"],
                    swiftSettings: settings),
        // The HTTP fixture server (Tests/HTTPFixtureServer/feed_server.py, python3) for the tests that talk to it.
        .target(name: "HTTPFixtureServer", path: "Tests/HTTPFixtureServer", exclude: ["feed_server.py"],
                swiftSettings: settings),
        // Against a real HTTP server.
        .testTarget(name: "PaginatedListHTTPTests", dependencies: ["PaginatedListHTTP", "PaginatedList", "PaginatedListTesting", "Signals",
                                                            "HTTPFixtureServer"],
                    swiftSettings: settings),
        // The demo: its options, script mode, simulated feed and screen model, and the built executable.
        .testTarget(name: "PagingDemoKitTests", dependencies: ["PagingDemoKit", "PaginatedList", "PaginatedListTesting", "Signals",
                                                               "HTTPFixtureServer"],
                    swiftSettings: settings),
        // The store: contract points 21-28, bad files, migrations, faults; the crash test runs StoreCrashChild.
        .testTarget(name: "PaginatedListStoreTests",
                    dependencies: ["PaginatedListStore", "PaginatedList", "PaginatedListTesting", "Signals", "StoreCrashChild"],
                    swiftSettings: settings),
        // The crash test's child process: writes pages into a store in a loop until it is killed.
        .executableTarget(name: "StoreCrashChild", dependencies: ["PaginatedListStore", "PaginatedList", "Signals"],
                          path: "Tests/StoreCrashChild", swiftSettings: settings),
        .testTarget(name: "PaginatedListTestingTests", dependencies: ["PaginatedListTesting"],
                    swiftSettings: settings),
        // A client written in Swift 6 mode with complete checking: Sendable use from Tasks and @MainActor.
        .testTarget(name: "Swift6ClientTests", dependencies: ["PaginatedList", "Signals"], swiftSettings: settings),
        .testTarget(name: "DocsTests", dependencies: ["PaginatedList", "PaginatedListHTTP", "PaginatedListStore", "PaginatedListTesting", "Signals",
                                                      "HTTPFixtureServer"],
                    swiftSettings: settings),
    ],
    swiftLanguageModes: [.v6]
)

// `.ci/run`'s address-sanitizer steps test only `Signals` and `PaginatedList` (the unsafe code of the list
// structures and the reactive core). With PAGINATEDLIST_CI_CORE=1 in the environment, the manifest keeps
// only those modules, `PaginatedListTesting` and their two test targets, so that build compiles what it runs.
if Context.environment["PAGINATEDLIST_CI_CORE"] == "1" {
    let core: Set = ["Signals", "PaginatedList", "PaginatedListTesting", "SignalsTests", "PaginatedListTests"]
    package.targets.removeAll { !core.contains($0.name) }
    package.products.removeAll { !core.contains($0.name) }
}
