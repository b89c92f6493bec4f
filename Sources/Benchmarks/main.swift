// Benchmarks: release-mode figures for the reactive core, beside plain closures doing the same work,
// and studies of the view model and the page sources at length (per-page costs, peak memory).
//
//   swift run -c release Benchmarks [--quick] [--filter NAME]
//
// Time rows: the median of 5 runs after 1 warm-up, ours and the limit interleaved run by run.
// Heap rows: glibc allocator statistics (mallinfo2) over many live instances; "n/a" elsewhere.
// Studies: a table each, figures with their targets; medians of 5 runs (3 with --quick) where cheap.
// Exit status 3 if a checksum is wrong (an event lost, duplicated, or delivered after dispose; a study's
// items not all landed, in order).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let usage = "usage: Benchmarks [--quick] [--filter NAME]   (NAME: part of a suite or row name)"

/// Says what was wrong with the command line, and how to write it, on standard error; exits with status 2.
func usageError(_ message: String) -> Never {
    let text = "Benchmarks: \(message)\n\(usage)\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
    exit(2)
}

var quick = false
var filter: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick": quick = true
    case "--filter":
        guard let name = arguments.popFirst() else { usageError("--filter needs a NAME") }
        filter = name.lowercased()
    case LivingListBenchmarks.heapRunArgument:   // the living-list window's memory run, in a child process
        guard let pages = arguments.popFirst().flatMap({ Int($0) }) else { usageError("\(argument) needs a page count") }
        LivingListBenchmarks.printHeapSamples(pages: pages)
        exit(0)
    case "--help", "-h":
        print(usage)
        exit(0)
    default: usageError("unknown argument \(argument)")
    }
}

let runs = 5
var rows: [[String]] = [["benchmark", "n", "ours", "limit", "ours/limit", "checksum"]]
var allChecksumsOK = true

for suite in allSuites {
    for benchmark in suite.benchmarks {
        let label = "\(suite.name): \(benchmark.name)"
        if let filter, !label.lowercased().contains(filter) { continue }
        let count = max(1, quick ? benchmark.count / 10 : benchmark.count)
        let result: (ours: Double, limit: Double, ok: Bool)?
        switch benchmark.measure {
        case .time:
            result = measureTime(benchmark, count: count, runs: runs)
        case .heapBytes:
            result = measureHeap(benchmark, count: count)
        }
        guard let result else {
            rows.append([label, "\(count)", "n/a", "n/a", "n/a", "-"])
            continue
        }
        allChecksumsOK = allChecksumsOK && result.ok
        let ratio = result.limit > 0 ? format(result.ours / result.limit) + "x" : "-"
        rows.append([label, "\(count)", format(result.ours), format(result.limit), ratio, result.ok ? "ok" : "WRONG"])
    }
}

if rows.count > 1 { printTable(rows) }

for suite in allSuites {
    for study in suite.studies {
        let label = "\(suite.name): \(study.name)"
        if let filter, !label.lowercased().contains(filter) { continue }
        let result = study.run(quick, quick ? 3 : 5)
        allChecksumsOK = allChecksumsOK && result.ok
        print("")
        print("## \(label)\(quick ? " (--quick: a tenth of the pages)" : "")")
        print("")
        var table = [["figure", "value", "target", "met"]]
        for figure in result.figures {
            table.append([figure.name, figure.value, figure.target, figure.met.map { $0 ? "yes" : "NO" } ?? ""])
        }
        table.append(["checksum (every item landed, in order)", result.ok ? "ok" : "WRONG", "", ""])
        printTable(table)
        print("")
        for note in result.notes { print(note) }
    }
}

if !allChecksumsOK {
    print("A checksum was wrong.")
    exit(3)
}
