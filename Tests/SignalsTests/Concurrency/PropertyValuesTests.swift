import Testing
import Signals

@Suite struct PropertyValuesTests {
    @Test func mutablePropertyValuesStartWithTheCurrentValueThenEveryChange() async {
        let property = MutableProperty(1)
        var iterator = property.values.makeAsyncIterator()
        #expect(await iterator.next() == 1)
        property.value = 2
        property.value = 3
        #expect(await iterator.next() == 2)
        #expect(await iterator.next() == 3)
    }

    @Test func propertyValuesStartWithTheCurrentValueThenEveryChange() async {
        let source = MutableProperty("a")
        let property = Property(source)
        var iterator = property.values.makeAsyncIterator()
        #expect(await iterator.next() == "a")
        source.value = "b"
        #expect(await iterator.next() == "b")
    }

    @Test func theFirstValueIsTheOneCurrentAtTheFirstNext() async {
        let property = MutableProperty(1)
        var iterator = property.values.makeAsyncIterator()
        property.value = 2
        #expect(await iterator.next() == 2)
    }

    @Test func valuesEndWhenTheMutablePropertyIsFreed() async {
        var property: MutableProperty<Int>? = MutableProperty(1)
        var iterator = property!.values.makeAsyncIterator()
        #expect(await iterator.next() == 1)
        property = nil
        #expect(await iterator.next() == nil)
    }

    @Test func iteratingValuesDoesNotRetainTheProperty() async {
        var property: MutableProperty<Int>? = MutableProperty(1)
        weak let weakProperty = property
        var iterator = property!.values.makeAsyncIterator()
        _ = await iterator.next()
        property = nil
        #expect(weakProperty == nil)
    }

    @Test func constantPropertyValuesSendTheValueThenEnd() async {
        var seen: [Int] = []
        for await value in Property(value: 5).values { seen.append(value) }
        #expect(seen == [5])
    }
}
