import Foundation
import PaginatedList
import Signals

/// What keeps a store-backed list's pages (a `PageKeeper`): its producers read pages from the store and load
/// the pages past them from the remote source, writing each into the store before the list shows it.
///
/// **The state of a store-backed list** is the view model's, with an origin per page held
/// (`StoredPageOrigin`): the page's row, or a refresh's page not written yet. The pages held are a run of
/// the feed's pages, in order (below a gap: the pages the refresh kept); after every transition of its own,
/// the list's items are the rows of those pages.
///
/// **Producers.** Every page a producer delivers carries the producers of its neighbours, which decide when
/// they start (a page written meanwhile by another list is read, not fetched again):
/// - the first page: the stored page the feed opens at, with no request; the remote source's first page,
///   written, when nothing is stored; for a refresh, the remote's first page, not written;
/// - a neighbour of a stored page: the stored page on that side; past the stored pages, the remote page at
///   the stored key (`previous`, `next`), written next to it in one transaction, then shown as written
///   (the items that became the page's rows); below a gap, the page at the gap's key, written into the gap;
/// - a neighbour started by a refresh (`fillGap()`, the pages after a refresh's first): the remote page at
///   the key, not written.
/// A refresh's pages are written when it lands, as the window the list then holds (`persist(_:)`).
///
/// **Ownership.** The view model's storage owns the keeper; the keeper holds the feed (which holds the
/// store) and the remote source, and the view model weakly (to start a revalidation). Producers hold the
/// keeper; the keeper holds no producer.
final class StoredListKeeper<Remote: KeyedPageSource, Failure: Error>: PageKeeper
where Remote.Item: Codable & Identifiable & Sendable, Remote.Item.ID: Codable & Sendable {
    typealias Item = Remote.Item
    typealias Origin = StoredPageOrigin<Remote.Key>
    typealias ListPage = Page<Item, Failure>
    typealias PageProducer = Producer<ListPage, Failure>

    let feed: StoredFeed<Item>
    let remote: Remote
    let revalidation: Revalidation
    let keys: KeyCoding<Remote.Key>
    /// The list's failure for a failure of the remote source (`StoredListError.remote`).
    let remoteFailure: @Sendable (Remote.Failure) -> Failure
    /// The list's failure for a failure of the store (`StoredListError.store`).
    let storeFailure: @Sendable (StoreError) -> Failure
    /// What the load whose producer is starting is for (set by the view model's drainer around each start).
    private let purpose = Locked<PageLoadPurpose?>(nil)
    /// The list, to revalidate it and to apply what the store's commits change.
    let list = Locked<WeakList<Item, Failure>>(WeakList())
    /// The feed as the change bus names it.
    let busName: FeedName
    /// Hands the list a change of the store (made where `Item` is known: see the view model's initialiser).
    let follow: @Sendable (PaginatedListViewModel<Item, Failure>, FollowedChange<Item, Failure>) -> Void
    /// The commits delivered while pages are on their way to the list (see `LandingWatch.swift`).
    let landing = Locked(LandingWatch())

    var store: PagingStore { feed.store }

    init(
        feed: StoredFeed<Item>, remote: Remote, revalidation: Revalidation,
        remoteFailure: @escaping @Sendable (Remote.Failure) -> Failure, storeFailure: @escaping @Sendable (StoreError) -> Failure,
        follow: @escaping @Sendable (PaginatedListViewModel<Item, Failure>, FollowedChange<Item, Failure>) -> Void
    ) {
        self.feed = feed
        self.follow = follow
        self.remote = remote
        self.revalidation = revalidation
        self.remoteFailure = remoteFailure
        self.storeFailure = storeFailure
        keys = KeyCoding(path: feed.store.path)
        // A type with no stable name cannot be written; its lists never see a commit of their feed.
        busName = (try? feed.busName()) ?? FeedName(type: "", name: feed.name)
    }

    deinit {
        store.database.bus.unregister(ObjectIdentifier(self))
    }

    /// Remembers the list (weakly), to start its revalidation and to follow the store's commits; registers
    /// with the store's change bus.
    func attach(_ viewModel: PaginatedListViewModel<Item, Failure>) {
        list.withLock { $0.value = viewModel }
        store.database.bus.register(self)
    }

    func starting(_ purpose: PageLoadPurpose?) {
        self.purpose.withLock { $0 = purpose }
    }

    private var isRefreshing: Bool { purpose.withLock { $0 } == .refresh }

    func editNotKept(_ failure: Failure) -> PaginatedListDiagnostic {
        .editNotStored(String(describing: failure))
    }

    // MARK: - The first page

    func firstPage() -> PageProducer {
        if isRefreshing {
            // Another process may have written the file: the lists follow it before the network answers.
            _ = try? store.checkForChanges()
            return fresh(at: nil)
        }
        return PageProducer { [self] observer, lifetime in
            let opened: (page: ListPage, fetchedAt: Double)?
            let ticket = beginLanding()
            do throws(StoreError) {
                opened = try store.database.read { connection throws(StoreError) in
                    let tables = FeedTables(connection)
                    guard let feedRow = try feed.row(tables, create: false),
                          let entry = try tables.entryPage(of: feedRow.id) else { return nil }
                    return try read(entry, feed: feedRow, tables)
                }
            } catch {
                abandonLanding(ticket)
                return observer.send(error: storeFailure(error))
            }
            guard let opened else {
                abandonLanding(ticket)
                return fetchAndWrite(at: nil, place: .entry, observer, lifetime)
            }
            send(opened.page, ticket, to: observer)
            observer.sendCompleted()
            revalidate(fetchedAt: opened.fetchedAt)
        }
    }

    /// Starts the revalidation the list was made with, if the stored first page (fetched at `fetchedAt`)
    /// calls for it. Queued behind the landing of the stored page.
    private func revalidate(fetchedAt: Double) {
        let policy: RefreshPolicy? = switch revalidation {
        case let .always(policy): policy
        case let .ifOlderThan(age, policy):
            store.now().timeIntervalSinceReferenceDate - fetchedAt > age.seconds ? policy : nil
        case .never: nil
        }
        guard let policy, let viewModel = list.withLock({ $0.value }) else { return }
        viewModel.refresh(policy)
    }

    // MARK: - Stored pages

    /// The stored page `id` as the list shows it, with the producers of its neighbours, and when it was fetched.
    func read(_ id: Int64, feed feedRow: FeedRef, _ tables: FeedTables) throws(StoreError) -> (page: ListPage, fetchedAt: Double) {
        guard let row = try tables.page(id) else { throw gone() }
        let coding = ItemCoding<Item>(path: store.path)
        let items = try tables.items(ofPage: id, coding)
        let above = try tables.neighbour(of: row.seq, in: feedRow.id, on: .above) != nil || row.links.previous != nil
        let below = row.gapBelow ? row.links.next != nil
            : try tables.neighbour(of: row.seq, in: feedRow.id, on: .below) != nil || row.links.next != nil
        let origin = Origin(row: id)
        let page = ListPage(items: items, previous: above ? neighbour(of: origin, .above) : nil,
                            next: below ? neighbour(of: origin, .below) : nil, diagnostics: [], origin: origin,
                            totalCount: try tables.totalCount(of: feedRow.id))
        return (page, row.fetchedAt)
    }

    /// What lies next to a stored page, on one side.
    private enum Step {
        case stored(ListPage)
        case remote(Remote.Key?, place: Place)
        case end
    }

    /// The producer of the page next to `origin` on `side` (see the type's comment, "Producers").
    func neighbour(of origin: Origin, _ side: Side) -> PageProducer {
        PageProducer { [self] observer, lifetime in
            if isRefreshing {
                let link: Remote.Key??
                do throws(StoreError) { link = try self.link(of: origin, side) } catch { return observer.send(error: storeFailure(error)) }
                guard case let .some(key) = link else {
                    observer.send(value: ListPage(items: [], next: nil))
                    return observer.sendCompleted()
                }
                lifetime.add(fresh(at: key).start(observer))
                return
            }
            let step: Step
            let ticket = beginLanding()
            do throws(StoreError) {
                guard let id = origin.row else { throw gone() }
                step = try store.database.read { connection throws(StoreError) in
                    let tables = FeedTables(connection)
                    guard let feedRow = try feed.row(tables, create: false), let row = try tables.page(id) else { throw gone() }
                    let place: Place = side == .above ? .before(id) : .after(id)
                    if side == .below, row.gapBelow, let link = row.links.next {
                        return .remote(try keys.decode(link, snapshot: row.links.snapshot, tables: tables), place: place)
                    }
                    if let neighbour = try tables.neighbour(of: row.seq, in: feedRow.id, on: side) {
                        return .stored(try read(neighbour, feed: feedRow, tables).page)
                    }
                    guard let link = side == .above ? row.links.previous : row.links.next else { return .end }
                    return .remote(try keys.decode(link, snapshot: row.links.snapshot, tables: tables), place: place)
                }
            } catch {
                abandonLanding(ticket)
                return observer.send(error: storeFailure(error))
            }
            switch step {
            case let .stored(page):
                send(page, ticket, to: observer)
                observer.sendCompleted()
            case .end:
                abandonLanding(ticket)
                observer.send(value: ListPage(items: [], next: nil))
                observer.sendCompleted()
            case let .remote(key, place):
                abandonLanding(ticket)
                fetchAndWrite(at: key, place: place, observer, lifetime)
            }
        }
    }

    /// The link to the page next to `origin` on `side`, for a refresh going on from it: `nil` when nothing
    /// lies there, else the key (`nil` inside: the source's first page).
    private func link(of origin: Origin, _ side: Side) throws(StoreError) -> Remote.Key?? {
        if let fresh = origin.fresh {
            let key = side == .above ? fresh.previous : fresh.next
            return key.map { .some($0) }
        }
        guard let id = origin.row else { throw gone() }
        return try store.database.read { connection throws(StoreError) -> Remote.Key?? in
            let tables = FeedTables(connection)
            guard let row = try tables.page(id) else { throw gone() }
            guard let link = side == .above ? row.links.previous : row.links.next else { return nil }
            return .some(try keys.decode(link, snapshot: row.links.snapshot, tables: tables))
        }
    }

    /// The error of a page the list holds that the store no longer has.
    func gone() -> StoreError {
        StoreError(kind: .sqlite, path: store.path, message:
            "a page this list holds is no longer in the store (the feed was refreshed or cleared elsewhere): refresh the list")
    }

    // MARK: - Remote pages

    /// A refresh's page: the remote page at `key`, not written (it is written when the refresh lands).
    func fresh(at key: Remote.Key?) -> PageProducer {
        remote.page(at: key).mapError(remoteFailure).attemptMap { [self] keyed throws(Failure) in
            do throws(StoreError) {
                let coding = ItemCoding<Item>(path: store.path)
                var encoded: [EncodedItem] = []
                encoded.reserveCapacity(keyed.items.count)
                for item in keyed.items { encoded.append(try coding.encode(item)) }
                let origin = Origin(fresh: FreshPage(
                    key: key, previous: keyed.previous, next: keyed.next, items: encoded,
                    fetchedAt: store.now().timeIntervalSinceReferenceDate, validators: keyed.validators,
                    totalCount: keyed.totalCount))
                return ListPage(items: keyed.items, previous: keyed.previous == nil ? nil : neighbour(of: origin, .above),
                                next: keyed.next == nil ? nil : neighbour(of: origin, .below), diagnostics: [], origin: origin,
                                totalCount: keyed.totalCount)
            } catch {
                throw storeFailure(error)
            }
        }
    }

    /// Loads the remote page at `key`, writes it at `place` in one transaction, and sends it as written.
    ///
    /// Each page the remote sends is written and sent by an inner producer of its own (`flatMap`), which
    /// sends it and then checks what landed meanwhile (`send(_:_:ownCommit:to:)`) on the thread that wrote
    /// it. A remote that sends again after its page failed, or after the run was disposed, writes nothing:
    /// `flatMap` starts no inner producer once its output ended.
    private func fetchAndWrite(at key: Remote.Key?, place: Place, _ observer: Signal<ListPage, Failure>.Observer, _ lifetime: Lifetime) {
        let written = remote.page(at: key).mapError(remoteFailure).flatMap(.concat) { [self] keyed in
            PageProducer { [self] inner, _ in
                let ticket = beginLanding()
                let written: (page: ListPage, commit: UInt64?)
                do throws(StoreError) {
                    written = try write(keyed, at: key, place: place)
                } catch {
                    abandonLanding(ticket)
                    return inner.send(error: storeFailure(error))
                }
                send(written.page, ticket, ownCommit: written.commit, to: inner)
                inner.sendCompleted()
            }
        }
        lifetime.add(written.start(observer))
    }

    /// Writes a remote page; returns it as the list shows it, and the sequence number of its commit.
    private func write(_ keyed: KeyedPage<Item, Remote.Key>, at key: Remote.Key?, place: Place) throws(StoreError) -> (ListPage, UInt64?) {
        let coding = ItemCoding<Item>(path: store.path)
        var encoded: [EncodedItem] = []
        encoded.reserveCapacity(keyed.items.count)
        for item in keyed.items { encoded.append(try coding.encode(item)) }
        let fetchedAt = store.now().timeIntervalSinceReferenceDate
        var commit: ChangeRecord?
        let (outcome, pending) = try store.database.write(by: ObjectIdentifier(self)) { connection, record throws(StoreError) in
            commit = record
            record.writerFollowsItems = true
            let tables = FeedTables(connection)
            let feedRow = try feed.row(tables, create: true)!
            let links = try keys.links(key: key, previous: keyed.previous, next: keyed.next, feed: feedRow.id, tables: tables)
            let outcome = try PageWriting(tables: tables, feed: feedRow, name: busName, record: record).write(
                encoded, values: keyed.items, links: links, at: place, fetchedAt: fetchedAt, validators: keyed.validators,
                totalCount: keyed.totalCount, ends: keyed.next == nil)
            // An item with an optimistic edit pending shows the edit on top of the page's value: decoded
            // before the commit, so that a value that no longer decodes rolls the page's write back.
            var shown: [String: Item] = [:]
            for (name, item) in try store.database.pending.settle(connection, record) where name.type == busName.type {
                if let value = item.shown.value as? Item {
                    shown[name.key] = value
                } else {
                    shown[name.key] = try coding.decode(item.shown.body)
                }
            }
            return (outcome, shown)
        }
        switch outcome {
        case let .written(written):
            let origin = Origin(row: written.page)
            var items = written.rows.map { keyed.items[$0] }
            if !pending.isEmpty {
                for (offset, index) in written.rows.enumerated() {
                    if let value = pending[encoded[index].key] { items[offset] = value }
                }
            }
            let page = ListPage(items: items,
                                previous: written.above ? neighbour(of: origin, .above) : nil,
                                next: written.below ? neighbour(of: origin, .below) : nil, diagnostics: [], origin: origin,
                                totalCount: keyed.totalCount)
            return (page, commit?.sequence)
        case let .filled(page):
            // Another list wrote the page meanwhile: the list shows what is stored.
            let stored = try store.database.read { connection throws(StoreError) in
                let tables = FeedTables(connection)
                guard let feedRow = try feed.row(tables, create: false) else { throw gone() }
                return try read(page, feed: feedRow, tables).page
            }
            return (stored, commit?.sequence)
        }
    }
}

extension StoredListKeeper: FeedKeeping {
    var keptFeed: any Sendable { feed }
}

/// A view model, weakly.
struct WeakList<Item, Failure: Error> {
    weak var value: PaginatedListViewModel<Item, Failure>?
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
