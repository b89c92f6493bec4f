/// A fuzz input read as the values a target needs, front to back: a byte, a number in a range, a choice,
/// a string. Reading past the end gives zeros and empty strings, so every input, however short, is a
/// complete case (libFuzzer's shortest inputs are the commonest).
public struct FuzzInput {
    private let bytes: [UInt8]
    /// The index of the next byte to read.
    public private(set) var offset = 0

    /// An input over `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { offset >= bytes.count }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A number in `range` from the next byte (two bytes when the range is wider than 256).
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let width = range.upperBound - range.lowerBound + 1
        let raw = width <= 256 ? Int(byte()) : Int(byte()) << 8 | Int(byte())
        return range.lowerBound + raw % width
    }

    /// A number below `bound` (0 when `bound` is 0 or less).
    public mutating func below(_ bound: Int) -> Int {
        bound <= 0 ? 0 : int(in: 0 ... bound - 1)
    }

    /// A Boolean from the next byte's low bit.
    public mutating func bool() -> Bool {
        byte() & 1 == 1
    }

    /// One of `options` (which must not be empty).
    public mutating func pick<T>(_ options: [T]) -> T {
        options[below(options.count)]
    }

    /// The next eight bytes as a `Double`'s bits: any double, NaNs and infinities included.
    public mutating func doubleBits() -> Double {
        var bits: UInt64 = 0
        for _ in 0 ..< 8 { bits = bits << 8 | UInt64(byte()) }
        return Double(bitPattern: bits)
    }

    /// A string of at most `maxBytes` bytes of UTF-8 (its length is the next byte), invalid UTF-8 repaired.
    public mutating func string(maxBytes: Int = 255) -> String {
        let length = min(Int(byte()), maxBytes, bytes.count - min(offset, bytes.count))
        defer { offset += length }
        return String(decoding: bytes[min(offset, bytes.count) ..< min(offset, bytes.count) + length], as: UTF8.self)
    }

    /// The bytes not read yet (and the input is then at its end).
    public mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return offset < bytes.count ? Array(bytes[offset...]) : []
    }
}
