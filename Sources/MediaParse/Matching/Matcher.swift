/// How a reading used the words: one step per literal word, list entry, entity or wildcard.
struct Step: Sendable {
    var parent: Int32
    /// -1 for a literal word, else the slot.
    var slot: Int32
    var start: Int16
    var end: Int16
    /// For a list slot: the entry; for a recogniser slot: the entity index.
    var payload: Int32
    /// The state the step led to (for grammar coverage); for a call's steps, the state after the call.
    var state: Int32 = -1
    /// For a step read inside a call (`CallTable`): the call, and whether the step is its first (coverage
    /// replays a call's steps on the call's own automaton); -1 elsewhere.
    var call: Int16 = -1
    var callFirst = false
}

/// A partial reading: its rank so far, its last step, the single-valued fields it filled (a path that
/// would fill one twice dies at once, so it never takes the place of a valid one), and a hash of what its
/// slots captured (two routes to the same captures are one reading).
struct Path: Sendable {
    var rank: Rank
    var step: Int32
    var filled: UInt32 = 0
    var captures: UInt64 = 0
    /// Tolerance used so far: words assumed (bits 0-1), extra words (bits 2-4), bit 5 when the last step
    /// was an extra word (which must be followed by a literal word or a list entry), bit 6 when it was an
    /// assumed word (which must be followed by a literal word).
    var tolerance: UInt8 = 0
    /// In the modifier layer after a sentence: the sentence that ended before it (-1 elsewhere).
    var sentence: Int32 = -1

    var missing: Int { Int(tolerance & 3) }
    var extra: Int { Int((tolerance >> 2) & 7) }
    var afterExtra: Bool { tolerance & 32 != 0 }
    var afterAssumed: Bool { tolerance & 64 != 0 }
    /// The last step was a tolerant one that restricts what may follow.
    var restricted: Bool { tolerance & 96 != 0 }
}

/// What a locale lets an utterance leave out or add (`skip_words`, `optional_words`, `extra_words`), for
/// the matcher: skip phrases in matching form, the grammar's IDs of the optional words.
struct Tolerance: Sendable {
    var skipPhrases: [[String]] = [] {
        didSet { skipPhrasesByFirstWord = Dictionary(grouping: skipPhrases.indices) { WordKey(skipPhrases[$0][0]) } }
    }
    /// The skip phrases (indexes into `skipPhrases`, in order) by their first word: one look-up a word.
    private(set) var skipPhrasesByFirstWord: [WordKey: [Int]] = [:]
    /// Optional words, looked up in the automaton where a reading stands (no locale sets any today; a table
    /// per state made at start-up would read every state of the grammar).
    var optionalWordIDs: [Int32] = []
    var maxExtra = 0
    /// At most this many template words assumed per reading.
    static let maxMissing = 2

    var isEmpty: Bool { skipPhrases.isEmpty && optionalWordIDs.isEmpty && maxExtra == 0 }
}

/// Step codes besides a literal word (-1) and slots (>= 0).
enum StepKind {
    static let skipped: Int32 = -2
    static let assumed: Int32 = -3
    static let extra: Int32 = -4
}

/// Everything found in an utterance before matching: word IDs, list hits and entities by start position.
struct MatchInput {
    var wordIDs: [Int32]
    /// listHits[position] = (list, entry, end)
    var listHits: [[(list: Int32, entry: Int32, end: Int)]]
    var entities: [Entity]
    /// entitiesAt[position] = indexes into `entities`
    var entitiesAt: [[Int]]
    /// Vocabulary hits chosen for this utterance: locked spans of tokens.
    var vocabulary: [VocabularyHit] = []
    /// lockAt[position] = the vocabulary hit covering that token, or -1
    var lockAt: [Int32] = []
    /// lockedBefore[p] = how many tokens before p are locked (to test a range in O(1))
    var lockedBefore: [Int32] = []
    /// The caller's names, whose list hits have negative payloads.
    var callerNames = CallerNames()
    /// skipAt[p] = lengths of the skip phrases that start at token p
    var skipAt: [[Int]] = []
    /// phrasingBefore[p] = the phrasing weight of the tokens before p (`CompiledGrammar.phrasingWeight`,
    /// in halves): free text made of the grammar's own words costs more (`Rank.phrasingInFreeText` per
    /// word of weight 2).
    var phrasingBefore: [Int32] = []
    /// nameCased[p]: token p is written with a capital and is not the first word (a name's first word in
    /// text from a recogniser: "spiel Bitte bleib von …").
    var nameCased: [Bool] = []
    /// nameSkipEnds[p]: a skip phrase whose first word is written like a name's first word ends at p
    /// ("pon Por favor no te vayas": "Por favor" may be politeness or the start of the title); empty when
    /// none does.
    var nameSkipEnds: [Bool] = []

    /// Does `[start, end)` touch a locked token?
    func isLocked(_ start: Int, _ end: Int) -> Bool {
        !lockedBefore.isEmpty && lockedBefore[end] - lockedBefore[start] > 0
    }
}

/// A path that entered a call whose reading ends with a step that starts further on (see `Matcher.match`).
struct PendingCall {
    var path: Path
    var call: Int32
    /// The reading: `CallReadings.readings[reading]`.
    var reading: Int32
    var target: Int32
}

/// One way a call (`CallTable`) reads the words from a position: where it ends, what it adds to a reading's
/// rank, and its steps (a range of `CallReadings.steps`).
struct CallReading {
    var end: Int
    var gain: Int64
    var steps: Range<Int>
}

/// The readings of every call at every position of one utterance, found when the matcher first asks.
struct CallReadings {
    /// Per (call, position): an index into `ranges`, `none` when the call reads nothing there, -1 when not yet
    /// asked.
    var index: [Int32]
    /// The readings of a (call, position): `readings[ranges[index]]`.
    var ranges: [Range<Int>] = []
    var readings: [CallReading] = []
    var steps: [Step] = []
    private(set) var positions: Int
    /// 64-bit words per position in `startable`.
    private(set) var words: Int
    static let none: Int32 = -2

    /// The steps of the reading being walked (`Matcher.walkCall`), kept between walks for its memory.
    var spareTrail: [Step] = []

    /// Per position, a bit per call that may begin there (`calls.count` bits a position), found when first asked.
    var startable: [UInt64] = []
    var startableKnown: [Bool] = []

    /// May call `call` begin at `position`: is the word there, a list entry or an entity starting there one
    /// the call may begin with?
    @inline(__always)
    mutating func mayStart(_ call: Int, at position: Int, input: borrowing MatchInput, grammar: CompiledGrammar) -> Bool {
        if !startableKnown.isEmpty, startableKnown[position] {
            return startable[position * words + call >> 6] & (1 << UInt64(call & 63)) != 0
        }
        return findStartable(call, at: position, input: input, grammar: grammar)
    }

