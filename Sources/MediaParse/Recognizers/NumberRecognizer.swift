import Foundation

/// Finds numbers, ordinals, years, decades, speeds, percentages, durations and radio frequencies in a token
/// sequence, for any language whose `locale.yaml` describes them.
///
/// Spelled-out numbers are read by ICU's rule-based spell-out for the locale, with every public rule set
/// ICU has (cardinals and ordinals in every gender and case: "dritten", "troisième", "tercera", "八十一"), so
/// no language needs a word list. Which words can be part of a number is asked of ICU once, by spelling out
/// numbers with each of those rule sets; a longer word that starts like one is asked about directly
/// (compounds: "einundachtzig", "neunzehnhundertneunundneunzig"). The forms built around a number (glued
/// "80er", "3rd", "x1,5"; phrases "années {number}", "{number} 年代"), fractions, units and the rest come from
/// the locale's `numbers:` settings (`NumberForms`).
/// A class: it is shared by every parse of a parser (its tables are built once and never change), and
/// passing a reference costs one retain where copying a struct of tables would cost one per table.
final class NumberRecognizer: Sendable {
    /// Words that may be part of a spelled-out number.
    let numberWords: Set<String>
    /// Words that only ordinal rule sets use ("third", "dritten", "第"): a run holding one is an ordinal.
    let ordinalWords: Set<String>
    /// First three characters of every number word of three or more: a word of six or more that starts like
    /// one may be a compound, which ICU is then asked about.
    let numberPrefixes: Set<Substring>
    /// The longest number word, in Unicode scalars.
    let longestNumberWord: Int
    /// Number words that only stand between two others.
    let connectors: Set<String>
    /// The longest run of number words tried as one number.
    let maxRun = 7

    private let aliases: [String: String]
    /// One-word aliases that also stand at the start of a compound, longest first: "hundert" -> "einhundert"
    /// makes "hundertzwanzig" the "einhundertzwanzig" ICU reads.
    private let compoundAliases: [(prefix: String, alias: String)]
    /// Their first three letters: a quick test before looking for one.
    private let compoundAliasStarts: Set<Substring>
    private let runAliases: [String: String]
    private let decimalSeparators: Set<Character>
    let fractions: [(words: [String], value: Double)]
    /// Words that join two parts of a duration: the first of a fraction of several words ("and" of "and a
    /// half", "y" of "y medio").
    private let durationJoiners: Set<String>
    private let articlesAsOne: Set<String>
    private let units: [(words: [String], seconds: Double)]
    /// The band words of a radio frequency, each cut into words as an utterance is: "兆赫" is 兆 + 赫 where every
    /// character is a word, "modulazione di frequenza" three words.
    private let frequencyBands: [[String]]
    let yearZeroWords: Set<String>
    /// Words that mark the decimal point of a number whose decimals are said one digit at a time ("一点五" =
    /// 1.5 in Japanese, whose spell-out rules ICU writes "一・五").
    private let decimalWords: Set<String>
    /// Whether years are said digit by digit ("二〇〇八年", "二零零八"): four single digits in a row.
    private let yearsDigitByDigit: Bool
    /// The characters that spell one digit, for numbers said one digit at a time ("二" 2, "〇" 0, "两" 2
    /// through its alias); empty unless the language says numbers so.
    private let digitCharacters: [Character: Int]
    private let stemEndings: [String]
    private let glued: [(kind: RecognizerKind, form: GluedForm)]
    /// Phrase forms, each with how many of its items are fixed words.
    private let phrases: [(kind: RecognizerKind, items: [PhraseItem], fixed: Int)]
    /// The words phrases begin with.
    private let phraseFirstWords: Set<String>
    /// Years counted from this one ("last year", "{number} years ago"): each phrase's words (and number),
    /// how many of them are fixed words, and the range it names, counted for each of its number when it
    /// has one; by the word they start with, and those that start with their number.
    private typealias RelativeYearPhrase = (items: [PhraseItem], fixed: Int, from: Int, to: Int)
    private let relativeYearsByFirstWord: [String: [RelativeYearPhrase]]
    private let relativeYearsFromNumber: [RelativeYearPhrase]
    /// For the quick checks: are there glued forms of words, and their endings and beginnings; the first
    /// words of units.
    private let wordForms: Bool
    private let gluedEndings: Set<String>
    private let gluedBeginnings: Set<String>
    private let gluedLastBytes: Set<UInt8>
    private let unitStarts: Set<String>
    /// What a fraction, a unit or a year counted from this one begins with (`mayBegin`): its first word, or
    /// its first two ("a half", "this year") when it has two words there, the first of them alone in
    /// `pairStarts` (a phrase whose second item is a number needs that number, which tells by itself).
    private let firstWords: Set<String>
    private let firstPairs: Set<String>
    private let pairStarts: Set<String>

    /// A word of a phrase, or the number it is built around.
    enum PhraseItem: Sendable, Equatable {
        case word(String)
        /// Any number (digits, words, with a fraction).
        case number
        /// A number in digits.
        case digits
        /// A number in words.
        case words
        /// Two digits said one at a time, each a word or a character of its own ("零三", "九 八"): read so only
        /// where a phrase says it, since elsewhere such a run is a number ("音量调到八八" is 88).
        case digitWords
        /// An entity of this kind ("{decade} jahre").
        case entity(RecognizerKind)
    }

    /// What ICU's spell-out rules write for the locale, as this recogniser was built with it, and ICU's
    /// parses of them.
    let spelled: NumberWords

