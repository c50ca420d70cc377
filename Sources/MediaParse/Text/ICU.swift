import CICU
import Foundation

/// One ICU word breaker and spell-out number format for a locale. ICU's iterators keep state, so a
/// session is used by one thread at a time; `ICUSessionPool` hands them out.
package final class ICUSession: @unchecked Sendable {
    private let handle: OpaquePointer
    private var starts: [Int32] = Array(repeating: 0, count: 64)
    private var ends: [Int32] = Array(repeating: 0, count: 64)
    private var kinds: [Int32] = Array(repeating: 0, count: 64)

    /// - Parameters:
    ///   - transform: an ICU transliterator ID applied to matching forms ("Traditional-Simplified").
    ///   - table: what that transliterator makes of single characters, from a compiled grammar: the session
    ///     answers those itself and opens the transliterator only for other text, at its first use.
    package init(locale: String, transform: String? = nil, table: TransformTable? = nil) throws {
        var status: Int32 = 0
        guard let h = mp_text_open(locale, transform, table == nil ? 0 : 1, &status) else {
            throw TextError.icu(status, transform.map { "opening locale \(locale) with the transform '\($0)'" } ?? "opening locale \(locale)")
        }
        handle = h
        hasTransform = mp_has_transform(h) == 1
        self.table = hasTransform ? table : nil
        spelledShared = SpelledNumberAnswers()
    }

    /// True when matching forms go through a transliterator.
    let hasTransform: Bool
    /// The transliterator's answers for single characters, when a compiled grammar brought them.
    private let table: TransformTable?

    private init(handle: OpaquePointer, table: TransformTable?, spelledShared: SpelledNumberAnswers) {
        self.handle = handle
        hasTransform = mp_has_transform(handle) == 1
        self.table = table
        self.spelledShared = spelledShared
    }

    /// A session of the same locale for another thread; it shares this one's `SpelledNumberAnswers`.
    func clone() throws -> ICUSession {
        var status: Int32 = 0
        guard let h = mp_text_clone(handle, &status) else { throw TextError.icu(status, "cloning a word breaker") }
        return ICUSession(handle: h, table: table, spelledShared: spelledShared)
    }

    deinit { mp_text_close(handle) }

    /// Word segments of `chars` as UTF-16 offsets, spaces and punctuation included.
    package func segments(_ chars: [UInt16]) -> [(start: Int, end: Int, kind: WordKind)] {
        var count: Int32 = 0
        while true {
            let capacity = Int32(starts.count)
            count = chars.withUnsafeBufferPointer { text in
                mp_words(handle, text.baseAddress, Int32(text.count), &starts, &ends, &kinds, capacity)
            }
            if count <= capacity { break }
            starts = Array(repeating: 0, count: Int(count))
            ends = starts
            kinds = starts
        }
        if count < 0 { return [] }
        return (0..<Int(count)).map { i in
            (Int(starts[i]), Int(ends[i]), WordKind(rawValue: Int(kinds[i])) ?? .none)
        }
    }

    /// The value of `text` read as a spelled-out number in this locale, or nil when not all of it is one.
    func parseSpelledNumber(_ text: String) -> Double? {
        let chars = Array(text.utf16)
        var value = 0.0
        let ok = chars.withUnsafeBufferPointer { mp_parse_spellout(handle, $0.baseAddress, Int32($0.count), &value) }
        return ok == 1 ? value : nil
    }

    /// The public spell-out rule sets ICU has for the locale ("%spellout-cardinal-feminine" …).
    func ruleSets() -> [String] {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = mp_rule_sets(handle, &buffer, Int32(buffer.count))
        guard n >= 0 else { return [] }
        let text = String(nulTerminated: buffer)
        return text.split(separator: ";").map(String.init).filter { !$0.isEmpty }
    }

    /// `text` through the session's transliterator (unchanged when it has none).
    func transformed(_ text: String) -> String {
        guard hasTransform else { return text }
        if let known = table?.transformed(text) { return known }
        let original = Array(text.utf16)
        var capacity = original.count * 2 + 16
        while true {
            var buffer = original + [UInt16](repeating: 0, count: capacity - original.count)
            let n = Int(mp_transform(handle, &buffer, Int32(original.count), Int32(capacity)))
            if n < 0 { return text }
            if n <= capacity { return String(utf16Units: buffer[0..<n]) }
            capacity = n + 16
        }
    }

    private var spelledCache: [WordKey: Double?] = [:]
    /// ICU's spell-out answers shared with the sessions cloned from this one (`SpelledNumberAnswers`).
    private let spelledShared: SpelledNumberAnswers
    private var keyCache: [WordKey: String] = [:]
    private var gluedCache: [WordKey: [Entity]] = [:]

    private var numberFactsCache: [WordKey: NumberWordFacts] = [:]

    /// `make()`, remembered in `cache` under `word` for this session; a cache past `limit` words starts again
    /// (a session lives as long as its parser, and the words of a stream have no end).
    private static func remembered<Value>(_ word: String, in cache: inout [WordKey: Value], limit: Int,
                                          _ make: () -> Value) -> Value {
        let key = WordKey(word)
        if let hit = cache[key] { return hit }
        let value = make()
        if cache.count > limit { cache.removeAll(keepingCapacity: true) }
        cache[key] = value
        return value
    }

    /// The glued forms a word alone is (`NumberRecognizer`, at position 0), remembered for this session:
    /// most words are asked again and again, and a language whose words end like its number forms
    /// ("derde", "zestiger") would otherwise try every form on every such word.
    func cachedGlued(_ word: String, _ make: () -> [Entity]) -> [Entity] {
        Self.remembered(word, in: &gluedCache, limit: 16_384, make)
    }

    /// What the number recogniser tells of a word alone (`NumberRecognizer.facts(of:)`), remembered for
    /// this session: one look-up a word, where the facts themselves take several.
    func cachedNumberFacts(_ word: String, _ make: () -> NumberWordFacts) -> NumberWordFacts {
        Self.remembered(word, in: &numberFactsCache, limit: 16_384, make)
    }

    /// The matching form of a word `make` computes, remembered for this session.
    func cachedKey(_ word: String, _ make: () -> String) -> String {
        Self.remembered(word, in: &keyCache, limit: 16_384, make)
    }

    /// `parseSpelledNumber`, remembered: the same few number words come back again and again. A text this
    /// session has not asked about may have been asked by a sister session on another thread
    /// (`SpelledNumberAnswers`); ICU is asked only when none has.
    func cachedSpelledNumber(_ text: String) -> Double? {
        Self.remembered(text, in: &spelledCache, limit: 8192) {
            let key = WordKey(text)
            if let answer = spelledShared.answer(key) { return answer }
            let value = parseSpelledNumber(text)
            spelledShared.keep(value, for: key)
            return value
        }
    }

    /// `value` spelled out with one of the locale's rule sets ("%spellout-ordinal" …); nil if it has none.
    func spellOut(_ value: Double, ruleSet: String?) -> String? {
        var buffer = [UInt16](repeating: 0, count: 128)
        let n = mp_format_spellout(handle, value, ruleSet, &buffer, Int32(buffer.count))
        guard n >= 0, n <= buffer.count else { return nil }
        return String(utf16Units: buffer[0..<Int(n)])
    }
}

