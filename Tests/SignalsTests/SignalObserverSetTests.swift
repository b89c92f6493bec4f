import PaginatedListTesting
import Signals
import Testing

/// A signal keeps its one observer alone and a list from the second one on: whatever the order of attaches
/// and detaches, during a delivery or not, each observer receives exactly the values sent while it was
/// attached, and a detached observer is released once no delivery can still be reading it.
@Suite struct SignalObserverSetTests {
    @Test func theOnlyObserverDisposedInItsOwnCallbackMissesTheQueuedEventAndIsReleasedAfterTheDelivery() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<String>()
        let observation = Log<any Disposable>()
        let watched = Self.observeWithCapture(signal) { _ in
            { value in
                log.append("A\(value)")
                guard value == 1 else { return }
                input.send(value: 2)                      // queued behind this event
                observation.last?.dispose()
            }
        } observation: { observation.append($0) }
        input.send(value: 1)
        #expect(log.all == ["A1"])
        #expect(!watched.isAlive)
    }

    @Test func anObserverThatDisposesItselfMidDeliveryIsKeptUntilTheDeliveryEnds() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<String>()
        let observation = Log<any Disposable>()
        let watched = Self.observeWithCapture(signal) { _ in
            { value in
                log.append("A\(value)")
                observation.last?.dispose()
            }
        } observation: { observation.append($0) }
        signal.observeValues { value in
            // The next observer of the same event: the delivery may still read A's box.
            log.append("B\(value) " + (watched.isAlive ? "A kept" : "A released"))
        }
        input.send(value: 1)
        input.send(value: 2)
        #expect(log.all == ["A1", "B1 A kept", "B2 A released"])
    }

    /// Observes `signal` with the action `make` returns for a new object, which only that action holds;
    /// returns a weak reference to the object.
    private static func observeWithCapture(
        _ signal: Signal<Int, Never>,
        _ make: (WeakReference) -> @Sendable (Int) -> Void,
        observation: (any Disposable) -> Void
    ) -> WeakReference {
        let object = Tracked()
        let watched = WeakReference(object)
        let action = make(watched)
        observation(signal.observeValues { [object] value in
            withExtendedLifetime(object) {}
            action(value)
        }!)
        return watched
    }

    @Test func aSecondObserverAttachedAndTheFirstDisposedDuringADeliveryEachGetTheirShare() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<String>()
        let first = Log<any Disposable>()
        first.append(signal.observeValues { value in
            log.append("A\(value)")
            guard value == 1 else { return }
            signal.observeValues { log.append("B\($0)") }   // the signal's second observer: now a list
            input.send(value: 2)
            first.last?.dispose()                            // back to one
        }!)
        input.send(value: 1)
        input.send(value: 3)
        signal.observeValues { log.append("C\($0)") }
        input.send(value: 4)
        #expect(log.all == ["A1", "B2", "B3", "B4", "C4"])
    }

    @Test func disposingAnObservationAgainLeavesTheSignalsNewOnlyObserverAttached() throws {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<String>()
        let first = try #require(signal.observeValues { log.append("A\($0)") })
        first.dispose()
        let second = try #require(signal.observeValues { log.append("B\($0)") })
        first.dispose()
        input.send(value: 1)
        #expect(log.all == ["B1"])
        #expect(first.isDisposed)
        #expect(!second.isDisposed)
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func observersAttachedAndDetachedInAnyOrderEachReceiveTheValuesSentWhileAttached(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let (signal, input) = Signal<Int, Never>.pipe()
        var attached: [(id: Int, observation: any Disposable)] = []
        var expected: [Int: [Int]] = [:]
        let received = Log<(id: Int, value: Int)>()
        for step in 0..<2_000 {
            switch Int.random(in: 0..<3, using: &random) {
            case 0 where attached.count < 5:
                let id = step
                expected[id] = []
                attached.append((id, signal.observeValues { received.append((id, $0)) }!))
            case 1 where !attached.isEmpty:
                attached.remove(at: Int.random(in: 0..<attached.count, using: &random)).observation.dispose()
            default:
                input.send(value: step)
                for observer in attached { expected[observer.id, default: []].append(step) }
            }
        }
        var actual: [Int: [Int]] = expected.mapValues { _ in [] }
        for entry in received.all { actual[entry.id, default: []].append(entry.value) }
        #expect(actual == expected, "seed \(seed)")
        for observer in attached {
            #expect(observer.observation.isDisposed == false)
        }
    }
}