    private mutating func findStartable(_ call: Int, at position: Int, input: borrowing MatchInput, grammar: CompiledGrammar) -> Bool {
        if startableKnown.isEmpty {
            startableKnown.append(contentsOf: repeatElement(false, count: positions))
            startable.append(contentsOf: repeatElement(0, count: positions * words))
        }
        let base = position * words
        if !startableKnown[position] {
            startableKnown[position] = true
            func mark(_ calls: [Int32]) { for c in calls { startable[base + Int(c) >> 6] |= 1 << UInt64(c & 63) } }
            if position < input.wordIDs.count {
                let id = input.wordIDs[position]
                if id >= 0, let calls = grammar.callsByFirstWord[id] { mark(calls) }
                var last: Int32 = -1
                for hit in input.listHits[position] where hit.list != last {
                    last = hit.list
                    if let calls = grammar.callsByFirstList[hit.list] { mark(calls) }
                }
                if !input.entitiesAt[position].isEmpty {
                    for (kind, c) in grammar.callsByFirstRecognizer
                        where input.entitiesAt[position].contains(where: { kind.accepts(input.entities[$0].kind) }) {
                        mark([c])
                    }
                }
            }
        }
        return startable[base + call >> 6] & (1 << UInt64(call & 63)) != 0
    }

    /// Does call `call` read nothing at `position` (as far as is known)?
    @inline(__always)
    func knownEmpty(_ call: Int, _ position: Int) -> Bool { index[call * positions + position] == Self.none }

    init(calls: Int, positions: Int) {
        index = [Int32](repeating: -1, count: calls * positions)
        self.positions = positions
        words = (calls + 63) / 64
    }

    /// Empty, for an utterance of `positions` positions, keeping the memory of the last one.
    mutating func reset(calls: Int, positions: Int) {
        index.removeAll(keepingCapacity: true)
        index.append(contentsOf: repeatElement(-1, count: calls * positions))
        ranges.removeAll(keepingCapacity: true)
        readings.removeAll(keepingCapacity: true)
        steps.removeAll(keepingCapacity: true)
        startable.removeAll(keepingCapacity: true)
        startableKnown.removeAll(keepingCapacity: true)
        self.positions = positions
        words = (calls + 63) / 64
    }
}

/// What one parse's matching allocates, kept for the next parse on the same thread (`MediaParser` keeps a
/// few): made anew for every utterance, these arrays' allocation, clearing and release were about a tenth
/// of a parse. A buffer's content never outlives its parse; only its memory does.
struct MatchBuffers {
    var chart: Chart?
    var calls: CallReadings?
    var pending: [[PendingCall]] = []
    var listHere: [UInt64] = []
    var scratch: [Path] = []
    var steps: [Step] = []
}

/// A full reading: a sentence of the grammar matched the whole utterance this way.
struct Candidate {
    var sentence: Int32
    var rank: Rank
    var step: Int32
}

/// The partial readings of one parse, in flat arrays: an entry per (position, state) reached, holding up
/// to `beam` paths best first, and per position a chain of its entries in the order they were reached
/// (so the search visits states in the same order every run, whatever the hashing).
struct Chart {
    private(set) var beam: Int
    /// Open addressing on (position, state): keys and entry numbers, a power of two long, at most half full.
    private var keys: [Int64]
    private var values: [Int32]
    private var used = 0
    /// The slots of `keys` in use, so that a reset clears those only.
    private var usedSlots: [Int32] = []
    /// Per entry: its state, how many paths it holds, the next entry of its position (-1 at the last).
    private struct EntryInfo {
        var state: Int32
        var count: Int32
        var next: Int32
    }
    private var entries: [EntryInfo] = []
    private var tail: [Int32]
    private(set) var head: [Int32]
    /// The entries' paths, `beam` places an entry (entry `e` from `e * beam`), the first `count` of them
    /// in use; more places than entries, made in bulk and kept between parses.
    private(set) var paths: [Path]

    init(positions: Int, beam: Int) {
        self.beam = beam
        head = [Int32](repeating: -1, count: positions)
        tail = head
        keys = [Int64](repeating: -1, count: 256)
        values = [Int32](repeating: 0, count: 256)
        paths = [Path](repeating: Path(rank: Rank(), step: -1), count: 64 * beam)
        entries.reserveCapacity(64)
    }

    /// Empty, for an utterance of `positions` positions and `beam` paths an entry, keeping the memory of
    /// the last one (a table grown past 1,024 keys for a long utterance starts small again).
    mutating func reset(positions: Int, beam: Int) {
        self.beam = beam
        head.removeAll(keepingCapacity: true)
        head.append(contentsOf: repeatElement(-1, count: positions))
        tail.removeAll(keepingCapacity: true)
        tail.append(contentsOf: repeatElement(-1, count: positions))
        if keys.count > 1024 {
            keys = [Int64](repeating: -1, count: 256)
            values = [Int32](repeating: 0, count: 256)
        } else {
            for i in usedSlots { keys[Int(i)] = -1 }
        }
        usedSlots.removeAll(keepingCapacity: true)
        used = 0
        entries.removeAll(keepingCapacity: true)
        // `paths` keeps its places (an entry's count says how many of them hold paths), unless a long
        // utterance made very many: a thread's buffers should not keep its longest parse's memory for ever.
        if paths.count > 65_536 { paths = [Path](repeating: Path(rank: Rank(), step: -1), count: 64 * beam) }
    }

