/// Things registered in order, each with the token that unregisters it: the lock-guarded list of a
/// `Lifetime`'s endings and of a `CompositeDisposable`'s items. Not thread-safe (the owner's lock guards
/// it); empty (no allocation) until the first registration.
struct Registrations<Element> {
    /// One registered element and the token that unregisters it.
    struct Entry {
        let token: UInt64
        let element: Element
    }

    private var entries: [Entry] = []
    private var nextToken: UInt64 = 0

    init() {}

    /// Appends `element`; returns the token that unregisters it.
    mutating func add(_ element: Element) -> UInt64 {
        let token = nextToken
        nextToken += 1
        entries.append(Entry(token: token, element: element))
        return token
    }

    /// Removes the element `token` and returns it, to be released outside the lock (`nil` if it was
    /// removed already).
    mutating func remove(_ token: UInt64) -> Element? {
        guard let index = entries.firstIndex(where: { $0.token == token }) else { return nil }
        return entries.remove(at: index).element
    }

    /// Removes every element; returns the entries in the order they were registered.
    mutating func removeAll() -> [Entry] {
        defer { entries = [] }
        return entries
    }
}
