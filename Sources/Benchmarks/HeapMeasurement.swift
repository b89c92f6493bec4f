import HeapStatistics
import Signals

/// Bytes currently allocated on the heap (mmapped chunks included), from glibc's `mallinfo2()`; `nil` where unavailable (the C
/// side is compiled only against glibc 2.33 or later).
func heapBytesInUse() -> Int? {
    let bytes = heap_statistics_bytes_in_use()
    return bytes < 0 ? nil : Int(bytes)
}

/// Heap bytes per instance: the allocation growth while `make` creates `count` instances that it keeps
/// alive in storage reserved beforehand, divided by `count` by the caller. Returns the total growth (checksum-free:
/// `Benchmark.expected` is ignored for heap rows), or -1 where allocator statistics are unavailable.
func heapGrowth(count: Int, _ make: (Int) -> AnyObject?) -> Int {
    var kept: ContiguousArray<AnyObject> = []
    kept.reserveCapacity(count)
    guard let before = heapBytesInUse() else { return -1 }
    for i in 0..<count { if let object = make(i) { kept.append(object) } }
    let after = heapBytesInUse()!
    blackHole(kept)
    return after - before
}

/// The largest heap growth seen since it was made, from `mallinfo2()` samples: call `sample()` wherever
/// the peak may be (a transient copy is alive, a page has landed). Thread-safe (`Locked`).
final class HeapPeak: Sendable {
    private let baseline: Int?
    private let peak = Locked<Int>(0)

    /// Starts measuring from the heap in use now.
    init() {
        baseline = heapBytesInUse()
    }

    /// Records the heap in use now, if it is the largest so far.
    func sample() {
        guard let baseline, let now = heapBytesInUse() else { return }
        peak.withLock { $0 = max($0, now - baseline) }
    }

    /// The largest growth sampled, in bytes; `nil` where allocator statistics are unavailable.
    var growth: Int? {
        baseline == nil ? nil : peak.withLock { $0 }
    }
}
