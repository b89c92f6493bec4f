import Foundation
import Testing

/// `Docs/Fuzzing.md` shows code of the fuzz targets, which are a package of their own (`Fuzz/`, built by
/// `.ci/fuzz`, not by this package): each of its Swift samples must be, line for line, in a target's
/// source, where that build compiles it.
@Suite struct FuzzingGuideTests {
    @Test func everyCodeSampleOfTheGuideIsInAFuzzTarget() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("Docs/Fuzzing.md"), encoding: .utf8)
        let sources = root.appendingPathComponent("Fuzz/Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count >= 10)
        let targets = try files.map { TestingGuideTests.significantLines(try String(contentsOf: $0, encoding: .utf8)) }
        let samples = TestingGuideTests.swiftBlocks(in: guide)
        #expect(!samples.isEmpty)
        for sample in samples {
            let lines = TestingGuideTests.significantLines(sample)
            let found = targets.contains { source in source.indices.contains { source[$0...].starts(with: lines) } }
            #expect(found, "not in any fuzz target:\n\(sample)")
        }
    }

    @Test func everyTargetTheGuideListsIsInTheFuzzPackage() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("Docs/Fuzzing.md"), encoding: .utf8)
        let manifest = try String(contentsOf: root.appendingPathComponent("Fuzz/Package.swift"), encoding: .utf8)
        let folders = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Fuzz/Sources").path)
            .filter { $0.hasSuffix("Fuzzer") }.map { String($0.dropLast("Fuzzer".count)) }.sorted()
        let listed = guide.split(separator: "\n").filter { $0.hasPrefix("| `") }
            .map { String($0.dropFirst(3).prefix { $0 != "`" }) }.sorted()
        #expect(listed == folders, "the guide's table lists \(listed), the package has \(folders)")
        for target in folders { #expect(manifest.contains("(\"\(target)\", ["), "\(target) is not in Fuzz/Package.swift") }
    }
}
