import Foundation

/// A name as resolve compares it: words in matching form (case, accents and width folded, the locale's
/// transform applied), numbers in words or digits and ordinals as digits ("eighty-first", "81st" -> "81"),
/// "and" words left out ("&", "and", "und"), and a leading article and noise words at either end left out
/// ("the", "podcast").
public struct NameKey: Sendable, Hashable {
    /// The words, in order.
    public var words: [String]
    /// The sound-alike key of each word ("son" and "sun" -> "sn").
    public var sounds: [String]
    /// Every word joined, before articles and noise words were left out ("radio lab" -> "radiolab").
    public var whole: String
    /// Each word without the language's inflection ending, if it has one ("ärzten" -> "ärzt").
    public var stems: [String]

    public init(words: [String], sounds: [String], whole: String? = nil, stems: [String]? = nil) {
        self.words = words
        self.sounds = sounds
        self.whole = whole ?? words.joined()
        self.stems = stems ?? words
    }

    /// The words joined by spaces (the form stored and compared).
    public var text: String { words.joined(separator: " ") }
    /// The words joined without spaces, so "AC/DC" and "acdc" meet.
    public var compact: String { words.joined() }
    public var isEmpty: Bool { words.isEmpty }
}

/// The keys of a catalogue title: the main key without the parts people don't say ("(Deluxe Edition)",
/// "- Remastered 2011", "(feat. X)"), the full key when it differs, and the featured artists.
public struct TitleKeys: Sendable, Hashable {
    public var main: NameKey
    /// The title up to its first bracket, when the brackets hold more than variant words: people say
    /// "Montero" for "MONTERO (Call Me By Your Name)".
    public var short: NameKey?
    /// The key of the whole title, when leaving out variant parts changed it.
    public var full: NameKey?
    /// Artists named after a feature word ("feat. Rihanna" -> "rihanna").
    public var featured: [NameKey]
    /// The parts of a title either side of a colon, each alone: "Guardians of the Galaxy: Awesome Mix
    /// Vol. 1" is asked for as either.
    public var subtitles: [NameKey] = []
}

