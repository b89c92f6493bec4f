import Foundation
import Signals

/// Ready-made triggers for `PaginatedListViewModel.refresh(whenever:ifOlderThan:policy:on:)`: the
/// network coming back (everywhere, from any connectivity property) and, on Apple platforms, the app
/// coming to the foreground. Any other `Signal<Void, Never>` (a timer, a push notification) works too.
public enum RefreshTriggers {
    /// Sends each time `connectivity` turns from `false` to `true` (the network came back), never for its
    /// current value. Completes when the property is freed. The signal lives as long as the property
    /// does; it holds nothing else.
    ///
    /// Give the same property to the view model's `AutomaticRetry(_:on:connectivity:using:)` so that
    /// failed pages wait for the network too.
    public static func reconnections(of connectivity: Property<Bool>) -> Signal<Void, Never> {
        let (reconnections, input) = Signal<Void, Never>.pipe()
        let previous = Locked<Bool?>(nil)
        connectivity.producer.start { event in
            switch event {
            case let .value(connected):
                // Guarded by `previous`'s lock.
                let cameBack = previous.withLock { last -> Bool in
                    defer { last = connected }
                    return connected && last == false
                }
                if cameBack { input.send(value: ()) }
            case .completed, .failed:
                input.sendCompleted()
            case .interrupted:
                input.sendInterrupted()
            }
        }
        return reconnections
    }

    #if canImport(UIKit) && !os(watchOS)
    /// Sends each time the app is about to enter the foreground (`UIApplication.willEnterForegroundNotification`),
    /// on the main thread. One observation of the notification center for the app's life, shared by every
    /// subscriber.
    public static let foregroundEntries: Signal<Void, Never> = notifications(
        named: UIApplication.willEnterForegroundNotification
    )
    #elseif canImport(AppKit)
    /// Sends each time the app becomes active (`NSApplication.didBecomeActiveNotification`), on the main
    /// thread. One observation of the notification center for the app's life, shared by every subscriber.
    public static let foregroundEntries: Signal<Void, Never> = notifications(
        named: NSApplication.didBecomeActiveNotification
    )
    #endif

    /// A signal that sends each time the default notification center posts `name`, for the app's life.
    static func notifications(named name: Notification.Name) -> Signal<Void, Never> {
        let (signal, input) = Signal<Void, Never>.pipe()
        _ = NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { _ in
            input.send(value: ())
        }
        return signal
    }
}

#if canImport(UIKit) && !os(watchOS)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif
