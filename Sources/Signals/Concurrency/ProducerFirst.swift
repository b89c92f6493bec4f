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
        var iterator = values.makeAsyncIterator()
        return try await iterator.next(isolation: actor)
    }
}