    @inline(__always)
    private static func hash(_ key: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 20)
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        keys = [Int64](repeating: -1, count: oldKeys.count * 2)
        values = [Int32](repeating: 0, count: oldKeys.count * 2)
        let mask = keys.count - 1
        usedSlots.removeAll(keepingCapacity: true)
        for (k, v) in zip(oldKeys, oldValues) where k >= 0 {
            var i = Self.hash(k) & mask
            while keys[i] >= 0 { i = (i + 1) & mask }
            keys[i] = k
            values[i] = v
            usedSlots.append(Int32(i))
        }
    }

    /// The entry of `state` at `position`, made when missing.
    @inline(__always)
    mutating func entry(_ position: Int, _ state: Int32) -> Int {
        let key = Int64(position) << 32 | Int64(state)
        let mask = keys.count - 1
        var i = Self.hash(key) & mask
        while true {
            let k = keys[i]
            if k == key { return Int(values[i]) }
            if k < 0 { break }
            i = (i + 1) & mask
        }
        let e = Int32(entries.count)
        keys[i] = key
        values[i] = e
        usedSlots.append(Int32(i))
        used += 1
        if used * 2 > keys.count { grow() }
        entries.append(EntryInfo(state: state, count: 0, next: -1))
        if tail[position] >= 0 { entries[Int(tail[position])].next = e } else { head[position] = e }
        tail[position] = e
        // Places for the entry's paths, made in bulk (never read before they are written).
        let needed = (Int(e) + 1) * beam
        if paths.count < needed {
            paths.append(contentsOf: repeatElement(Path(rank: Rank(), step: -1), count: max(needed - paths.count, paths.count)))
        }
        return Int(e)
    }

    @inline(__always)
    func next(_ e: Int) -> Int { Int(entries[e].next) }

    /// The state of entry `e`.
    @inline(__always)
    func state(_ e: Int) -> Int32 { entries[e].state }

    @inline(__always)
    func pathRange(_ e: Int) -> Range<Int> { e * beam..<(e * beam + Int(entries[e].count)) }

    @inline(__always)
    func path(_ i: Int) -> Path { paths[i] }

    /// Where a path of `rank` and `captures` would go in entry `e`, or nil when the entry keeps better
    /// paths only, or already has one with the same rank and captures (two routes to one reading).
    @inline(__always)
    func slot(in e: Int, rank: Rank, captures: UInt64) -> Int? {
        let base = e * beam
        let count = Int(entries[e].count)
        var insertAt = count
        for i in 0..<count {
            let p = paths[base + i]
            if p.rank == rank && p.captures == captures { return nil }
            if p.rank < rank, insertAt == count { insertAt = i }
        }
        // Ties keep the earlier arrival first: a new path goes after every path at least as good.
        if insertAt >= beam { return nil }
        return insertAt
    }

    @inline(__always)
    mutating func insert(_ path: Path, in e: Int, at position: Int) {
        let base = e * beam
        let count = Int(entries[e].count)
        var i = min(count, beam - 1)
        while i > position {
            paths[base + i] = paths[base + i - 1]
            i -= 1
        }
        paths[base + position] = path
        if count < beam { entries[e].count = Int32(count + 1) }
    }
}

/// Matches an utterance against the compiled automaton: a left-to-right pass over token positions that
/// keeps the best few partial readings per (position, state) (a k-best Viterbi search). Time is
/// O(words × active states × (k + wildcard length)): no backtracking, and, the automaton being
/// deterministic, the active states are the distinct readings of a prefix, not the templates.
struct Matcher {
    let grammar: CompiledGrammar
    /// Partial readings kept per (position, state).
    let beam: Int
    var tolerance = Tolerance()
    /// The grammar's automaton, its calls' automaton and where each call starts, taken from the grammar once
    /// per matcher: read through the grammar (a class), a table is copied with a retain and a release of what
    /// keeps its memory, at every use.
    private let automaton: Automaton
    private let callAutomaton: Automaton
    private let callStarts: Int32Table
    private let slotPlans: [SlotPlan]
    private let slotBits: [UInt32]
    private let slotIsList: [Bool]
    private let sentenceModifier: [ModifierSide?]
    private let slotExclusions: [[UInt64]]
    private let slotAloneExclusions: [[UInt64]]
    private let continuationStart: Int32Table
    private let continuationList: Int32Table

    init(grammar: CompiledGrammar, beam: Int, tolerance: Tolerance = Tolerance()) {
        self.grammar = grammar
        self.beam = beam
        self.tolerance = tolerance
        automaton = grammar.automaton
        callAutomaton = grammar.calls.automaton
        callStarts = grammar.calls.starts
        slotPlans = grammar.slotPlans
        slotBits = grammar.slotBits
        slotIsList = grammar.slotIsList
        sentenceModifier = grammar.sentenceModifier
        slotExclusions = grammar.slotExclusions
        slotAloneExclusions = grammar.slotAloneExclusions
        continuationStart = grammar.continuationStart
        continuationList = grammar.continuationList
    }

    func prepare(_ utterance: Utterance, entities: [Entity], vocabulary: [VocabularyHit] = []) -> MatchInput {
        let tokens = utterance.tokens
        let wordIDs = grammar.wordIDs
        let ids = tokens.map { wordIDs[WordKey($0.key)] ?? -1 }
        var hits = [[(list: Int32, entry: Int32, end: Int)]](repeating: [], count: tokens.count + 1)
        for start in 0..<tokens.count {
            var node: Int32 = 0
            var at = start
            while at < tokens.count, ids[at] >= 0, let next = grammar.trie.child(node, ids[at]) {
                node = next
                at += 1
                for t in grammar.trie.terminals(node) {
                    hits[start].append((grammar.trie.terminalLists[t], grammar.trie.terminalEntries[t], at))
                }
            }
        }
        // By list (then as found), so that the matcher finds a list's hits with one search.
        for start in hits.indices where hits[start].count > 1 {
            // Insertion sort: a few hits, stable, no allocation.
            for i in 1..<hits[start].count {
                let hit = hits[start][i]
                var j = i
                while j > 0, hits[start][j - 1].list > hit.list {
                    hits[start][j] = hits[start][j - 1]
                    j -= 1
                }
                hits[start][j] = hit
            }
        }
        var at = [[Int]](repeating: [], count: tokens.count + 1)
        for (i, e) in entities.enumerated() { at[e.start].append(i) }
        var input = MatchInput(wordIDs: ids, listHits: hits, entities: entities, entitiesAt: at)
        input.phrasingBefore = [Int32](repeating: 0, count: tokens.count + 1)
        for p in 0..<tokens.count {
            let weight = ids[p] >= 0 && Int(ids[p]) < grammar.phrasingWeight.count ? Int32(grammar.phrasingWeight[Int(ids[p])]) : 0
            input.phrasingBefore[p + 1] = input.phrasingBefore[p] + weight
        }
        if !grammar.settings.characterWords {
            let only = grammar.settings.nameStartWords
            input.nameCased = tokens.indices.map { p in
                guard p > 0, let first = utterance.scalars[tokens[p].start...].first, Self.isUppercase(first) else { return false }
                // An acronym (all capitals) is no sign of a name's start.
                let word = utterance.scalars[tokens[p].start..<tokens[p].end]
                guard word.contains(where: Self.isLowercase) else { return false }
                return only.isEmpty || only.contains(tokens[p].key)
            }
        }
        if !tolerance.skipPhrases.isEmpty {
            input.skipAt = [[Int]](repeating: [], count: tokens.count + 1)
            for start in 0..<tokens.count {
                guard let phrases = tolerance.skipPhrasesByFirstWord[WordKey(tokens[start].key)] else { continue }
                for k in phrases {
                    let phrase = tolerance.skipPhrases[k]
                    if start + phrase.count <= tokens.count, phrase.indices.allSatisfy({ sameKey(tokens[start + $0].key, phrase[$0]) }) {
                        input.skipAt[start].append(phrase.count)
                    }
                }
            }
            if !input.nameCased.isEmpty {
                for start in 0..<tokens.count where input.nameCased[start] && !input.skipAt[start].isEmpty {
                    if input.nameSkipEnds.isEmpty { input.nameSkipEnds = [Bool](repeating: false, count: tokens.count + 1) }
                    for length in input.skipAt[start] { input.nameSkipEnds[start + length] = true }
                }
            }
        }
        if !vocabulary.isEmpty {
            input.vocabulary = vocabulary
            input.lockAt = [Int32](repeating: -1, count: tokens.count)
            for (h, hit) in vocabulary.enumerated() {
                for p in hit.start..<min(hit.end, tokens.count) { input.lockAt[p] = Int32(h) }
            }
            input.lockedBefore = [Int32](repeating: 0, count: tokens.count + 1)
            for p in 0..<tokens.count { input.lockedBefore[p + 1] = input.lockedBefore[p] + (input.lockAt[p] >= 0 ? 1 : 0) }
        }
        return input
    }