    /// - Parameter known: the number words of the locale when a compiled grammar holds them; nil asks ICU.
    /// - Throws: `GrammarError` when a phrase of `forms` is not a valid template.
    init(forms: NumberForms, icuLocale: String, session: ICUSession, tokenizer: Tokenizer, known: NumberWords? = nil) throws {
        // Cut into words once per piece: the spellings share their pieces ("twenty", "one", "hundred"), and
        // cutting each again was most of a start-up (`Tokenizer.words` treats each piece on its own).
        var cut: [Substring: [String]] = [:]
        func words(_ text: String) -> [String] {
            text.split(whereSeparator: \.isWhitespace).flatMap { piece -> [String] in
                if let done = cut[piece] { return done }
                let w = tokenizer.words(of: String(piece), session: session)
                cut[piece] = w
                return w
            }
        }
        // Number words: every word of every public spell-out rule set's rendering of 0-100, the hundreds,
        // powers of ten, a few years and decimals (`NumberWords`), unless the compiled grammar brought them.
        // Ordinal words are those no cardinal rendering uses.
        var spelled = known ?? NumberWords(session: session, words: words)
        // ICU's parse: the compiled grammar's answer, or ICU's (kept, when this is a compile, for the grammar).
        func ask(_ text: String) -> Double? {
            known == nil ? spelled.keepValue(of: text, session: session) : spelled.value(of: text, session: session)
        }
        let cardinal = spelled.cardinal, ordinal = spelled.ordinal, edges = spelled.edges
        // One word: read as another word wherever it stands. Several words: a whole run of number words
        // written so ("quatre vingt" for ICU's "quatre vingts").
        var single: [String: String] = [:], runs: [String: String] = [:]
        for (from, to) in forms.aliases {
            let w = words(from)
            let key = w.joined().filter { $0.isLetter || $0.isNumber }
            if w.count == 1 { single[w[0]] = single[w[0]] ?? to } else if w.count > 1 { runs[key] = runs[key] ?? to }
        }
        aliases = single
        runAliases = runs
        compoundAliases = single.filter { $0.key.count >= 3 }.map { ($0.key, $0.value) }
            .sorted { ($0.prefix.count, $0.prefix) > ($1.prefix.count, $1.prefix) }
        compoundAliasStarts = Set(compoundAliases.map { $0.prefix.prefix(3) })
        yearZeroWords = Set(forms.yearZeroWords)
        decimalWords = Set(forms.decimalWords)
        yearsDigitByDigit = forms.yearsDigitByDigit
        numberWords = cardinal.union(ordinal).union(yearZeroWords)
        var digitCharacters: [Character: Int] = [:]
        if forms.yearsDigitByDigit || !forms.decimalWords.isEmpty {
            let known = cardinal.union(ordinal).union(yearZeroWords)
            func digit(_ word: String) -> Int? {
                guard known.contains(word), let v = ask(word), v == v.rounded(), (0...9).contains(v) else { return nil }
                return Int(v)
            }
            for word in known where word.count == 1 && !word.first!.isASCII { digitCharacters[word.first!] = digit(word) }
            // An alias reads the character as another ("两" as "二"), whatever the character says itself.
            for (from, to) in single where from.count == 1 && !from.first!.isASCII { digitCharacters[from.first!] = digit(to) }
        }
        self.digitCharacters = digitCharacters
        ordinalWords = ordinal.subtracting(cardinal)
        // Words that only ever join two others ("and" of "one hundred and five", "y", "et", "komma", "点"):
        // a run of number words neither starts nor ends with one.
        connectors = cardinal.union(ordinal).subtracting(edges)
        numberPrefixes = Set(numberWords.subtracting(connectors).filter { $0.count >= 3 }.map { $0.prefix(3) })
        longestNumberWord = numberWords.map(\.unicodeScalars.count).max() ?? 0
        let separators = forms.decimalSeparators ?? icuDecimalSeparator(locale: icuLocale).map { [$0] } ?? []
        decimalSeparators = Set(separators.compactMap { $0.count == 1 ? $0.first : nil } + ["."])
        fractions = forms.fractions.map { (words($0.text), $0.value) }.filter { !$0.0.isEmpty }
        durationJoiners = Set(fractions.compactMap { $0.words.count > 1 ? $0.words.first : nil })
        articlesAsOne = Set(forms.articlesAsOne)
        let unitList = forms.durationUnits.map { (words($0.text), $0.seconds) }.filter { !$0.0.isEmpty }
        units = unitList
        var bands: [[String]] = []
        for band in forms.frequencyBands.map(words) where !band.isEmpty && !bands.contains(band) { bands.append(band) }
        frequencyBands = bands
        stemEndings = forms.stemEndings
        var glued: [(RecognizerKind, GluedForm)] = []
        var phrases: [(RecognizerKind, [PhraseItem], Int)] = []
        for kind in RecognizerKind.allCases {
            guard let derived = forms.derived[kind] else { continue }
            glued += derived.glued.map { (kind, $0) }
            for (text, location) in derived.phrases {
                let node = try TemplateParser.parse(text, at: location, splitWords: words)
                guard let sequences = Self.expand(node), !sequences.isEmpty else {
                    throw GrammarError("a phrase of \(kind.rawValue) may hold words, ( | ), [ ] and one of {number}, {digits}, {words}, {digit_words} or {\(kind.rawValue)}; not \"\(text)\"",
                                       at: location)
                }
                for items in sequences {
                    let placeholders = items.filter { if case .word = $0 { return false }; return true }
                    guard placeholders.count == 1 else {
                        throw GrammarError("a phrase of \(kind.rawValue) holds exactly one number: {number}, {digits}, {words}, {digit_words} or {\(kind.rawValue)} (\"\(text)\")",
                                           at: location)
                    }
                    phrases.append((kind, items, items.count - placeholders.count))
                }
            }
        }
        // The bands glued to digits ("fm97.4", "97.4fm") are glued forms of a frequency.
        for band in forms.frequencyBands where !band.contains(" ") {
            glued += ["\(band){digits}", "{digits}\(band)"].compactMap { GluedForm($0, fold: { $0 }) }.map { (.frequency, $0) }
        }
        self.glued = glued
        self.phrases = phrases
        phraseFirstWords = Set(phrases.compactMap { if case let .word(w) = $0.1.first { w } else { nil } })
        func isWord(_ item: PhraseItem) -> Bool { if case .word = item { true } else { false } }
        func isEntity(_ item: PhraseItem) -> Bool { if case .entity = item { true } else { false } }
        let relativeYears = try forms.relativeYears.flatMap { form -> [RelativeYearPhrase] in
            let node = try TemplateParser.parse(form.text, at: form.location, splitWords: words)
            let sequences = Self.expand(node) ?? []
            let valid = sequences.allSatisfy { items in
                !items.contains(where: isEntity) && items.filter { !isWord($0) }.count <= 1 && items.contains(where: isWord)
            }
            guard !sequences.isEmpty, valid else {
                throw GrammarError("a phrase of relative_years holds words, ( | ), [ ] and at most one {number}: \"last year\", \"{number} years ago\"; not \"\(form.text)\"",
                                   at: form.location)
            }
            return sequences.map { ($0, $0.filter(isWord).count, form.from, form.to) }
        }
        relativeYearsByFirstWord = Dictionary(grouping: relativeYears.filter { isWord($0.items[0]) }) {
            if case let .word(w) = $0.items[0] { w } else { "" }
        }
        relativeYearsFromNumber = relativeYears.filter { !isWord($0.items[0]) }
        wordForms = glued.contains { $0.1.part != .digits }
        gluedEndings = Set(glued.filter { $0.1.part != .digits }.map { $0.1.suffix })
        gluedBeginnings = Set(glued.filter { $0.1.part != .digits }.map { $0.1.prefix })
        // An empty ending lets any word through (a prefix form: "x{number}").
        let endings = glued.filter { $0.1.part != .digits }.map { $0.1.suffix }
        gluedLastBytes = endings.contains("") ? Set(0...255) : Set(endings.compactMap { $0.utf8.last })
        unitStarts = Set(unitList.compactMap(\.0.first))
        var firstWords = unitStarts, firstPairs = Set<String>()
        for words in fractions.map(\.words) {
            if words.count == 1 { firstWords.insert(words[0]) } else { firstPairs.insert(words[0] + " " + words[1]) }
        }
        for phrase in relativeYears {
            guard case let .word(first) = phrase.items[0] else { continue }
            if phrase.items.count == 1 { firstWords.insert(first); continue }
            if case let .word(second) = phrase.items[1] { firstPairs.insert(first + " " + second) }
        }
        self.firstWords = firstWords
        self.firstPairs = firstPairs
        pairStarts = Set(firstPairs.map { String($0.prefix { $0 != " " }) })
        if known == nil {
            // A compile: ICU is asked now about each spelling, keyed as an utterance's run of its words is, as
            // ICU writes it and with spaces for its hyphens ("twenty three"); parses find the answers kept.
            var asked: [String] = []
            for text in spelled.spellings {
                let spaced = text.replacingOccurrences(of: "-", with: " ")
                for variant in spaced == text ? [text] : [text, spaced] {
                    let tokens = tokenizer.tokenize(variant, session: session).tokens
                    if tokens.isEmpty { continue }
                    let run = Self.runText(tokens[...], runAliases: runs)
                    _ = ask(run)
                    asked.append(run)
                }
            }
            spelled.findNeverFirst(words: cardinal.union(ordinal).intersection(edges),
                                   spellingTexts: asked, session: session)
        }
        self.spelled = spelled
    }

