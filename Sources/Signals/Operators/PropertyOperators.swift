extension Property {
    /// A property whose value is always `transform(self.value)`.
    ///
    /// Does not retain `self`: the result keeps its last value and completes when this property's
    /// source is freed, or when the result itself is freed. `transform` runs once now, then once per
    /// change, on the thread that made the change.
    public func map<U>(_ transform: @escaping @Sendable (Value) -> U) -> Property<U> {
        let link = PropertyLink<U?, U>(nil) { $0 }
        let (current, observation) = storage.observeChanges { event in
            if case let .value(value) = event {
                let mapped = transform(value)
                link.update { $0 = mapped }
            } else {
                link.complete()
            }
        }
        let initial = transform(current)
        let result = link.connect { parts in if parts == nil { parts = initial } }
        return Property<U>(storage: result, observations: observation.map { [$0] } ?? [])
    }

    /// A property whose value is always the pair of the values of `a` and `b`:
    /// `Property.combineLatest(a, b)`.
    ///
    /// (There is deliberately no instance-method form: with `Property`'s conditional `Sendable`
    /// conformance, an instance `combineLatest` stops Swift 6.3 from inferring `Value` in
    /// `Property.combineLatest(a, b)`.)
    ///
    /// Retains neither source: the result keeps its last value and completes when either source is
    /// freed, or when it is freed itself. Changes of both sources are ordered by a lock; each sends
    /// one new pair.
    public static func combineLatest<Other>(_ a: Property<Value>, _ b: Property<Other>) -> Property<(Value, Other)> {
        let link = PropertyLink<(Value?, Other?), (Value, Other)>((nil, nil)) { parts in
            guard let first = parts.0, let second = parts.1 else { return nil }
            return (first, second)
        }
        let first = a.storage.observeChanges { event in
            if case let .value(value) = event { link.update { $0.0 = value } } else { link.complete() }
        }
        let second = b.storage.observeChanges { event in
            if case let .value(value) = event { link.update { $0.1 = value } } else { link.complete() }
        }
        let result = link.connect { parts in
            if parts.0 == nil { parts.0 = first.current }
            if parts.1 == nil { parts.1 = second.current }
        }
        return Property<(Value, Other)>(storage: result, observations: [first.observation, second.observation].compactMap { $0 })
    }
}

/// Connects a composed property to the observations of its sources.
///
/// A source's change can arrive (on another thread) between the moment its current value is read
/// and the moment the result's storage exists: until `connect`, changes only update `parts`; after it,
/// each change updates `parts` and sets the storage to `combine(parts)`, submitted under `lock` (so that
/// changes of several sources reach the result in the order they were made) and delivered after it.
final class PropertyLink<Parts, Value>: @unchecked Sendable {
    let lock = Lock()
    /// Pure, non-user code (building a tuple, unwrapping): may run under `lock`.
    let combine: (Parts) -> Value?
    // Guarded by `lock`.
    var parts: Parts
    var target: PropertyStorage<Value>?
    var isCompleted = false

    init(_ parts: Parts, combine: @escaping (Parts) -> Value?) {
        self.parts = parts
        self.combine = combine
    }

    func update(_ change: (inout Parts) -> Void) {
        let outcome = lock.locked { () -> (PropertyStorage<Value>, Signal<Value, Never>.Delivery)? in
            guard !isCompleted else { return nil }
            change(&parts)
            guard let target, let value = combine(parts) else { return nil }
            return target.stage(value).map { (target, $0) }
        }
        if let (target, delivery) = outcome { target.core.deliver(delivery) }
    }

    func complete() {
        let target = lock.locked { () -> PropertyStorage<Value>? in
            guard !isCompleted else { return nil }
            isCompleted = true
            return self.target
        }
        target?.complete()
    }

    /// Creates the result's storage from `parts`, after `fill` supplied the parts no change has set yet.
    func connect(_ fill: (inout Parts) -> Void) -> PropertyStorage<Value> {
        let (storage, completed) = lock.locked { () -> (PropertyStorage<Value>, Bool) in
            fill(&parts)
            let storage = PropertyStorage(combine(parts)!)
            target = storage
            return (storage, isCompleted)
        }
        if completed { storage.complete() }
        return storage
    }
}