    /// The full readings of `input`, their steps appended to `steps`; `buffers` lends the memory of the
    /// last parse on this thread and gets it back.
    func match(_ input: MatchInput, steps: inout [Step], buffers: inout MatchBuffers) -> [Candidate] {
        let n = input.wordIDs.count
        var chart: Chart
        if var reused = buffers.chart.take() {
            reused.reset(positions: n + 1, beam: beam)
            chart = reused
        } else {
            chart = Chart(positions: n + 1, beam: beam)
        }
        var calls: CallReadings
        if var reused = buffers.calls.take() {
            reused.reset(calls: grammar.calls.count, positions: n + 1)
            calls = reused
        } else {
            calls = CallReadings(calls: grammar.calls.count, positions: n + 1)
        }
        var pending = buffers.pending
        buffers.pending = []
        if grammar.calls.count > 0 {
            for i in pending.indices { pending[i].removeAll(keepingCapacity: true) }
            if pending.count > n + 1 { pending.removeLast(pending.count - (n + 1)) }
            while pending.count < n + 1 { pending.append([]) }
        } else {
            pending.removeAll(keepingCapacity: true)
        }
        var scratch = buffers.scratch
        buffers.scratch = []
        scratch.removeAll(keepingCapacity: true)
        var listHere = buffers.listHere
        buffers.listHere = []
        defer {
            buffers.chart = chart
            buffers.calls = calls
            buffers.pending = pending
            buffers.scratch = scratch
            buffers.listHere = listHere
        }
        let first = chart.entry(0, 0)
        chart.insert(Path(rank: Rank(), step: -1), in: first, at: 0)
        if grammar.beforeStart >= 0 {
            chart.insert(Path(rank: Rank(), step: -1), in: chart.entry(0, grammar.beforeStart), at: 0)
        }
        let layered = grammar.beforeStart >= 0 || grammar.afterStart >= 0
        var candidates: [Candidate] = []

        // Per position, a bit per list with an entry starting there: most list edges have none, and one bit
        // tells (where a search of the hits cost a tenth of matching).
        var maxList: Int32 = -1
        for hits in input.listHits { for hit in hits where hit.list > maxList { maxList = hit.list } }
        let listWords = Int(maxList + 64) / 64
        listHere.removeAll(keepingCapacity: true)
        listHere.append(contentsOf: repeatElement(0, count: (n + 1) * listWords))
        for (position, hits) in input.listHits.enumerated() {
            for hit in hits { listHere[position * listWords + Int(hit.list) >> 6] |= 1 << UInt64(hit.list & 63) }
        }

        for position in 0...n {
            if layered, position < n { enterLayer(at: position, chart: &chart) }
            // Tolerant moves that do not depend on the state: an extra word, a skip phrase starting here.
            let tolerantHere = !tolerance.isEmpty
                && (tolerance.maxExtra > 0 || (position < n && !input.skipAt.isEmpty && !input.skipAt[position].isEmpty))
            let listBase = position * listWords
            var e = Int(chart.head[position])
            while e >= 0 {
                let u = chart.state(e)
                // The entry's paths, copied (the chart grows while they are read): resized in place and
                // written by index, cheaper than emptying and appending.
                let range = chart.pathRange(e)
                while scratch.count > range.count { scratch.removeLast() }
                while scratch.count < range.count { scratch.append(Path(rank: Rank(), step: -1)) }
                for (k, i) in range.enumerated() { scratch[k] = chart.path(i) }
                if tolerantHere || (!tolerance.optionalWordIDs.isEmpty && readsOptionalWord(u)) {
                    tolerate(scratch, state: u, at: position, n: n, input: input, chart: &chart, steps: &steps)
                }
                if position == n {
                    for a in automaton.acceptRange(u) {
                        let sentence = automaton.accepts[a]
                        switch sentenceModifier[Int(sentence)] {
                        case nil:
                            for p in scratch where !p.restricted {
                                candidates.append(Candidate(sentence: sentence, rank: p.rank, step: p.step))
                            }
                        case .after?:
                            // The reading is the sentence that ended before the modifiers after it.
                            for p in scratch where !p.restricted && p.sentence >= 0 {
                                candidates.append(Candidate(sentence: p.sentence, rank: p.rank, step: p.step))
                            }
                        case .before?:
                            break  // modifiers and no request
                        }
                    }
                    e = chart.next(e)
                    continue
                }
                let id = input.wordIDs[position]
                let locked = !input.lockAt.isEmpty && input.lockAt[position] >= 0
                if id >= 0, !locked {
                    for ti in automaton.wordTargets(u, id) {
                        let t = automaton.targets[ti]
                        let target = chart.entry(position + 1, t)  // every entry holds at least one path
                        for p in scratch {
                            advance(p, slot: -1, bit: 0, from: position, to: position + 1, payload: -1,
                                    gain: Rank.literal, captures: p.captures, state: t, entry: target, chart: &chart, steps: &steps)
                        }
                    }
                }
                let hitsHere = input.listHits[position]
                for edge in automaton.slotEdges(u) {
                    let slot = automaton.slotIDs[edge]
                    let plan = slotPlans[Int(slot)]
                    // Most list edges have no hit here: the hits are sorted by list, so one search tells.
                    var firstHit = 0
                    if plan.kind == .list {
                        guard plan.list >= 0, Int(plan.list) >> 6 < listWords,
                              listHere[listBase + Int(plan.list) >> 6] & (1 << UInt64(plan.list & 63)) != 0 else { continue }
                        firstHit = Self.firstHit(of: plan.list, in: hitsHere)
                        if firstHit == hitsHere.count || hitsHere[firstHit].list != plan.list { continue }
                    }
                    let bit = slotBits[Int(slot)]
                    if plan.kind == .call {
                        let call = Int(plan.list)
                        if calls.knownEmpty(call, position) || !calls.mayStart(call, at: position, input: input, grammar: grammar) {
                            continue
                        }
                        let found = callReadings(call, at: position, input: input, calls: &calls)
                        if found.isEmpty { continue }
                        for ti in automaton.slotTargets(edge) {
                            let target = automaton.slotTargetList[ti]
                            for r in found {
                                let reading = calls.readings[r]
                                // A reading reaches its end when its last word is read, as if the call were
                                // written out: one whose last step starts later waits for that position, so
                                // that readings arrive in the order that breaks ties between them.
                                let last = Int(calls.steps[reading.steps.upperBound - 1].start)
                                if last == position {
                                    enterCall(scratch, call: call, reading: reading, calls: calls, target: target,
                                              chart: &chart, steps: &steps)
                                } else {
                                    for p in scratch {
                                        pending[last].append(PendingCall(path: p, call: Int32(call), reading: Int32(r), target: target))
                                    }
                                }
                            }
                        }
                        continue
                    }
                    for ti in automaton.slotTargets(edge) {
                        let target = automaton.slotTargetList[ti]
                        switch plan.kind {
                        case .call:
                            break
                        case .list:
                            var h = firstHit
                            while h < hitsHere.count, hitsHere[h].list == plan.list {
                                let hit = hitsHere[h]
                                h += 1
                                if input.isLocked(position, hit.end) { continue }
                                capture(scratch, slot: slot, bit: bit, from: position, to: hit.end, payload: hit.entry,
                                        gain: Rank.listEntry(words: hit.end - position, literal: plan.literal), target: target,
                                        chart: &chart, steps: &steps)
                            }
                        case .recognizer:
                            let kind = plan.recognizer
                            for x in input.entitiesAt[position] where kind.accepts(input.entities[x].kind)
                                && !input.isLocked(position, input.entities[x].end) {
                                let end = input.entities[x].end
                                capture(scratch, slot: slot, bit: bit, from: position, to: end, payload: Int32(x),
                                        gain: Rank.entity(words: end - position, fixed: input.entities[x].literalWords),
                                        target: target,
                                        chart: &chart, steps: &steps)
                            }
                        case .wildcard:
                            let maxWords = Int(plan.maxWords), minWords = Int(plan.minWords)
                            if locked {
                                // A vocabulary hit: free text may take it whole, and then its words rank
                                // as literal words (a vocabulary hit beats lists, recognisers and free text).
                                let h = Int(input.lockAt[position])
                                let hit = input.vocabulary[h]
                                guard hit.start == position else { continue }
                                let words = Int64(hit.end - position)
                                capture(scratch, slot: slot, bit: bit, from: position, to: hit.end,
                                        payload: Int32(h), gain: words * Rank.literal - Rank.slot, target: target,
                                        chart: &chart, steps: &steps)
                                continue
                            }
                            // Free text may end only where the target can go on: a target with no slot edge
                            // needs the next word to be one of its words, or the utterance to end where it
                            // accepts (the other ends would die there, so they are not stored).
                            let layerNext = continuationList[Int(continuationStart[Int(target)])..<Int(continuationStart[Int(target) + 1])]
                            var onlyWords = startsWithWordsOnly(target)
                            for state in layerNext where onlyWords { onlyWords = startsWithWordsOnly(state) }
                            let exclude = slotExclusions[Int(slot)]
                            let alone = slotAloneExclusions[Int(slot)]
                            // Is every word so far one the free text may not consist of alone?
                            var onlyAlone = !alone.isEmpty
                            var end = position
                            while end < n, end - position < maxWords,
                                  exclude.isEmpty || !Self.isExcluded(input.wordIDs[end], by: exclude),
                                  input.lockAt.isEmpty || input.lockAt[end] < 0 {
                                end += 1
                                if onlyAlone { onlyAlone = Self.isExcluded(input.wordIDs[end - 1], by: alone) }
                                if end - position < minWords || onlyAlone { continue }
                                if onlyWords {
                                    if end == n {
                                        if automaton.acceptRange(target).isEmpty { continue }
                                    } else if case let next = input.wordIDs[end], next < 0 || (!readsFirst(target, next)
                                        && !anyReadsFirst(layerNext, next)) {
                                        continue
                                    }
                                } else if end < n, !mayGoOn(target, at: end, input: input, listHere: listHere, listWords: listWords) {
                                    continue
                                }
                                let words = Int64(end - position)
                                let own = Int64(input.phrasingBefore[end] - input.phrasingBefore[position])
                                capture(scratch, slot: slot, bit: bit, from: position, to: end, payload: -1,
                                        gain: -words * Rank.wildcardWord - Rank.wildcard - own * Rank.phrasingInFreeText / 2,
                                        target: target, chart: &chart, steps: &steps,
                                        nameStartsBefore: !input.nameCased.isEmpty && position > 0 && input.nameCased[position - 1],
                                        nameCasedSkip: input.nameSkipEnds.isEmpty || !input.nameSkipEnds[position] ? [] : input.nameCased)
                            }
                        }
                    }
                }
                e = chart.next(e)
            }
            if !pending.isEmpty, !pending[position].isEmpty {
                // Written out, a reading would arrive here from the state its word before led to, made when
                // that word was read: the reading whose steps started later arrives later.
                let waiting = pending[position].count > 1 ? sortedByArrival(pending[position], calls: calls) : pending[position]
                for call in waiting {
                    var entry = -1
                    enterCall(call.path, call: Int(call.call), reading: calls.readings[Int(call.reading)],
                              calls: calls, target: call.target, entry: &entry, chart: &chart, steps: &steps)
                }
                pending[position].removeAll(keepingCapacity: true)
            }
        }
        return candidates
    }

