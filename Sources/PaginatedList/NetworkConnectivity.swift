#if canImport(Network)
import Dispatch
import Network
import Signals

/// Whether the device can reach the network, as `NWPathMonitor` sees it (Apple platforms): the
/// connectivity property `AutomaticRetry(_:on:connectivity:using:)` waits on, and the reconnections that
/// `refresh(whenever:ifOlderThan:policy:on:)` can follow.
///
/// ```swift
/// let network = NetworkConnectivity()
/// let viewModel = PaginatedListViewModel(
///     retry: AutomaticRetry(on: QueueScheduler.main, connectivity: network.isConnected)
/// ) { feed.firstPage() }
/// viewModel.refresh(whenever: network.reconnections, ifOlderThan: .seconds(60), policy: .replace,
///                   on: QueueScheduler.main)
/// ```
///
/// Monitors from creation until it is released (`NWPathMonitor.cancel()`): keep it for as long as its
/// properties are watched (a stored property of the screen or the app). `isConnected` and `reconnections`
/// do not keep it alive: taken from a temporary (`NetworkConnectivity().isConnected`), they stop at once,
/// `isConnected` staying `true`. Updates arrive on a private queue. `isConnected` starts `true`
/// (optimistic, so the first load is not held back) and follows the path's status from its first update on.
public final class NetworkConnectivity {
    /// `true` while the current network path is satisfied (it can carry traffic).
    public let isConnected: Property<Bool>
    /// Sends each time the network comes back (`isConnected` turns from `false` to `true`).
    public let reconnections: Signal<Void, Never>
    private let monitor: NWPathMonitor

    /// Starts monitoring every interface, or only `interfaceType` if given (`.wifi`, `.cellular`).
    public init(interfaceType: NWInterface.InterfaceType? = nil) {
        let monitor = interfaceType.map { NWPathMonitor(requiredInterfaceType: $0) } ?? NWPathMonitor()
        let connected = MutableProperty(true)
        monitor.pathUpdateHandler = { path in
            connected.value = path.status == .satisfied
        }
        monitor.start(queue: DispatchQueue(label: "PaginatedList.NetworkConnectivity"))
        self.monitor = monitor
        isConnected = Property(connected)
        reconnections = RefreshTriggers.reconnections(of: isConnected)
    }

    deinit {
        monitor.cancel()
    }
}
#endif
