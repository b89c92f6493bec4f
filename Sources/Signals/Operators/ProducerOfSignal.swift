extension Producer where Value: Sendable {
    /// A producer whose every run forwards the events `signal` sends from the run's start on, until the
    /// run is disposed (the observation is detached then) or `signal` terminates (the run ends with the
    /// same event). Started on a signal that has already terminated, a run is interrupted at once.
    ///
    /// For the package's modules: a producer operator applied to a signal (`debounce` on a signal of
    /// triggers in `PaginatedList`).
    package init(_ signal: Signal<Value, Failure>) {
        self.init { observer, lifetime in
            lifetime.add(signal.observe { event in observer.send(event) })
        }
    }
}