    /// Unicode's upper and lower case, ASCII letters told without a look-up in Unicode's tables.
    @inline(__always)
    static func isUppercase(_ c: Unicode.Scalar) -> Bool { c.isASCII ? c.value >= 0x41 && c.value <= 0x5A : c.properties.isUppercase }
    @inline(__always)
    static func isLowercase(_ c: Unicode.Scalar) -> Bool { c.isASCII ? c.value >= 0x61 && c.value <= 0x7A : c.properties.isLowercase }

    /// Whether word `id` is one of a free text's excluded words (`CompiledGrammar.slotExclusions`).
    @inline(__always)
    static func isExcluded(_ id: Int32, by bits: [UInt64]) -> Bool {
        id >= 0 && Int(id) >> 6 < bits.count && bits[Int(id) >> 6] & (1 << UInt64(id & 63)) != 0
    }

    /// Could a reading standing at `state` before word `position` (not the last position) go on at all? Asked
    /// before free text ends there: where nothing can follow, the entry would only be made, filled and visited
    /// to die. Every way on is counted: the modifier layer after an accepting state, the tolerant moves, a
    /// word, and each slot edge (free text and calls always may; a list if one of its entries starts here; a
    /// recogniser if one of its entities does). Whether a reading may go on depends on the state and the
    /// position only, so no path that could reach the entry another way is lost.
    private func mayGoOn(_ state: Int32, at position: Int, input: borrowing MatchInput, listHere: [UInt64], listWords: Int) -> Bool {
        if !automaton.acceptRange(state).isEmpty { return true }
        if tolerance.maxExtra > 0 || !tolerance.optionalWordIDs.isEmpty { return true }
        if !input.skipAt.isEmpty, !input.skipAt[position].isEmpty { return true }
        let word = input.wordIDs[position]
        if word >= 0, !automaton.wordTargets(state, word).isEmpty { return true }
        for edge in automaton.slotEdges(state) {
            let plan = slotPlans[Int(automaton.slotIDs[edge])]
            switch plan.kind {
            case .wildcard, .call:
                return true
            case .list:
                if plan.list >= 0, Int(plan.list) >> 6 < listWords,
                   listHere[position * listWords + Int(plan.list) >> 6] & (1 << UInt64(plan.list & 63)) != 0 {
                    return true
                }
            case .recognizer:
                for x in input.entitiesAt[position] where plan.recognizer.accepts(input.entities[x].kind) { return true }
            }
        }
        return false
    }

