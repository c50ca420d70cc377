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
    /// Number words ICU reads as no number alone and that no spelling ICU writes begins with ("hundred",
    /// "thousand", "million"; German "tausend"): a run of words that begins with one of them, then a space,
    /// is no number ICU reads, and ICU is not asked (`NumberRecognizer.spelled`). ICU's rules begin either
    /// with a number, which such a word is not, or with their own words, which their spellings begin with.
    /// A failed question costs ICU's lenient parse one to five milliseconds, and an utterance's run of number
    /// words asks about every part of it ("hundred and ninety" of "nine hundred and ninety"): over the
    /// English development sets, 38 of 86 questions. Found when the grammar is compiled (`findNeverFirst`).
    private(set) var neverFirst: Set<String> = []
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
         notNumbers: Set<String> = [], neverFirst: Set<String> = []) {
        self.cardinal = cardinal
        self.ordinal = ordinal
        self.edges = edges
        self.answers = answers
        self.notNumbers = notNumbers
        self.neverFirst = neverFirst
    }

    /// Finds `neverFirst` among `words` (the number words that may begin a run), a compile's work: ICU is
    /// asked about each word alone, and `spellingTexts` are the texts ICU's spellings were asked as.
    mutating func findNeverFirst(words: Set<String>, spellingTexts: [String], session: ICUSession) {
        var never = Set<String>()
        for word in words.sorted() where !word.contains(" ") {
            guard keepValue(of: word, session: session) == nil else { continue }
            if spellingTexts.contains(where: { $0.hasPrefix(word) }) { continue }
            never.insert(word)
        }
        neverFirst = never
    }

    /// Is `text`, a run of number words whose first word is `first`, known to be no number ICU reads?
    @inline(__always)
    func beginsWithNeverFirst(_ text: String, first: String) -> Bool {
        guard !neverFirst.isEmpty, neverFirst.contains(first) else { return false }
        // The run's text begins with that word and a space (no run alias stands in its place, the word is
        // not glued to the next).
        let t = text.utf8, f = first.utf8
        guard t.count > f.count, t.starts(with: f) else { return false }
        return t[t.index(t.startIndex, offsetBy: f.count)] == 0x20
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
            && a.notNumbers == b.notNumbers && a.neverFirst == b.neverFirst
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
        w.strings(neverFirst.sorted())
    }

    init(reading r: inout BinaryReader) throws {
        let cardinal = Set(try r.strings()), ordinal = Set(try r.strings()), edges = Set(try r.strings())
        let asked = try r.strings()
        var answers = [String: Double](minimumCapacity: asked.count)
        for text in asked { answers[text] = try r.double() }
        let notNumbers = Set(try r.strings())
        self.init(cardinal: cardinal, ordinal: ordinal, edges: edges, answers: answers, notNumbers: notNumbers,
                  neverFirst: Set(try r.strings()))
    }
}
