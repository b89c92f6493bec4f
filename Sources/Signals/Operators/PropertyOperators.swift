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
        let link = PropertyLink<LatestPair<Value, Other>, (Value, Other)>(LatestPair()) { $0.pair }
        let first = a.storage.observeChanges { event in
            if case let .value(value) = event { link.update { $0.first = value } } else { link.complete() }
        }
        let second = b.storage.observeChanges { event in
            if case let .value(value) = event { link.update { $0.second = value } } else { link.complete() }
        }
        let result = link.connect { parts in
            if parts.first == nil { parts.first = first.current }
            if parts.second == nil { parts.second = second.current }
        }
        return Property<(Value, Other)>(storage: result, observations: [first.observation, second.observation].compactMap { $0 })
    }
}

/// The latest value of each source of `Property.combineLatest`, once it has one: the parts of its
/// `PropertyLink`.
struct LatestPair<First, Second> {
    var first: First?
    var second: Second?

    /// Both values, once each source has one.
    var pair: (First, Second)? {
        guard let first, let second else { return nil }
        return (first, second)
    }
}

/// Connects a composed property to the observations of its sources.
///
/// A source's change can arrive (on another thread) between the moment its current value is read
/// and the moment the result's storage exists: until `connect`, changes only update `parts`; after it,
/// each change updates `parts` and sets the storage to `combine(parts)`, submitted under `lock` (so that
/// changes of several sources reach the result in the order they were made) and delivered after it.
final class PropertyLink<Parts, Value>: @unchecked Sendable {
    // `@unchecked Sendable`: `state` is only touched with `lock` held; `combine` is immutable.
    let lock = Lock()
    /// Pure, non-user code (building a tuple, unwrapping): may run under `lock`.
    let combine: (Parts) -> Value?
    /// Guarded by `lock`.
    var state: PropertyLinkState<Parts, Value>

    init(_ parts: Parts, combine: @escaping (Parts) -> Value?) {
        state = PropertyLinkState(parts: parts)
        self.combine = combine
    }

    func update(_ change: (inout Parts) -> Void) {
        switch lock.locked({ state.update(change, combine) }) {
        case .none: return
        case let .deliver(delivery, target): target.core.deliver(delivery)
        }
    }

    func complete() {
        switch lock.locked({ state.complete() }) {
        case .none: return
        case let .complete(target): target?.complete()
        }
    }

    /// Creates the result's storage from `parts`, after `fill` supplied the parts no change has set yet.
    func connect(_ fill: (inout Parts) -> Void) -> PropertyStorage<Value> {
        switch lock.locked({ state.connect(fill, combine) }) {
        case let .open(storage):
            return storage
        case let .completed(storage):
            storage.complete()
            return storage
        }
    }
}

/// The lock-guarded state of a `PropertyLink`: the parts so far, the result's storage once connected, and
/// whether a source completed. Each method says what to do once the lock is released.
struct PropertyLinkState<Parts, Value> {
    var parts: Parts
    var target: PropertyStorage<Value>?
    var isCompleted = false

    init(parts: Parts) {
        self.parts = parts
    }

    enum UpdateAction {
        /// Nothing to deliver: completed, not connected yet, no value yet, or queued for the thread
        /// delivering the result's changes.
        case none
        /// The result's storage holds the new value: run its delivery.
        case deliver(SignalCore<Value, Never>.Delivery, to: PropertyStorage<Value>)
    }

    mutating func update(_ change: (inout Parts) -> Void, _ combine: (Parts) -> Value?) -> UpdateAction {
        guard !isCompleted else { return .none }
        change(&parts)
        guard let target, let value = combine(parts), let delivery = target.stage(value) else { return .none }
        return .deliver(delivery, to: target)
    }

    enum CompleteAction {
        /// Completed already.
        case none
        /// Complete the result's storage (if it is connected yet; `connect` completes it otherwise).
        case complete(PropertyStorage<Value>?)
    }

    mutating func complete() -> CompleteAction {
        guard !isCompleted else { return .none }
        isCompleted = true
        return .complete(target)
    }

    enum Connection {
        /// The result's storage, following its sources.
        case open(PropertyStorage<Value>)
        /// The result's storage; a source completed before it existed: complete it.
        case completed(PropertyStorage<Value>)
    }

    mutating func connect(_ fill: (inout Parts) -> Void, _ combine: (Parts) -> Value?) -> Connection {
        fill(&parts)
        let storage = PropertyStorage(combine(parts)!)
        target = storage
        return isCompleted ? .completed(storage) : .open(storage)
    }
}
