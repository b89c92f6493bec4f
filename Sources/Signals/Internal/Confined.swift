/// State (or a reference) that only one signal's serial delivery touches.
///
/// A signal calls its observers one event at a time, and its lock and delivery hand-off order every
/// call after the previous one (see `Signal`): state reached only from one observer of one signal is
/// therefore guarded by that signal's lock. `Confined` lets such state, typically an operator's
/// accumulator or the downstream observer it forwards to, be captured by the `@Sendable` observer
/// closure. Never share a `Confined` between two signals' observers, or touch it from outside them.
///
/// It is also where a stateful `EventTransformation` keeps its state: a handler called serially needs no
/// run-time exclusivity check on it (a `var` captured by the handler would cost one per access: the
/// `Benchmarks core` signal-operators row measured 940 instructions per value with them, 602 without).
@usableFromInline
final class Confined<T>: @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var value: T

    @usableFromInline
    init(_ value: T) { self.value = value }
}
