/// Turns vocabulary phrases and utterance tokens into the same canonical keys, so that a phrase matches
/// however it is said or written.
///
/// On top of what the tokenizer already does (matching form: case, accents, width folded; punctuation is
/// not a token; "’" made "'"), canonical keys:
///
/// - drop apostrophes inside a word ("don't" → "dont", the split clitic "'s" → "s"); the apostrophe before
///   a decade ("'70s") is punctuation and never reaches here;
/// - replace numbers found by `NumberRecognizer` by one digit form, whatever way they are said:
///   cardinals by their digits ("ten", "10" → `10`; "twenty one", "twenty-one", "21" → `21`; "one and a
///   half" → `1.5`), ordinals by digits and a full stop ("third", "3rd" → `3.`), years by their digits
///   ("nineteen seventy-five" → `1975`), decades by their first year and "s" ("seventies", "70s", "'70s",
///   "70's", "1970s", "nineteen seventies" → `1970s`);
/// - read a percentage as its number ("ten percent", "10 per cent", "10%" → `10`), as the locale's
///   `numbers: percent:` forms say; a percent word anywhere else is a plain word.
///
/// Where number readings overlap, the longest one starting at the leftmost token wins ("nineteen seventies"
/// is one decade, "twenty one" one number), then decade over year over ordinal over cardinal. This is
/// decided on the tokens given, so a number word just before a phrase can join it in an utterance ("one
/// twenty one pilots" reads `121 pilots` and misses "Twenty One Pilots").
struct VocabularyNormalizer: Sendable {
    let tokenizer: Tokenizer
    let numbers: NumberRecognizer

    /// The canonical keys of `tokens`, each with the token range `[start, end)` it came from. Applied to
    /// vocabulary phrases when they are loaded and to utterance tokens when they are looked up.
    ///
    /// - Parameter entities: what `NumberRecognizer.recognize` found in `tokens`, when the caller has it
    ///   already (the parser does); nil to run it here.
    func canonicalTokens(_ tokens: [Token], entities: [Entity]? = nil,
                         session: ICUSession) -> [(key: String, start: Int, end: Int)] {
        let found = entities ?? (mayHoldNumbers(tokens) ? numbers.recognize(tokens, session: session) : [])
        // The best number reading starting at each token.
        var best: [Int: (end: Int, kind: RecognizerKind, key: String)] = [:]
        for entity in found {
            guard let key = Self.key(of: entity) else { continue }
            if let old = best[entity.start] {
                let longer = entity.end - entity.start > old.end - entity.start
                let sameLength = entity.end == old.end
                guard longer || (sameLength && Self.kindRank(entity.kind) > Self.kindRank(old.kind)) else { continue }
            }
            best[entity.start] = (entity.end, entity.kind, key)
        }

        var out: [(key: String, start: Int, end: Int)] = []
        out.reserveCapacity(tokens.count)
        var i = 0
        while i < tokens.count {
            if let number = best[i] {
                out.append((number.key, i, number.end))
                i = number.end
                continue
            }
            let key = Self.withoutApostrophes(tokens[i].key)
            if !key.isEmpty { out.append((key, i, i + 1)) }
            i += 1
        }
        return out
    }

    /// The canonical keys of a vocabulary phrase, tokenized as utterances are.
    func canonicalKeys(of phrase: String, session: ICUSession) -> [String] {
        canonicalKeys(of: [phrase], session: session)[0]
    }

    /// The canonical keys of each phrase, in order: the same as `canonicalKeys(of:session:)` one by one, in
    /// less time, for loading large vocabularies.
    ///
    /// - Phrases are tokenized in batches, one line each: a line break is always a word break (UAX #29
    ///   WB3a/b), so each phrase gets the tokens it would get alone, and per-call costs are shared. Numbers
    ///   are then read phrase by phrase.
    /// - An ASCII phrase is lower-cased first: ICU's word breaks do not depend on case and a word's matching
    ///   form is the same from either case, so the keys are the same, but lower-case ASCII words skip the
    ///   fold.
    func canonicalKeys(of phrases: [String], session: ICUSession) -> [[String]] {
        var out: [[String]] = []
        out.reserveCapacity(phrases.count)
        let batchSize = 256
        var batchStart = 0
        while batchStart < phrases.count {
            let batch = phrases[batchStart..<min(batchStart + batchSize, phrases.count)]
            batchStart += batchSize
            var text = ""
            var starts: [Int] = []  // scalar offset of each phrase's line
            var offset = 0
            for phrase in batch {
                let line = phrase.utf8.allSatisfy { $0 < 0x80 } ? phrase.lowercased() : phrase
                starts.append(offset)
                text += line
                text += "\n"
                offset += line.unicodeScalars.count + 1
            }
            starts.append(offset)
            let tokens = tokenizer.tokenize(text, session: session).tokens
            var t = 0
            for k in 0..<batch.count {
                let first = t
                while t < tokens.count, tokens[t].start < starts[k + 1] { t += 1 }
                let own = first == t ? [] : Array(tokens[first..<t])
                out.append(canonicalTokens(own, session: session).map(\.key))
            }
        }
        return out
    }

    /// A quick, conservative check before running the recogniser: can any token be (part of) a number
    /// reading? Most names have none, and skip the recogniser.
    private func mayHoldNumbers(_ tokens: [Token]) -> Bool {
        tokens.contains { numbers.mayBeNumber($0.key) }
    }

    /// The canonical key of a number reading, or nil for kinds that are not replaced (speeds, durations and
    /// frequencies are made of numbers, which are replaced one by one).
    private static func key(of entity: Entity) -> String? {
        switch (entity.kind, entity.value) {
        case let (.number, .number(v)), let (.percent, .number(v)): return digits(v)
        case let (.ordinal, .number(v)): return digits(v) + "."
        case let (.year, .dateRange(start, _)): return String(start.prefix(4))
        case let (.decade, .dateRange(start, _)): return String(start.prefix(4)) + "s"
        default: return nil
        }
    }

    private static func kindRank(_ kind: RecognizerKind) -> Int {
        switch kind {
        case .decade: return 4
        case .year: return 3
        case .ordinal: return 2
        case .percent: return 1
        default: return 0
        }
    }

    /// `10`, `1.5`: integers without a fraction, others as Swift prints a `Double`.
    private static func digits(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// Apostrophes (plain, and the modifier letter the folding leaves) removed.
    static func withoutApostrophes(_ key: String) -> String {
        guard key.unicodeScalars.contains(where: { $0 == "'" || $0 == "\u{2BC}" || $0 == "\u{2019}" }) else { return key }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: key.unicodeScalars.filter { $0 != "'" && $0 != "\u{2BC}" && $0 != "\u{2019}" })
        return String(scalars)
    }
}