    /// Does every way on from `state` begin with a literal word (its own, or the first of a call it enters)?
    /// Free text before such a state may only end before a word it can read.
    private func startsWithWordsOnly(_ state: Int32) -> Bool {
        for edge in automaton.slotEdges(state) {
            let plan = slotPlans[Int(automaton.slotIDs[edge])]
            guard plan.kind == .call else { return false }
            if !callAutomaton.slotEdges(callStarts[Int(plan.list)]).isEmpty { return false }
        }
        return true
    }

    // Helpers written as loops, not closures: a closure that uses `self` copies the matcher, and with it the
    // automata's tables (a retain and a release each).

    /// Can state `u` read one of the optional words?
    private func readsOptionalWord(_ u: Int32) -> Bool {
        for word in tolerance.optionalWordIDs where !automaton.wordTargets(u, word).isEmpty { return true }
        return false
    }

    /// Can one of `states` read `word` next?
    private func anyReadsFirst(_ states: Int32Table.SubSequence, _ word: Int32) -> Bool {
        for state in states where readsFirst(state, word) { return true }
        return false
    }

    /// Does call state `u` accept call `call`?
    private func acceptsCall(_ u: Int32, _ call: Int) -> Bool {
        for a in callAutomaton.acceptRange(u) where callAutomaton.accepts[a] == Int32(call) { return true }
        return false
    }

    /// Can `state` read `word` next, itself or as the first word of a call it enters?
    private func readsFirst(_ state: Int32, _ word: Int32) -> Bool {
        if !automaton.wordTargets(state, word).isEmpty { return true }
        for edge in automaton.slotEdges(state) {
            let plan = slotPlans[Int(automaton.slotIDs[edge])]
            if plan.kind == .call, !callAutomaton.wordTargets(callStarts[Int(plan.list)], word).isEmpty {
                return true
            }
        }
        return false
    }

    /// The ways call `call` reads the words from `position` (found once per utterance): every path through
    /// the call's automaton that ends where it accepts, with the steps and gains the matcher would give its
    /// words inlined. Skip phrases may stand between its words (before and after them is the caller's turn).
    func callReadings(_ call: Int, at position: Int, input: borrowing MatchInput, calls: inout CallReadings) -> Range<Int> {
        let key = call * calls.positions + position
        if calls.index[key] >= 0 { return calls.ranges[Int(calls.index[key])] }
        if calls.index[key] == CallReadings.none { return 0..<0 }
        let first = calls.readings.count
        var trail = calls.spareTrail
        calls.spareTrail = []
        trail.removeAll(keepingCapacity: true)
        trail.reserveCapacity(16)
        walkCall(call, callStarts[call], position, 0, first: first, input: input, trail: &trail, calls: &calls)
        calls.spareTrail = trail
        if calls.readings.count == first {
            calls.index[key] = CallReadings.none
            return 0..<0
        }
        calls.index[key] = Int32(calls.ranges.count)
        calls.ranges.append(first..<calls.readings.count)
        return first..<calls.readings.count
    }

    /// One step of `callReadings`: from call state `u` at `at`, with `gain` so far and the steps in `trail`.
    private func walkCall(_ call: Int, _ u: Int32, _ at: Int, _ gain: Int64, first: Int, input: borrowing MatchInput,
                          trail: inout [Step], calls: inout CallReadings) {
        // A call's readings are few (a room, an app); the bound only guards against a pathological grammar.
        if calls.readings.count - first >= 64 { return }
        if let last = trail.last, last.slot != StepKind.skipped,
           acceptsCall(u, call) {
            let start = calls.steps.count
            calls.steps.append(contentsOf: trail)
            calls.readings.append(CallReading(end: at, gain: gain, steps: start..<calls.steps.count))
        }
        guard at < input.wordIDs.count else { return }
        let locked = !input.lockAt.isEmpty && input.lockAt[at] >= 0
        let id = input.wordIDs[at]
        if id >= 0, !locked {
            for ti in callAutomaton.wordTargets(u, id) {
                trail.append(Step(parent: -1, slot: -1, start: Int16(at), end: Int16(at + 1), payload: -1))
                walkCall(call, callAutomaton.targets[ti], at + 1, gain + Rank.literal, first: first, input: input, trail: &trail, calls: &calls)
                trail.removeLast()
            }
        }
        for edge in callAutomaton.slotEdges(u) {
            let slot = callAutomaton.slotIDs[edge]
            let plan = slotPlans[Int(slot)]
            for ti in callAutomaton.slotTargets(edge) {
                let target = callAutomaton.slotTargetList[ti]
                switch plan.kind {
                case .list:
                    var h = Self.firstHit(of: plan.list, in: input.listHits[at])
                    while h < input.listHits[at].count, input.listHits[at][h].list == plan.list {
                        let hit = input.listHits[at][h]
                        h += 1
                        if input.isLocked(at, hit.end) { continue }
                        trail.append(Step(parent: -1, slot: slot, start: Int16(at), end: Int16(hit.end), payload: hit.entry))
                        walkCall(call, target, hit.end, gain + Rank.listEntry(words: hit.end - at, literal: plan.literal), first: first,
                                 input: input, trail: &trail, calls: &calls)
                        trail.removeLast()
                    }
                case .recognizer:
                    for x in input.entitiesAt[at] where plan.recognizer.accepts(input.entities[x].kind)
                        && !input.isLocked(at, input.entities[x].end) {
                        let end = input.entities[x].end
                        trail.append(Step(parent: -1, slot: slot, start: Int16(at), end: Int16(end), payload: Int32(x)))
                        walkCall(call, target, end, gain + Rank.entity(words: end - at, fixed: input.entities[x].literalWords),
                                 first: first, input: input, trail: &trail, calls: &calls)
                        trail.removeLast()
                    }
                case .wildcard, .call:
                    break  // a call holds neither (`GrammarCompiler.callableRules`)
                }
            }
        }
        if !trail.isEmpty, !input.skipAt.isEmpty, !locked {
            for length in input.skipAt[at] where !input.isLocked(at, at + length) {
                trail.append(Step(parent: -1, slot: StepKind.skipped, start: Int16(at), end: Int16(at + length), payload: -1))
                walkCall(call, u, at + length, gain + Rank.skipped(words: length), first: first, input: input, trail: &trail, calls: &calls)
                trail.removeLast()
            }
        }
    }

