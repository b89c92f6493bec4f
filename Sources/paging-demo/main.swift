// paging-demo: an interactive infinite-scroll list over a simulated feed, or (`--script`) a printout
// of the view model's state after each scripted command. See `Docs/Demo.md` and `--help`.
import Foundation
import PagingDemoKit

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("paging-demo: \(message)\n".utf8))
    exit(status)
}

let invocation: DemoInvocation
do {
    invocation = try DemoInvocation.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail("\(error)\nRun 'paging-demo --help' for the options.", status: 2)
}

switch invocation {
case .help:
    print(DemoInvocation.usage)
case let .run(options):
    if let script = options.script {
        do {
            try ScriptRunner(options: options).run(script) { print($0) }
        } catch {
            fail("cannot open the store: \(error)", status: 1)
        }
    } else {
        guard TerminalUI.inputIsTerminal else {
            fail("""
                the interactive mode needs a terminal, and standard input is not one.
                Run it in a terminal, or use the non-interactive mode, for example:
                  swift run paging-demo --script "next,next,fail,retry,reset,next"
                (see --help)
                """, status: 1)
        }
        let demo: InteractiveDemo
        do {
            demo = try InteractiveDemo(options: options)
        } catch {
            fail("cannot open the store: \(error)", status: 1)
        }
        do {
            try demo.start()
        } catch {
            TerminalUI.restore()
            fail("cannot use the terminal: \(error)", status: 1)
        }
        // The main thread runs the main run loop, which drains the main queue: `UIScheduler`'s
        // deliveries, the keys `KeyReader` hands over, and the redraws. It never returns; the demo exits.
        RunLoop.main.run()
    }
}
