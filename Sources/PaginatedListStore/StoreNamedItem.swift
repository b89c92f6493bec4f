/// An item type that names itself in a store: its rows are kept under `storeTypeName` instead of its Swift
/// name.
///
/// A store keeps each item type's rows under a name, and finds them again by it. Without this conformance the
/// name is the type's full Swift name (`String(reflecting:)`, "MyApp.Post"): renaming the type or its module,
/// or moving it into another type, leaves its stored rows behind (its feeds look empty; the rows stay in the
/// file). A conforming type keeps its rows whatever it is called; to rename a type and keep its rows, give it
/// its old Swift name here.
///
/// A type with no stable Swift name must conform: one declared inside a function, or `private` or
/// `fileprivate` (Swift names its context by an address, which changes from launch to launch). The store
/// refuses such a type otherwise: every operation on its feeds throws `StoreError.Kind.decoding`, and nothing
/// is written.
public protocol StoreNamedItem {
    /// The name the type's rows are kept under in every store: not empty, and the same at every launch.
    static var storeTypeName: String { get }
}