    /// `waiting` in the order a written-out call's readings would arrive: by the starts of their steps, the
    /// last first (a stable sort, so that equal ones keep the order they were found in).
    private func sortedByArrival(_ waiting: [PendingCall], calls: CallReadings) -> [PendingCall] {
        func starts(_ call: PendingCall) -> [Int16] {
            calls.readings[Int(call.reading)].steps.reversed().map { calls.steps[$0].start }
        }
        let keys = waiting.map(starts)
        return waiting.indices.sorted { i, j in
            if keys[i] != keys[j] { return keys[i].lexicographicallyPrecedes(keys[j]) }
            return i < j
        }.map { waiting[$0] }
    }

    /// Every path of `paths` reads the words of a call as `reading` does (see `enterCall(_:…)`).
    private func enterCall(_ paths: [Path], call: Int, reading: CallReading, calls: CallReadings, target: Int32,
                           chart: inout Chart, steps: inout [Step]) {
        var entry = -1
        for p in paths {
            enterCall(p, call: call, reading: reading, calls: calls, target: target, entry: &entry, chart: &chart, steps: &steps)
        }
    }

    /// The path `p` reads the words of a call as `reading` does: the steps are added to the path one by one,
    /// filling fields and mixing captures as `capture` would. `entry`: the entry of `target` at the reading's
    /// end, made when first needed (-1 until then).
    @inline(__always)
    private func enterCall(_ p: Path, call: Int, reading: CallReading, calls: CallReadings, target: Int32, entry: inout Int,
                           chart: inout Chart, steps: inout [Step]) {
        guard !p.restricted else { return }
        var filled = p.filled
        var captures = p.captures
        for k in reading.steps {
            let step = calls.steps[k]
            guard step.slot >= 0 else { continue }
            let bit = slotBits[Int(step.slot)]
            if filled & bit != 0 { return }
            filled |= bit
            captures = Self.mix(captures, slot: step.slot, from: Int(step.start), to: Int(step.end), payload: step.payload)
        }
        if entry < 0 { entry = chart.entry(reading.end, target) }
        let rank = Rank(value: p.rank.value + reading.gain)
        guard let at = chart.slot(in: entry, rank: rank, captures: captures) else { return }
        var parent = p.step
        for k in reading.steps {
            var step = calls.steps[k]
            step.parent = parent
            step.state = target
            step.call = Int16(call)
            step.callFirst = k == reading.steps.lowerBound
            steps.append(step)
            parent = Int32(steps.count - 1)
        }
        chart.insert(Path(rank: rank, step: parent, filled: filled, captures: captures,
                          tolerance: p.tolerance & 31, sentence: p.sentence), in: entry, at: at)
    }

    /// What a path's captures become when a slot takes `[from, to)` (two routes to the same captures are one
    /// reading).
    @inline(__always)
    static func mix(_ captures: UInt64, slot: Int32, from: Int, to: Int, payload: Int32) -> UInt64 {
        var h = UInt64(bitPattern: Int64(slot)) &* 0x9E37_79B9_7F4A_7C15
        h ^= UInt64(from) << 48 ^ UInt64(to) << 32 ^ UInt64(UInt32(bitPattern: payload))
        return (captures ^ h) &* 0xBF58_476D_1CE4_E5B9 &+ 0x94D0_49BB_1331_11EB
    }

    /// The modifier layer's moves at `position` (before any word there is read): a path whose modifier
    /// before the request ended may start the request or another modifier; a path whose sentence ended may
    /// go on into a modifier after it, carrying the sentence; a modifier after it may be followed by another.
    /// The targets are the layer's start states, which accept nothing, so one pass over the entries does it.
    private func enterLayer(at position: Int, chart: inout Chart) {
        var e = Int(chart.head[position])
        while e >= 0 {
            // The moves lead to the layer's starts, never to this entry, so its paths stay as they are.
            let range = chart.pathRange(e)
            for a in automaton.acceptRange(chart.state(e)) {
                let s = automaton.accepts[a]
                switch sentenceModifier[Int(s)] {
                case .before?:
                    for i in range where !chart.path(i).restricted {
                        move(chart.path(i), to: 0, at: position, chart: &chart)
                        move(chart.path(i), to: grammar.beforeStart, at: position, chart: &chart)
                    }
                case .after?:
                    for i in range where !chart.path(i).restricted && chart.path(i).sentence >= 0 {
                        move(chart.path(i), to: grammar.afterStart, at: position, chart: &chart)
                    }
                case nil:
                    guard grammar.afterStart >= 0 else { continue }
                    for i in range where !chart.path(i).restricted && chart.path(i).sentence < 0 {
                        var p = chart.path(i)
                        p.sentence = s
                        p.captures = (p.captures ^ UInt64(UInt32(bitPattern: s))) &* 0x9E37_79B9_7F4A_7C15 &+ 0x632B_E59B_D9B4_E019
                        move(p, to: grammar.afterStart, at: position, chart: &chart)
                    }
                }
            }
            e = chart.next(e)
        }
    }

    /// A path moved, unchanged, to `state` at `position` (no word read, so no step).
    @inline(__always)
    private func move(_ p: Path, to state: Int32, at position: Int, chart: inout Chart) {
        let target = chart.entry(position, state)
        guard let at = chart.slot(in: target, rank: p.rank, captures: p.captures) else { return }
        chart.insert(p, in: target, at: at)
    }