    /// The word sequences of a phrase template; nil when it holds something other than words, ( | ), [ ] and
    /// placeholders.
    private static func expand(_ node: TemplateNode) -> [[PhraseItem]]? {
        switch node {
        case let .word(w): return [[.word(w)]]
        case let .sequence(items):
            var acc: [[PhraseItem]] = [[]]
            for item in items {
                guard let next = expand(item) else { return nil }
                acc = acc.flatMap { prefix in next.map { prefix + $0 } }
                if acc.count > 256 { return nil }
            }
            return acc
        case let .alternatives(items):
            var acc: [[PhraseItem]] = []
            for item in items {
                guard let e = expand(item) else { return nil }
                acc += e
            }
            return acc
        case let .slot(list, _, _):
            switch list {
            case "number": return [[.number]]
            case "digits": return [[.digits]]
            case "words": return [[.words]]
            case "digit_words": return [[.digitWords]]
            default: return RecognizerKind(rawValue: list).map { [[.entity($0)]] }
            }
        case .rule, .repetition: return nil
        }
    }

    // MARK: Reading single words

    /// Is `word` (part of) a spelled-out number? Known words directly; longer words that start like one
    /// (compounds) if ICU reads them as a number.
    func isNumberWord(_ word: String, session: ICUSession) -> Bool {
        if numberWords.contains(word) { return true }
        guard word.count >= 6, numberPrefixes.contains(word.prefix(3)), isCompoundOfNumberWords(word) else { return false }
        return icuValue(word, session: session) != nil
    }

    /// `word` with an alias in place of its first part, when it is an alias followed by number words
    /// ("hundertvierundneunzig" -> "einhundertvierundneunzig"); nil otherwise.
    func compoundAlias(_ word: String) -> String? {
        guard !compoundAliases.isEmpty, word.utf8.count >= 6, compoundAliasStarts.contains(word.prefix(3)) else { return nil }
        for (prefix, alias) in compoundAliases where word.count > prefix.count && word.hasPrefix(prefix) {
            let rest = String(word.dropFirst(prefix.count))
            if numberWords.contains(rest) || isCompoundOfNumberWords(rest) { return alias + rest }
        }
        return nil
    }

    /// Can `word` be cut into known number words ("dreihundert|fünfundachtzig", "honderd|eenentwintig")?
    /// Asked before ICU, whose parse of a word that is no number costs as much as a whole parse ("thriller",
    /// "several" and "tennis" start like numbers).
    func isCompoundOfNumberWords(_ word: String) -> Bool {
        let scalars = Array(word.unicodeScalars)
        guard scalars.count <= 64 else { return false }
        var reachable = [Bool](repeating: false, count: scalars.count + 1)
        reachable[0] = true
        for start in 0..<scalars.count where reachable[start] {
            var piece = String.UnicodeScalarView()
            for end in start..<min(scalars.count, start + longestNumberWord) {
                piece.append(scalars[end])
                if !reachable[end + 1], numberWords.contains(String(piece)) {
                    if end + 1 == scalars.count { return true }
                    reachable[end + 1] = true
                }
            }
        }
        return false
    }

    /// The value of digits written with "." or one of the locale's decimal separators ("1,5"); nil for
    /// anything else (not Double's other forms, "1e9999" or "0x1p3", which nobody says and which can be
    /// infinite).
    func digitsValue(_ key: Substring) -> Double? {
        guard let first = key.first, first.isASCII, first.isNumber, let last = key.last, last.isASCII, last.isNumber else { return nil }
        var separators = 0
        var plain = ""
        for c in key {
            if c.isASCII, c.isNumber { plain.append(c); continue }
            guard decimalSeparators.contains(c) else { return nil }
            separators += 1
            plain.append(".")
        }
        guard separators <= 1, let v = Double(plain), v.isFinite else { return nil }
        return v
    }

    /// Could a token with this key be part of a number reading? A quick, conservative check (the vocabulary
    /// normaliser skips the recogniser for names that hold none).
    func mayBeNumber(_ key: String) -> Bool {
        if let first = key.unicodeScalars.first, first.properties.numericType != nil { return true }
        if numberWords.contains(key) || aliases[key] != nil { return true }
        if fractions.contains(where: { $0.words.contains(key) }) { return true }
        if key.utf8.count >= 6, numberPrefixes.contains(key.prefix(3)) || compoundAliasStarts.contains(key.prefix(3)) { return true }
        return glued.contains { key.count > $0.form.prefix.count + $0.form.suffix.count
            && key.hasPrefix($0.form.prefix) && key.hasSuffix($0.form.suffix) }
    }

