import Foundation

/// Finds numbers, ordinals, years, decades, speeds and durations in a token sequence.
///
/// Spelled-out numbers are read by ICU's rule-based spell-out for the locale (so "eighty-first" or
/// "quatre-vingt-un" need no word list); what ICU does not cover (decade plurals, "and a half", units) comes
/// from the locale's `numbers:` settings.
struct NumberRecognizer: Sendable {
    let settings: NumberSettings
    /// Words that may be part of a spelled-out number (from ICU's own spell-out of sample numbers).
    let numberWords: Set<String>
    /// Words that end an ordinal ("first", "twentieth").
    let ordinalWords: Set<String>
    /// First three letters of every number word: a word that starts like one may be a compound
    /// ("einundachtzig"), which ICU is then asked about.
    let numberPrefixes: Set<Substring>
    /// The longest run of number words tried as one number.
    let maxRun = 7

    init(settings: NumberSettings, session: ICUSession, tokenizer: Tokenizer) {
        self.settings = settings
        var words = Set<String>()
        var ordinals = Set<String>()
        let samples: [Double] = Array(0...21).map(Double.init) + stride(from: 30, through: 90, by: 10).map(Double.init)
            + [100, 1000, 1_000_000, 1.5, 2.25, 101, 1001]
        for n in samples {
            if let s = session.spellOut(n, ruleSet: "%spellout-cardinal") ?? session.spellOut(n, ruleSet: nil) {
                words.formUnion(tokenizer.words(of: s, session: session))
            }
            if n >= 1, n == n.rounded(), let s = session.spellOut(n, ruleSet: "%spellout-ordinal") {
                let w = tokenizer.words(of: s, session: session)
                words.formUnion(w)
                if let last = w.last { ordinals.insert(last) }
            }
        }
        words.formUnion(settings.yearZeroWords)
        numberWords = words
        ordinalWords = ordinals
        numberPrefixes = Set(words.filter { $0.count >= 3 }.map { $0.prefix(3) })
    }

    /// Is `word` (part of) a spelled-out number? Known words directly; longer words that start like one
    /// (compounds) if ICU reads them as a number.
    private func isNumberWord(_ word: String, session: ICUSession) -> Bool {
        if numberWords.contains(word) { return true }
        guard word.count >= 6, numberPrefixes.contains(word.prefix(3)) else { return false }
        return session.cachedSpelledNumber(word) != nil
    }

    func recognize(_ original: [Token], session: ICUSession) -> [Entity] {
        let tokens = settings.aliases.isEmpty ? original : original.map { t -> Token in
            var copy = t
            if let alias = settings.aliases[t.key] { copy.key = alias }
            return copy
        }
        var out: [Entity] = []
        var numbers: [Entity] = []  // plain numbers, for speeds and durations

        for (i, token) in tokens.enumerated() {
            let key = token.key
            guard key.unicodeScalars.first.map({ $0.properties.numericType != nil }) == true else { continue }
            // Plain digits with at most one decimal point: not Double's other forms ("1e9999", "0x1p3"), which
            // nobody says, and whose values can be infinite.
            if key.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), key.filter({ $0 == "." }).count <= 1,
               let v = Double(key), v.isFinite {
                numbers.append(Entity(start: i, end: i + 1, kind: .number, value: .number(v)))
                // "70 's" (a clitic cut off by the tokenizer) or "70 s"
                if i + 1 < tokens.count, settings.decadeDigitSuffixes.contains(tokens[i + 1].key), let d = Int(key),
                   let range = decadeRange(digits: d, width: key.count) {
                    out.append(Entity(start: i, end: i + 2, kind: .decade, value: range))
                }
                if key.count == 4, let y = Int(key), (1000...2099).contains(y) {
                    out.append(Entity(start: i, end: i + 1, kind: .year, value: yearRange(y)))
                }
                continue
            }
            let digits = String(key.prefix { $0.isASCII && ($0.isNumber || $0 == ".") })
            let rest = String(key.dropFirst(digits.count))
            guard digits.filter({ $0 == "." }).count <= 1, let v = Double(digits), v.isFinite else { continue }
            if ["st", "nd", "rd", "th"].contains(rest) {
                out.append(Entity(start: i, end: i + 1, kind: .ordinal, value: .number(v)))
            } else if settings.decadeDigitSuffixes.contains(rest), let d = Int(digits), let range = decadeRange(digits: d, width: digits.count) {
                out.append(Entity(start: i, end: i + 1, kind: .decade, value: range))
            } else if settings.speedSuffixes.contains(rest) {
                out.append(Entity(start: i, end: i + 1, kind: .speed, value: .number(v)))
            }
        }

