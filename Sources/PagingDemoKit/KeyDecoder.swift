/// A key the interactive demo understands.
package enum Key: Equatable, Sendable {
    case up, down, pageUp, pageDown, home, end
    /// Ctrl-C read as a byte (when the terminal does not turn it into SIGINT).
    case interrupt
    /// Return (CR or LF).
    case enter
    /// Backspace (DEL or Ctrl-H).
    case backspace
    /// Esc pressed alone: `KeyReader` tells it from the start of a sequence (a read of that byte alone).
    case escape
    /// A printable character.
    case character(Character)
}

/// Turns the bytes of a raw-mode terminal into keys: ASCII characters, Return, Backspace and the escape
/// sequences of the arrow, page and home/end keys (`ESC [ A`, `ESC O A`, `ESC [ 5 ~`, …). Other sequences are skipped.
///
/// An escape sequence split across reads is kept until its end arrives (a lone `ESC` at the end of a read
/// too: it is dropped if the next read does not continue it as a sequence).
package struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    package init() {}

    /// The keys in `bytes`, in order (given what earlier calls left pending).
    package mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
        let input = pending + bytes
        pending = []
        var keys: [Key] = []
        var index = 0
        while index < input.count {
            let byte = input[index]
            guard byte == 0x1B else {
                if byte == 0x03 {
                    keys.append(.interrupt)
                } else if byte == 0x0D || byte == 0x0A {
                    keys.append(.enter)
                } else if byte == 0x7F || byte == 0x08 {
                    keys.append(.backspace)
                } else if byte >= 0x20, byte < 0x7F {
                    keys.append(.character(Character(Unicode.Scalar(byte))))
                }
                index += 1
                continue
            }
            // An escape sequence: ESC, then '[' or 'O', then parameters, then a final byte in 0x40...0x7E.
            guard index + 1 < input.count else {
                pending = [byte]   // a lone ESC at the end: the next read tells what it starts
                break
            }
            let introducer = input[index + 1]
            guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else {
                index += 1   // ESC followed by something else (Alt-key): drop the ESC
                continue
            }
            var end = index + 2
            while end < input.count, !(0x40 ... 0x7E).contains(input[end]) { end += 1 }
            guard end < input.count else {
                pending = Array(input[index...])   // incomplete: wait for the rest
                break
            }
            if let key = Self.key(parameters: input[(index + 2) ..< end], final: input[end]) { keys.append(key) }
            index = end + 1
        }
        return keys
    }

    private static func key(parameters: ArraySlice<UInt8>, final: UInt8) -> Key? {
        switch (String(decoding: parameters, as: UTF8.self), Character(Unicode.Scalar(final))) {
        case ("", "A"): .up
        case ("", "B"): .down
        case ("", "H"), ("1", "~"), ("7", "~"): .home
        case ("", "F"), ("4", "~"), ("8", "~"): .end
        case ("5", "~"): .pageUp
        case ("6", "~"): .pageDown
        default: nil
        }
    }
}
