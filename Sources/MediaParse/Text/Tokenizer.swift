/// A word of an utterance: where it is in the original text and how it is compared.
public struct Token: Sendable, Hashable {
    /// Offsets in Unicode scalars of the original utterance, `[start, end)`.
    public var start: Int
    public var end: Int
    /// The matching form (see `matchingForm`): what grammar words and list entries are compared with.
    public var key: String
    public var kind: WordKind
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
struct Tokenizer: Sendable {
    var splitSuffixes: [String] = []
    var splitPrefixes: [String] = []

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
            let key: String
            if (start, end) == whole {
                key = matchingForm(String(decoding: utf16[segment.start..<segment.end], as: UTF16.self))
            } else {
                var s = String.UnicodeScalarView()
                s.append(contentsOf: scalars[start..<end])
                key = matchingForm(String(s))
            }
            appendSplitting(Token(start: start, end: end, key: key, kind: segment.kind), into: &tokens)
        }
        return Utterance(text: text, scalars: scalars, tokens: tokens)
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
            let folded = matchingForm(String(piece))
            if splitSuffixes.contains(folded) || splitPrefixes.contains(folded) { return [folded] }
            return tokenize(String(piece), session: session).tokens.map(\.key)
        }
    }

    private func appendSplitting(_ token: Token, into tokens: inout [Token]) {
        let length = token.end - token.start
        for suffix in splitSuffixes where token.key.hasSuffix(suffix) && token.key.count > suffix.count {
            let n = suffix.unicodeScalars.count
            guard length > n else { continue }
            let cut = token.end - n
            tokens.append(Token(start: token.start, end: cut, key: String(token.key.dropLast(suffix.count)),
                                kind: token.kind))
            tokens.append(Token(start: cut, end: token.end, key: suffix, kind: token.kind))
            return
        }
        for prefix in splitPrefixes where token.key.hasPrefix(prefix) && token.key.count > prefix.count {
            let n = prefix.unicodeScalars.count
            guard length > n else { continue }
            let cut = token.start + n
            tokens.append(Token(start: token.start, end: cut, key: prefix, kind: token.kind))
            tokens.append(Token(start: cut, end: token.end, key: String(token.key.dropFirst(prefix.count)),
                                kind: token.kind))
            return
        }
        tokens.append(token)
    }
}
