/// State (or a reference) that only one signal's serial delivery touches.
///
/// A signal calls its observers one event at a time, and its lock and delivery hand-off order every
/// call after the previous one (see `Signal`): state reached only from one observer of one signal is
/// therefore guarded by that signal's lock. `Confined` lets such state, typically an operator's
/// accumulator or the downstream observer it forwards to, be captured by the `@Sendable` observer
/// closure. Never share a `Confined` between two signals' observers, or touch it from outside them.
@usableFromInline
final class Confined<T>: @unchecked Sendable {
    @usableFromInline var value: T

    @inlinable
    init(_ value: T) { self.value = value }
}