    // MARK: Recognising

    /// - Parameter thisYear: the year "this year" and "last year" count from (the year of the day the request
    ///   is parsed); nil finds no such phrase (names and titles, where "last year" is words).
    func recognize(_ original: [Token], session: ICUSession, thisYear: @autoclosure () -> Int? = nil) -> [Entity] {
        // What each word alone tells (its alias, whether a number may begin with it, what each pass below
        // looks for in it), one look-up a word: the passes then test a flag instead of looking the word up
        // again, each in its own table.
        let facts = original.map { t in session.cachedNumberFacts(t.key) { self.facts(of: t.key, session: session) } }
        var tokens = original
        if !aliases.isEmpty {
            for i in tokens.indices { if let alias = facts[i].alias { tokens[i].key = alias } }
        }
        // Most requests hold no number: one look at each word tells, before the passes below look at every
        // word again, each for its own forms.
        var mayHoldOne = false
        for i in tokens.indices where mayBegin(tokens[i], facts: facts[i], next: i + 1 < tokens.count ? tokens[i + 1].key : nil) {
            mayHoldOne = true
            break
        }
        if !mayHoldOne { return [] }
        var out: [Entity] = []
        var numbers: [Entity] = []  // plain numbers, for fractions, phrases, speeds and durations
        var digitNumbers = Set<Int>()  // starts of numbers written in digits

        for (i, token) in tokens.enumerated() {
            let key = token.key
            let startsWithDigit = key.utf8.first.map { $0 >= 0x30 && $0 <= 0x39 } ?? false
            if startsWithDigit, let v = digitsValue(Substring(key)) {
                numbers.append(Entity(start: i, end: i + 1, kind: .number, value: .number(v)))
                digitNumbers.insert(i)
                if key.count == 4, let y = Int(key), (1000...2099).contains(y) {
                    out.append(Entity(start: i, end: i + 1, kind: .year, value: yearRange(y)))
                }
            }
            if !glued.isEmpty, facts[i].gluedWord || !token.trailing.isEmpty || token.trailingEnd > token.end {
                out += gluedEntities(tokens, at: i, facts: facts, session: session)
            }
        }

        // Runs of spelled-out number words: every sub-run ICU reads whole.
        var i = 0
        while i < tokens.count {
            guard facts[i].numberWord else { i += 1; continue }
            var j = i
            while j < tokens.count, facts[j].numberWord, j - i < maxRun { j += 1 }
            for start in i..<j where !connectors.contains(tokens[start].key) {
                for end in stride(from: j, to: start, by: -1) where !connectors.contains(tokens[end - 1].key) {
                    let run = tokens[start..<end]
                    if let value = spelled(run, session: session) {
                        let kind: RecognizerKind = run.contains { ordinalWords.contains($0.key) } ? .ordinal : .number
                        let entity = Entity(start: start, end: end, kind: kind, value: .number(value))
                        if kind == .number { numbers.append(entity) } else { out.append(entity) }
                        // A year said as one number ("two thousand eight", "neunzehnhundertneunundneunzig"), not
                        // a bare "thousand".
                        if kind == .number, value == value.rounded(), (1000...2099).contains(value),
                           end - start > 1 || value > 1000 {
                            out.append(Entity(start: start, end: end, kind: .year, value: yearRange(Int(value))))
                        }
                    }
                    if end - start >= 2, let year = spelledYear(Array(run)) {
                        out.append(Entity(start: start, end: end, kind: .year, value: yearRange(year)))
                    }
                }
            }
            i = j
        }

        if yearsDigitByDigit || !decimalWords.isEmpty {
            digitsOneByOne(tokens, facts: facts, numbers: &numbers, years: &out)
        }

        // "nineteen seventies": a century (10-20) right before a decade in words.
        for d in out where d.kind == .decade && d.end == d.start + 1 && d.start > 0 && !digitNumbers.contains(d.start) {
            guard case let .dateRange(start, _) = d.value, let first = Int(start.prefix(4)),
                  let century = spelled(tokens[(d.start - 1)..<d.start], session: session),
                  century == century.rounded(), (10...20).contains(century) else { continue }
            out.append(Entity(start: d.start - 1, end: d.end, kind: .decade,
                              value: decadeRange(year: Int(century) * 100 + first % 100)))
        }

        // Fractions: joined to the number before them ("one and a half"), or alone ("half", "anderthalb").
        var withFractions = numbers
        for (phrase, fraction) in fractions {
            for start in 0..<tokens.count where matches(phrase, tokens, at: start) {
                for n in numbers where n.end == start {
                    withFractions.append(Entity(start: n.start, end: start + phrase.count, kind: .number,
                                                value: .number((n.value.number ?? 0) + fraction)))
                }
                withFractions.append(Entity(start: start, end: start + phrase.count, kind: .number, value: .number(fraction)))
            }
        }
        out += withFractions

        // Phrases around a number ("années 80", "八十年代", "{decade} jahre"): twice, so that a phrase may
        // build on what another one made. Every phrase is built on an entity, so none without one.
        if !phrases.isEmpty, !out.isEmpty {
            var made: [Entity] = []
            for _ in 0..<2 {
                let known = out + made
                var byStart = [[Int]](repeating: [], count: tokens.count + 1)
                for (k, e) in known.enumerated() { byStart[e.start].append(k) }
                var next: [Entity] = []
                for (kind, items, fixed) in phrases {
                    let first: String? = if case let .word(w) = items[0] { w } else { nil }
                    // A phrase that begins with a number or an entity begins only where one does.
                    let beginsWithEntity = switch items[0] {
                    case .number, .digits, .words, .entity: true
                    case .word, .digitWords: false
                    }
                    for start in 0..<tokens.count where first == nil || (facts[start].startsPhrase && sameKey(tokens[start].key, first!)) {
                        if beginsWithEntity, byStart[start].isEmpty { continue }
                        matchPhrase(items, from: start, tokens: tokens, facts: facts, known: known, byStart: byStart,
                                    digits: digitNumbers) { end, inner in
                            if let value = derive(kind, inner) {
                                next.append(Entity(start: start, end: end, kind: kind, value: value,
                                                   literalWords: fixed + inner.literalWords))
                            }
                        }
                    }
                }
                let before = made.count
                for e in next where !made.contains(e) && !out.contains(e) { made.append(e) }
                if made.count == before { break }
            }
            out += made
        }

        if !relativeYearsByFirstWord.isEmpty || !relativeYearsFromNumber.isEmpty {
            out += yearsCounted(from: thisYear, tokens: tokens, facts: facts, numbers: numbers)
        }

        // A fraction after a speed adds to it ("una volta e mezza", "duas vezes e meia"), as after a unit.
        for e in out where e.kind == .speed {
            for (phrase, fraction) in fractions where matches(phrase, tokens, at: e.end) {
                out.append(Entity(start: e.start, end: e.end + phrase.count, kind: .speed,
                                  value: .number((e.value.number ?? 0) + fraction)))
            }
        }

        // Radio frequencies: "89.1 FM", "1010 AM"; the band before the number ("FM 97.4", "调频 97.4"), or
        // glued to it in one word ("FM97.4", "97.4FM": glued forms made from the bands in `init`), both from 50 up (`mayBeFrequency`).
        for n in numbers where n.end < tokens.count {
            for band in frequencyBands where matches(band, tokens, at: n.end) {
                out.append(Entity(start: n.start, end: n.end + band.count, kind: .frequency, value: .text("")))
            }
        }
        for n in numbers where n.start > 0 && Self.mayBeFrequency(n.value.number) {
            for band in frequencyBands where n.start >= band.count && matches(band, tokens, at: n.start - band.count) {
                out.append(Entity(start: n.start - band.count, end: n.end, kind: .frequency, value: .text("")))
            }
        }

        // Durations: (number | "a") unit [fraction].
        var amounts = withFractions.map { ($0.start, $0.end, $0.value.number ?? 0) }
        for (i, token) in tokens.enumerated() where articlesAsOne.contains(token.key) {
            amounts.append((i, i + 1, 1))
        }
        // "half a minute": a fraction, then an article standing for one
        for n in withFractions where n.end + 1 < tokens.count && articlesAsOne.contains(tokens[n.end].key) {
            amounts.append((n.start, n.end + 1, n.value.number ?? 0))
        }
        var durations: [Entity] = []
        // Durations that end in a number whose unit is left unsaid ("一分三"): never the first of two that add up,
        // or "一分三十秒" would also read as 一分三 + 十秒, 73 seconds.
        var unitUnsaid = Set<Int>()
        let joiners = durationJoiners
        for (start, end, amount) in amounts where end < tokens.count {
            for (unit, seconds) in units where matches(unit, tokens, at: end) {
                let unitEnd = end + unit.count
                durations.append(Entity(start: start, end: unitEnd, kind: .duration, value: .number(amount * seconds)))
                // The next unit left unsaid: "a minute thirty", "eine Minute dreißig", "一分三十", "an hour and
                // twenty" are a minute and thirty seconds, an hour and twenty minutes.
                if seconds >= 60, unitEnd < tokens.count {
                    let from = joiners.contains(tokens[unitEnd].key) ? unitEnd + 1 : unitEnd
                    for n in numbers where n.start == from {
                        guard let v = n.value.number, v == v.rounded(), (1...59).contains(v) else { continue }
                        unitUnsaid.insert(durations.count)
                        durations.append(Entity(start: start, end: n.end, kind: .duration,
                                                value: .number(amount * seconds + v * seconds / 60)))
                    }
                }
                for (phrase, fraction) in fractions where matches(phrase, tokens, at: unitEnd) {
                    durations.append(Entity(start: start, end: unitEnd + phrase.count, kind: .duration,
                                            value: .number((amount + fraction) * seconds)))
                }
            }
            // A fraction inside a unit of several words: "一分半钟" (one minute and a half: 分 … 钟).
            for (unit, seconds) in units where unit.count > 1 && matches([unit[0]], tokens, at: end) {
                for (phrase, fraction) in fractions where matches(phrase, tokens, at: end + 1)
                    && matches(Array(unit.dropFirst()), tokens, at: end + 1 + phrase.count) {
                    durations.append(Entity(start: start, end: end + phrase.count + unit.count, kind: .duration,
                                            value: .number((amount + fraction) * seconds)))
                }
            }
        }
        // A unit and a fraction with no number before them: "minuto y medio", "hora y media" (one and a half).
        for i in 0..<tokens.count where unitStarts.contains(tokens[i].key) && !(i > 0 && amounts.contains { $0.1 == i }) {
            for (unit, seconds) in units where matches(unit, tokens, at: i) {
                for (phrase, fraction) in fractions where phrase.count > 1 && matches(phrase, tokens, at: i + unit.count) {
                    durations.append(Entity(start: i, end: i + unit.count + phrase.count, kind: .duration,
                                            value: .number((1 + fraction) * seconds)))
                }
            }
        }
        // "one minute thirty seconds", "a minute and ten seconds": consecutive durations add up
        var compound: [Entity] = []
        for (k, a) in durations.enumerated() where !unitUnsaid.contains(k) {
            for b in durations where b.start == a.end || (b.start == a.end + 1 && joiners.contains(tokens[a.end].key)) {
                compound.append(Entity(start: a.start, end: b.end, kind: .duration,
                                       value: .number((a.value.number ?? 0) + (b.value.number ?? 0))))
            }
        }
        // Hundreds of digits, or hours of them, overflow to infinity, which JSON cannot hold: such a number is
        // read as words, not as a number. The same reading found twice is kept once.
        let all = out + durations + compound
        if all.isEmpty { return all }
        var seen = Set<Entity>()
        return all.filter { ($0.value.number?.isFinite ?? true) && seen.insert($0).inserted }
    }

