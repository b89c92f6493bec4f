/// What every fuzz target shares: the entry point's plumbing and the property checks.
///
/// A target is one file with a libFuzzer entry point that hands its input to `Fuzz.run`:
///
/// ```swift
/// @_cdecl("LLVMFuzzerTestOneInput")
/// public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
///     Fuzz.run(data, size) { bytes in
///         // parse `bytes`, then check properties of the result with `Fuzz.check`
///     }
/// }
/// ```
public enum Fuzz {
    /// Runs `body` on the `size` bytes at `data` (copied: the target never sees libFuzzer's buffer).
    /// Always returns 0, as libFuzzer expects; a property that does not hold has stopped the process.
    public static func run(_ data: UnsafePointer<UInt8>?, _ size: Int, _ body: ([UInt8]) -> Void) -> CInt {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        body(bytes)
        return 0
    }

    /// Stops the process, naming the property that does not hold, when `condition` is false: libFuzzer
    /// then saves the input as `crash-…` and the run fails.
    public static func check(
        _ condition: Bool, _ property: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
    ) {
        if !condition { violated(property(), file: file, line: line) }
    }

    /// Stops the process: `property` does not hold.
    public static func violated(_ property: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("PROPERTY VIOLATED: \(property)", file: file, line: line)
    }

    /// Whether `text` holds no line break (no `\n` or `\r` scalar, alone or as `\r\n`). One pass over the
    /// scalars: call it with a description computed once (an `HTTPError`'s was a third of `PageBody`'s time).
    public static func isOneLine(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0 == "\n" || $0 == "\r" }
    }

    /// `text` quoted with Swift escapes, for messages: `"a\n\"b\""`.
    public static func quoted(_ text: String) -> String {
        String(reflecting: text)
    }
}
