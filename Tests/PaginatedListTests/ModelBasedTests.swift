import Foundation
import PaginatedList
import PaginatedListTesting
import Signals
import Testing

/// What the view model should hold, computed from the operations alone.
struct ReferenceModel {
    enum Phase: Equatable {
        /// `pending` is the id of the producer the next load starts (`nil`: ask the dependency).
        case idle(pending: Int?)
        /// `run` (an index into the source's runs) of producer `producer` is in flight.
        case loading(producer: Int, run: Int)
        case failed(TestError, retry: Int)
        case exhausted
    }

    var items: [Int] = []
    var phase = Phase.idle(pending: nil)
    var firstPageCalls = 0
    var runsStarted = 0
    /// Empty pages landed in a row since the last command that started a load.
    var emptyPagesInARow = 0
    var itemsSends = 0
    var changes: [ItemListChange] = []
    var diagnostics: [PaginatedListDiagnostic] = []

    /// The state of the next page's load.
    var append: LoadState<TestError> {
        switch phase {
        case .idle: .idle
        case .loading: .loading
        case let .failed(error, _): .failed(error)
        case .exhausted: .complete
        }
    }

    var loadingRun: Int? {
        if case let .loading(_, run) = phase { return run }
        return nil
    }
}

/// One random sequence: a view model over a scripted source, the reference model, and the checks.
final class ModelRun {
    enum Operation: CaseIterable {
        case loadNextPage, reset, reload
        case deliverPage, deliverPageWithoutCompleting, deliverLastPage
        case fail, completeWithoutPage, interruptWithoutPage
        case lateDelivery, release
    }

    let seed: UInt64
    private var rng: SplitMix64
    private var source = ScriptedSource()
    private var viewModel: TestViewModel?
    private var model = ReferenceModel()
    private var itemsSends = Counter()
    private var changes = Recorder<ItemListChange>()
    private var diagnostics = Recorder<PaginatedListDiagnostic>()
    private var torn = Counter()
    private var nextItem = 0
    private(set) var failed = false

    init(seed: UInt64) {
        self.seed = seed
        rng = SplitMix64(seed: seed)
        start()
    }

    /// A fresh view model, source and model (at the beginning, and after a release).
    private func start() {
        source = ScriptedSource()
        model = ReferenceModel()
        itemsSends = Counter()
        torn = Counter()
        let viewModel = TestViewModel(dependency: source, scheduler: ImmediateScheduler())
        changes = Recorder(viewModel.changes)
        diagnostics = Recorder(viewModel.diagnostics)
        let (itemsSends, torn) = (itemsSends, torn)
        viewModel.items.signal.observeValues { [weak viewModel] items in
            itemsSends.increment()
            // Every observer sees the whole transition: the properties agree with each other and with the items.
            if let viewModel {
                let snapshot = viewModel.snapshot
                if !snapshot.isConsistent || snapshot.items != Array(items) { torn.increment() }
            }
        }
        viewModel.loading.signal.observeValues { [weak viewModel] _ in
            if let viewModel, !viewModel.snapshot.isConsistent { torn.increment() }
        }
        self.viewModel = viewModel
    }

    private func pick() -> Operation {
        let loading = model.loadingRun != nil
        // Answers only make sense while a page loads; weight them up then.
        let weighted: [(Operation, Int)] = [
            (.loadNextPage, 12), (.reset, 3), (.reload, 3),
            (.deliverPage, loading ? 16 : 0), (.deliverPageWithoutCompleting, loading ? 4 : 0),
            (.deliverLastPage, loading ? 3 : 0), (.fail, loading ? 6 : 0),
            (.completeWithoutPage, loading ? 2 : 0), (.interruptWithoutPage, loading ? 1 : 0),
            (.lateDelivery, source.runs.count > (loading ? 1 : 0) ? 6 : 0), (.release, 1),
        ]
        var roll = rng.below(weighted.reduce(0) { $0 + $1.1 })
        for (operation, weight) in weighted {
            if roll < weight { return operation }
            roll -= weight
        }
        fatalError("unreachable")
    }

