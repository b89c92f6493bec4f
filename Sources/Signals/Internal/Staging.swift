/// A change already applied and queued in its stream, whose delivery the caller runs later.
///
/// The view model publishes one transition to several properties as follows: it *stages* every change
/// (each property's value is set and the event queued in order, no observer called), then *delivers* the
/// staged changes. When any observer runs, every property of the transition already holds its new value.
/// For the package's own modules: users never need it.
// Inlinable, with the two `stage` methods: the view model stages its `Bool`, `ItemListChange` and `Void`
// changes in every transition; unspecialised, each stage looked up the generic metadata of the signal's
// event, pending and delivery types (`Benchmarks itemlist`, view model rows: -21% instructions per page).
@usableFromInline
package struct StagedDelivery {
    @usableFromInline let run: () -> Void

    @inlinable
    init(_ run: @escaping () -> Void) { self.run = run }

    /// Delivers the staged change (and whatever was queued behind it) to the observers.
    @inlinable
    package func deliver() { run() }
}

extension MutableProperty {
    /// Sets the value and queues the change without calling any observer; returns the delivery to run
    /// (`nil` if no observer is attached, or if another thread is delivering this property's changes and
    /// will deliver this one too).
    @inlinable
    package func stage(_ newValue: Value) -> StagedDelivery? {
        let storage = self.storage
        guard let delivery = storage.stage(newValue) else { return nil }
        return StagedDelivery { storage.core.deliver(delivery) }
    }
}

extension Signal.Observer {
    /// Queues `event` on this input's signal without calling any observer; returns the delivery to run
    /// (`nil` if the event was dropped, or queued behind a delivery in progress on another thread).
    @inlinable
    package func stage(_ event: Event<Value, Failure>) -> StagedDelivery? {
        guard let core, let delivery = core.submit(event) else { return nil }
        return StagedDelivery { core.deliver(delivery) }
    }
}
