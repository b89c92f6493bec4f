import Foundation

/// What a page source reads from a body, in one decoding pass: the items at their path, the values at
/// the paths its paging style and error envelope look at, and a field of the last item.
struct BodyPlan: Sendable {
    /// Where the items are; `nil`: a top-level array, or the first of `items`, `data`, `results`.
    var items: JSONPath?
    /// The paths whose values are read (absent ones are simply not found).
    var lookups: [JSONPath]
    /// The field of the last item to read (Stripe's `starting_after` takes the last item's `id`).
    var lastItemField: String?

    /// The key under which the plan travels in the decoder's `userInfo`.
    static let userInfoKey = CodingUserInfoKey(rawValue: "PaginatedListHTTP.BodyPlan")!
}

/// Why a body's items could not be read.
enum ItemsFailure: Error {
    /// Nothing at the items' path (or no array where the automatic lookup looks).
    case missing(JSONPath?)
    /// The items are there but do not decode.
    case undecodable(any Error)
}

/// A body read by a `BodyPlan` (given in the decoder's `userInfo`).
struct PageBody<Item: Decodable>: Decodable {
    /// The items, or why they could not be read (an error envelope may explain it: checked first).
    let items: Result<[Item], ItemsFailure>
    /// The values found at the plan's lookups.
    let values: [JSONPath: JSONValue]
    /// The last item's field, if asked for and present.
    let lastItemField: JSONValue?

    init(from decoder: any Decoder) throws {
        guard let plan = decoder.userInfo[BodyPlan.userInfoKey] as? BodyPlan else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "PageBody decoded without a plan"))
        }
        let root = try? decoder.container(keyedBy: AnyKey.self)
        var values: [JSONPath: JSONValue] = [:]
        if let root {
            for path in plan.lookups {
                if let value = Self.value(at: path, in: root) { values[path] = value }
            }
        }
        self.values = values

        // Where the items are: a key of an object, or the body itself.
        let location: (parent: KeyedDecodingContainer<AnyKey>, key: AnyKey)?
        if let path = plan.items {
            guard let last = path.components.last else {
                location = nil
                (items, lastItemField) = Self.read({ try decoder.unkeyedContainer() }, plan.lastItemField)
                return
            }
            guard let root, let parent = Self.container(at: path.components.dropLast(), in: root),
                  let key = AnyKey.find(last, in: parent) else {
                items = .failure(.missing(path))
                lastItemField = nil
                return
            }
            location = (parent, key)
        } else if let root {
            guard let key = ["items", "data", "results"].lazy.compactMap({ AnyKey.find($0, in: root) }).first else {
                items = .failure(.missing(nil))
                lastItemField = nil
                return
            }
            location = (root, key)
        } else {
            location = nil
        }
        if let (parent, key) = location {
            (items, lastItemField) = Self.read({ try parent.nestedUnkeyedContainer(forKey: key) }, plan.lastItemField)
        } else {
            (items, lastItemField) = Self.read({ try decoder.unkeyedContainer() }, plan.lastItemField)
        }
    }

    /// The items of the array `array()` opens, and the last one's `field`.
    private static func read(
        _ array: () throws -> any UnkeyedDecodingContainer, _ field: String?
    ) -> (Result<[Item], ItemsFailure>, JSONValue?) {
        var elements: any UnkeyedDecodingContainer
        do {
            elements = try array()
        } catch {
            return (.failure(.undecodable(error)), nil)
        }
        var items: [Item] = []
        if let count = elements.count { items.reserveCapacity(count) }
        do {
            while !elements.isAtEnd { items.append(try elements.decode(Item.self)) }
        } catch {
            return (.failure(.undecodable(error)), nil)
        }
        guard let field, !items.isEmpty, var again = try? array() else { return (.success(items), nil) }
        for _ in 0 ..< items.count - 1 { _ = try? again.decode(Skip.self) }
        return (.success(items), (try? again.decode(JSONValue.self))?.member(field))
    }

    /// The container at `components` below `root`, if each is an object.
    private static func container(
        at components: ArraySlice<String>, in root: KeyedDecodingContainer<AnyKey>
    ) -> KeyedDecodingContainer<AnyKey>? {
        var container = root
        for name in components {
            guard let key = AnyKey.find(name, in: container),
                  let nested = try? container.nestedContainer(keyedBy: AnyKey.self, forKey: key) else { return nil }
            container = nested
        }
        return container
    }

    /// The value at `path` below `root`, or `nil` if a key on the way is missing.
    private static func value(at path: JSONPath, in root: KeyedDecodingContainer<AnyKey>) -> JSONValue? {
        guard let last = path.components.last, let parent = container(at: path.components.dropLast(), in: root),
              let key = AnyKey.find(last, in: parent) else { return nil }
        return try? parent.decode(JSONValue.self, forKey: key)
    }

    /// Decodes nothing: steps over an array element.
    private struct Skip: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}