    private func freshItems(max: Int) -> [Int] {
        let count = rng.below(max + 1)
        defer { nextItem += count }
        return Array(nextItem ..< nextItem + count)
    }

    // MARK: Operations, applied to the view model and to the model

    private func loadNextPage() {
        let made = source.producersMade
        viewModel!.loadNextPage()
        expectLoadStarted(newProducer: made)
    }

    /// After a `loadNextPage` command: the model's idea of which producer starts, if any. A first page is
    /// a new producer, the one the source made first during the command (`newProducer`).
    private func expectLoadStarted(newProducer: Int) {
        let producer: Int
        switch model.phase {
        case let .idle(pending):
            if let pending {
                producer = pending
            } else {
                model.firstPageCalls += 1
                producer = newProducer
            }
        case let .failed(_, retry):
            producer = retry
        case .loading, .exhausted:
            return
        }
        model.emptyPagesInARow = 0
        expectRunStarted(producer: producer)
    }

    /// The view model started `producer` as its next run.
    private func expectRunStarted(producer: Int) {
        let run = model.runsStarted
        model.runsStarted += 1
        guard source.runs.count > run else { return }   // reported by `check`
        let started = source.runs[run].producerID
        if started != producer {
            failed = true
            #expect(started == producer, "seed \(seed): started producer \(started), expected \(producer)")
        }
        model.phase = .loading(producer: started, run: run)
    }

    private func reset() {
        let cutOff = model.loadingRun
        viewModel!.reset()
        applyReset()
        if let cutOff, !source.runs[cutOff].wasCutOff {
            failed = true
            #expect(Bool(false), "seed \(seed): reset did not interrupt run \(cutOff)")
        }
    }

    private func applyReset() {
        if !model.items.isEmpty {
            model.items = []
            model.itemsSends += 1
            model.changes.append(.reset)
        }
        model.phase = .idle(pending: nil)
    }

    private func reload() {
        let cutOff = model.loadingRun
        let made = source.producersMade
        viewModel!.reload()
        applyReset()
        expectLoadStarted(newProducer: made)
        if let cutOff, !source.runs[cutOff].wasCutOff {
            failed = true
            #expect(Bool(false), "seed \(seed): reload did not interrupt run \(cutOff)")
        }
    }

    private func deliver(last: Bool, complete: Bool) {
        guard case let .loading(_, run) = model.phase else { return }
        let items = freshItems(max: 3)
        let nextID = source.producersMade
        let next = last ? nil : source.producer()
        if complete {
            source.runs[run].deliver(items, next: next)
        } else {
            source.runs[run].sendPage(items, next: next)
        }
        if !items.isEmpty {
            model.changes.append(.appended(model.items.count ..< model.items.count + items.count))
            model.items += items
            model.itemsSends += 1
        }
        model.phase = last ? .exhausted : .idle(pending: nextID)
        // An empty page that is not the last loads the next at once, up to the bound per command.
        if items.isEmpty, !last {
            model.emptyPagesInARow += 1
            if model.emptyPagesInARow < 10 {
                expectRunStarted(producer: nextID)
            } else {
                model.diagnostics.append(.emptyPagesLimitReached(count: model.emptyPagesInARow))
            }
        }
    }

    private func answerWithoutPage(_ operation: Operation) {
        guard case let .loading(producer, run) = model.phase else { return }
        switch operation {
        case .fail:
            let error = TestError(rng.below(4))
            source.runs[run].fail(error)
            model.phase = .failed(error, retry: producer)
        case .completeWithoutPage:
            source.runs[run].complete()
            model.phase = .idle(pending: producer)
            model.diagnostics.append(.completedWithoutPage)
        default:
            source.runs[run].interruptItself()
            model.phase = .idle(pending: producer)
            model.diagnostics.append(.interruptedWithoutPage)
        }
    }

