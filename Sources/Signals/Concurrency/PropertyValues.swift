extension Property where Value: Sendable {
    /// The current value, then every change, as an `AsyncSequence` that never throws.
    ///
    /// Each iterator observes the property from its first `next()`, whose answer is the value current
    /// then; changes are buffered without bound, so the consumer sees every one, in order. The sequence
    /// ends when the property's source is gone (it completed), or when the consuming task is cancelled or
    /// the iterator dropped, which stops the observation. It does not retain the property.
    ///
    /// ```swift
    /// let count = MutableProperty(0)
    /// let view = Property(count)
    /// Task { for await value in view.values { print(value) } }   // 0, then every change
    /// ```
    public var values: Producer<Value, Never>.Values { producer.values }
}

extension MutableProperty where Value: Sendable {
    /// The current value, then every change, as an `AsyncSequence` that never throws.
    ///
    /// Same contract as `Property.values`: the first element is the value current at the first `next()`;
    /// then every change, buffered without bound; the sequence ends when the property is freed or the
    /// consuming task is cancelled. It does not retain the property.
    public var values: Producer<Value, Never>.Values { producer.values }
}
