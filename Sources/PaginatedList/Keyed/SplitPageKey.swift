/// A page key made of a part shared by every page of a chain (an ID snapshot) and a small part per page
/// (an index): a store keeps the shared part once per feed instead of in every page's key.
package protocol SplitPageKey: Codable, SendableMetatype {
    /// The part every page of a chain shares.
    associatedtype Shared: Codable & Hashable & Sendable
    /// The part that says where this page is.
    associatedtype Local: Codable & Sendable

    var shared: Shared { get }
    var local: Local { get }
    init(shared: Shared, local: Local)
}