    /// An old run (cut off, answered, or failed) sends again: nothing may change.
    private func lateDelivery() {
        let candidates = source.runs.indices.filter { $0 != model.loadingRun }
        guard !candidates.isEmpty else { return }
        let run = source.runs[candidates[rng.below(candidates.count)]]
        switch rng.below(3) {
        case 0: run.deliver(freshItems(max: 3), next: rng.below(2) == 0 ? nil : source.producer())
        case 1: run.sendPage(freshItems(max: 3), next: nil)
        default: run.fail(TestError(9))
        }
    }

    private func release(step: Int) {
        weak let released = viewModel
        viewModel = nil
        if released != nil {
            failed = true
            #expect(Bool(false), "seed \(seed) step \(step): the released view model is still alive")
        }
        if source.activeRuns != 0 {
            failed = true
            #expect(Bool(false), "seed \(seed) step \(step): \(source.activeRuns) runs outlived the view model")
        }
        start()
    }

    func step(_ index: Int) {
        let operation = pick()
        switch operation {
        case .loadNextPage: loadNextPage()
        case .reset: reset()
        case .reload: reload()
        case .deliverPage: deliver(last: false, complete: true)
        case .deliverPageWithoutCompleting: deliver(last: false, complete: false)
        case .deliverLastPage: deliver(last: true, complete: true)
        case .fail, .completeWithoutPage, .interruptWithoutPage: answerWithoutPage(operation)
        case .lateDelivery: lateDelivery()
        case .release: release(step: index)
        }
        check(step: index, after: operation)
    }

    private func check(step: Int, after operation: Operation) {
        guard let viewModel else { return }
        let context = "seed \(seed) step \(step) after \(operation)"
        let snapshot = viewModel.snapshot
        var mismatches: [String] = []
        if snapshot.items != model.items { mismatches.append("items \(snapshot.items), expected \(model.items)") }
        if snapshot.append != model.append { mismatches.append("append \(snapshot.append), expected \(model.append)") }
        if !snapshot.isConsistent { mismatches.append("properties disagree: \(snapshot)") }
        if source.activeRuns != (model.loadingRun == nil ? 0 : 1) {
            mismatches.append("\(source.activeRuns) runs in flight, expected \(model.loadingRun == nil ? 0 : 1)")
        }
        if source.runs.count != model.runsStarted {
            mismatches.append("\(source.runs.count) runs started, expected \(model.runsStarted)")
        }
        if source.firstPageCalls != model.firstPageCalls {
            mismatches.append("\(source.firstPageCalls) first pages asked for, expected \(model.firstPageCalls)")
        }
        if itemsSends.count != model.itemsSends {
            mismatches.append("items sent \(itemsSends.count) times, expected \(model.itemsSends)")
        }
        if changes.values != model.changes { mismatches.append("changes \(changes.values), expected \(model.changes)") }
        if diagnostics.values != model.diagnostics {
            mismatches.append("diagnostics \(diagnostics.values), expected \(model.diagnostics)")
        }
        if torn.count != 0 { mismatches.append("an observer saw a torn transition") }
        if !mismatches.isEmpty {
            failed = true
            #expect(mismatches.isEmpty, "\(context): \(mismatches.joined(separator: "; "))")
        }
    }
}

@Suite("Model-based")
struct ModelBasedTests {
    /// Replays one sequence: `PAGINATED_LIST_SEED=<seed> swift test --filter ModelBasedTests`.
    static let replaySeed = ProcessInfo.processInfo.environment["PAGINATED_LIST_SEED"].flatMap { UInt64($0) }

    @Test func randomSequencesAgreeWithTheReferenceModel() {
        let seeds: [UInt64]
        if let replay = Self.replaySeed {
            seeds = [replay]
        } else {
            var seedSource = SplitMix64(seed: 0x5EED_0F_7A6E5)
            seeds = (0 ..< seededRunCount(2_000)).map { _ in seedSource.next() }
        }
        for seed in seeds {
            let run = ModelRun(seed: seed)
            for step in 0 ..< 40 where !run.failed {
                run.step(step)
            }
            if run.failed { break }   // one failing seed is enough to replay
        }
    }
}
