#if canImport(Glibc)
import Signals
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PagingDemoKit

/// The terminal: raw mode in and out, its restoration on every exit path, its size, and drawing.
///
/// **Restoring.** `enterRawMode()` saves the terminal's settings in `saved`, a `Locked`, and switches to the
/// alternate screen. `restore()` takes them out (so it runs once) and puts them back. It is called on `q`,
/// from the handler of SIGINT/SIGTERM, and from an `atexit` hook (any other `exit`). The signals are not
/// handled in signal context: they are ignored with `signal(_, SIG_IGN)` and observed by dispatch sources
/// on a queue of their own, so the handler is ordinary code that may take the lock, call `tcsetattr`,
/// `write` and `exit`; being off the main queue, it works even while the main thread is busy.
enum TerminalUI {
    /// The settings to restore; `nil` when the terminal is not (or no longer) in raw mode.
    private static let saved = Locked<termios?>(nil)

    /// Whether standard input is a terminal.
    static var inputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Switches the terminal to raw input (no echo, no line editing: each key is read as it is typed;
    /// Ctrl-C still sends SIGINT, Ctrl-Z is disabled), hides the cursor and shows the alternate screen. Installs the handlers
    /// that restore it all: keep the returned signal sources for as long as the program runs.
    static func enterRawMode() throws(TerminalError) -> [any DispatchSourceSignal] {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { throw TerminalError(call: "tcgetattr") }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
            // No Ctrl-Z: a stopped demo would come back to a terminal its shell had reset under it.
            cc[Int(VSUSP)] = posixDisabled
        }
        saved.withLock { $0 = original }
        atexit { TerminalUI.restore() }
        let sources = installSignalHandlers()
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else {
            restore()
            throw TerminalError(call: "tcsetattr")
        }
        output("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J\u{1B}[H")
        return sources
    }

    /// Puts the saved settings back, shows the cursor and leaves the alternate screen. Idempotent; safe
    /// from any thread.
    static func restore() {
        guard var original = saved.withLock({ $0.take() }) else { return }
        output("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &original)
    }

    /// On SIGINT (Ctrl-C) and SIGTERM: restore the terminal, then exit with 128 + the signal number.
    private static func installSignalHandlers() -> [any DispatchSourceSignal] {
        let queue = DispatchQueue(label: "paging-demo.signals")
        return [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                restore()
                exit(128 + number)
            }
            source.resume()
            return source
        }
    }

    /// On SIGWINCH (the window was resized): call `action` on the main queue. Keep the returned source.
    static func onResize(_ action: @escaping @Sendable () -> Void) -> any DispatchSourceSignal {
        signal(SIGWINCH, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        source.setEventHandler(handler: action)
        source.resume()
        return source
    }

    /// The window's size in characters; 80×24 if it cannot be read.
    static var size: (width: Int, height: Int) {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return (80, 24)
        }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Draws `lines` from the top-left corner, over what was there (no full clear, so no flicker).
    static func draw(_ lines: [ListScreen.Line]) {
        var frame = "\u{1B}[H"
        for (number, line) in lines.enumerated() {
            if number > 0 { frame += "\r\n" }
            frame += style(line) + "\u{1B}[K"
        }
        frame += "\u{1B}[J"
        output(frame)
    }

    /// Draws two screens side by side, each `width` columns wide, with a rule between them.
    static func draw(_ left: [ListScreen.Line], beside right: [ListScreen.Line], width: Int) {
        var frame = "\u{1B}[H"
        for number in 0 ..< max(left.count, right.count) {
            if number > 0 { frame += "\r\n" }
            if number < left.count {
                var padded = left[number]
                padded.text = String(padded.text.prefix(width))
                padded.text += String(repeating: " ", count: max(width - padded.text.count, 0))
                frame += style(padded)
            } else {
                frame += String(repeating: " ", count: width)
            }
            frame += " \u{1B}[2m│\u{1B}[0m "
            if number < right.count { frame += style(right[number]) }
            frame += "\u{1B}[K"
        }
        frame += "\u{1B}[J"
        output(frame)
    }

    /// `line`'s text wrapped in the ANSI attributes of its style.
    private static func style(_ line: ListScreen.Line) -> String {
        let attributes = switch line.style {
        case .title: "1"            // bold
        case .rule, .help: "2"      // dim
        case .cursorRow: "7"        // reverse video
        case .placeholder: "33"     // yellow
        case .gap: "1;36"           // bold cyan
        case .header: "1;34"        // bold blue
        case .error: "1;31"         // bold red
        case .row, .status: ""
        }
        return attributes.isEmpty ? line.text : "\u{1B}[\(attributes)m\(line.text)\u{1B}[0m"
    }

    /// Writes `text` to standard output, unbuffered.
    static func output(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// `_POSIX_VDISABLE` (a macro Swift does not import): the value of a disabled control character.
#if canImport(Darwin)
private let posixDisabled: cc_t = 0xFF
#else
private let posixDisabled: cc_t = 0
#endif

/// A terminal call that failed.
struct TerminalError: Error, CustomStringConvertible {
    let call: String
    var description: String { "\(call) failed: \(String(cString: strerror(errno)))" }
}
