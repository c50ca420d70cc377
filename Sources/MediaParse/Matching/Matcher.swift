/// How a reading used the words: one step per literal word, list entry, entity or wildcard.
struct Step: Sendable {
    var parent: Int32
    /// -1 for a literal word, else the slot.
    var slot: Int32
    var start: Int16
    var end: Int16
    /// For a list slot: the entry; for a recogniser slot: the entity index.
    var payload: Int32
    /// The state the step led to (for grammar coverage).
    var state: Int32 = -1
}

/// A ranking key that orders readings by the grammar's rules: more literal words, then more words
/// matched by lists and recognisers, then fewer words in wildcards, then fewer wildcards.
/// Packed into one integer (counts stay far below 256 because utterances are capped in length).
struct Rank: Comparable, Sendable {
    var value: Int64 = 0
    static let literal: Int64 = 1 << 40
    static let entityWord: Int64 = 1 << 30
    static let wildcardWord: Int64 = 1 << 20
    static let wildcard: Int64 = 1 << 10
    /// One list or recogniser slot: "indie rock" as one genre beats "indie" + "rock".
    static let slot: Int64 = 1

    static func < (a: Rank, b: Rank) -> Bool { a.value < b.value }
}

/// A partial reading: its rank so far, its last step, the single-valued fields it filled (a path that
/// would fill one twice dies at once, so it never takes the place of a valid one), and a hash of what its
/// slots captured (two routes to the same captures are one reading).
struct Path: Sendable {
    var rank: Rank
    var step: Int32
    var filled: UInt32 = 0
    var captures: UInt64 = 0
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

    /// Does `[start, end)` touch a locked token?
    func isLocked(_ start: Int, _ end: Int) -> Bool {
        !lockedBefore.isEmpty && lockedBefore[end] - lockedBefore[start] > 0
    }
}

/// A full reading: a sentence of the grammar matched the whole utterance this way.
struct Candidate {
    var sentence: Int32
    var rank: Rank
    var step: Int32
}

/// Matches an utterance against the compiled automaton: a left-to-right pass over token positions that
/// keeps the best few partial readings per (position, state) (a k-best Viterbi search). Time is
/// O(words × states × (k + wildcard length)), whatever the grammar: no backtracking.
struct Matcher {
    let grammar: CompiledGrammar
    /// Partial readings kept per (position, state).
    let beam: Int

