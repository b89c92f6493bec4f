import Signals

/// Runs `body` with `object` on the main actor: at once when called there, else enqueued on the main
/// queue (unless `object` is gone by then). The main-actor mirrors apply what their lists deliver through
/// it; running at once never shows a state out of order, as each mirror's `body` reads the latest state.
func onMainActor<Object: AnyObject & Sendable>(_ object: Object?, _ body: @escaping @MainActor (Object) -> Void) {
    guard UIScheduler.isOnMainQueue else {
        UIScheduler().schedule { [weak object] in
            MainActor.assumeIsolated {
                if let object { body(object) }
            }
        }
        return
    }
    MainActor.assumeIsolated {
        if let object { body(object) }
    }
}
