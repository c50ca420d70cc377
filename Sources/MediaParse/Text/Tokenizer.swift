/// A word of an utterance: where it is in the original text and how it is compared.
public struct Token: Sendable, Hashable {
    /// Offsets in Unicode scalars of the original utterance, `[start, end)`.
    public var start: Int
    public var end: Int
    /// The matching form (see `matchingForm`): what grammar words and list entries are compared with.
    public var key: String
    public var kind: WordKind
    /// Signs stuck to the end of the word in the original, in matching form ("." of "3.", "%" of "10%",
    /// "°" of "3°"): not words, but part of how a number is written. Empty in most tokens.
    public var trailing: String = ""
    /// Where the word and its trailing signs end (scalars): the next token starts here when it touches this
    /// one ("3.º" is 3 + "." + º; "80'erne" is 80 + "'" + erne).
    public var trailingEnd: Int = 0
}

/// An utterance cut into words, with the original kept for slot values and spans.
struct Utterance: Sendable {
    let text: String
    let scalars: [Unicode.Scalar]
    /// Words only: spaces and punctuation are not tokens (they stay in the original text).
    let tokens: [Token]

    /// The original text from the start of token `range.lowerBound` to the end of token `range.upperBound - 1`.
    func originalText(tokens range: Range<Int>) -> String {
        guard !range.isEmpty else { return "" }
        return originalText(scalars: tokens[range.lowerBound].start..<tokens[range.upperBound - 1].end)
    }

