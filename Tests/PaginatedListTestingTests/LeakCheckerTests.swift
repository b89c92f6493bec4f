import PaginatedListTesting
import Signals
import Testing

private final class Model: Sendable {}

@Suite struct LeakCheckerTests {
    @Test func aFreedObjectIsNotReportedAlive() {
        let leaks = LeakChecker()
        do {
            let model = Model()
            leaks.watch(model)
        }
        #expect(leaks.allFreed)
        #expect(leaks.alive == [])
    }

    @Test func anObjectStillReferencedIsReportedWithItsNameAndWhereItWasWatched() {
        let leaks = LeakChecker()
        let kept = Model()
        leaks.watch(kept, name: "kept")
        #expect(!leaks.allFreed)
        #expect(leaks.alive.count == 1)
        #expect(leaks.alive.first?.hasPrefix("kept (watched at PaginatedListTestingTests/LeakCheckerTests.swift:") == true)
        withExtendedLifetime(kept) {}
    }

    @Test func theDefaultNameIsTheObjectsType() {
        let leaks = LeakChecker()
        let kept = MutableProperty(0)
        leaks.watch(kept)
        #expect(leaks.alive.first?.hasPrefix("MutableProperty<Int> ") == true)
        withExtendedLifetime(kept) {}
    }

    @Test func anObjectKeptAliveByAnObserverIsReportedUntilTheSignalTerminates() {
        let leaks = LeakChecker()
        let (signal, input) = Signal<Int, Never>.pipe()
        do {
            let model = Model()
            leaks.watch(model)
            signal.observe { _ in _ = model }
        }
        #expect(!leaks.allFreed)
        input.sendCompleted()
        #expect(leaks.allFreed)
    }
}