        // Runs of spelled-out number words.
        var i = 0
        while i < tokens.count {
            guard isNumberWord(tokens[i].key, session: session) else { i += 1; continue }
            var j = i
            while j < tokens.count, isNumberWord(tokens[j].key, session: session), j - i < maxRun { j += 1 }
            for start in i..<j {
                for end in stride(from: j, to: start, by: -1) {
                    let words = tokens[start..<end].map(\.key)
                    if let value = spelled(words, session: session) {
                        let kind: RecognizerKind = ordinalWords.contains(words.last!) ? .ordinal : .number
                        let entity = Entity(start: start, end: end, kind: kind, value: .number(value))
                        if kind == .number { numbers.append(entity) } else { out.append(entity) }
                        if kind == .number, value == value.rounded(), (1000...2099).contains(value), words.count > 1 {
                            out.append(Entity(start: start, end: end, kind: .year, value: yearRange(Int(value))))
                        }
                    }
                    if end - start >= 2, let year = spelledYear(words, session: session) {
                        out.append(Entity(start: start, end: end, kind: .year, value: yearRange(year)))
                    }
                }
            }
            i = j
        }

        // Spelled decades: "seventies", "nineteen seventies".
        for (i, token) in tokens.enumerated() {
            guard let tens = spelledDecade(token.key, session: session) else { continue }
            out.append(Entity(start: i, end: i + 1, kind: .decade, value: decadeRange(year: tens < 20 ? 2000 + tens : 1900 + tens)))
            if i > 0, let century = spelled([tokens[i - 1].key], session: session), (10...20).contains(century) {
                out.append(Entity(start: i - 1, end: i + 1, kind: .decade, value: decadeRange(year: Int(century) * 100 + tens)))
            }
        }

        // Fractions: joined to the number before them ("one and a half"), or alone ("half").
        var withFractions = numbers
        for (phrase, fraction) in settings.fractions {
            for start in 0..<tokens.count where matches(phrase, tokens, at: start) {
                for n in numbers where n.end == start {
                    withFractions.append(Entity(start: n.start, end: start + phrase.count, kind: .number,
                                                value: .number((n.value.number ?? 0) + fraction)))
                }
                withFractions.append(Entity(start: start, end: start + phrase.count, kind: .number, value: .number(fraction)))
            }
        }
        out += withFractions

        // Speeds: a number followed by "x" / "times".
        for n in withFractions where n.end < tokens.count && settings.speedSuffixes.contains(tokens[n.end].key) {
            out.append(Entity(start: n.start, end: n.end + 1, kind: .speed, value: n.value))
        }

        // Radio frequencies: "89.1 FM", "1010 AM".
        for n in numbers where n.end < tokens.count && settings.frequencyBands.contains(tokens[n.end].key) {
            out.append(Entity(start: n.start, end: n.end + 1, kind: .frequency, value: .text("")))
        }

