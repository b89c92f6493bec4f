/// A read-only, observable value: a view of a `MutableProperty`, a constant, or a composition of others.
///
/// `producer` sends the current value, then every change; `signal` sends changes only. Reading `value`
/// and observing are thread-safe and may be done from inside an observer.
///
/// **Ownership.** A view (`Property(mutable)`) keeps its `MutableProperty` alive. A composed
/// property (`map`, `combineLatest`) does *not* retain its sources: it keeps its last value and
/// completes when a source is freed (or when it is freed itself). `Property(value:)` is a constant:
/// its `producer` sends the value and completes, its `signal` has already completed.
public final class Property<Value> {
    @usableFromInline
    let storage: PropertyStorage<Value>
    /// What keeps this property's source going: the viewed `MutableProperty`, or the observations of a
    /// composed property's sources (disposed when this property is freed).
    private let retained: Retained

    private enum Retained {
        case mutable(AnyObject)
        case observations([any Disposable])
        case none
    }

    /// A read-only view of `mutable`, which it keeps alive.
    public init(_ mutable: MutableProperty<Value>) {
        storage = mutable.storage
        retained = .mutable(mutable)
    }

    /// A constant property: `value` never changes.
    public init(value: Value) {
        storage = PropertyStorage(value)
        storage.complete()
        retained = .none
    }

    /// A property that follows `storage`, kept up to date by `observations`.
    init(storage: PropertyStorage<Value>, observations: [any Disposable]) {
        self.storage = storage
        retained = .observations(observations)
    }

    /// The current value.
    public var value: Value { storage.value }

    /// Sends the current value, then every change; completes when the source is gone.
    public var producer: Producer<Value, Never> { storage.producer }

    /// Sends every change (not the current value); completes when the source is gone.
    public var signal: Signal<Value, Never> { storage.signal }

    deinit {
        if case let .observations(observations) = retained {
            for observation in observations { observation.dispose() }
            storage.complete()
        }
    }
}

// All state lives in `storage`, which is lock-guarded; `retained` is immutable.
extension Property: @unchecked Sendable where Value: Sendable {}
