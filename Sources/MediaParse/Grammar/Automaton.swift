/// The automaton the matcher runs on, in flat arrays (no dictionaries, no per-state allocations), so that
/// a step of the search is a binary search in a short sorted run of integers.
///
/// It is built from the epsilon-free automaton by the subset construction: states reached by the same
/// words and slots from the start are one state. Sentences that begin alike ("play {name}", "play
/// {name} by {artist}", "play {name} on {app}") therefore share their states, and the work of a parse
/// grows with the number of distinct ways a prefix can be read, not with the number of templates: a
/// second copy of every template adds no state at all. When the construction would exceed
/// `Automaton.stateLimit` states, the epsilon-free automaton is used as it is (same format, several
/// targets per edge), which is correct but slower.
struct Automaton: Sendable {
    /// Per state, the range of `wordKeys` / `wordTargetStart` (states + 1 entries).
    var wordStart = Int32Table([0])
    /// Word IDs, sorted within each state.
    var wordKeys = Int32Table()
    /// Per word edge, the range of `targets` (word edges + 1 entries). Empty in a deterministic automaton,
    /// where word edge `k` has the one target `targets[k]` (a third less memory for its edges).
    var wordTargetStart = Int32Table([0])
    /// Per state, the range of `slotEdges` (states + 1 entries).
    var slotStart = Int32Table([0])
    /// Slot edges, sorted by slot within each state; `target` indexes `targets` ranges via `slotTargetStart`
    /// (empty in a deterministic automaton, where slot edge `e` has the one target `slotTargetList[e]`).
    var slotIDs = Int32Table()
    var slotTargetStart = Int32Table([0])
    /// Targets of word edges (ranges from `wordTargetStart`) and of slot edges (from `slotTargetStart`).
    var targets = Int32Table()
    var slotTargetList = Int32Table()
    /// Per state, the range of `accepts` (states + 1 entries); sentences sorted.
    var acceptStart = Int32Table([0])
    var accepts = Int32Table()
    /// True when every edge has one target (the subset construction succeeded).
    var deterministic = false

    /// Above this many states the subset construction gives up (see the type's comment).
    static let stateLimit = 400_000

    var count: Int { wordStart.count - 1 }

    /// The targets of the word edge `word` from `state`, as a range of `targets`; empty when there is none.
    @inline(__always)
    func wordTargets(_ state: Int32, _ word: Int32) -> Range<Int> {
        var lo = Int(wordStart[Int(state)])
        var hi = Int(wordStart[Int(state) + 1])
        while lo < hi {
            let mid = (lo + hi) >> 1
            let k = wordKeys[mid]
            if k == word { return edgeTargets(mid) }
            if k < word { lo = mid + 1 } else { hi = mid }
        }
        return 0..<0
    }

    @inline(__always)
    func slotEdges(_ state: Int32) -> Range<Int> { Int(slotStart[Int(state)])..<Int(slotStart[Int(state) + 1]) }

    /// The targets of word edge `k`, as a range of `targets`.
    @inline(__always)
    func edgeTargets(_ k: Int) -> Range<Int> { deterministic ? k..<(k + 1) : Int(wordTargetStart[k])..<Int(wordTargetStart[k + 1]) }

    @inline(__always)
    func slotTargets(_ edge: Int) -> Range<Int> {
        deterministic ? edge..<(edge + 1) : Int(slotTargetStart[edge])..<Int(slotTargetStart[edge + 1])
    }

    @inline(__always)
    func acceptRange(_ state: Int32) -> Range<Int> { Int(acceptStart[Int(state)])..<Int(acceptStart[Int(state) + 1]) }

    /// An automaton with no state.
    init() {}

    /// The epsilon-free automaton in flat form, edge order kept.
    init(nondeterministic states: [State]) {
        var b = Builder()
        for state in states {
            let words = state.words.keys.sorted().map { ($0, state.words[$0]!) }
            var order: [Int32] = []
            var bySlot: [Int32: [Int32]] = [:]
            for e in state.slots {
                if bySlot[e.slot] == nil { order.append(e.slot) }
                bySlot[e.slot, default: []].append(e.target)
            }
            b.append(words: words, slots: order.sorted().map { ($0, bySlot[$0]!) }, accepts: state.accepts)
        }
        self.init(b, deterministic: false)
    }

    /// The tables of an automaton while they are built (arrays that grow), frozen by `init(_:deterministic:)`.
    struct Builder {
        var wordStart: [Int32] = [0], wordKeys: [Int32] = [], wordTargetStart: [Int32] = [0]
        var slotStart: [Int32] = [0], slotIDs: [Int32] = [], slotTargetStart: [Int32] = [0]
        var targets: [Int32] = [], slotTargetList: [Int32] = []
        var acceptStart: [Int32] = [0], accepts: [Int32] = []

