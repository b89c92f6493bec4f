/// What a source learned about how many items its server serves per request.
///
/// Servers that cap the page size (GitHub's `per_page` ≤ 100, Stripe's and Notion's ≤ 100, Slack's ≤ 1000,
/// Django REST framework's `max_limit` and `max_page_size`) serve fewer items than asked, without an
/// error. A short answer is then the end of the feed only when nothing says more remains: what the server
/// says (a total, a next link, `has_more`), or what the source saw. An answer shorter than one the server
/// served before is short by the feed, not by a cap (a cap serves at least that many); an answer shorter
/// than a request the source already fitted to a cap is the end. Otherwise the answer may be capped: the
/// source *suspects* a cap of its size, asks no more than that from then on, and the next answer settles
/// it (one that comes back empty, or short of the suspected cap, is the end; a cap suspected on the very
/// first answer, which may have reached the end itself, is then forgotten).
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
    /// Whether the cap is suspected on the first answer alone (nothing served before it to compare with):
    /// the next answer that ends the feed within a request fitted to it forgets it.
    private(set) var isWeak = false
    /// Where the last answer short by the feed ended (a position of the feed, for sources that read by
    /// position): an answer that ends there again reached the same end, whatever its size.
    private(set) var endSeen: Int?

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
    /// nothing). `end`: for a source that reads by position, the position just after the answer's last
    /// item.
    mutating func judge(served: Int, asked: Int, more: Bool?, end: Int? = nil) -> Verdict {
        let verdict = judging(served: served, asked: asked, more: end != nil && end == endSeen ? false : more)
        if verdict == .end, served > 0, let end { endSeen = end }
        return verdict
    }

    private mutating func judging(served: Int, asked: Int, more: Bool?) -> Verdict {
        let before = note(served)
        guard served < asked else { return .full }
        if served > 0, let more {
            guard more else { return .end }
            learn(served, confirmed: true)
            return .capped
        }
        // A request fitted to the cap: the feed ends within it (and a cap suspected on the first answer alone
        // loses its evidence: that answer may have reached the end too).
        if let cap, asked <= cap {
            if isWeak { refute() }
            return .end
        }
        // No item, or fewer than an answer before held: the feed ends there.
        if served == 0 || served < before { return .end }
        learn(served, confirmed: false)
        isWeak = before == 0 && !isConfirmed
        return .capped
    }

    /// Records that the server serves at most `size` items per request.
    mutating func learn(_ size: Int, confirmed: Bool) {
        cap = min(cap ?? size, size)
        isConfirmed = isConfirmed || confirmed
        if confirmed { isWeak = false }
    }

    /// Records that items turned up beyond a suspected cap: it is real.
    mutating func confirm() {
        if cap != nil { isConfirmed = true }
        isWeak = false
    }

    /// Forgets a suspected cap that the next answer did not bear out (what it left out was gone, not held
    /// back); a confirmed cap stays.
    mutating func refute() {
        if !isConfirmed { cap = nil }
        isWeak = false
    }
}