    /// The tolerant moves from the paths of state `u` at `position`: skip a skip phrase, assume an optional
    /// word of the template that was not said, or pass over one extra word (only between matched words).
    private func tolerate(_ paths: [Path], state u: Int32, at position: Int, n: Int, input: MatchInput,
                          chart: inout Chart, steps: inout [Step]) {
        let locked = !input.lockAt.isEmpty && position < n && input.lockAt[position] >= 0
        if position < n, !input.skipAt.isEmpty, !locked {
            for length in input.skipAt[position] where !input.isLocked(position, position + length) {
                let target = chart.entry(position + length, u)
                for p in paths where !p.restricted {
                    advance(p, slot: StepKind.skipped, bit: 0, from: position, to: position + length, payload: -1,
                            gain: Rank.skipped(words: length), captures: p.captures, state: u, entry: target,
                            chart: &chart, steps: &steps, tolerance: p.tolerance)
                }
            }
        }
        // The word said next must be one the assumed word's state can read (checked here, so that no entry
        // is made for an assumption that could not go on).
        let next = position < n ? input.wordIDs[position] : -1
        guard next >= 0 || tolerance.maxExtra > 0 else { return }
        for word in tolerance.optionalWordIDs where next >= 0 {
            for ti in automaton.wordTargets(u, word) {
                let t = automaton.targets[ti]
                guard !automaton.wordTargets(t, next).isEmpty else { continue }
                var entry = -1
                // Only between words the grammar explains: after a literal word or a list entry, before a literal
                // word (an assumed word never stands alone between two stretches of free text).
                for p in paths where p.missing < Tolerance.maxMissing && !p.restricted && p.step >= 0 && followsGrammarWord(p, steps) {
                    if entry < 0 { entry = chart.entry(position, t) }
                    advance(p, slot: StepKind.assumed, bit: 0, from: position, to: position, payload: word,
                            gain: -Rank.missingWord, captures: p.captures, state: t, entry: entry,
                            chart: &chart, steps: &steps, tolerance: (p.tolerance & 31) + 1 | 64)
                }
            }
        }
        guard tolerance.maxExtra > 0, position < n, position > 0, !locked else { return }
        var entry = -1
        for p in paths where p.extra < tolerance.maxExtra && !p.restricted && p.step >= 0 {
            // Only right after a literal word or a list entry: not at the start, not after free text.
            guard followsGrammarWord(p, steps) else { continue }
            if entry < 0 { entry = chart.entry(position + 1, u) }
            advance(p, slot: StepKind.extra, bit: 0, from: position, to: position + 1, payload: -1,
                    gain: -Rank.extraWord, captures: p.captures, state: u, entry: entry,
                    chart: &chart, steps: &steps, tolerance: (p.tolerance & 31) + 4 | 32)
        }
    }

    /// Does `slot` take free text?
    @inline(__always)
    private func isWildcard(_ slot: Int32) -> Bool { slotPlans[Int(slot)].kind == .wildcard }

    /// The first hit of `list` in `hits` (sorted by list), or where it would be.
    @inline(__always)
    static func firstHit(of list: Int32, in hits: [(list: Int32, entry: Int32, end: Int)]) -> Int {
        var lo = 0, hi = hits.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if hits[mid].list < list { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Was the last step of `p` a literal word or a list entry?
    @inline(__always)
    private func followsGrammarWord(_ p: Path, _ steps: [Step]) -> Bool {
        let last = steps[Int(p.step)]
        if last.slot == -1 { return true }
        return last.slot >= 0 && slotIsList[Int(last.slot)]
    }

    /// Where each wildcard of a reading ends, first wildcard first: the tie-break that prefers longer
    /// free text before a marker word.
    static func wildcardEnds(of last: Int32, steps: [Step], grammar: CompiledGrammar) -> [Int16] {
        var ends: [Int16] = []
        var at = last
        while at >= 0 {
            let step = steps[Int(at)]
            if step.slot >= 0, case .wildcard = grammar.slots[Int(step.slot)].source { ends.append(step.end) }
            at = step.parent
        }
        return ends.reversed()
    }

    /// Every path of `paths` takes a slot over `[from, to)`.
    ///
    /// `nameStartsBefore`: free text whose word before is written like a name's first word ("spiel Bitte
    /// bleib"): a path that read that word as a literal word of its own ("bitte"), a one-word list entry or
    /// a one-word entity ("Einfach" as a speed) loses it to free text that starts there: the word is
    /// counted as free text of the grammar's phrasing, and a little more, so the reading that keeps it in
    /// the name ranks just above. The same for a path that skipped a skip phrase whose first word is so
    /// written ("pon Por favor no te vayas de Melendi"): `nameCasedSkip` is `MatchInput.nameCased` where
    /// such a phrase ends at `from`, else empty.
    @inline(__always)
    private func capture(_ paths: [Path], slot: Int32, bit: UInt32, from: Int, to: Int, payload: Int32, gain: Int64,
                         target: Int32, chart: inout Chart, steps: inout [Step], nameStartsBefore: Bool = false,
                         nameCasedSkip: [Bool] = []) {
        var entry = -1  // made for the first path that may take the slot, then shared by the others
        // After an extra word only a literal word or a list entry may come (not free text or a number).
        let isList = slotIsList[Int(slot)]
        for p in paths where p.filled & bit == 0 && !p.afterAssumed && (isList || !p.afterExtra) {
            let captures = Self.mix(p.captures, slot: slot, from: from, to: to, payload: payload)
            if entry < 0 { entry = chart.entry(to, target) }
            var gain = gain
            if nameStartsBefore || !nameCasedSkip.isEmpty, p.step >= 0, case let last = steps[Int(p.step)], Int(last.end) == from,
               (nameStartsBefore && (last.slot == -1 || (last.slot >= 0 && last.end - last.start == 1 && !isWildcard(last.slot))))
                || (!nameCasedSkip.isEmpty && last.slot == StepKind.skipped && nameCasedSkip[Int(last.start)]) {
                gain -= Rank.literal + Rank.wildcardWord + Rank.phrasingInFreeText + 1
            }
            advance(p, slot: slot, bit: bit, from: from, to: to, payload: payload, gain: gain, captures: captures,
                    state: target, entry: entry, chart: &chart, steps: &steps)
        }
    }

    /// Adds the path `p` extended by one step to the best-k of `entry` (state `state` at `to`), unless it
    /// would not be kept.
    @inline(__always)
    private func advance(_ p: Path, slot: Int32, bit: UInt32, from: Int, to: Int, payload: Int32, gain: Int64,
                         captures: UInt64, state: Int32, entry e: Int, chart: inout Chart, steps: inout [Step],
                         tolerance: UInt8? = nil) {
        let rank = Rank(value: p.rank.value + gain)
        guard let at = chart.slot(in: e, rank: rank, captures: captures) else { return }
        steps.append(Step(parent: p.step, slot: slot, start: Int16(from), end: Int16(to), payload: payload, state: state))
        // A literal word or a list entry ends the run of an extra word; other moves keep the counters.
        let kept = tolerance ?? (p.tolerance & 31)
        chart.insert(Path(rank: rank, step: Int32(steps.count - 1), filled: p.filled | bit, captures: captures,
                          tolerance: kept, sentence: p.sentence), in: e, at: at)
    }
}
