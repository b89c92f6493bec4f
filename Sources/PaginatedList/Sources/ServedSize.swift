/// What a source learned about how many items its server serves per request.
///
/// Servers that cap the page size (GitHub's `per_page` ≤ 100, Stripe's and Notion's ≤ 100, Slack's ≤ 1000,
/// Django REST framework's `max_limit` and `max_page_size`) serve fewer items than asked, without an
/// error. A short answer is then the end of the feed only when nothing says more remains: what the server
/// says (a total, a next link, `has_more`), or what the source saw. An answer shorter than one the server
/// served before is short by the feed, not by a cap (a cap serves at least that many); an answer shorter
/// than a request the source already fitted to a cap is the end. Otherwise the answer may be capped: the
/// source *suspects* a cap of its size, asks no more than that from then on, and the next answer settles
/// it (one that comes back empty, or short of the suspected cap, is the end, and the suspicion goes).
///
/// A value, carried along a page chain: every start of a page's producer sees what the pages before it
/// learned.
struct ServedSize: Sendable, Equatable {
    /// The most items one answer held.
    private(set) var largest = 0
    /// The most items the server serves per request, as far as the source knows (`nil`: no sign of a cap).
    private(set) var cap: Int?
    /// Whether an answer proved `cap`: the server said more remained after an answer of that size, or
    /// items turned up beyond it.
    private(set) var isConfirmed = false

    /// What an answer to a request is.
    enum Verdict: Equatable {
        /// It holds every item asked for.
        case full
        /// It holds fewer, because the server serves no more per request: more remain after it.
        case capped
        /// It holds fewer because the feed ends within it.
        case end
    }

    /// `asked`, or the cap when it is smaller: a request never asks for more than the server serves.
    func fitted(_ asked: Int) -> Int {
        cap.map { min($0, asked) } ?? asked
    }

    /// Records that an answer held `served` items; returns the most one held before it.
    @discardableResult
    mutating func note(_ served: Int) -> Int {
        defer { largest = max(largest, served) }
        return largest
    }

    /// Judges an answer of `served` items to a request for `asked`, and learns from it. `more`: what the
    /// server said about items after the answer (`true`: more remain; `false`: none; `nil`: it said
    /// nothing).
    mutating func judge(served: Int, asked: Int, more: Bool?) -> Verdict {
        let before = note(served)
        guard served < asked else { return .full }
        if served > 0, let more {
            guard more else { return .end }
            learn(served, confirmed: true)
            return .capped
        }
        // A request fitted to the cap: the feed ends within it (and a suspected cap loses its evidence: the
        // answer that suggested it may have reached the end too).
        if let cap, asked <= cap {
            refute()
            return .end
        }
        // No item, or fewer than an answer before held: the feed ends there.
        if served == 0 || served < before { return .end }
        learn(served, confirmed: false)
        return .capped
    }

    /// Records that the server serves at most `size` items per request.
    mutating func learn(_ size: Int, confirmed: Bool) {
        cap = min(cap ?? size, size)
        isConfirmed = isConfirmed || confirmed
    }

    /// Records that items turned up beyond a suspected cap: it is real.
    mutating func confirm() {
        if cap != nil { isConfirmed = true }
    }

    /// Forgets a suspected cap that the next answer did not bear out (what it left out was gone, not held
    /// back); a confirmed cap stays.
    mutating func refute() {
        if !isConfirmed { cap = nil }
    }
}
