import Signals
import Testing

@Test func propertyMapFollowsTheSource() {
    let source = MutableProperty(1)
    let doubled = Property(source).map { $0 * 2 }
    let recorder = Recorder<Int, Never>()
    doubled.producer.start { recorder.record($0) }
    source.value = 5
    #expect(doubled.value == 10)
    #expect(recorder.values == [2, 10])
}

@Test func propertyMapDoesNotRetainItsSource() {
    weak var weakSource: MutableProperty<Int>?
    let mapped: Property<Int>
    do {
        let source = MutableProperty(1)
        weakSource = source
        mapped = Property(source).map { $0 + 1 }
    }
    #expect(weakSource == nil)
    #expect(mapped.value == 2)
}

@Test func propertyMapCompletesWhenTheSourceIsFreed() {
    var source: MutableProperty<Int>? = MutableProperty(1)
    let mapped = Property(source!).map { $0 + 1 }
    let recorder = Recorder<Int, Never>()
    mapped.signal.observe { recorder.record($0) }
    source!.value = 2
    source = nil
    #expect(recorder.events == [.value(3), .completed])
    #expect(mapped.value == 3)
}

@Test func propertyMapCompletesWhenItIsFreed() {
    let source = MutableProperty(1)
    var mapped: Property<Int>? = Property(source).map { $0 }
    let recorder = Recorder<Int, Never>()
    mapped!.signal.observe { recorder.record($0) }
    mapped = nil
    source.value = 2
    #expect(recorder.events == [.completed])
}

@Test func propertyCombineLatestPairsTheValues() {
    let name = MutableProperty("a")
    let count = MutableProperty(1)
    let combined = Property.combineLatest(Property(name), Property(count))
    let recorder = Recorder<String, Never>()
    combined.producer.map { "\($0)\($1)" }.start { recorder.record($0) }
    name.value = "b"
    count.value = 2
    #expect(recorder.values == ["a1", "b1", "b2"])
    #expect(combined.value == ("b", 2))
}

@Test func propertyCombineLatestDoesNotRetainItsSources() {
    weak var weakFirst: MutableProperty<Int>?
    let other = MutableProperty(0)
    let combined: Property<(Int, Int)>
    do {
        let first = MutableProperty(1)
        weakFirst = first
        combined = Property.combineLatest(Property(first), Property(other))
    }
    #expect(weakFirst == nil)
    #expect(combined.value == (1, 0))
}

@Test func propertyCombineLatestCompletesWhenASourceIsFreedAndKeepsItsLastValue() {
    var first: MutableProperty<Int>? = MutableProperty(1)
    let second = MutableProperty(2)
    let combined = Property.combineLatest(Property(first!), Property(second))
    let recorder = Recorder<Int, Never>()
    combined.signal.map { $0 + $1 }.observe { recorder.record($0) }
    first = nil
    second.value = 10
    #expect(recorder.events == [.completed])
    #expect(combined.value == (1, 2))
}