    func prepare(_ utterance: Utterance, entities: [Entity], vocabulary: [VocabularyHit] = []) -> MatchInput {
        let tokens = utterance.tokens
        let ids = tokens.map { grammar.wordIDs[$0.key] ?? -1 }
        var hits = [[(list: Int32, entry: Int32, end: Int)]](repeating: [], count: tokens.count + 1)
        for start in 0..<tokens.count {
            var node: Int32 = 0
            var at = start
            while at < tokens.count, ids[at] >= 0, let next = grammar.trie.children[Int(node)][ids[at]] {
                node = next
                at += 1
                for t in grammar.trie.terminals[Int(node)] { hits[start].append((t.list, t.entry, at)) }
            }
        }
        var at = [[Int]](repeating: [], count: tokens.count + 1)
        for (i, e) in entities.enumerated() { at[e.start].append(i) }
        var input = MatchInput(wordIDs: ids, listHits: hits, entities: entities, entitiesAt: at)
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

    func match(_ input: MatchInput, steps: inout [Step]) -> [Candidate] {
        let n = input.wordIDs.count
        var chart = [[Int32: [Path]]](repeating: [:], count: n + 1)
        chart[0][grammar.start] = [Path(rank: Rank(), step: -1)]
        let fieldBits = grammar.slots.map(\.fieldBit)
        var candidates: [Candidate] = []

        for position in 0...n {
            if chart[position].isEmpty { continue }
            // Consuming edges, once per state, in state order (so ties resolve the same way every run).
            for u in chart[position].keys.sorted() {
                let node = grammar.states[Int(u)]
                let paths = chart[position][u]!
                if position == n {
                    for sentence in node.accepts {
                        for p in paths { candidates.append(Candidate(sentence: sentence, rank: p.rank, step: p.step)) }
                    }
                }
                guard position < n else { continue }
                let id = input.wordIDs[position]
                let locked = !input.lockAt.isEmpty && input.lockAt[position] >= 0
                if id >= 0, !locked, let targets = node.words[id] {
                    for p in paths {
                        for t in targets {
                            steps.append(Step(parent: p.step, slot: -1, start: Int16(position), end: Int16(position + 1),
                                              payload: -1, state: t))
                            let q = Path(rank: Rank(value: p.rank.value + Rank.literal), step: Int32(steps.count - 1),
                                         filled: p.filled, captures: p.captures)
                            _ = merge(q, into: &chart[position + 1], at: t)
                        }
                    }
                }
                for edge in node.slots {
                    let ref = grammar.slots[Int(edge.slot)]
                    switch ref.source {
                    case let .list(list, literal):
                        let perWord = literal ? Rank.literal : Rank.entityWord
                        for hit in input.listHits[position] where hit.list == Int32(list) && !input.isLocked(position, hit.end) {
                            advance(paths, slot: edge.slot, bit: fieldBits[Int(edge.slot)], from: position, to: hit.end, payload: hit.entry,
                                    gain: Int64(hit.end - position) * perWord - Rank.slot, target: edge.target,
                                    chart: &chart, steps: &steps)
                        }
                    case let .recognizer(kind):
                        for e in input.entitiesAt[position] where kind.accepts(input.entities[e].kind)
                            && !input.isLocked(position, input.entities[e].end) {
                            let end = input.entities[e].end
                            advance(paths, slot: edge.slot, bit: fieldBits[Int(edge.slot)], from: position, to: end, payload: Int32(e),
                                    gain: Int64(end - position) * Rank.entityWord - Rank.slot, target: edge.target,
                                    chart: &chart, steps: &steps)
                        }
                    case let .wildcard(maxWords, exclude):
                        if locked {
                            // A vocabulary hit: free text may take it whole, and then its words rank
                            // as literal words (a vocabulary hit beats lists, recognisers and free text).
                            let h = Int(input.lockAt[position])
                            let hit = input.vocabulary[h]
                            guard hit.start == position else { continue }
                            let words = Int64(hit.end - position)
                            advance(paths, slot: edge.slot, bit: fieldBits[Int(edge.slot)], from: position, to: hit.end,
                                    payload: Int32(h), gain: words * Rank.literal - Rank.slot, target: edge.target,
                                    chart: &chart, steps: &steps)
                            continue
                        }
                        var end = position
                        while end < n, end - position < maxWords, !exclude.contains(input.wordIDs[end]),
                              input.lockAt.isEmpty || input.lockAt[end] < 0 {
                            end += 1
                            let words = Int64(end - position)
                            advance(paths, slot: edge.slot, bit: fieldBits[Int(edge.slot)], from: position, to: end, payload: -1,
                                    gain: -words * Rank.wildcardWord - Rank.wildcard, target: edge.target,
                                    chart: &chart, steps: &steps)
                        }
                    }
                }
            }
            chart[position] = [:]  // no longer needed
        }
        return candidates
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

    private func advance(_ paths: [Path], slot: Int32, bit: UInt32, from: Int, to: Int, payload: Int32, gain: Int64,
                         target: Int32, chart: inout [[Int32: [Path]]], steps: inout [Step]) {
        var h = UInt64(bitPattern: Int64(slot)) &* 0x9E37_79B9_7F4A_7C15
        h ^= UInt64(from) << 48 ^ UInt64(to) << 32 ^ UInt64(UInt32(bitPattern: payload))
        for p in paths where p.filled & bit == 0 {
            steps.append(Step(parent: p.step, slot: slot, start: Int16(from), end: Int16(to), payload: payload, state: target))
            let captures = (p.captures ^ h) &* 0xBF58_476D_1CE4_E5B9 &+ 0x94D0_49BB_1331_11EB
            let q = Path(rank: Rank(value: p.rank.value + gain), step: Int32(steps.count - 1),
                         filled: p.filled | bit, captures: captures)
            _ = merge(q, into: &chart[to], at: target)
        }
    }

    /// Adds `path` to the best-k list of `state`; true when the list changed.
    private func merge(_ path: Path, into row: inout [Int32: [Path]], at state: Int32) -> Bool {
        var list = row[state] ?? []
        if list.contains(where: { $0.step == path.step || ($0.rank == path.rank && $0.captures == path.captures) }) {
            return false
        }
        // Insert after every path that is at least as good, so earlier arrivals win ties.
        var index = list.count
        while index > 0, list[index - 1].rank < path.rank { index -= 1 }
        if index >= beam { return false }
        list.insert(path, at: index)
        if list.count > beam { list.removeLast() }
        row[state] = list
        return true
    }
}