/// ICU's spell-out answers, shared by the sessions of one locale that were cloned from one another (the
/// threads of one parser). One answer costs ICU's lenient parse up to 15 million instructions (five
/// milliseconds) when the text is no number, the cost of a hundred parses of ours; over the English
/// development sets on two threads it was a third of all the work, and each thread asked about the same texts.
/// The lock is taken only when a session's own memo misses.
final class SpelledNumberAnswers: Sendable {
    private let answers = Locked<[WordKey: Double?]>([:])
    /// Past this many texts the answers start again (a stream's numbers have no end).
    private static let limit = 16_384

    /// The answer kept for `text`: a number, no number (`.some(nil)`), or nil when no session asked.
    func answer(_ text: WordKey) -> Double?? { answers.withLock { $0[text] } }

    func keep(_ value: Double?, for text: WordKey) {
        answers.withLock {
            if $0.count >= Self.limit { $0.removeAll(keepingCapacity: true) }
            $0[text] = .some(value)
        }
    }
}

/// A small pool of `ICUSession`s of one locale, so that one `MediaParser` can serve many threads.
final class ICUSessionPool: Sendable {
    private let prototype: Locked<ICUSession>
    private let idle: Locked<[ICUSession]>

    /// - Parameter table: see `ICUSession.init`.
    init(locale: String, transform: String? = nil, table: TransformTable? = nil) throws {
        prototype = Locked(try ICUSession(locale: locale, transform: transform, table: table))
        idle = Locked([])
    }

    func withSession<T>(_ body: (ICUSession) throws -> T) rethrows -> T {
        let session: ICUSession
        if let s = idle.withLock({ $0.popLast() }) {
            session = s
        } else {
            // Cloning cannot fail short of memory exhaustion; fall back to a fresh open would need the name.
            session = try! prototype.withLock { try $0.clone() }
        }
        defer { idle.withLock { if $0.count < 64 { $0.append(session) } } }
        return try body(session)
    }
}

