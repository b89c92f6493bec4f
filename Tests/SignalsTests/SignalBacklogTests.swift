import Signals
import Testing

/// A signal whose delivery never catches up keeps a queue that follows the backlog, not the traffic.
@Suite struct SignalBacklogTests {
    /// The observer keeps `backlog` events queued behind the one it is handling (each event it sees
    /// sends one more), so the queue never drains until the end: a million events pass through a
    /// queue that never holds more than `backlog + 1`.
    @Test func aSustainedBacklogOfAMillionEventsKeepsTheQueueBoundedByTheBacklog() {
        let total = 1_000_000
        let backlog = 64
        let (signal, input) = Signal<Int, Never>.pipe()
        let largestCapacity = Counter()
        let received = Counter()
        let nextToSend = Counter()
        signal.observeValues { value in
            received.increment()
            if value == 0 {
                for _ in 0..<backlog { input.send(value: nextToSend.increment()) }
            } else if nextToSend.value < total - 1 {
                input.send(value: nextToSend.increment())
            }
            largestCapacity.raise(to: signal.pendingEventCapacity)
        }
        input.send(value: 0)
        #expect(received.value == total)
        #expect(largestCapacity.value <= 2 * (backlog + 1))
    }
}
