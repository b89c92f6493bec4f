extension Producer where Value: Sendable {
    /// Starts a run and returns its first value, disposing the run once that value has arrived.
    ///
    /// The run starts on the caller's thread, inside this call. Returns `nil` if the run completes or
    /// is interrupted before sending a value, and `nil` (having disposed the run) if the calling task is
    /// cancelled first.
    ///
    /// - Throws: the run's error, if it fails before sending a value.
    ///
    /// ```swift
    /// let page = try await firstPage.first()
    /// ```
    public func first(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Value? {
        // `take(first: 1)` disposes the run inside the delivery of its first value: a producer that sends
        // its values synchronously in its start handler stops there, instead of running to its end (or
        // forever) into the iterator's buffer before `next()` returns.
        var iterator = take(first: 1).values.makeAsyncIterator()
        return try await iterator.next(isolation: actor)
    }
}