/// Are two keys (matching forms, `Tokenizer.key`) the same word? Keys are normalised (NFC) by `matchingForm`,
/// so the same bytes: compared as bytes, without `String ==`'s normalisation of text beyond ASCII (a sixth of
/// a Japanese parse).
@inline(__always)
func sameKey(_ a: String, _ b: String) -> Bool {
    let x = a.utf8, y = b.utf8
    let n = x.count
    guard n == y.count else { return false }
    if n == 0 { return true }
    // Native strings (all of ours) hold their bytes in one piece: one memcmp, not a byte-by-byte walk.
    let same: Bool?? = x.withContiguousStorageIfAvailable { p in
        y.withContiguousStorageIfAvailable { q in memcmp(p.baseAddress!, q.baseAddress!, n) == 0 }
    }
    if let same, let same { return same }
    return x.elementsEqual(y)
}

/// A word as a dictionary key, hashed and compared by its UTF-8 bytes (`sameKey`). `String`'s own hashing
/// normalises text beyond ASCII on every look-up, which in Chinese and Japanese costs more than the look-up
/// itself; keys are in matching form already, and a raw word (the tokenizer's memo) keyed by its bytes
/// only means that two spellings of it are remembered apart.
struct WordKey: Hashable, Sendable, ExpressibleByStringLiteral {
    let text: String

    @inline(__always)
    init(_ text: String) { self.text = text }

    init(stringLiteral value: String) { text = value }

    @inline(__always)
    static func == (a: WordKey, b: WordKey) -> Bool { sameKey(a.text, b.text) }

    @inline(__always)
    func hash(into hasher: inout Hasher) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if done == nil { for b in text.utf8 { hasher.combine(b) } }
        hasher.combine(0xFF as UInt8)
    }
}

/// Text in matching form: NFKC case folding, accents removed, typographic apostrophes made plain.
/// "Beyoncé" and "BEYONCE" and "ｂｅｙｏｎｃｅ" all fold to "beyonce".
package func matchingForm(_ text: String) -> String {
    // ASCII letters and digits: case folding is lower-casing, and there is nothing else to fold.
    var upper = false
    if text.utf8.allSatisfy({ b in
        if b >= 0x41 && b <= 0x5A { upper = true; return true }
        return (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
    }) {
        return upper ? String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self) : text
    }
    let chars = Array(text.utf16)
    var out = [UInt16](repeating: 0, count: chars.count + 8)
    var n = chars.withUnsafeBufferPointer { mp_fold($0.baseAddress, Int32($0.count), &out, Int32(out.count)) }
    if n > out.count {
        out = [UInt16](repeating: 0, count: Int(n))
        n = chars.withUnsafeBufferPointer { mp_fold($0.baseAddress, Int32($0.count), &out, Int32(out.count)) }
    }
    guard n >= 0 else { return text.lowercased() }
    return String(utf16Units: out[0..<Int(n)])
}

/// The locale's decimal separator as ICU knows it ("," for de_DE), or nil.
func icuDecimalSeparator(locale: String) -> String? {
    var buffer = [UInt16](repeating: 0, count: 8)
    let n = mp_decimal_separator(locale, &buffer, 8)
    guard n > 0, n <= 8 else { return nil }
    return String(utf16Units: buffer[0..<Int(n)])
}

/// What ICU's word breaker says a segment is.
public enum WordKind: Int, Sendable {
    case none = 0, number, letter, kana, ideographic
}

enum TextError: Error, CustomStringConvertible {
    case icu(Int32, String)
    var description: String {
        switch self {
        case let .icu(code, what): return "ICU error \(code) while \(what)"
        }
    }
}

/// Which locale ICU really serves when asked for one (a mistyped name falls back silently).
package enum ICULocaleCheck {
    /// The locale whose spell-out data ICU uses for `icuLocale` ("de_DE" → "de"; "ge_DE" → "root"), or
    /// nil when ICU cannot open a formatter at all.
    package static func actualLocale(for icuLocale: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 128)
        let n = icuLocale.withCString { mp_actual_locale($0, &buffer, Int32(buffer.count)) }
        guard n >= 0 else { return nil }
        return String(nulTerminated: buffer)
    }
}

/// The ICU in use, as far as what it answers depends on it.
enum ICUVersion {
    /// "72.1": part of every compiled grammar's key, since the grammar holds ICU's answers (its words as
    /// ICU's word breaker cut them, the number words its spell-out rules write). A grammar compiled with
    /// another ICU is compiled again rather than read back.
    static let current: String = {
        var buffer = [CChar](repeating: 0, count: 64)
        let n = mp_icu_version(&buffer, Int32(buffer.count))
        guard n > 0 else { return "unknown" }
        return String(nulTerminated: buffer)
    }()
}

extension String {
    /// The text a C function of `CICU` wrote into `buffer`, up to its NUL (or all of it when there is none).
    init(nulTerminated buffer: [CChar]) {
        self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