    /// What a word alone tells the recogniser: the number word it stands for (an alias, or a compound with
    /// an alias for its first part), and, of that word, whether a number may begin with it and whether it
    /// is the first of a two-word start. A function of the word only, so a session remembers it.
    func facts(of key: String, session: ICUSession) -> NumberWordFacts {
        let alias = aliases.isEmpty ? nil : aliases[key] ?? compoundAlias(key)
        let word = alias ?? key
        let numberWord = isNumberWord(word, session: session)
        let gluedWord = !glued.isEmpty && mayBeGlued(key: word)
        let digits = digitCharacters.isEmpty ? nil : digitString(word)
        var begins = numberWord || gluedWord || firstWords.contains(word) || digits != nil
        if let first = word.utf8.first, first >= 0x30 && first <= 0x39 { begins = true }
        return NumberWordFacts(alias: alias, mayBegin: begins, startsPair: pairStarts.contains(word),
                               numberWord: numberWord, gluedWord: gluedWord,
                               gluedAlone: gluedWord ? gluedEntities(spellings: [(word, 1)], at: 0, session: session) : [],
                               hasDigit: word.utf8.contains { $0 >= 0x30 && $0 <= 0x39 }, digits: digits, startsPhrase: phraseFirstWords.contains(word),
                               startsRelativeYear: relativeYearsByFirstWord[word] != nil)
    }

