// swift-tools-version:6.0
//
// PaginatedList: paginated lists ("infinite scroll") that are easy to build and hard to get wrong.
// No package dependencies: the reactive core (`Signals`) is the package's own.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "PaginatedList",
    // `Synchronization` (Mutex, Atomic) sets the floor on Apple platforms.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Signals", targets: ["Signals"]),
        .library(name: "PaginatedListTesting", targets: ["PaginatedListTesting"]),
        .executable(name: "Benchmarks", targets: ["Benchmarks"]),
    ],
    targets: [
        .target(name: "Signals", swiftSettings: strict),
        .target(name: "PaginatedListTesting", dependencies: ["Signals"], swiftSettings: strict),
        .executableTarget(name: "Benchmarks", dependencies: ["Signals"], swiftSettings: strict),
        .testTarget(name: "SignalsTests", dependencies: ["Signals", "PaginatedListTesting"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
