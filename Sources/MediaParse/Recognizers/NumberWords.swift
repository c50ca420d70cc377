/// The words ICU's spell-out rules write for a locale: what the number recogniser knows a spelled-out
/// number by ("twenty", "dritten", "quatre", "八").
///
/// Asking ICU is most of a language's start-up (every public rule set spells out 0–100, the hundreds, a few
/// years and decimals, and each spelling is cut into words: some 4,000 spellings in German). The answer
/// depends only on the locale, the tokenizer and ICU's version, so a compiled grammar keeps the words it
/// was compiled with, and a parser that reads a compiled grammar (the package's own, or one from the cache)
/// takes them from there instead of asking ICU again.
///
/// It keeps ICU's parses too (`answers`): what ICU's lenient spell-out parse reads in the texts a compile asked
/// about. One such parse costs ICU as much as a whole parse of ours, and its first builds a collator (some 10
/// ms): a start-up of Chinese or Japanese asked it about every digit character, and the first utterances of a
/// process about each of their runs of number words.
struct NumberWords: Sendable, Equatable {
    /// Every word of a cardinal rule set's spellings.
    let cardinal: Set<String>
    /// Every word of an ordinal rule set's spellings.
    let ordinal: Set<String>
    /// The first and last word of every spelling: a word that is never one only joins two others.
    let edges: Set<String>
    /// What ICU's lenient spell-out parse answered, when the grammar was compiled, for the texts asked then: the
    /// digit characters of the locale and every spelling above, keyed as an utterance's run of those words is
    /// (`NumberRecognizer.runText`).
    private(set) var answers: [String: Double]
    /// The texts asked then that ICU reads as no number ("第", "点": words of number phrases).
    private(set) var notNumbers: Set<String>
    /// The texts the rule sets wrote (not stored: a compile keys and asks them once).
    private(set) var spellings: [String] = []

    /// The values every rule set spells out: 0–100, the hundreds, powers of ten, a few years and the first
    /// part of a year ("neunzehnhundert"). Ordinal rule sets skip 0.
    private static let values: [Double] = Array(0...100).map(Double.init) + stride(from: 200, through: 900, by: 100).map(Double.init)
        + [1000, 2000, 10_000, 100_000, 1_000_000, 1_000_000_000, 1905, 1999, 2005, 2020, 101, 1001]
        + stride(from: 1100, through: 1900, by: 100).map(Double.init)
    /// Decimals, spelled out by cardinal rule sets only.
    private static let decimals: [Double] = [0.5, 1.5, 2.25, 3.75]

    init(cardinal: Set<String>, ordinal: Set<String>, edges: Set<String>, answers: [String: Double] = [:],
         notNumbers: Set<String> = []) {
        self.cardinal = cardinal
        self.ordinal = ordinal
        self.edges = edges
        self.answers = answers
        self.notNumbers = notNumbers
    }

    /// The answer kept for `text`: a number, no number (`.some(nil)`), or nil when `text` was not asked.
    @inline(__always)
    func kept(_ text: String) -> Double?? {
        if let v = answers[text] { return v }
        return notNumbers.contains(text) ? .some(nil) : nil
    }

    /// ICU's lenient spell-out parse of `text`: the answer kept with the grammar, else ICU's own (not kept).
    @inline(__always)
    func value(of text: String, session: ICUSession) -> Double? {
        kept(text) ?? session.cachedSpelledNumber(text)
    }

    /// ICU's parse of `text`, kept with these words: what a compile does, so that parses find the answer.
    mutating func keepValue(of text: String, session: ICUSession) -> Double? {
        if let answer = kept(text) { return answer }
        let v = session.cachedSpelledNumber(text)
        if let v { answers[text] = v } else { notNumbers.insert(text) }
        return v
    }

    /// The words and answers: the spellings are how they were found, not what was found.
    static func == (a: NumberWords, b: NumberWords) -> Bool {
        a.cardinal == b.cardinal && a.ordinal == b.ordinal && a.edges == b.edges && a.answers == b.answers
            && a.notNumbers == b.notNumbers
    }

    /// Asks ICU: every public spell-out rule set of `session`'s locale spells out the values above, and
    /// `words` cuts each spelling into words. Ordinal rule sets are those whose name says "ordinal".
    init(session: ICUSession, words: (String) -> [String]) {
        var cardinal = Set<String>(), ordinal = Set<String>(), edges = Set<String>()
        // Rule sets spell most values alike ("%spellout-numbering" and "%spellout-cardinal"): each spelling
        // is cut into words once (a German start-up spent a seventh of its time cutting the same strings).
        var spelled = Set<String>()
        for ruleSet in session.ruleSets() {
            let isOrdinal = ruleSet.contains("ordinal")
            for v in Self.values + (isOrdinal ? [] : Self.decimals) where !(isOrdinal && v < 1) {
                guard let s = session.spellOut(v, ruleSet: ruleSet), spelled.insert((isOrdinal ? "o " : "c ") + s).inserted else {
                    continue
                }
                let w = words(s)
                if isOrdinal { ordinal.formUnion(w) } else { cardinal.formUnion(w) }
                if let first = w.first, let last = w.last { edges.insert(first); edges.insert(last) }
            }
        }
        self.init(cardinal: cardinal, ordinal: ordinal, edges: edges)
        spellings = Set(spelled.map { String($0.dropFirst(2)) }).sorted()
    }
}

extension NumberWords {
    /// Sorted, so that the same words always give the same bytes.
    func write(to w: inout BinaryWriter) {
        w.strings(cardinal.sorted())
        w.strings(ordinal.sorted())
        w.strings(edges.sorted())
        let asked = answers.keys.sorted()
        w.strings(asked)
        for text in asked { w.double(answers[text]!) }
        w.strings(notNumbers.sorted())
    }

    init(reading r: inout BinaryReader) throws {
        let cardinal = Set(try r.strings()), ordinal = Set(try r.strings()), edges = Set(try r.strings())
        let asked = try r.strings()
        var answers = [String: Double](minimumCapacity: asked.count)
        for text in asked { answers[text] = try r.double() }
        self.init(cardinal: cardinal, ordinal: ordinal, edges: edges, answers: answers, notNumbers: Set(try r.strings()))
    }
}