    func originalText(scalars range: Range<Int>) -> String {
        // Copying UTF-8 bytes is many times faster than appending scalars one by one.
        var utf8: [UInt8] = []
        utf8.reserveCapacity(range.count * 2)
        for scalar in scalars[range] {
            if scalar.value < 0x80 {
                utf8.append(UInt8(scalar.value))
            } else {
                utf8.append(contentsOf: UTF8.encode(scalar)!)
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// Scalar span `[start, end)` of a token range.
    func span(tokens range: Range<Int>) -> [Int] {
        guard !range.isEmpty else { return [0, 0] }
        return [tokens[range.lowerBound].start, tokens[range.upperBound - 1].end]
    }
}

/// Cuts text into tokens with ICU's word breaker for the locale, then folds each word to matching form
/// and cuts off clitics the locale names ("Khalid's" -> "khalid" "'s"; "l'album" -> "l'" "album").
///
/// With `characterWords` (Chinese, Japanese), every Han character and kana of a word is a token of its own:
/// ICU's dictionary segmentation does not know names ("周杰伦" may come out as one word or three), so
/// templates, names and vocabulary are all matched character by character, whatever it did. Latin words
/// and digits in the same text stay whole. The session's transliterator (a locale's `transform`) is applied
/// to every key.
struct Tokenizer: Sendable {
    let splitSuffixes: [String]
    let splitPrefixes: [String]
    var characterWords = false
    /// The clitics as bytes, compared with each word's bytes: `hasSuffix` on strings compares characters
    /// (canonical equivalence) and was a fifth of tokenizing in a language with thirty of them. Keys are in
    /// matching form, so bytes say the same.
    private let suffixBytes: [[UInt8]]
    private let prefixBytes: [[UInt8]]

    init(splitSuffixes: [String] = [], splitPrefixes: [String] = [], characterWords: Bool = false) {
        self.splitSuffixes = splitSuffixes
        self.splitPrefixes = splitPrefixes
        self.characterWords = characterWords
        suffixBytes = splitSuffixes.map { Array($0.utf8) }
        prefixBytes = splitPrefixes.map { Array($0.utf8) }
    }

    init(profile: LanguageProfile) {
        self.init(splitSuffixes: profile.splitSuffixes, splitPrefixes: profile.splitPrefixes,
                  characterWords: profile.characterWords)
    }

    /// The matching form of a word, through the session's transliterator when it has one.
    func key(_ text: String, session: ICUSession) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return matchingForm(text) }
        // Beyond ASCII, folding (and a transform) goes through ICU, at thousands of instructions a word; the
        // same words (and, for Chinese and Japanese, the same characters) come back in every utterance.
        return session.cachedKey(text) {
            let folded = matchingForm(text)
            guard session.hasTransform, !folded.utf8.allSatisfy({ $0 < 0x80 }) else { return folded }
            return session.transformed(folded)
        }
    }

    func tokenize(_ text: String, session: ICUSession) -> Utterance {
        let utf16 = Array(text.utf16)
        let scalars = Array(text.unicodeScalars)
        // UTF-16 offset -> scalar offset.
        var scalarAt = [Int](repeating: 0, count: utf16.count + 1)
        var scalarIndex = 0
        for (i, unit) in utf16.enumerated() {
            scalarAt[i] = scalarIndex
            if !UTF16.isLeadSurrogate(unit) { scalarIndex += 1 }
        }
        scalarAt[utf16.count] = scalarIndex

        var tokens: [Token] = []
        for segment in session.segments(utf16) where segment.kind != .none {
            var start = scalarAt[segment.start], end = scalarAt[segment.end]
            let whole = (start, end)
            // The word breaker keeps format characters with the word before them ("Khalid" + U+202C); bidi
            // controls and invisible marks at a word's edges are not part of what was said.
            while end > start, Self.isInvisibleControl(scalars[end - 1]) { end -= 1 }
            while start < end, Self.isInvisibleControl(scalars[start]) { start += 1 }
            guard start < end else { continue }
            if characterWords, segment.kind == .ideographic || segment.kind == .kana {
                appendCharacters(scalars, start..<end, kind: segment.kind, session: session, into: &tokens)
                continue
            }
            let key: String
            if (start, end) == whole {
                key = self.key(String(utf16Units: utf16[segment.start..<segment.end]), session: session)
            } else {
                var s = String.UnicodeScalarView()
                s.append(contentsOf: scalars[start..<end])
                key = self.key(String(s), session: session)
            }
            var token = Token(start: start, end: end, key: key, kind: segment.kind)
            (token.trailing, token.trailingEnd) = trailingSigns(scalars, from: whole.1)
            if token.trailing.isEmpty { token.trailingEnd = end }
            // An elided word the word breaker cut from its apostrophe ("l' album", "dell'85"): the clitic
            // with its apostrophe, as "l'album" gives it.
            if token.trailing.hasPrefix("'"), end == whole.1, splitPrefixes.contains(token.key + "'") {
                token.key += "'"
                token.end += 1
                token.trailing.removeFirst()
            }
            appendSplitting(token, into: &tokens)
        }
        return Utterance(text: text, scalars: scalars, tokens: tokens)
    }

    /// Signs right after a word, up to a space or the next letter or digit (at most four), in matching form.
    private func trailingSigns(_ scalars: [Unicode.Scalar], from start: Int) -> (String, Int) {
        // Most words end at a space or at the end of the text.
        if start >= scalars.count || scalars[start] == " " { return ("", start) }
        var end = start
        while end < scalars.count, end - start < 4 {
            let p = scalars[end].properties
            if p.isWhitespace || p.isAlphabetic || p.numericType != nil || Self.isInvisibleControl(scalars[end]) { break }
            end += 1
        }
        guard end > start else { return ("", start) }
        var s = String.UnicodeScalarView()
        s.append(contentsOf: scalars[start..<end])
        return (matchingForm(String(s)), end)
    }

    /// One token per character (a base scalar with the marks that follow it) of `range`.
    private func appendCharacters(_ scalars: [Unicode.Scalar], _ range: Range<Int>, kind: WordKind, session: ICUSession,
                                  into tokens: inout [Token]) {
        var i = range.lowerBound
        while i < range.upperBound {
            var j = i + 1
            while j < range.upperBound, Self.isMarkOrSelector(scalars[j]) { j += 1 }
            let text: String
            if j == i + 1 {
                text = String(Character(scalars[i]))  // most characters are one scalar: no view to build
            } else {
                var s = String.UnicodeScalarView()
                s.append(contentsOf: scalars[i..<j])
                text = String(s)
            }
            var token = Token(start: i, end: j, key: key(text, session: session), kind: kind)
            token.trailingEnd = j
            tokens.append(token)
            i = j
        }
    }

    /// Combining marks (kana voicing marks among them), the half-width and spacing voicing marks (ﾞ ﾟ ゛ ゜,
    /// which are letters to Unicode but voice the kana before them: ｸﾞ = グ) and variation selectors belong to
    /// the character before.
    private static func isMarkOrSelector(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default:
            return (0xFE00...0xFE0F).contains(s.value) || (0xE0100...0xE01EF).contains(s.value)
                || s.value == 0xFF9E || s.value == 0xFF9F || s.value == 0x309B || s.value == 0x309C
        }
    }

