#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PagingDemoKit

/// Reads keys from standard input on a thread of its own, so the main thread stays free to run the main
/// run loop (which `UIScheduler` needs to deliver).
enum KeyReader {
    /// Starts the reading thread. `onKey` is called on the main queue for every key, in order; `onEnd`
    /// once, on the main queue, when standard input ends or fails.
    static func start(
        onKey: @escaping @MainActor @Sendable (Key) -> Void,
        onEnd: @escaping @MainActor @Sendable () -> Void
    ) {
        let thread = Thread {
            var decoder = KeyDecoder()
            var buffer = [UInt8](repeating: 0, count: 64)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                // A read of ESC alone is the Esc key: a terminal writes the whole sequence of any other key at once.
                let keys = count == 1 && buffer[0] == 0x1B ? [Key.escape] : decoder.decode(buffer[..<count])
                guard !keys.isEmpty else { continue }
                DispatchQueue.main.async {
                    MainActor.assumeIsolated {
                        for key in keys { onKey(key) }
                    }
                }
            }
            DispatchQueue.main.async { MainActor.assumeIsolated { onEnd() } }
        }
        thread.name = "paging-demo.keys"
        thread.start()
    }
}
