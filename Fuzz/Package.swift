// swift-tools-version:6.0
//
// The fuzz targets of PaginatedList: a package of its own, so that nothing of them is in the package's
// normal builds. Build and run them with `.ci/fuzz` (see Docs/Fuzzing.md); each target is a libFuzzer
// executable built with `--sanitize fuzzer --sanitize address` and `-enable-testing` (the targets reach
// the internal parsers with `@testable import`).
//
// Adding a target: a folder Sources/<Name>Fuzzer with one file (its `LLVMFuzzerTestOneInput`), a line
// below, and its seeds in Corpus/<Name>Fuzzer.
import PackageDescription

/// Each fuzz target: its name (the executable is `<name>Fuzzer`) and the modules it reads.
let fuzzers: [(name: String, modules: [String])] = [
    ("WebLink", ["PaginatedListHTTP"]),
    ("PageBody", ["PaginatedListHTTP", "PaginatedList"]),
    ("ResponseHeaders", ["PaginatedListHTTP", "PaginatedList"]),
    ("HTTPQuery", ["PaginatedListHTTP"]),
    ("JSONPath", ["PaginatedListHTTP", "PaginatedList"]),
    ("ID", ["PaginatedList"]),
    ("JSONDates", ["PaginatedList"]),
    ("ItemList", ["PaginatedList"]),
    ("ItemStore", ["PaginatedList", "PaginatedListTesting"]),
    ("StoreFile", ["PaginatedListStore", "PaginatedList", "Signals"]),
]

let package = Package(
    name: "PaginatedListFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "PaginatedList", path: "..")],
    targets: [
        .target(name: "FuzzSupport"),
    ] + fuzzers.map { fuzzer in
        .executableTarget(
            name: "\(fuzzer.name)Fuzzer",
            dependencies: ["FuzzSupport"] + fuzzer.modules.map { .product(name: $0, package: "PaginatedList") }
        )
    },
    swiftLanguageModes: [.v6]
)
