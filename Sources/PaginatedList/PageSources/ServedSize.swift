/// What a source learned about how many items its server serves per request.
///
/// Servers that cap the page size (GitHub's `per_page` ≤ 100, Stripe's and Notion's ≤ 100, Slack's ≤ 1000,
/// Django REST framework's `max_limit` and `max_page_size`) serve fewer items than asked, without an
/// error. A short answer is then the end of the feed only when nothing says more remain. What the server
/// says settles it at once (a total, a next link, `has_more`: more remain, the cap is *confirmed*). Else
/// the source judges by what it saw: an answer shorter than one the server served before is short by the
/// feed (a cap serves at least that many), and so is one shorter than a confirmed cap asked for. Any
/// other short answer may be capped: the source *suspects* a cap of its size and does not end the list
/// there, and the next answers settle it — one of the same size that serves items past where the suspect
/// one ended confirms it; one that ends no further, or a short answer to a request no larger than it, is
/// the end (and the suspicion goes).
///
/// Only a confirmed cap changes how a source asks (it never asks for more): a server that does not cap
/// costs at most a request to settle a suspicion, and is never read as if it did. A cap under
/// `ServedSize.leastInferred` (8) is confirmed only by the server's word: near the end of a feed that changes,
/// answers of a few items repeat by chance.
///
/// A value, carried along a page chain: every start of a page's producer sees what the pages before it
/// learned.
struct ServedSize: Sendable, Equatable {
    /// The most items one answer held.
    private(set) var largest = 0
    /// The most items the server serves per request, once confirmed.
    private(set) var cap: Int?
    /// A cap an answer suggested but nothing confirmed yet: its size, and (for a source that reads by
    /// position) the position just after the answer's last item.
    private(set) var suspected: Suspicion?
    /// The last answer short by the feed (for a source that reads by position): an answer from elsewhere
    /// that ends where it ended reached the same end, whatever its size (a cap would end it elsewhere).
    private(set) var endSeen: Span?

    /// A cap suggested by an answer.
    struct Suspicion: Sendable, Equatable {
        let size: Int
        /// Where the answer ended (`nil`: a source that does not read by position).
        let end: Int?
    }

    /// The positions an answer held.
    struct Span: Sendable, Equatable {
        let start: Int
        let end: Int
    }

    /// What an answer to a request is.
    enum Verdict: Equatable {
        /// It holds every item asked for.
        case full
        /// It holds fewer, because the server serves no more per request (or may: a suspected cap): more
        /// remain after it.
        case capped
        /// It holds fewer because the feed ends within it.
        case end
    }

    /// The smallest cap confirmed by what the server did rather than said.
    static var leastInferred: Int { 8 }

    /// Whether the server was seen to serve no more than some number of items per request.
    var isConfirmed: Bool { cap != nil }

    /// The page size the server serves, as far as the source knows: the confirmed cap, else the suspected
    /// one (`nil`: as many as asked).
    var size: Int? { cap ?? suspected?.size }

    /// `asked`, or the confirmed cap when it is smaller: a request never asks for more than the server was
    /// seen to serve.
    func fitted(_ asked: Int) -> Int {
        cap.map { min($0, asked) } ?? asked
    }

    /// `asked`, or the cap (confirmed or suspected) when it is smaller: a request that settles a suspicion.
    func fittedToSuspicion(_ asked: Int) -> Int {
        size.map { min($0, asked) } ?? asked
    }

    /// Records that an answer held `served` items; returns the most one held before it.
    @discardableResult
    mutating func note(_ served: Int) -> Int {
        defer { largest = max(largest, served) }
        return largest
    }

    /// Judges an answer of `served` items to a request for `asked`, and learns from it. `more`: what the
    /// server said about items after the answer (`true`: more remain; `false`: none; `nil`: it said
    /// nothing). For a source that reads by position: `end`, the position just after the answer's last
    /// item, and `endsOnNew`, whether that item is one the source had not seen (only then can the answer
    /// show that items lie beyond where a suspect one ended).
    mutating func judge(served: Int, asked: Int, more: Bool?, end: Int? = nil, endsOnNew: Bool = true) -> Verdict {
        let verdict = judging(served: served, asked: asked, more: more, end: end, endsOnNew: endsOnNew)
        if verdict == .end, served > 0, let end { endSeen = Span(start: end - served, end: end) }
        return verdict
    }

    private mutating func judging(served: Int, asked: Int, more: Bool?, end: Int?, endsOnNew: Bool) -> Verdict {
        let before = note(served)
        guard served < asked else {
            // More than a suspected cap, served in full: there is no such cap.
            if let suspected, served > suspected.size { self.suspected = nil }
            return .full
        }
        if served > 0, let more {
            guard more else { return .end }
            confirm(served)
            return .capped
        }
        let span = end.map { Span(start: $0 - served, end: $0) }
        // The end seen before, reached again from elsewhere by an answer smaller than one before (one as large
        // may be cut by a cap of its size, at the same place by chance): the feed ends there.
        if let span, let seen = endSeen, span.end == seen.end, span.start != seen.start, served < before {
            suspected = nil
            return .end
        }
        // Shorter than a confirmed cap asked for: the end.
        if let cap, asked <= cap { return .end }
        if let suspected {
            if served == suspected.size {
                // Cut at the same size again. Past where the suspect answer ended, on an item not seen before:
                // the cap is real (if not too small to infer). At the same end from elsewhere: the feed ends
                // there. Else it stays suspected.
                if let span, let suspectEnd = suspected.end {
                    if span.end > suspectEnd, endsOnNew, served >= Self.leastInferred {
                        confirm(served)
                    } else if span.end == suspectEnd, span.start != suspectEnd - suspected.size {
                        self.suspected = nil
                        return .end
                    }
                } else if served >= Self.leastInferred {
                    confirm(served)
                }
                return .capped
            }
            // Shorter than the suspected cap, or a request no larger than it came back short: it was the end.
            if served < suspected.size || asked <= suspected.size {
                self.suspected = nil
                return .end
            }
            // More than the suspected cap: there is no such cap.
            self.suspected = nil
        }
        // No item, or fewer than an answer before held: the feed ends there.
        if served == 0 || served < before { return .end }
        suspected = Suspicion(size: served, end: end)
        return .capped
    }

    /// Records that the server serves at most `size` items per request (its word, or what it did).
    mutating func confirm(_ size: Int) {
        cap = min(cap ?? size, size)
        suspected = nil
    }

    /// Suspects a cap of `size` (see above), unless one is confirmed.
    mutating func suspect(_ size: Int) {
        if cap == nil { suspected = Suspicion(size: size, end: nil) }
    }

    /// Confirms the suspected cap: items it may have held back turned up. `byIdentity`: the very items it
    /// held back (their IDs, or the page after it); else only a cap of `leastInferred` or more.
    mutating func confirm(byIdentity: Bool = false) {
        if let suspected, byIdentity || suspected.size >= Self.leastInferred { confirm(suspected.size) }
    }

    /// Forgets the suspected cap: what the answer left out was gone, not held back.
    mutating func refute() {
        suspected = nil
    }
}