    /// Bidi controls (LRM, RLM, ALM, embeddings, overrides, isolates), zero-width space, word joiner and a
    /// byte order mark. Not ZWJ and ZWNJ, which shape the words and emoji they sit in.
    static func isInvisibleControl(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x061C, 0x200B, 0x200E, 0x200F, 0x202A...0x202E, 0x2060, 0x2066...0x2069, 0xFEFF: return true
        default: return false
        }
    }

    /// Turns a word-sized piece of template or vocabulary text into matching-form words, the same way.
    /// A clitic written on its own ("'s") is kept whole, as it is a token of its own in utterances.
    func words(of text: String, session: ICUSession) -> [String] {
        text.split(whereSeparator: \.isWhitespace).flatMap { piece -> [String] in
            // The whole piece's key only matters to a language with clitics; the words' keys are made below
            // (for Chinese the key of a piece of several characters would open the transliterator for nothing).
            if !splitSuffixes.isEmpty || !splitPrefixes.isEmpty {
                let folded = key(String(piece), session: session)
                if splitSuffixes.contains(folded) || splitPrefixes.contains(folded) { return [folded] }
            }
            return tokenize(String(piece), session: session).tokens.map(\.key)
        }
    }

    private func appendSplitting(_ token: Token, into tokens: inout [Token]) {
        let length = token.end - token.start
        let key = token.key.utf8
        guard let lastByte = key.last else { tokens.append(token); return }
        for (k, bytes) in suffixBytes.enumerated()
        where bytes.last == lastByte && key.count > bytes.count && key.reversed().starts(with: bytes.reversed()) {
            let suffix = splitSuffixes[k]
            let n = suffix.unicodeScalars.count
            guard length > n else { continue }
            let cut = token.end - n
            var stem = Token(start: token.start, end: cut, key: String(token.key.dropLast(suffix.count)), kind: token.kind)
            stem.trailingEnd = cut
            tokens.append(stem)
            var clitic = Token(start: cut, end: token.end, key: suffix, kind: token.kind)
            clitic.trailing = token.trailing
            clitic.trailingEnd = token.trailingEnd
            tokens.append(clitic)
            return
        }
        for (k, bytes) in prefixBytes.enumerated()
        where bytes.first == key.first && key.count > bytes.count && key.starts(with: bytes) {
            let prefix = splitPrefixes[k]
            let n = prefix.unicodeScalars.count
            guard length > n else { continue }
            let cut = token.start + n
            var clitic = Token(start: token.start, end: cut, key: prefix, kind: token.kind)
            clitic.trailingEnd = cut
            tokens.append(clitic)
            var rest = Token(start: cut, end: token.end, key: String(token.key.dropFirst(prefix.count)), kind: token.kind)
            rest.trailing = token.trailing
            rest.trailingEnd = token.trailingEnd
            tokens.append(rest)
            return
        }
        tokens.append(token)
    }
}
