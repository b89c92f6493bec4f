extension EventTransformation where Output == Value, OutputFailure == Failure {
    /// `filter`: the values for which `isIncluded` returns `true`; the terminal event passes unchanged.
    @inlinable
    static func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Self {
        Self { downstream in { value in if isIncluded(value) { downstream.forward(value: value) } } }
    }
}

extension EventTransformation where OutputFailure == Failure {
    /// `compactMap`: the non-`nil` results of `transform`; the terminal event passes unchanged.
    @inlinable
    static func compactMap(_ transform: @escaping @Sendable (Value) -> Output?) -> Self {
        Self { downstream in { value in if let mapped = transform(value) { downstream.forward(value: mapped) } } }
    }
}

extension Signal {
    /// A signal of the values for which `isIncluded` returns `true`; terminal events pass through.
    ///
    /// `isIncluded` runs on the delivering thread, once per value. The returned signal terminates when
    /// this one does; this signal retains the returned signal's input until then.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Failure> {
        transformed(by: .filter(isIncluded))
    }

    /// A signal of the non-`nil` results of `transform`; terminal events pass through.
    ///
    /// Same threading and ownership as `map(_:)`.
    @inlinable
    public func compactMap<U>(_ transform: @escaping @Sendable (Value) -> U?) -> Signal<U, Failure> {
        transformed(by: .compactMap(transform))
    }
}

extension Producer {
    /// A producer of the values for which `isIncluded` returns `true`; terminal events pass through.
    ///
    /// Fused with the upstream start handler (no intermediate signal). `isIncluded` runs on the thread
    /// the upstream sends from.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Producer<Value, Failure> {
        transformed(by: .filter(isIncluded))
    }

    /// A producer of the non-`nil` results of `transform`; terminal events pass through.
    ///
    /// Fused with the upstream start handler (no intermediate signal). `transform` runs on the thread
    /// the upstream sends from.
    @inlinable
    public func compactMap<U>(_ transform: @escaping @Sendable (Value) -> U?) -> Producer<U, Failure> {
        transformed(by: .compactMap(transform))
    }
}