/// Makes name keys for one language, from its `locale.yaml` (`articles`, `numbers`, and `resolve:`).
///
/// Catalogue titles and request names go through the same maker, so whatever it folds, both sides fold.
package final class NameKeyMaker: Sendable {
    let runtime: LanguageRuntime
    let rules: MatchingRules
    /// Sessions of the sound-alike transliterator (pinyin for Chinese), when the language names one.
    private let soundPool: ICUSessionPool?
    /// Sessions of the comparison transliterator (kana folding for Japanese), when the language names one.
    private let comparePool: ICUSessionPool?
    private let andWords: [[String]]
    private let variantWords: [[String]]
    private let featureWords: [[String]]
    private let noiseWords: [[String]]
    /// The noise words of one word, for a noise word glued to a number ("81.3FM").
    private let noiseSingles: Set<String>
    private let articles: [[String]]
    /// Words for a decimal point, in matching form.
    private let decimalWords: Set<String>
    /// Each word of a group of same words, to the group's first.
    private let sameWords: [String: String]
    /// The members of groups of same words that are several words ("kilometer pro stunde" of "km/h"), in
    /// matching form, each to its group's first written as one word; the longest first.
    private let samePhrases: [(words: [String], to: String)]
    /// The "and" words of one word made of letters ("und"), for a number word glued around one
    /// ("tausendundeine").
    private let andLetters: [String]
    /// Keys already made: catalogues repeat artists, albums and words (a million items name a few
    /// hundred thousand artists). Cleared when they grow past `memoryLimit` entries.
    private let titleMemory = Locked<[String: TitleKeys]>([:])
    private let nameMemory = Locked<[String: NameKey]>([:])
    private let namesMemory = Locked<[String: [NameKey]]>([:])
    private let soundMemory = Locked<[String: String]>([:])
    private static let memoryLimit = 200_000

    /// The maker of `locale` as `catalog`'s `locale.yaml` files describe it.
    package convenience init(locale: String, catalog: GrammarCatalog = .builtIn) throws {
        try self.init(runtime: try LanguageRuntime.load(locale: locale, catalog: catalog).runtime)
    }

    init(runtime: LanguageRuntime) throws {
        self.runtime = runtime
        let rules = runtime.profile.matching
        self.rules = rules
        func pool(_ id: String?) throws -> ICUSessionPool? {
            guard let id else { return nil }
            do {
                return try ICUSessionPool(locale: runtime.profile.icuLocale, transform: id)
            } catch {
                throw GrammarError("ICU has no transliterator '\(id)' (\(error)); see ICU's list of transform IDs, e.g. Katakana-Hiragana",
                                   at: rules.transformLocation ?? SourceLocation(file: "locale.yaml"))
            }
        }
        soundPool = try pool(rules.soundTransform)
        comparePool = try pool(rules.transform)
        let tokenizer = runtime.tokenizer
        func phrases(_ texts: [String]) -> [[String]] {
            runtime.pool.withSession { session in
                texts.map { tokenizer.words(of: $0, session: session) }.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
            }
        }
        andWords = phrases(rules.andWords)
        variantWords = phrases(rules.variantWords)
        featureWords = phrases(rules.featureWords)
        noiseWords = phrases(rules.noiseWords)
        noiseSingles = Set(noiseWords.filter { $0.count == 1 }.map { $0[0] })
        decimalWords = Set(phrases(rules.decimalWords).filter { $0.count == 1 }.map { $0[0] })
        articles = phrases(runtime.profile.articles)
        var same: [String: String] = [:]
        var samePhrases: [(words: [String], to: String)] = []
        let compare = comparePool
        runtime.pool.withSession { session in
            var phrases: [(words: [String], to: String)] = []
            for group in rules.sameWords {
                let members = group.map { tokenizer.words(of: $0, session: session) }.filter { !$0.isEmpty }
                guard !members.isEmpty else { continue }
                let keys = members.map { $0.joined() }
                for k in keys.dropFirst() where k != keys[0] { same[k] = keys[0] }
                // A member of several words, as `words` gives them: signs out, the comparison transform.
                for m in members.dropFirst() {
                    let cleaned = m.map { w -> String in
                        let letters = w.filter { $0.isLetter || $0.isNumber }
                        guard let compare, !letters.utf8.allSatisfy({ $0 < 0x80 }) else { return letters }
                        return compare.withSession { s in s.cachedKey(letters) { let t = s.transformed(letters); return t.isEmpty ? letters : t } }
                    }.filter { !$0.isEmpty }
                    if cleaned.count > 1 { phrases.append((cleaned, keys[0])) }
                }
            }
            // Matched on the words as read, each word of a phrase read as a single word is ("kilometer pro
            // stunde", with "kilometer" = "km", is "km pro stunde").
            samePhrases = phrases.map { ($0.words.map { same[$0] ?? $0 }, $0.to) }
        }
        sameWords = same
        self.samePhrases = samePhrases.sorted { $0.words.count > $1.words.count }
        andLetters = andWords.filter { $0.count == 1 && $0[0].count >= 3 && $0[0].allSatisfy(\.isLetter) }.map { $0[0] }
    }

    /// Whether the language's sound keys come through a transliterator (pinyin, kana in Latin letters).
    package var hasSoundTransform: Bool { soundPool != nil }

    /// The locale whose rules the maker follows ("de-DE").
    package var locale: String { runtime.profile.name }

    /// The key of a name as said or written (a request's name, an artist, an album, an alias).
    package func name(_ text: String) -> NameKey {
        if let known = nameMemory.withLock({ $0[text] }) { return known }
        let made = runtime.pool.withSession { session in key(of: words(text, session: session)) }
        nameMemory.withLock { if $0.count > Self.memoryLimit { $0.removeAll() }; $0[text] = made }
        return made
    }

    /// A name and, when it joins several ("Zedd & Alessia Cara", "Jay-Z, Kanye West"), each of them: the
    /// whole first. The joints are commas and the language's "and" words.
    package func names(_ text: String) -> [NameKey] {
        // Remembered: a catalogue names the same artists again and again.
        if let known = namesMemory.withLock({ $0[text] }) { return known }
        let made = makeNames(text)
        namesMemory.withLock { if $0.count > Self.memoryLimit { $0.removeAll() }; $0[text] = made }
        return made
    }

    private func makeNames(_ text: String) -> [NameKey] {
        let whole = name(text)
        if !text.contains(where: { ",&+;".contains($0) }), !whole.words.isEmpty, andWords.isEmpty && featureWords.isEmpty
            || !text.contains(" ") { return [whole] }
        var pieces: [[String]] = [[]]
        runtime.pool.withSession { session in
            for part in text.split(whereSeparator: { ",&+;".contains($0) }) {
                if !pieces[pieces.count - 1].isEmpty { pieces.append([]) }
                let w = words(String(part), session: session)
                var i = 0
                while i < w.count {
                    if let n = match(andWords, in: w, at: i) ?? match(featureWords, in: w, at: i) {
                        if !pieces[pieces.count - 1].isEmpty { pieces.append([]) }
                        i += n
                        continue
                    }
                    pieces[pieces.count - 1].append(w[i])
                    i += 1
                }
            }
        }
        let parts = pieces.filter { !$0.isEmpty }
        guard parts.count > 1 else { return [whole] }
        return [whole] + parts.map { key(of: $0) }.filter { $0 != whole }
    }

    /// The keys of a catalogue title, or of a request's name (which may say "the deluxe edition" too).
    package func title(_ text: String) -> TitleKeys {
        if let known = titleMemory.withLock({ $0[text] }) { return known }
        let made = makeTitle(text)
        titleMemory.withLock { if $0.count > Self.memoryLimit { $0.removeAll() }; $0[text] = made }
        return made
    }

    private func makeTitle(_ text: String) -> TitleKeys {
        runtime.pool.withSession { session in
            var mainWords: [String] = []
            var featured: [NameKey] = []
            var dropped = false
            var headWords: [String]?
            var outsideWords: [String] = []
            for part in Self.parts(of: text) {
                if part.isSide, headWords == nil { headWords = mainWords }
                var w = words(part.text, session: session)
                // "Song feat. X" (no brackets): what follows the feature word is an artist.
                if let at = firstIndex(ofAny: featureWords, in: w) {
                    let artists = Array(w[(at.index + at.length)...])
                    if !artists.isEmpty { featured.append(key(of: artists)) }
                    w = Array(w[..<at.index])
                    dropped = true
                    if w.isEmpty { continue }
                }
                if part.isSide, firstIndex(ofAny: variantWords, in: w) != nil {
                    dropped = true
                    continue
                }
                mainWords += w
                if !part.isSide { outsideWords += w }
            }
            let main = key(of: mainWords)
            var short: NameKey?
            if let head = headWords, !head.isEmpty, head.count < mainWords.count {
                short = key(of: head)
            } else if headWords?.isEmpty == true, !outsideWords.isEmpty, outsideWords.count < mainWords.count {
                // Brackets first: "(I Can't Get No) Satisfaction" is asked for as "Satisfaction".
                short = key(of: outsideWords)
            }
            var subtitles: [NameKey] = []
            if let colon = text.firstIndex(where: { $0 == ":" || $0 == "：" }) {
                let head = makeTitleParts(String(text[..<colon]), session: session)
                let tail = makeTitleParts(String(text[text.index(after: colon)...]), session: session)
                subtitles = [head, tail].filter { !$0.isEmpty && $0 != main.words }.map { key(of: $0) }
            }
            // A title of a script written without spaces, in parts set apart by spaces ("三体II 黒暗森林 上",
            // "サピエンス全史 上 文明の構造と人類の幸福"): its first part, and its first parts together, are
            // asked for alone ("三体2", "サピエンス全史の上巻").
            let spaced = Self.spacedParts(of: text)
            for k in spaced.indices.dropFirst() {
                let w = makeTitleParts(spaced[..<k].joined(separator: " "), session: session)
                if !w.isEmpty, w != main.words, !subtitles.contains(where: { $0.words == w }) { subtitles.append(key(of: w)) }
            }
            guard dropped else { return TitleKeys(main: main, short: short, full: nil, featured: featured, subtitles: subtitles) }
            let full = key(of: words(text, session: session))
            return TitleKeys(main: main.isEmpty ? full : main, short: short, full: full == main ? nil : full, featured: featured,
                             subtitles: subtitles)
        }
    }

    /// The leading parts of a title set apart by spaces that each hold a Han character (a script without
    /// spaces between words, where a space sets a title's parts apart), when there are two or more (at most
    /// four); else none. "三体II 黒暗森林 上": three; "Hello World", "パンク プレイリスト" (a name and the kind
    /// of item it is): none.
    package static func spacedParts(of text: String) -> [String] {
        func isHan(_ u: Unicode.Scalar) -> Bool { (0x3400...0x4DBF).contains(u.value) || (0x4E00...0x9FFF).contains(u.value) }
        // Most titles hold no Han at all: told on their bytes (Han is three bytes from 0xE3 on).
        guard text.utf8.contains(where: { $0 >= 0xE3 }), text.unicodeScalars.contains(where: isHan),
              text.unicodeScalars.contains(where: { $0 == " " || $0 == "\u{3000}" }) else { return [] }
        var parts: [String] = []
        for part in text.split(whereSeparator: { $0 == " " || $0 == "\u{3000}" }) {
            guard parts.count < 4, part.unicodeScalars.contains(where: isHan) else { break }
            parts.append(String(part))
        }
        return parts.count >= 2 ? parts : []
    }

    /// The words of a piece of a title without its variant and featured parts.
    private func makeTitleParts(_ text: String, session: ICUSession) -> [String] {
        var out: [String] = []
        for part in Self.parts(of: text) {
            var w = words(part.text, session: session)
            if let at = firstIndex(ofAny: featureWords, in: w) { w = Array(w[..<at.index]) }
            if part.isSide, firstIndex(ofAny: variantWords, in: w) != nil { continue }
            out += w
        }
        return out
    }

    // MARK: - Words

    /// The words of `text` in matching form, numbers as digits.
    private func words(_ text: String, session: ICUSession) -> [String] {
        let tokens = runtime.tokenizer.tokenize(text, session: session).tokens
        guard !tokens.isEmpty else { return [] }
        var out: [String] = []
        // Numbers in words or digits, ordinals: the longest readings that do not overlap, as digits (whole
        // numbers only: "半" or "anderthalb" in a name is a word).
        let recognized = runtime.numbers.recognize(tokens, session: session)
            .filter { ($0.kind == .number || $0.kind == .ordinal) && $0.value.number.map { $0 >= 0 && $0 == $0.rounded() && $0 < 1e9 } == true }
        var readings: [(start: Int, end: Int, digits: String, oneByOne: Bool)] = recognized.map { e in
            let n = e.value.number!
            return (e.start, e.end, String(Int(n)), false)
        }
        // Digits said one by one ("fahrenheit four five one", "nine one one"): a run of two or more words that
        // are each one digit is those digits, whatever a spell-out reading of the run makes of it.
        let digitAt = Dictionary(recognized.filter { $0.end - $0.start == 1 && $0.kind == .number }
            .compactMap { e in e.value.number.flatMap { $0 >= 0 && $0 <= 9 && $0 == $0.rounded() ? (e.start, Int($0)) : nil } },
            uniquingKeysWith: { a, _ in a })
        var runStart = 0
        while runStart < tokens.count {
            var runEnd = runStart
            // Words, not digits ("nine one one"; "二零零二", whose characters are numerals but not digits).
            while runEnd < tokens.count, digitAt[runEnd] != nil, tokens[runEnd].key.unicodeScalars.first?.properties.numericType != .decimal { runEnd += 1 }
            if runEnd - runStart >= 2 {
                readings.append((runStart, runEnd, (runStart..<runEnd).map { String(digitAt[$0]!) }.joined(), true))
            }
            runStart = max(runEnd, runStart + 1)
        }
        // Digits with the multiplier characters of Chinese and Japanese numbers after them ("115万", "2億4千万",
        // "1万次"), and digits in groups of three set apart by spaces ("100 000"): one number each, as the
        // same number in words is.
        for start in tokens.indices where Self.isDigits(tokens[start].key) {
            if let run = Self.multiplied(tokens, at: start) ?? Self.grouped(tokens, at: start) {
                readings.append((start, run.end, String(run.value), false))
            }
        }
        // Longest first; between readings of equal length, digits said one by one, then the earlier.
        readings.sort { a, b in
            if a.end - a.start != b.end - b.start { return a.end - a.start > b.end - b.start }
            if a.oneByOne != b.oneByOne { return a.oneByOne }
            return a.start < b.start
        }
        var replacement = [Int: (end: Int, digits: String)]()
        var taken = [Bool](repeating: false, count: tokens.count)
        // An article alone is not the number one ("Ein Kompliment", "A Horse with No Name").
        for e in readings where !taken[e.start..<e.end].contains(true)
            && !(e.end - e.start == 1 && articles.contains([tokens[e.start].key])) {
            // One digit word alone is its own digits already; a single word like "one" in a title stays a
            // number too, so "The One" and "The 1" meet.
            for i in e.start..<e.end { taken[i] = true }
            replacement[e.start] = (e.end, e.digits)
        }
        // A decimal word between two numbers joins them ("one oh four point three" -> "1043"), as a title's
        // "104.3" is keyed (its point is a sign, and signs inside a word go).
        // An "and" word after a round number of hundreds or more and before a smaller number adds them, as
        // a number word glued around it does ("1000 und 1 Nacht" = "Tausendundeine Nacht" = "1001 Nacht").
        var at = 0
        while at < tokens.count {
            if let r = replacement[at], r.end + 1 < tokens.count, decimalWords.contains(tokens[r.end].key),
               let d = replacement[r.end + 1] {
                replacement[at] = (d.end, r.digits + d.digits)
                replacement[r.end + 1] = nil
            } else if let r = replacement[at] ?? (!taken[at] && Self.isDigits(tokens[at].key) ? (at + 1, tokens[at].key) : nil),
                      r.end + 1 < tokens.count, andWords.contains([tokens[r.end].key]), case let n = r.end + 1,
                      let d = replacement[n] ?? (!taken[n] && Self.isDigits(tokens[n].key) ? (n + 1, tokens[n].key) : nil),
                      let sum = Self.roundPlusSmaller(r.digits, d.digits) {
                replacement[at] = (d.end, sum)
                replacement[r.end + 1] = nil
            } else {
                at += 1
            }
        }
        var i = 0
        while i < tokens.count {
            if let r = replacement[i] {
                out.append(r.digits)
                i = r.end
            } else {
                // Signs inside a word go ("r.e.m" -> "rem", "sorcerer's" -> "sorcerers"); a word of signs
                // alone is no word.
                var w = tokens[i].key
                let clitic = w.first == "'" || w.first == "’"
                // (Words of ASCII letters and digits alone, most words, are told on their bytes.)
                if !w.utf8.allSatisfy(Self.isASCIILetterOrDigit), w.contains(where: { !$0.isLetter && !$0.isNumber }) {
                    w.removeAll { !$0.isLetter && !$0.isNumber }
                }
                if clitic, !w.isEmpty, !out.isEmpty, replacement[i - 1] == nil {
                    // A clitic cut off its word ("pepper" "'s") is part of it again: "peppers".
                    out[out.count - 1] += w
                } else if !w.isEmpty {
                    w = compareForm(w)
                    if w == "々", let previous = out.last, previous.count == 1 {
                        // The iteration mark repeats the character before it ("前々前世" = "前前前世").
                        out.append(previous)
                    } else if let (a, b) = gluedNoise(w) {
                        // "81.3FM", "FM97.4": a band glued to its frequency is a word of its own.
                        out += [a, b]
                    } else if let n = gluedNumber(w, session: session) {
                        out.append(n)
                    } else {
                        out.append(sameWords[w] ?? w)
                    }
                }
                i += 1
            }
        }
        return samePhrases.isEmpty ? out : withSamePhrases(out)
    }

    /// The digits of `a` plus `b`, when `a` is a round number of hundreds or more with zeros where `b` has
    /// digits ("1000", "1": "1001"; "100", "10": "110"), else nil ("20", "5"; "1000", "2000").
    package static func roundPlusSmaller(_ a: String, _ b: String) -> String? {
        guard isDigits(a), isDigits(b), a.utf8.count >= 3, a.utf8.count > b.utf8.count,
              a.utf8.suffix(b.utf8.count).allSatisfy({ $0 == 0x30 }), let x = Int(a), let y = Int(b), y > 0 else { return nil }
        return String(x + y)
    }

    /// A number word with an "and" word glued inside ("tausendundeine", "hundertundzehn"): the number the
    /// word is without it, when it is one ("tausendeine" = 1001) and the number before is round (a word
    /// for hundreds or more), else nil. Only words with three letters or more either side of the "and"
    /// are tried ("Stunde", "Grund" are not).
    private func gluedNumber(_ word: String, session: ICUSession) -> String? {
        // Most words are too short or hold no "and" word: told on their bytes, without Foundation.
        guard !andLetters.isEmpty, word.utf8.count >= 9 else { return nil }
        for a in andLetters where Self.bytes(of: a, occurIn: word) {
            // Every place the "and" word is ("h-und-ertundein": the second).
            var from = word.startIndex
            while let r = word.range(of: a, range: from..<word.endIndex) {
                from = word.index(after: r.lowerBound)
                guard word.distance(from: word.startIndex, to: r.lowerBound) >= 3,
                      word.distance(from: r.upperBound, to: word.endIndex) >= 3 else { continue }
                let head = String(word[..<r.lowerBound])
                guard let h = wholeNumber(head, session: session), h >= 100,
                      let n = wholeNumber(head + word[r.upperBound...], session: session), n > h else { continue }
                return String(n)
            }
        }
        return nil
    }

    /// The whole number a text is, read by the language's recognisers, when it is one number and nothing else.
    private func wholeNumber(_ text: String, session: ICUSession) -> Int? {
        let tokens = runtime.tokenizer.tokenize(text, session: session).tokens
        guard !tokens.isEmpty else { return nil }
        let found = runtime.numbers.recognize(tokens, session: session)
            .filter { $0.kind == .number && $0.start == 0 && $0.end == tokens.count }
        guard let v = found.first?.value.number, v >= 0, v == v.rounded(), v < 1e9 else { return nil }
        return Int(v)
    }

    /// The words with each phrase of a group of same words read as the group's first ("km pro stunde" ->
    /// "kmh"). A phrase ending in katakana is not the start of a longer katakana word ("ゼロ" is 0, not in
    /// "ゼロックス").
    private func withSamePhrases(_ words: [String]) -> [String] {
        func isKatakana(_ w: String) -> Bool { !w.isEmpty && w.unicodeScalars.allSatisfy { (0x30A0...0x30FF).contains($0.value) } }
        var out: [String] = []
        var i = 0
        next: while i < words.count {
            for p in samePhrases where i + p.words.count <= words.count && words[i..<(i + p.words.count)].elementsEqual(p.words) {
                let end = i + p.words.count
                if end < words.count, isKatakana(p.words[p.words.count - 1]), isKatakana(words[end]) { continue }
                out.append(p.to)
                i = end
                continue next
            }
            out.append(words[i])
            i += 1
        }
        return out
    }

    /// A word of digits and a one-word noise word glued to either end ("813fm", "fm974"), cut in two.
    private func gluedNoise(_ word: String) -> (String, String)? {
        guard !noiseSingles.isEmpty, let first = word.utf8.first, let last = word.utf8.last else { return nil }
        let digitFirst = first >= 0x30 && first <= 0x39, digitLast = last >= 0x30 && last <= 0x39
        guard digitFirst != digitLast else { return nil }
        let cut = digitFirst ? word.firstIndex(where: { !$0.isNumber }) : word.firstIndex(where: \.isNumber)
        guard let cut else { return nil }
        let a = String(word[..<cut]), b = String(word[cut...])
        let (digits, letters) = digitFirst ? (a, b) : (b, a)
        // Two digits or more, as a frequency has ("3am" stays a time of day).
        guard digits.utf8.count >= 2, Self.isDigits(digits), noiseSingles.contains(letters) else { return nil }
        return (a, b)
    }

    static func isASCIILetterOrDigit(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A)
    }

    static func isDigits(_ word: String) -> Bool {
        !word.isEmpty && word.utf8.count <= 12 && word.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// The number of digits and multiplier characters from `start` ("2億4千万" = 240000000), when the run
    /// has a multiplier: 十 百 千 multiply the digit before them within a section, 万 億 兆 (and 亿 萬) close
    /// a section (their Unicode numeric values).
    static func multiplied(_ tokens: [Token], at start: Int) -> (end: Int, value: Int)? {
        var total = 0, section = 0, current: Int?
        var i = start, multipliers = 0
        while i < tokens.count {
            let key = tokens[i].key
            if isDigits(key), current == nil, let v = Int(key) {
                current = v
            } else if key.unicodeScalars.count == 1, let u = key.unicodeScalars.first, u.properties.numericType == .numeric,
                      let m = u.properties.numericValue, m == m.rounded(), m >= 10, m <= 1e12 {
                let unit = Int(m)
                if unit >= 10_000 {
                    let base = section + (current ?? 0)
                    total += (base == 0 ? 1 : base) * unit
                    section = 0
                } else {
                    section += (current ?? 1) * unit
                }
                current = nil
                multipliers += 1
            } else if key.unicodeScalars.count == 1, let u = key.unicodeScalars.first, u.properties.numericType == .numeric,
                      let d = u.properties.numericValue, d >= 1, d <= 9, d == d.rounded(), current == nil, multipliers > 0 {
                current = Int(d)  // "2億4千万" may write the later digits as characters: "2億四千万"
            } else {
                break
            }
            i += 1
        }
        guard multipliers > 0, total < Int(1e15) else { return nil }
        return (i, total + section + (current ?? 0))
    }

    /// Digits in groups of three after a first group of one to three, each a word set apart by one space
    /// ("100 000", "1 000 000").
    static func grouped(_ tokens: [Token], at start: Int) -> (end: Int, value: Int)? {
        guard tokens[start].key.utf8.count <= 3 else { return nil }
        var text = tokens[start].key
        var i = start + 1
        while i < tokens.count, tokens[i].key.utf8.count == 3, isDigits(tokens[i].key), tokens[i - 1].trailing.isEmpty,
              tokens[i].start == tokens[i - 1].end + 1 {
            text += tokens[i].key
            i += 1
        }
        guard i - start > 1, text.count <= 12, let v = Int(text) else { return nil }
        return (i, v)
    }

    private func compareForm(_ word: String) -> String {
        guard let comparePool, !word.utf8.allSatisfy({ $0 < 0x80 }) else { return word }
        return comparePool.withSession { session in
            session.cachedKey(word) {
                let t = session.transformed(word)
                return t.isEmpty ? word : t
            }
        }
    }

    /// The key of words: "and" words out, noise words off both ends, one leading article off (never all).
    private func key(of input: [String]) -> NameKey {
        var w = input
        var i = 0
        var kept: [String] = []
        while i < w.count {
            if let n = match(andWords, in: w, at: i) { i += n; continue }
            kept.append(w[i])
            i += 1
        }
        w = kept
        var changed = true
        while changed {
            changed = false
            for n in noiseWords where n.count < w.count {
                if w.starts(with: n) { w.removeFirst(n.count); changed = true }
                if n.count < w.count, w.suffix(n.count).elementsEqual(n) { w.removeLast(n.count); changed = true }
            }
        }
        for a in articles where a.count < w.count && w.starts(with: a) {
            w.removeFirst(a.count)
            break
        }
        if w.isEmpty { w = input }
        return NameKey(words: w, sounds: sounds(of: w), whole: kept.joined(), stems: w.map(stem))
    }

    /// The sound-alike keys of words, one each; a run of kana words (Japanese is cut one kana a word) is
    /// keyed whole, on its first word (the others get none): a kana's sound depends on its neighbours
    /// ("ッ" doubles the next, "ュ" bends the one before, "ー" lengthens it).
    private func sounds(of words: [String]) -> [String] {
        var out = words.map(sound)
        var i = 0
        while i < words.count {
            guard Self.isKana(words[i]) else { i += 1; continue }
            var end = i + 1
            while end < words.count, Self.isKana(words[end]) { end += 1 }
            if end - i > 1 {
                out[i] = sound(words[i..<end].joined())
                for k in (i + 1)..<end { out[k] = "" }
            }
            i = end
        }
        return out
    }

    /// Whether a word is written in kana alone (hiragana, katakana, the long-vowel mark).
    package static func isKana(_ word: String) -> Bool {
        !word.isEmpty && word.unicodeScalars.allSatisfy { (0x3041...0x30FF).contains($0.value) || (0x31F0...0x31FF).contains($0.value) }
    }

    /// A word without the longest of the language's endings it has, keeping three letters or more.
    package func stem(_ word: String) -> String {
        for e in rules.wordEndings where word.count >= e.count + 3 && word.hasSuffix(e) { return String(word.dropLast(e.count)) }
        return word
    }

    /// The sound-alike key of one word: the transform (pinyin), the rewrites, then vowels after the first
    /// letter and doubled letters dropped.
    package func sound(_ word: String) -> String {
        if let known = soundMemory.withLock({ $0[word] }) { return known }
        let made = makeSound(word)
        soundMemory.withLock { if $0.count > Self.memoryLimit { $0.removeAll() }; $0[word] = made }
        return made
    }

    private func makeSound(_ word: String) -> String {
        var s = word
        if let soundPool, !s.utf8.allSatisfy({ $0 < 0x80 }) {
            let w = s
            s = soundPool.withSession { session in session.cachedKey(w) { matchingForm(session.transformed(w)) } }
        }
        // Digits inside a word are said ("sk8er" = "skater", "4ever" = "forever"); a number alone stays a number.
        let lettered = s.contains(where: \.isLetter)
        for r in rules.soundRewrites {
            if !lettered, NameKeyMaker.isDigits(r.from) { continue }
            // "^kn": at the start of the word only ("knight" = "night", but "weeknd" keeps its k).
            if r.from.hasPrefix("^") {
                let head = r.from.dropFirst()
                if !head.isEmpty, s.hasPrefix(head) { s = r.to + s.dropFirst(head.count) }
            } else if r.from.hasSuffix("$") {
                // "r$": at the end of the word only ("butter" is said "bata" in Japanese).
                let tail = r.from.dropLast()
                if !tail.isEmpty, s.hasSuffix(tail) { s = s.dropLast(tail.count) + r.to }
            } else if Self.bytes(of: r.from, occurIn: s) {
                s = s.replacingOccurrences(of: r.from, with: r.to)
            }
        }
        var out = ""
        var last: Character?
        // Kana keep their vowels: each is a syllable, and "ポルカ" is not "パプリカ". A name in kana meets one
        // in Latin letters through `Resolver`'s comparison of consonants.
        let keepVowels = rules.soundKeepsVowels || Self.isKana(word)
        for (n, c) in s.enumerated() where c != " " && c != "-" && c != "'" {
            if !keepVowels, n > 0, "aeiouy".contains(c) { last = c; continue }
            if c != last { out.append(c) }
            last = c
        }
        return out.isEmpty ? s : out
    }

    private func match(_ phrases: [[String]], in words: [String], at i: Int) -> Int? {
        for p in phrases where i + p.count <= words.count && words[i..<(i + p.count)].elementsEqual(p) { return p.count }
        return nil
    }

    private func firstIndex(ofAny phrases: [[String]], in words: [String]) -> (index: Int, length: Int)? {
        guard !phrases.isEmpty else { return nil }
        for i in words.indices { if let n = match(phrases, in: words, at: i) { return (i, n) } }
        return nil
    }

    // MARK: - Parts of a title

    /// The marks `parts(of:)` cuts a title at: brackets of every kind and dashes.
    private static func isBracketOrDash(_ u: Unicode.Scalar) -> Bool {
        switch u {
        case "(", "[", "{", ")", "]", "}", "-", "（", "【", "「", "）", "】", "」", "–", "—": return true
        default: return false
        }
    }

    /// Whether the bytes of `part` occur in `text` (a plain byte search: no Unicode rules, no Foundation).
    package static func bytes(of part: String, occurIn text: String) -> Bool {
        let p = Array(part.utf8)
        guard let first = p.first else { return true }
        return text.utf8.withContiguousStorageIfAvailable { t -> Bool in
            guard t.count >= p.count else { return false }
            for i in 0...(t.count - p.count) where t[i] == first {
                var k = 1
                while k < p.count, t[i + k] == p[k] { k += 1 }
                if k == p.count { return true }
            }
            return false
        } ?? text.contains(part)
    }

    /// A title cut into its main text and side parts: text in brackets, and what follows a dash set off by
    /// spaces ("Yesterday - Remastered 2009").
    static func parts(of text: String) -> [(text: String, isSide: Bool)] {
        // Most titles have neither brackets nor dashes: one main part, found without cutting the text into
        // characters.
        if !text.unicodeScalars.contains(where: isBracketOrDash) { return text.isBlank ? [] : [(text, false)] }
        // A subtitle between two dashes closing the title ("2億4千万の瞳 -エキゾチック・ジャパン-") is a side part,
        // as one in brackets is. (Not waves: "猫 ～THE FIRST TAKE ver.～" would then tie with "猫".)
        for mark in ["-"] where text.hasSuffix(mark) && text.count > 2 {
            let inner = text.dropLast()
            if let open = inner.range(of: " " + mark, options: .backwards), open.lowerBound > inner.startIndex,
               case let side = inner[open.upperBound...], !side.isBlank {
                return parts(of: String(inner[..<open.lowerBound])) + [(String(side), true)]
            }
        }
        var parts: [(String, Bool)] = []
        var current = ""
        var depth = 0
        let opening: Set<Character> = ["(", "[", "{", "（", "【", "「"], closing: Set<Character> = [")", "]", "}", "）", "】", "」"]
        let chars = Array(text)
        var i = 0
        var afterDash = false
        func flush(side: Bool) {
            if !current.isBlank { parts.append((current, side)) }
            current = ""
        }
        while i < chars.count {
            let c = chars[i]
            if opening.contains(c) {
                flush(side: depth > 0 || afterDash)
                depth += 1
            } else if closing.contains(c), depth > 0 {
                depth -= 1
                flush(side: true)
            } else if depth == 0, !afterDash, "-–—".contains(c), i > 0, chars[i - 1] == " ", i + 1 < chars.count, chars[i + 1] == " " {
                flush(side: false)
                afterDash = true
            } else {
                current.append(c)
            }
            i += 1
        }
        flush(side: depth > 0 || afterDash)
        return parts
    }
}
