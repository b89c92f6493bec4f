import Signals
import Testing

/// `Lifetime`: ends once, when its token goes away or is ended; runs its actions then, or at once if late.
@Suite struct LifetimeTests {
    @Test func aLifetimeEndsWhenItsTokenIsReleased() {
        let ended = Flag()
        let lifetime: Lifetime
        do {
            let (made, token) = Lifetime.make()
            lifetime = made
            lifetime.observeEnded { ended.set() }
            #expect(!lifetime.hasEnded)
            withExtendedLifetime(token) {}
        }
        #expect(lifetime.hasEnded)
        #expect(ended.isSet)
    }

    @Test func endingTheTokenEndsTheLifetimeBeforeTheTokenIsReleased() {
        let (lifetime, token) = Lifetime.make()
        token.end()
        #expect(lifetime.hasEnded)
    }

    @Test func observeEndedOnAnEndedLifetimeRunsAtOnceAndReturnsNil() {
        let (lifetime, token) = Lifetime.make()
        token.end()
        let ran = Flag()
        let registration = lifetime.observeEnded { ran.set() }
        #expect(ran.isSet)
        #expect(registration == nil)
    }

    @Test func endedActionsRunOnceInTheOrderTheyWereRegistered() {
        let (lifetime, token) = Lifetime.make()
        let log = Log<Int>()
        for index in 1...3 { lifetime.observeEnded { log.append(index) } }
        token.end()
        token.end()
        #expect(log.all == [1, 2, 3])
    }

    @Test func disposingARegistrationUnregistersItsAction() {
        let (lifetime, token) = Lifetime.make()
        let ran = Flag()
        lifetime.observeEnded { ran.set() }?.dispose()
        token.end()
        #expect(!ran.isSet)
    }

    @Test func anAddedDisposableIsDisposedWhenTheLifetimeEnds() {
        let (lifetime, token) = Lifetime.make()
        let disposable = AnyDisposable()
        lifetime.add(disposable)
        #expect(!disposable.isDisposed)
        token.end()
        #expect(disposable.isDisposed)
    }

    @Test func endedActionsAreReleasedAfterRunning() {
        let (lifetime, token) = Lifetime.make()
        weak var weakCapture: Tracked?
        do {
            let capture = Tracked()
            weakCapture = capture
            lifetime.observeEnded { _ = capture }
        }
        #expect(weakCapture != nil)
        token.end()
        #expect(weakCapture == nil)
    }

    @Test func theForeverLifetimeHasNotEnded() {
        #expect(!Lifetime.forever.hasEnded)
    }
}
