/// How readings are ranked, in one place: the rank a path accumulates while it is matched (`Rank`), the order
/// of complete readings (`Ranking.order`), the score a result reports (`Ranking.score`), and which of two
/// overlapping vocabulary hits is kept (`Ranking.vocabularyHit(_:ranksAbove:)`). Grammars/README.md
/// ("Ranking") describes the same rules for grammar writers.
/// A ranking key that orders readings by the grammar's rules: more literal words, then more words
/// matched by lists and recognisers, then fewer words in wildcards, then fewer wildcards.
/// Packed into one integer (counts stay far below 256 because utterances are capped in length).
struct Rank: Comparable, Sendable {
    var value: Int64 = 0
    static let literal: Int64 = 1 << 40
    static let entityWord: Int64 = 1 << 30
    static let wildcardWord: Int64 = 1 << 20
    /// A word of the grammar's own phrasing (a template word, a word of a literal list) taken by free text:
    /// between equal counts of free words, the reading whose free text holds fewer of the grammar's own
    /// words wins ("play Chess by Sting": "by Sting" as the tail of a game request loses to a title and
    /// an artist). Below a free word, above a wildcard, so it never outweighs explaining a word.
    static let phrasingInFreeText: Int64 = 1 << 15
    static let wildcard: Int64 = 1 << 10
    /// One list or recogniser slot: "indie rock" as one genre beats "indie" + "rock".
    static let slot: Int64 = 1
    /// A skip word ("um", "alexa"): a little cheaper than a word of free text, so a filler next to a name
    /// is skipped rather than taken into the name.
    static let skippedWord: Int64 = wildcardWord - wildcard
    /// A word of the template the utterance left out ("play [the] latest episode"): half a literal word.
    static let missingWord: Int64 = literal / 2
    /// A word no template has, between matched words: more than a literal word, so it is only worth it
    /// when it lets more than one more word match literally.
    static let extraWord: Int64 = literal + wildcardWord

    static func < (a: Rank, b: Rank) -> Bool { a.value < b.value }

    /// What a list entry of `words` words adds (a literal list's words rank as literal words).
    @inline(__always)
    static func listEntry(words: Int, literal: Bool) -> Int64 { Int64(words) * (literal ? Rank.literal : Rank.entityWord) - Rank.slot }

    /// What a recognised entity of `words` words adds, `fixed` of them its own literal words ("at 2x speed").
    @inline(__always)
    static func entity(words: Int, fixed: Int) -> Int64 {
        Int64(fixed) * (Rank.literal - Rank.wildcard) + Int64(words - fixed) * Rank.entityWord - Rank.slot
    }

    /// What a skip phrase of `words` words costs.
    @inline(__always)
    static func skipped(words: Int) -> Int64 { -Int64(words) * Rank.skippedWord }
}


extension Rank {
    /// The literal words and the list and recogniser words the rank counts (for `--explain`).
    var counts: (literals: Int, entityWords: Int) {
        let literals = Int((value + Rank.literal / 2) / Rank.literal)
        let entity = Int(((value - Int64(literals) * Rank.literal) + Rank.entityWord / 2) / Rank.entityWord)
        return (literals, entity)
    }
}

enum Ranking {
    /// Complete readings best first: by rank; on a tie, a media reading before a NotMedia one, then the
    /// reading with more free texts ending where the speaker paused (a comma: "人间天堂，张冬玲唱的", "Hello,
    /// Adele"), then the reading whose free text runs further before the next marker ("Out From Under |
    /// from | Hurricane Chris"), then the earlier sentence.
    ///
    /// - Parameter pauses: the token positions after a pause (`pauses(in:)`).
    static func order(_ found: [Candidate], grammar: CompiledGrammar, steps: [Step], pauses: Set<Int16> = []) -> [Candidate] {
        let ends = found.map { Matcher.wildcardEnds(of: $0.step, steps: steps, grammar: grammar) }
        let atPause = pauses.isEmpty ? [] : ends.map { $0.filter(pauses.contains).count }
        return found.indices.sorted { i, j in
            let x = found[i], y = found[j]
            if x.rank != y.rank { return x.rank > y.rank }
            let a = grammar.sentences[Int(x.sentence)].intent == .notMedia
            let b = grammar.sentences[Int(y.sentence)].intent == .notMedia
            if a != b { return b }
            if !atPause.isEmpty, atPause[i] != atPause[j] { return atPause[i] > atPause[j] }
            if ends[i] != ends[j] { return ends[i].lexicographicallyPrecedes(ends[j]) == false }
            if x.sentence != y.sentence { return x.sentence < y.sentence }
            return readsFirst(x.step, before: y.step, steps: steps, grammar: grammar)
        }.map { found[$0] }
    }

