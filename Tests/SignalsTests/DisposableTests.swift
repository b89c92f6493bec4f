import Signals
import Testing

/// `AnyDisposable`, `CompositeDisposable`, `SerialDisposable`, `ScopedDisposable`.
@Suite struct DisposableTests {
    // MARK: AnyDisposable

    @Test func anAnyDisposableRunsItsActionOnceEvenWhenDisposedFromEightThreads() {
        for _ in 0..<100 {
            let runs = Counter()
            let disposable = AnyDisposable { runs.increment() }
            onThreads(8) { _ in disposable.dispose() }
            #expect(runs.value == 1)
            #expect(disposable.isDisposed)
        }
    }

    @Test func anAnyDisposableReleasesItsActionAfterRunningIt() {
        weak var weakCapture: Tracked?
        let disposable: AnyDisposable
        do {
            let capture = Tracked()
            weakCapture = capture
            disposable = AnyDisposable { _ = capture }
        }
        #expect(weakCapture != nil)
        disposable.dispose()
        #expect(weakCapture == nil)
    }

    @Test func anAnyDisposableWithoutActionRecordsItsDisposal() {
        let disposable = AnyDisposable()
        #expect(!disposable.isDisposed)
        disposable.dispose()
        #expect(disposable.isDisposed)
    }

    // MARK: A producer's run

    @Test func aRunDisposedFromInsideItsOwnDeliveryReadsAsDisposedAtOnce() {
        let probe = Probe<Int, TestError>()
        let run = Locked<(any Disposable)?>(nil)
        let seen = Locked<Bool?>(nil)
        let disposable = probe.producer.start { event in
            guard case .value = event, let run = run.withLock({ $0 }) else { return }
            run.dispose()
            seen.withLock { $0 = run.isDisposed }
        }
        run.withLock { $0 = disposable }
        probe.input.send(value: 1)
        #expect(seen.withLock { $0 } == true)
        #expect(disposable.isDisposed)
    }

    // MARK: CompositeDisposable

    @Test func aCompositeDisposesEverythingInTheOrderItWasAdded() {
        let log = Log<Int>()
        let composite = CompositeDisposable()
        for index in 1...3 { composite.add { log.append(index) } }
        composite.dispose()
        composite.dispose()
        #expect(composite.isDisposed)
        #expect(log.all == [1, 2, 3])
    }

    @Test func aCompositeMadeFromASequenceDisposesItsElements() {
        let items: [any Disposable] = [AnyDisposable(), AnyDisposable()]
        CompositeDisposable(items).dispose()
        #expect(items.allSatisfy { $0.isDisposed })
    }

    @Test func addingToADisposedCompositeDisposesAtOnceAndReturnsNil() {
        let composite = CompositeDisposable()
        composite.dispose()
        let item = AnyDisposable()
        #expect(composite.add(item) == nil)
        #expect(item.isDisposed)
    }

    @Test func theHandleReturnedByAddRemovesTheItemWithoutDisposingIt() throws {
        let composite = CompositeDisposable()
        let item = AnyDisposable()
        let handle = try #require(composite.add(item))
        handle.dispose()
        #expect(!item.isDisposed)
        composite.dispose()
        #expect(!item.isDisposed)
    }

    @Test func addingNilReturnsNil() {
        #expect(CompositeDisposable().add(nil as (any Disposable)?) == nil)
    }

    @Test func concurrentAddsAndADisposeDisposeEveryItemExactlyOnce() {
        let composite = CompositeDisposable()
        let runs = Counter()
        onThreads(8) { index in
            for _ in 0..<200 { composite.add { runs.increment() } }
            if index == 0 { composite.dispose() }
        }
        composite.dispose()
        #expect(runs.value == 8 * 200)
    }

    // MARK: SerialDisposable

    @Test func settingASerialDisposablesInnerDisposesThePreviousOne() {
        let serial = SerialDisposable()
        let first = AnyDisposable()
        let second = AnyDisposable()
        serial.inner = first
        serial.inner = second
        #expect(first.isDisposed)
        #expect(!second.isDisposed)
        #expect(serial.inner === second)
    }

    @Test func disposingASerialDisposableDisposesItsInner() {
        let inner = AnyDisposable()
        let serial = SerialDisposable(inner)
        serial.dispose()
        #expect(serial.isDisposed)
        #expect(inner.isDisposed)
        #expect(serial.inner == nil)
    }

    @Test func settingTheInnerOfADisposedSerialDisposableDisposesItAtOnce() {
        let serial = SerialDisposable()
        serial.dispose()
        let late = AnyDisposable()
        serial.inner = late
        #expect(late.isDisposed)
    }

    // MARK: ScopedDisposable

    @Test func aScopedDisposableDisposesItsInnerWhenReleased() {
        let inner = AnyDisposable()
        do {
            let scoped = ScopedDisposable(inner)
            #expect(!scoped.isDisposed)
        }
        #expect(inner.isDisposed)
    }
}