    /// May `token` begin something this recogniser reads: digits, a glued form, a number word, or the first word
    /// of a fraction, a unit or a year counted from this one? Every reading of `recognize` begins with one of
    /// these (phrases, speeds, frequencies and the rest are built on a number or a unit). `facts`: the
    /// token's word alone (`facts(of:)`).
    private func mayBegin(_ token: Token, facts: NumberWordFacts, next: String?) -> Bool {
        if facts.mayBegin { return true }
        if !glued.isEmpty, !token.trailing.isEmpty || token.trailingEnd > token.end { return true }
        if let next, facts.startsPair, firstPairs.contains(token.key + " " + next) { return true }
        return false
    }

    /// A quick check before `gluedEntities`: could the word alone be one of the glued forms? Digit forms need
    /// a digit; the others need a form's last letters. (A word with signs after it, or touching the next, is
    /// always tried.)
    private func mayBeGlued(key: String) -> Bool {
        if key.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) { return true }
        guard wordForms, let last = key.utf8.last, gluedLastBytes.contains(last) else { return false }
        return gluedEndings.contains { key.utf8.reversed().starts(with: $0.utf8.reversed()) }
            && gluedBeginnings.contains { key.utf8.starts(with: $0.utf8) }
    }

    /// Entities of the glued forms a token is: "80er", "3rd", "x1,5", "seventies", "3." (a sign after digits).
    private func gluedEntities(_ tokens: [Token], at i: Int, facts: [NumberWordFacts], session: ICUSession) -> [Entity] {
        let token = tokens[i]
        let touchesNext = i + 1 < tokens.count && tokens[i + 1].start == token.trailingEnd && token.trailingEnd > 0
        // A word and the next one it touches are one glued form only around digits ("3.º", "x1,5"): a form of
        // two words is read from digits only. In a language written without spaces every word touches the next.
        let joinsNext = touchesNext && (facts[i].hasDigit || facts[i + 1].hasDigit
            || token.trailing.utf8.contains { $0 >= 0x30 && $0 <= 0x39 })
        if token.trailing.isEmpty, !joinsNext {
            // The word alone: what it is depends on its key only, so its facts hold it.
            if facts[i].gluedAlone.isEmpty { return [] }
            return facts[i].gluedAlone.map { e in
                    var e = e
                    e.start += i
                    e.end += i
                    return e
                }
        }
        // The word, the word with the signs stuck to it, and the word with the next word when they touch
        // ("3.º" = 3 + "." + º, cut in two by the word breaker): (spelling, tokens it covers). What they are
        // depends on those texts only: remembered under them (a word before a comma comes back often).
        let next = joinsNext ? tokens[i + 1].key : nil
        let memo = token.key + "\u{1}" + token.trailing + (next.map { "\u{2}" + $0 } ?? "")
        return session.cachedGlued(memo) {
            var spellings = [(token.key, 1)]
            if !token.trailing.isEmpty {
                for n in 1...token.trailing.count { spellings.append((token.key + token.trailing.prefix(n), 1)) }
            }
            if let next { spellings.append((token.key + token.trailing + next, 2)) }
            return gluedEntities(spellings: spellings, at: 0, session: session)
        }.map { e in
            var e = e
            e.start += i
            e.end += i
            return e
        }
    }

    /// The glued forms `spellings` (spelling, tokens it covers) of the word at `i` are.
    private func gluedEntities(spellings: [(String, Int)], at i: Int, session: ICUSession) -> [Entity] {
        var out: [Entity] = []
        for (kind, form) in glued {
            for (word, width) in spellings where word.utf8.count > form.prefix.utf8.count + form.suffix.utf8.count
                && word.utf8.starts(with: form.prefix.utf8) && word.utf8.reversed().starts(with: form.suffix.utf8.reversed()) {
                let middle = word.dropFirst(form.prefix.count).dropLast(form.suffix.count)
                var inner: Entity?
                if form.part != .words, let v = digitsValue(middle) {
                    inner = Entity(start: i, end: i + 1, kind: .number, value: .number(v))
                    if let value = derive(kind, inner!, digitsWidth: middle.count) {
                        out.append(Entity(start: i, end: i + width, kind: kind, value: value))
                    }
                    continue
                }
                guard width == 1 else { continue }
                guard form.part != .digits, middle.unicodeScalars.first?.properties.numericType == nil else { continue }
                for ending in [""] + stemEndings {
                    let stem = String(middle) + ending
                    guard isNumberWord(stem, session: session), let v = icuValue(stem, session: session) else { continue }
                    inner = Entity(start: i, end: i + 1, kind: .number, value: .number(v))
                    if let value = derive(kind, inner!) {
                        out.append(Entity(start: i, end: i + 1, kind: kind, value: value))
                        break
                    }
                }
            }
        }
        return out
    }

    /// "last year", "vor zwei Jahren", "the past five years": a year (or a range of years, as a release date)
    /// counted from `thisYear`. The number of a phrase is a whole one from 1 to 100.
    private func yearsCounted(from thisYear: () -> Int?, tokens: [Token], facts: [NumberWordFacts], numbers: [Entity]) -> [Entity] {
        var out: [Entity] = []
        var year: Int?? = nil  // asked once, when a phrase may start
        for start in 0..<tokens.count {
            var candidates = facts[start].startsRelativeYear ? relativeYearsByFirstWord[tokens[start].key] ?? [] : []
            if !relativeYearsFromNumber.isEmpty, numbers.contains(where: { $0.start == start }) { candidates += relativeYearsFromNumber }
            guard !candidates.isEmpty else { continue }
            if year == nil { year = thisYear() }
            guard let thisYear = year! else { return [] }
            for (items, fixed, from, to) in candidates {
                // Walk the phrase: words must be said as written; the number, if any, is one of `numbers`.
                var ends: [(at: Int, times: Int)] = [(start, 1)]
                for item in items {
                    var next: [(Int, Int)] = []
                    for (at, times) in ends where at < tokens.count {
                        if case let .word(w) = item {
                            if sameKey(tokens[at].key, w) { next.append((at + 1, times)) }
                            continue
                        }
                        for n in numbers where n.start == at {
                            guard let v = n.value.number, v == v.rounded(), (1...100).contains(v) else { continue }
                            next.append((n.end, Int(v)))
                        }
                    }
                    ends = next
                    if ends.isEmpty { break }
                }
                for (end, times) in ends {
                    let first = thisYear + from * times, last = thisYear + to * times
                    let value: SlotValue = .dateRange(start: Self.fourDigits(first) + "-01-01", end: Self.fourDigits(last) + "-12-31")
                    out.append(Entity(start: start, end: end, kind: first == last ? .year : .releaseDate, value: value, literalWords: fixed))
                }
            }
        }
        return out
    }

    /// Calls `found(end, inner)` for every way `items` match from `position`: words by key, the placeholder by
    /// an entity starting there.
    private func matchPhrase(_ items: [PhraseItem], from position: Int, tokens: [Token], facts: [NumberWordFacts],
                             known: [Entity], byStart: [[Int]], digits: Set<Int>, found: (Int, Entity) -> Void) {
        func go(_ k: Int, _ at: Int, _ inner: Entity?) {
            if k == items.count {
                if let inner { found(at, inner) }
                return
            }
            guard at < tokens.count else { return }
            switch items[k] {
            case let .word(w):
                if sameKey(tokens[at].key, w) { go(k + 1, at + 1, inner) }
            case .number, .digits, .words:
                for x in byStart[at] {
                    let e = known[x]
                    guard e.kind == .number else { continue }
                    let isDigits = digits.contains(e.start) && e.end == e.start + 1
                    if items[k] == .digits, !isDigits { continue }
                    if items[k] == .words, isDigits { continue }
                    go(k + 1, e.end, e)
                }
            case let .entity(kind):
                for x in byStart[at] where known[x].kind == kind { go(k + 1, known[x].end, known[x]) }
            case .digitWords:
                // A whole run of two digits said one at a time (a token may hold several: "零三"); four are a
                // year already (`digitsOneByOne`), and a run's last digits are not a run of their own.
                guard at == 0 || facts[at - 1].digits == nil,
                      let (end, text) = digitRun(from: at, limit: 2, digits: { facts[$0].digits }, count: tokens.count),
                      text.count == 2, end == tokens.count || facts[end].digits == nil, let v = Double(text) else { return }
                go(k + 1, end, Entity(start: at, end: end, kind: .number, value: .number(v)))
            }
        }
        go(0, position, nil)
    }

    /// The value of a `kind` built around `inner`, or nil when the number cannot be one: a decade is a
    /// multiple of ten (80 is the 1980s, 20 the 1920s, 10 and 0 the 2010s and 2000s, 1980 the 1980s), an
    /// ordinal a whole number, a year a whole year (two digits: below 30 this century, else the last).
    ///
    /// - Parameter digitsWidth: for digits, how many were written (a decade is written with 2 or 4).
    /// A frequency said with its band before it or glued to it is a number no band starts below (a radio
    /// band begins at 87.5 MHz, 153 kHz): "3am" is a time.
    static func mayBeFrequency(_ value: Double?) -> Bool { (value ?? 0) >= 50 }

    private func derive(_ kind: RecognizerKind, _ inner: Entity, digitsWidth: Int? = nil) -> SlotValue? {
        if inner.kind == kind { return inner.value }  // "{decade} jahre"
        // A year said whole or digit by digit, then the word for a decade: "一九八零年代", "二〇〇〇年代".
        if kind == .decade, inner.kind == .year, case let .dateRange(start, _) = inner.value,
           let year = Int(start.prefix(4)), year % 10 == 0 {
            return decadeRange(year: year)
        }
        guard case let .number(v) = inner.value else { return nil }
        switch kind {
        case .ordinal:
            return v == v.rounded() && v >= 0 ? .number(v) : nil
        case .decade:
            // Bounded before the conversion: a run of a hundred nines is a number, never a decade.
            guard v == v.rounded(), v >= 0, v <= 9999, Int(v) % 10 == 0 else { return nil }
            let n = Int(v)
            if let width = digitsWidth {
                if width == 2 { return decadeRange(year: n < 20 ? 2000 + n : 1900 + n) }
                if width == 4, (1000...2090).contains(n) { return decadeRange(year: n) }
                return nil
            }
            if n < 100 { return decadeRange(year: n < 20 ? 2000 + n : 1900 + n) }
            return (1000...2090).contains(n) ? decadeRange(year: n) : nil
        case .year:
            guard v == v.rounded(), v >= 0, v <= 9999 else { return nil }
            let n = Int(v)
            if n < 100 { return yearRange(n < 30 ? 2000 + n : 1900 + n) }
            return (1000...2099).contains(n) ? yearRange(n) : nil
        case .speed, .percent, .number:
            return .number(v)
        case .frequency:
            return Self.mayBeFrequency(v) ? .text("") : nil
        default:
            return nil
        }
    }

    private func matches(_ phrase: [String], _ tokens: [Token], at start: Int) -> Bool {
        guard start + phrase.count <= tokens.count else { return false }
        for (k, w) in phrase.enumerated() where !sameKey(tokens[start + k].key, w) { return false }
        return true
    }

    /// Numbers said one digit at a time: years ("二零零八") and decimals after a decimal word ("一点五",
    /// "一点二五"). A token may hold several digits ("零八"), and the digits of a run are the concatenation of
    /// its tokens'.
    private func digitsOneByOne(_ tokens: [Token], facts: [NumberWordFacts], numbers: inout [Entity], years: inout [Entity]) {
        guard facts.contains(where: { $0.digits != nil }) else { return }
        func run(from start: Int, limit: Int) -> (end: Int, digits: String)? {
            digitRun(from: start, limit: limit, digits: { facts[$0].digits }, count: tokens.count)
        }
        if yearsDigitByDigit {
            for start in tokens.indices where facts[start].digits != nil && (start == 0 || facts[start - 1].digits == nil) {
                guard let (end, text) = run(from: start, limit: 4), text.count == 4, end == tokens.count || facts[end].digits == nil,
                      let year = Int(text), (1000...2099).contains(year),
                      !years.contains(where: { $0.kind == .year && $0.start == start && $0.end == end }) else { continue }
                years.append(Entity(start: start, end: end, kind: .year, value: yearRange(year)))
            }
        }
        guard !decimalWords.isEmpty else { return }
        for (k, token) in tokens.enumerated() where decimalWords.contains(token.key) && k + 1 < tokens.count {
            guard let (end, text) = run(from: k + 1, limit: 6), let fraction = Double("0." + text) else { continue }
            for n in numbers where n.end == k {
                guard let whole = n.value.number, whole == whole.rounded() else { continue }
                numbers.append(Entity(start: n.start, end: end, kind: .number, value: .number(whole + fraction)))
            }
        }
    }

    /// The longest run of digit tokens from `start` holding at most `limit` digits, and its digits (`digits(i)`:
    /// the digits token `i` spells, nil for a token that is no digit); nil when the token at `start` is none.
    private func digitRun(from start: Int, limit: Int, digits: (Int) -> String?, count: Int) -> (end: Int, digits: String)? {
        var end = start, text = ""
        while end < count, let d = digits(end), text.count + d.count <= limit { text += d; end += 1 }
        return end > start ? (end, text) : nil
    }

    /// The digits a word spells one character at a time ("零八" -> "08", "〇" -> "0"); nil unless every
    /// character is a number word of one digit.
    private func digitString(_ key: String) -> String? {
        guard !key.isEmpty, key.count <= 4 else { return nil }
        var out = ""
        for c in key {
            guard let d = digitCharacters[c] else { return nil }
            out += String(d)
        }
        return out
    }

    /// A run of number words read by ICU as one number. Words are joined as they were written: with a space,
    /// or with nothing where they touched ("八十一" cut into characters, "70" + "'s").
    private func spelled(_ run: ArraySlice<Token>, session: ICUSession) -> Double? {
        guard let first = run.first else { return nil }
        if run.count == 1, !isNumberWord(first.key, session: session) { return nil }
        if yearZeroWords.contains(first.key) { return nil }
        let text = Self.runText(run, runAliases: runAliases)
        if run.count > 1, spelled.beginsWithNeverFirst(text, first: first.key), spelled.kept(text) == nil { return nil }
        return icuValue(text, session: session)
    }

    /// ICU's lenient spell-out parse of `text`: the answer kept with the grammar, or ICU's own.
    @inline(__always)
    private func icuValue(_ text: String, session: ICUSession) -> Double? {
        spelled.value(of: text, session: session)
    }

    /// The text ICU is asked about for a run of number words: touching words joined as written, others with a
    /// space; a run alias in place of the run it stands for.
    static func runText(_ run: ArraySlice<Token>, runAliases: [String: String]) -> String {
        guard let first = run.first else { return "" }
        var text = first.key
        var previous = first
        for token in run.dropFirst() {
            // Touching words join as written: with nothing ("八十一"), or with the signs between them
            // ("quatre-vingt-dix", "一・五"); others with a space.
            if token.start == previous.trailingEnd, previous.trailingEnd > previous.end { text += previous.trailing }
            else if token.start != previous.end { text += " " }
            text += token.key
            previous = token
        }
        // A run alias is found whatever joins its words (space, hyphen or nothing).
        if !runAliases.isEmpty, let alias = runAliases[text.filter { $0.isLetter || $0.isNumber }] { text = alias }
        return text
    }

    /// "nineteen seventy-five", "twenty twenty", "nineteen oh five", "nineteen hundred".
    ///
    /// Both halves are numbers from 0 to 100, whose every spelling the compiled grammar keeps with ICU's
    /// answer (`NumberWords`): they are looked up there, and ICU is not asked about the other cuts of the run
    /// ("two thousand and"), which cost it as much as a thousand parses of ours each.
    private func spelledYear(_ run: [Token]) -> Int? {
        func kept(_ part: ArraySlice<Token>) -> Double? {
            guard let first = part.first, !yearZeroWords.contains(first.key) else { return nil }
            return spelled.kept(Self.runText(part, runAliases: runAliases)) ?? nil
        }
        for cut in 1..<run.count {
            guard let century = kept(run[..<cut]), century == century.rounded(), (10...20).contains(century) else { continue }
            var rest = run[cut...]
            var zero = false
            if yearZeroWords.contains(rest.first!.key) { rest = rest.dropFirst(); zero = true }
            guard !rest.isEmpty, let tail = kept(rest), tail == tail.rounded() else { continue }
            if zero, (1...9).contains(tail) { return Int(century) * 100 + Int(tail) }
            if !zero, (10...99).contains(tail) { return Int(century) * 100 + Int(tail) }
            if !zero, tail == 100 { return Int(century) * 100 }
        }
        return nil
    }

    /// `year` as printf's "%04d" writes it ("0999", "2024", "-001"), without the cost of a format string
    /// (a phrase tried on every number of a request builds its value before it is kept).
    static func fourDigits(_ year: Int) -> String {
        let digits = String(year.magnitude)
        let sign = year < 0 ? "-" : ""
        let width = 4 - sign.count
        return sign + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private func decadeRange(year: Int) -> SlotValue {
        .dateRange(start: Self.fourDigits(year) + "-01-01", end: Self.fourDigits(year + 9) + "-12-31")
    }

    private func yearRange(_ year: Int) -> SlotValue {
        .dateRange(start: Self.fourDigits(year) + "-01-01", end: Self.fourDigits(year) + "-12-31")
    }
}

/// What the number recogniser tells of a word alone (`NumberRecognizer.facts(of:session:)`).
struct NumberWordFacts: Sendable {
    /// The number word the word stands for, when it is an alias ("a" for "one") or a compound that starts with
    /// one; nil when it stands for itself.
    var alias: String?
    // The rest is of the word the alias stands for, when there is one.
    /// A number reading may begin with the word (of the alias, when there is one).
    var mayBegin: Bool
    /// The word is the first of a two-word start ("a quarter", "in a", `firstPairs`).
    var startsPair: Bool
    /// The word may be part of a spelled-out number (`isNumberWord`).
    var numberWord: Bool
    /// The word alone may be a glued form ("80er", "3rd"), and the glued forms it is (at position 0).
    var gluedWord: Bool
    var gluedAlone: [Entity]
    /// The word holds a digit 0-9.
    var hasDigit: Bool
    /// The digits the word spells one character at a time ("零八" -> "08"), in languages that say numbers so.
    var digits: String?
    /// The word is the first word of a phrase around a number ("第" of "第 {number}") or of a year counted
    /// from this one ("last" of "last year").
    var startsPhrase: Bool
    var startsRelativeYear: Bool
}
