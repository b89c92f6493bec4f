import Testing
import Signals

@Test func pipeDeliversValues() {
    let (signal, input) = Signal<Int, Never>.pipe()
    let seen = MutableProperty<[Int]>([])
    signal.observeValues { v in seen.modify { $0.append(v) } }
    input.send(value: 1)
    input.send(value: 2)
    #expect(seen.value == [1, 2])
}