        // Durations: (number | "a") unit ["and a half"].
        var amounts = withFractions.map { ($0.start, $0.end, $0.value.number ?? 0) }
        for (i, token) in tokens.enumerated() where settings.articlesAsOne.contains(token.key) {
            amounts.append((i, i + 1, 1))
        }
        // "half a minute": a fraction, then an article standing for one
        for n in withFractions where n.end + 1 < tokens.count && settings.articlesAsOne.contains(tokens[n.end].key) {
            amounts.append((n.start, n.end + 1, n.value.number ?? 0))
        }
        var durations: [Entity] = []
        for (start, end, amount) in amounts where end < tokens.count {
            guard let unit = settings.durationUnits[tokens[end].key] else { continue }
            durations.append(Entity(start: start, end: end + 1, kind: .duration, value: .number(amount * unit)))
            for (phrase, fraction) in settings.fractions where phrase.count > 1 && matches(phrase, tokens, at: end + 1) {
                durations.append(Entity(start: start, end: end + 1 + phrase.count, kind: .duration,
                                        value: .number((amount + fraction) * unit)))
            }
        }
        // "one minute thirty seconds", "a minute and ten seconds": consecutive durations add up
        let joiners = Set(settings.fractions.keys.compactMap { $0.count > 1 ? $0.first : nil })
        var compound: [Entity] = []
        for a in durations {
            for b in durations where b.start == a.end || (b.start == a.end + 1 && joiners.contains(tokens[a.end].key)) {
                compound.append(Entity(start: a.start, end: b.end, kind: .duration,
                                       value: .number((a.value.number ?? 0) + (b.value.number ?? 0))))
            }
        }
        // Hundreds of digits, or hours of them, overflow to infinity, which JSON cannot hold: such a number is
        // read as words, not as a number.
        return (out + durations + compound).filter { $0.value.number?.isFinite ?? true }
    }

    private func matches(_ phrase: [String], _ tokens: [Token], at start: Int) -> Bool {
        guard start + phrase.count <= tokens.count else { return false }
        for (k, w) in phrase.enumerated() where tokens[start + k].key != w { return false }
        return true
    }

    /// A run of number words read by ICU as one number.
    private func spelled(_ words: [String], session: ICUSession) -> Double? {
        if words.count == 1, !isNumberWord(words[0], session: session) { return nil }
        if settings.yearZeroWords.contains(words[0]) { return nil }
        return session.cachedSpelledNumber(words.joined(separator: " "))
    }

    /// "nineteen seventy-five", "twenty twenty", "nineteen oh five", "nineteen hundred".
    private func spelledYear(_ words: [String], session: ICUSession) -> Int? {
        for cut in 1..<words.count {
            guard let century = spelled(Array(words[..<cut]), session: session), century == century.rounded(),
                  (10...20).contains(century) else { continue }
            var rest = Array(words[cut...])
            var zero = false
            if settings.yearZeroWords.contains(rest[0]) { rest.removeFirst(); zero = true }
            guard !rest.isEmpty, let tail = spelled(rest, session: session), tail == tail.rounded() else { continue }
            if zero, (1...9).contains(tail) { return Int(century) * 100 + Int(tail) }
            if !zero, (10...99).contains(tail) { return Int(century) * 100 + Int(tail) }
            if !zero, tail == 100 { return Int(century) * 100 }
        }
        return nil
    }

    /// The tens of a decade word ("seventies" -> 70), or nil.
    private func spelledDecade(_ word: String, session: ICUSession) -> Int? {
        for suffix in settings.decadeSuffixes where word.hasSuffix(suffix.strip) && word.count > suffix.strip.count {
            let stem = String(word.dropLast(suffix.strip.count)) + suffix.add
            guard isNumberWord(stem, session: session), let v = session.cachedSpelledNumber(stem), v == v.rounded() else { continue }
            let tens = Int(v)
            if tens % 10 == 0, (10...90).contains(tens) { return tens }
        }
        return nil
    }

    private func decadeRange(digits: Int, width: Int) -> SlotValue? {
        guard digits % 10 == 0 else { return nil }
        if width == 2 { return decadeRange(year: digits < 20 ? 2000 + digits : 1900 + digits) }
        if width == 4, (1000...2090).contains(digits) { return decadeRange(year: digits) }
        return nil
    }

    private func decadeRange(year: Int) -> SlotValue {
        .dateRange(start: String(format: "%04d-01-01", year), end: String(format: "%04d-12-31", year + 9))
    }

    private func yearRange(_ year: Int) -> SlotValue {
        .dateRange(start: String(format: "%04d-01-01", year), end: String(format: "%04d-12-31", year))
    }
}