    /// The same sentence read two ways that rank alike: the one that fills more distinct fields; else, at the first word
    /// where the readings part, the one whose piece there runs further (a list entry of two words before one
    /// word and a literal word), then a skipped word before a literal word before a slot, slots that fill a
    /// field in the contract's order (a name before an artist), the others in the order the grammar first
    /// names them. Not the order the search found them in: that depends on how the automaton was built
    /// (rules written out or entered by a call).
    static func readsFirst(_ a: Int32, before b: Int32, steps: [Step], grammar: CompiledGrammar) -> Bool {
        func chain(_ last: Int32) -> [Step] {
            var out: [Step] = []
            var at = last
            while at >= 0 {
                out.append(steps[Int(at)])
                at = steps[Int(at)].parent
            }
            return out.reversed()
        }
        func order(_ step: Step) -> Int {
            if step.slot == StepKind.skipped { return -10 }
            if step.slot < 0 { return Int(step.slot) }
            if let field = grammar.slots[Int(step.slot)].field, let i = Field.allCases.firstIndex(of: field) { return i }
            return Field.allCases.count + Int(step.slot)
        }
        func fields(_ chain: [Step]) -> Int { Set(chain.compactMap { $0.slot >= 0 ? grammar.slots[Int($0.slot)].field : nil }).count }
        let x = chain(a), y = chain(b)
        let fx = fields(x), fy = fields(y)
        if fx != fy { return fx > fy }
        for (p, q) in zip(x, y) {
            if p.start != q.start { return p.start < q.start }
            if p.end != q.end { return p.end > q.end }
            let kp = order(p), kq = order(q)
            if kp != kq { return kp < kq }
            if p.payload != q.payload { return p.payload < q.payload }
        }
        return x.count < y.count
    }

    /// Signs that mark a pause between words: commas, semicolons, colons, stops (not "." or "-", which are
    /// inside names: "Mr. Brightside", "Jay-Z").
    static let pauseSigns: Set<Unicode.Scalar> = [",", "，", "、", ";", "；", ":", "：", "。", "!", "！", "?", "？", "…", "–", "—", "｡", "､"]

    /// The token positions `p` with a pause sign between token `p - 1` and token `p`.
    static func pauses(in utterance: Utterance) -> Set<Int16> {
        var out = Set<Int16>()
        let tokens = utterance.tokens
        guard tokens.count > 1 else { return out }
        for p in 1..<tokens.count {
            let from = tokens[p - 1].end, to = tokens[p].start
            guard from < to else { continue }
            if utterance.scalars[from..<to].contains(where: pauseSigns.contains) { out.insert(Int16(p)) }
        }
        return out
    }

    /// The share of words matched by literals, lists and recognisers, wildcard words counting half; lower
    /// when another reading ranked the same.
    /// Skipped words count like free text, extra words as not understood, and each word the reading had to
    /// assume takes a little off.
    static func score(_ reading: ReadingBuilder.Reading, words: Int, tied: Bool) -> Double {
        let n = Double(max(words, 1))
        var s = 1.0 - 0.5 * Double(reading.wildcardWords + reading.skipped) / n - Double(reading.extra) / n
            - 0.05 * Double(reading.assumed)
        s = max(s, 0)
        if tied { s *= 0.85 }
        return (s * 100).rounded() / 100
    }

    /// Overlapping vocabulary hits: user entries before global ones, then the longer, then the earlier in
    /// the user's ordered set, then the earlier in the utterance.
    static func vocabularyHit(_ a: VocabularyHit, ranksAbove b: VocabularyHit) -> Bool {
        if a.entry.source != b.entry.source { return a.entry.source == .user }
        if a.length != b.length { return a.length > b.length }
        if a.entry.priority != b.entry.priority { return a.entry.priority < b.entry.priority }
        if a.start != b.start { return a.start < b.start }
        return vocabularyEntry(a.entry, ranksAbove: b.entry)
    }

    /// Tie-break between entries of equal coverage: source, priority, type order, phrase, value.
    static func vocabularyEntry(_ a: VocabularyEntry, ranksAbove b: VocabularyEntry) -> Bool {
        if a.source != b.source { return a.source == .user }
        if a.priority != b.priority { return a.priority < b.priority }
        if a.type != b.type { return typeOrder[a.type]! < typeOrder[b.type]! }
        if a.phrase != b.phrase { return a.phrase < b.phrase }
        return a.value < b.value
    }

    private static let typeOrder: [VocabularyType: Int] =
        Dictionary(uniqueKeysWithValues: VocabularyType.allCases.enumerated().map { ($1, $0) })
}