        mutating func append(words: [(Int32, [Int32])], slots: [(Int32, [Int32])], accepts: [Int32]) {
            for (w, ts) in words {
                wordKeys.append(w)
                targets.append(contentsOf: ts)
                wordTargetStart.append(Int32(targets.count))
            }
            wordStart.append(Int32(wordKeys.count))
            for (s, ts) in slots {
                slotIDs.append(s)
                slotTargetList.append(contentsOf: ts)
                slotTargetStart.append(Int32(slotTargetList.count))
            }
            slotStart.append(Int32(slotIDs.count))
            self.accepts.append(contentsOf: accepts)
            acceptStart.append(Int32(self.accepts.count))
        }
    }

    init(_ b: Builder, deterministic: Bool) {
        wordStart = Int32Table(b.wordStart); wordKeys = Int32Table(b.wordKeys); wordTargetStart = Int32Table(b.wordTargetStart)
        slotStart = Int32Table(b.slotStart); slotIDs = Int32Table(b.slotIDs); slotTargetStart = Int32Table(b.slotTargetStart)
        targets = Int32Table(b.targets); slotTargetList = Int32Table(b.slotTargetList)
        acceptStart = Int32Table(b.acceptStart); accepts = Int32Table(b.accepts)
        self.deterministic = deterministic
    }

    /// The subset construction over `nfa` from `start`; nil above `limit` states.
    ///
    /// `sentenceClass[s]` is the first sentence with the same intent and `set:` values as `s`: a state
    /// that accepts two sentences of one class keeps the first only, because on the same words they give
    /// the same result and the first wins ties (a template written twice costs nothing).
    /// State `i` of the result is `starts[i]` (the sentences' start first, then the modifier layer's).
    init?(determinizing nfa: Automaton, starts: [Int32], sentenceClass: [Int32], limit: Int = Automaton.stateLimit) {
        var b = Builder()
        var ids: [[Int32]: Int32] = [:]
        var single = [Int32](repeating: -1, count: nfa.count)
        var sets: [[Int32]] = starts.map { [$0] }
        for (i, start) in starts.enumerated() { single[Int(start)] = Int32(i) }
        var pairs: [Int64] = []
        var group: [Int32] = []
        func intern(_ members: [Int32]) -> Int32? {
            if members.count == 1, single[Int(members[0])] >= 0 { return single[Int(members[0])] }
            if members.count > 1, let known = ids[members] { return known }
            guard sets.count < limit else { return nil }
            let new = Int32(sets.count)
            if members.count == 1 { single[Int(members[0])] = new } else { ids[members] = new }
            sets.append(members)
            return new
        }
        /// Sorted (label << 32 | target) pairs, grouped by label: one edge per label to the set of targets,
        /// appended to `labels` and `targets`.
        func edges(_ pairs: inout [Int64], labels: inout [Int32], targets: inout [Int32], starts: inout [Int32]) -> Bool {
            pairs.sort()
            var i = 0
            while i < pairs.count {
                let label = Int32(truncatingIfNeeded: pairs[i] >> 32)
                group.removeAll(keepingCapacity: true)
                while i < pairs.count, Int32(truncatingIfNeeded: pairs[i] >> 32) == label {
                    let t = Int32(truncatingIfNeeded: pairs[i] & 0xFFFF_FFFF)
                    if group.last != t { group.append(t) }
                    i += 1
                }
                guard let id = intern(group) else { return false }
                labels.append(label)
                targets.append(id)
                starts.append(Int32(targets.count))
            }
            return true
        }
        var index = 0
        while index < sets.count {
            let members = sets[index]
            pairs.removeAll(keepingCapacity: true)
            for m in members {
                let state = Int32(m)
                for k in Int(nfa.wordStart[Int(state)])..<Int(nfa.wordStart[Int(state) + 1]) {
                    let w = Int64(nfa.wordKeys[k]) << 32
                    for t in Int(nfa.wordTargetStart[k])..<Int(nfa.wordTargetStart[k + 1]) { pairs.append(w | Int64(nfa.targets[t])) }
                }
            }
            guard edges(&pairs, labels: &b.wordKeys, targets: &b.targets, starts: &b.wordTargetStart) else { return nil }
            b.wordStart.append(Int32(b.wordKeys.count))
            pairs.removeAll(keepingCapacity: true)
            var accepted: [Int32] = []
            for m in members {
                for e in nfa.slotEdges(m) {
                    let s = Int64(nfa.slotIDs[e]) << 32
                    for t in nfa.slotTargets(e) { pairs.append(s | Int64(nfa.slotTargetList[t])) }
                }
                for a in nfa.acceptRange(m) { accepted.append(nfa.accepts[a]) }
            }
            guard edges(&pairs, labels: &b.slotIDs, targets: &b.slotTargetList, starts: &b.slotTargetStart) else { return nil }
            b.slotStart.append(Int32(b.slotIDs.count))
            accepted.sort()
            var kept: [Int32] = []
            for sentence in accepted where kept.last != sentence
                && !kept.contains(where: { sentenceClass[Int($0)] == sentenceClass[Int(sentence)] }) {
                kept.append(sentence)
            }
            b.accepts.append(contentsOf: kept)
            b.acceptStart.append(Int32(b.accepts.count))
            index += 1
        }
        // One target per edge, in edge order: the per-edge ranges say nothing.
        b.wordTargetStart = []
        b.slotTargetStart = []
        self.init(b, deterministic: true)
    }
}
