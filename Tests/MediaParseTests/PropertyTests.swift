@testable import MediaParse
import Foundation
import XCTest

/// Properties of every parse, over generated input: random Unicode (combining marks, emoji sequences, bidi
/// and other controls, NUL, every script block the generator knows) and corpus utterances cut up and put
/// together again with such characters in between.
///
/// - the parse returns (it cannot throw), keeps the utterance, and encodes to one JSON object line;
/// - every span lies inside the utterance, and a name it claims (mediaName, artistName, albumName,
///   playlistName) is the text it covers, or the vocabulary entry that matched there;
/// - every slot string appears in the utterance (in matching form: case, accents, width folded), or is a
///   vocabulary entry's string or identifier, or an output value of the grammar (a list value, a `set:`).
///
/// The generators are seeded: a failure names its seed and input, and `MEDIAPARSE_PROPERTY_SEED` and
/// `MEDIAPARSE_PROPERTY_CASES` replay it or run more cases.
final class PropertyTests: XCTestCase {
    static let parser = try! Fixtures.corpusParser()

    /// SplitMix64: small, fast, and the same sequence on every platform.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static var seed: UInt64 { ProcessInfo.processInfo.environment["MEDIAPARSE_PROPERTY_SEED"].flatMap(UInt64.init) ?? 20261121 }
    static var cases: Int { ProcessInfo.processInfo.environment["MEDIAPARSE_PROPERTY_CASES"].flatMap(Int.init) ?? 1200 }

    // MARK: Generators

    /// Ranges of scalars to draw from, each with a weight.
    static let scalarPools: [(weight: Int, ranges: [ClosedRange<UInt32>])] = [
        (30, [0x61...0x7A, 0x41...0x5A]),                          // ASCII letters
        (10, [0x20...0x20]),                                       // space
        (6, [0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E]), // ASCII punctuation
        (6, [0x30...0x39]),                                        // digits
        (6, [0xC0...0x24F]),                                       // Latin with accents
        (6, [0x300...0x36F, 0x1AB0...0x1AFF, 0x20D0...0x20FF]),    // combining marks
        (6, [0x1F300...0x1FAFF, 0x2600...0x27BF]),                 // emoji and symbols
        (4, [0x200D...0x200D, 0xFE0F...0xFE0F, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F]), // ZWJ, VS16, skin tones, tags
        (4, [0x202A...0x202E, 0x2066...0x2069, 0x200E...0x200F, 0x061C...0x061C]),   // bidi controls
        (3, [0x00...0x08, 0x0B...0x0C, 0x0E...0x1F, 0x7F...0x9F]), // C0 and C1 controls, NUL
        (2, [0x09...0x0A, 0x0D...0x0D, 0x85...0x85, 0x2028...0x2029]), // tab, line ends, separators
        (3, [0x4E00...0x9FFF, 0x3040...0x30FF, 0xAC00...0xD7A3]),  // CJK, kana, Hangul
        (3, [0x0590...0x05FF, 0x0600...0x06FF, 0x0E00...0x0E7F, 0x0900...0x097F]), // Hebrew, Arabic, Thai, Devanagari
        (2, [0xFF01...0xFF5E, 0x2160...0x2188, 0x2460...0x24FF]),  // fullwidth, Roman numerals, circled numbers
        (2, [0xE000...0xF8FF, 0xFFF0...0xFFFF, 0x10000...0x10FFFF]), // private use, specials, the astral planes
        (1, [0x2000...0x200C, 0x3000...0x3000, 0xA0...0xA0]),      // other spaces, ZWNJ, ZWSP
    ]

    static func randomScalar<G: RandomNumberGenerator>(_ g: inout G) -> Unicode.Scalar {
        let total = scalarPools.reduce(0) { $0 + $1.weight }
        var pick = Int.random(in: 0..<total, using: &g)
        var pool = scalarPools[0]
        for p in scalarPools { if pick < p.weight { pool = p; break }; pick -= p.weight }
        let range = pool.ranges.randomElement(using: &g)!
        while true {
            // Surrogate code points are not scalars; draw again.
            if let s = Unicode.Scalar(UInt32.random(in: range, using: &g)) { return s }
        }
    }

    static func randomString<G: RandomNumberGenerator>(_ g: inout G) -> String {
        let length: Int
        switch Int.random(in: 0..<100, using: &g) {
        case 0..<80: length = Int.random(in: 0...40, using: &g)
        case 80..<97: length = Int.random(in: 40...400, using: &g)
        default: length = Int.random(in: 1900...2100, using: &g)  // both sides of the 2,000-scalar limit
        }
        var s = String.UnicodeScalarView()
        for _ in 0..<length { s.append(randomScalar(&g)) }
        return String(s)
    }

    static let corpusWords: [String] = Fixtures.corpusUtterances.flatMap { $0.split(separator: " ").map(String.init) }
    static let names = ["ControlAudio", "Spotify", "Rainy Sunday Jazz", "nineties chill mix", "The Midnight Owls",
                        "top twenty tech talk", "Beyoncé", "Sigur Rós", "AC/DC", "P!nk", "Ke$ha", "家族", "'70s"]

    /// A corpus utterance's words, or words from several, with noise: odd spacing and case, quotes,
    /// vocabulary names, random characters between and inside words.
    static func recombined<G: RandomNumberGenerator>(_ g: inout G) -> String {
        var words: [String]
        if Bool.random(using: &g) {
            words = Fixtures.corpusUtterances.randomElement(using: &g)!.split(separator: " ").map(String.init)
        } else {
            words = (0..<Int.random(in: 1...14, using: &g)).map { _ in corpusWords.randomElement(using: &g)! }
        }
        for _ in 0..<Int.random(in: 0...3, using: &g) {
            let at = Int.random(in: 0...words.count, using: &g)
            switch Int.random(in: 0..<6, using: &g) {
            case 0: words.insert(names.randomElement(using: &g)!, at: at)
            case 1: words.insert(String(randomScalar(&g)), at: at)
            case 2 where !words.isEmpty:
                // A character inside a word.
                let w = Int.random(in: 0..<words.count, using: &g)
                var scalars = Array(words[w].unicodeScalars)
                scalars.insert(randomScalar(&g), at: Int.random(in: 0...scalars.count, using: &g))
                var view = String.UnicodeScalarView(); view.append(contentsOf: scalars)
                words[w] = String(view)
            case 3 where !words.isEmpty:
                let w = Int.random(in: 0..<words.count, using: &g)
                words[w] = ["\"\(words[w])\"", "“\(words[w])”", words[w].uppercased(), words[w].lowercased(), "\(words[w])'s"]
                    .randomElement(using: &g)!
            case 4: words.insert(String(repeating: "play", count: Int.random(in: 1...3, using: &g)), at: at)
            default: if !words.isEmpty { words.remove(at: Int.random(in: 0..<words.count, using: &g)) }
            }
        }
        let separators = [" ", " ", " ", "  ", "\t", ", ", " - ", "\u{00A0}", "\u{200B}", "\u{3000}"]
        var text = ""
        for (i, w) in words.enumerated() {
            if i > 0 { text += separators.randomElement(using: &g)! }
            text += w
        }
        return text
    }

    // MARK: What the values may come from

    /// Every text a list entry or a sentence's `set:` of the en-US grammar outputs.
    static let grammarOutputs: Set<String> = {
        let loader = GrammarLoader(catalog: .builtIn)
        let (name, chain) = try! loader.resolve("en-US")
        let settings = try! loader.settings(name: name, chain: chain)
        let definition = try! loader.load(settings: settings) { $0.split(separator: " ").map(String.init) }
        var out: Set<String> = ["ControlAudio"]
        for list in definition.lists.values {
            guard case let .values(entries, _) = list.kind else { continue }
            for case let .text(s)? in entries.map(\.value) { out.insert(s) }
        }
        for sentence in definition.sentences {
            for case let (_, .text(s)) in sentence.set { out.insert(s) }
        }
        return out
    }()

    /// The strings a vocabulary hit may report: user phrases and global identifiers.
    static let vocabularyValues: Set<String> = {
        let snapshot = parser.vocabulary.snapshot()
        var out = Set(VocabularyType.allCases.flatMap { snapshot.userPhrases(of: $0) })
        let global = try! GlobalVocabulary(contentsOfFile: Fixtures.corpusFolder.appendingPathComponent("vocabulary/global.plist").path)
        out.formUnion(global.items.map(\.identifier))
        return out
    }()

    static let quotes = CharacterSet(charactersIn: "\"'“”‘’«»„‚「」『』").union(.whitespacesAndNewlines)

    // MARK: The properties

    /// What is wrong with `r`, the result (or an alternative) of parsing `text`; empty when nothing is.
    static func violations(_ r: ParseResult, of text: String, top: Bool) -> [String] {
        var wrong: [String] = []
        let scalars = Array(text.unicodeScalars)
        if top {
            if r.utterance != text { wrong.append("utterance changed: \(String(reflecting: r.utterance))") }
            if r.locale != "en-US" { wrong.append("locale \(String(describing: r.locale))") }
            if scalars.count > MediaParser.maxScalars, r.error == nil || r.intent != nil {
                wrong.append("over \(MediaParser.maxScalars) scalars but no error")
            }
        }
        if let s = r.score, !(0...1).contains(s) { wrong.append("score \(s)") }
        if r.error != nil && r.intent != nil { wrong.append("error with an intent") }

        func covered(_ key: String) -> String? {
            guard let range = r.spans?[key], range.count == 2, 0 <= range[0], range[0] < range[1], range[1] <= scalars.count else {
                return nil
            }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[range[0]..<range[1]])
            return String(view)
        }
        for (key, range) in r.spans?.ranges ?? [] {
            if !(range.count == 2 && 0 <= range[0] && range[0] < range[1] && range[1] <= scalars.count) {
                wrong.append("span \(key) \(range) outside [0, \(scalars.count)]")
            }
        }

        // Names: the covered text, or the vocabulary entry that matched there.
        let names: [(key: String, spanKey: String, value: String?)] = [
            ("mediaName", "mediaName", r.mediaSearch?.mediaName), ("artistName", "artistName", r.mediaSearch?.artistName),
            ("albumName", "albumName", r.mediaSearch?.albumName),
            ("playlistName", "mediaDestination", r.mediaDestination?.library == nil ? r.mediaDestination?.playlistName : nil),
        ]
        for (key, spanKey, value) in names {
            guard let value else { continue }
            let said = covered(spanKey)
            if said == nil && r.spans?[spanKey] != nil { continue }  // already reported as outside
            let vocabulary = r.vocabulary?.filter { $0.field == key } ?? []
            if !vocabulary.isEmpty {
                if !vocabulary.contains(where: { ($0.identifier ?? $0.phrase) == value }) {
                    wrong.append("\(key) '\(value)' is not the vocabulary entry reported: \(vocabulary)")
                }
            } else if let said {
                if said.trimmingCharacters(in: quotes) != value && !grammarOutputs.contains(value) {
                    wrong.append("\(key) '\(value)' but its span covers '\(said)'")
                }
            } else if !grammarOutputs.contains(value) {
                wrong.append("\(key) '\(value)' has no span")
            }
        }

        // Every slot string: said, a vocabulary entry, or a grammar output.
        // Compared scalar by scalar: folding drops default-ignorable characters (ZWSP …), after which a word's
        // last letter and a following combining mark or emoji modifier make one Character.
        let folded = Array(matchingForm(text).unicodeScalars)
        func said(_ value: String) -> Bool { folded.containsSequence(Array(matchingForm(value).unicodeScalars)) }
        let present: [(String, String)] = ([("appName", r.appName), ("mediaType", r.mediaSearch?.mediaType?.rawValue),
                                            ("sortOrder", r.mediaSearch?.sortOrder?.rawValue), ("reference", r.mediaSearch?.reference?.rawValue),
                                            ("mediaIdentifier", r.mediaSearch?.mediaIdentifier), ("command", r.command?.rawValue),
                                            ("property", r.property?.rawValue), ("affinityType", r.affinityType?.rawValue),
                                            ("repeatMode", r.repeatMode?.rawValue), ("playbackRepeatMode", r.playbackRepeatMode?.rawValue),
                                            ("playbackQueueLocation", r.playbackQueueLocation?.rawValue)] as [(String, String?)])
            .compactMap { k, v in v.map { (k, $0) } }
        var strings = present
        strings += names.compactMap { n in n.value.map { (n.key, $0) } }
        strings += (r.mediaSearch?.genreNames ?? []).map { ("genreNames", $0) } + (r.mediaSearch?.moodNames ?? []).map { ("moodNames", $0) }
        if let p = r.mediaDestination?.playlistName { strings.append(("playlistName", p)) }
        for (key, value) in strings {
            if !said(value) && !grammarOutputs.contains(value) && !vocabularyValues.contains(value) {
                wrong.append("\(key) '\(value)' is neither in the utterance, nor a vocabulary entry, nor a grammar value")
            }
        }
        // List fields and the app: a value that is not a list's output is the words said, inside the span.
        var listed: [(String, String)] = (r.mediaSearch?.genreNames ?? []).map { ("genreNames", $0) }
        listed += (r.mediaSearch?.moodNames ?? []).map { ("moodNames", $0) }
        if let app = r.appName { listed.append(("appName", app)) }
        for (key, value) in listed where !grammarOutputs.contains(value) {
            guard let said = covered(key) else { wrong.append("\(key) '\(value)' has no span"); continue }
            if !Array(matchingForm(said).unicodeScalars).containsSequence(Array(matchingForm(value).unicodeScalars)) {
                wrong.append("\(key) '\(value)' but its span covers '\(said)'")
            }
        }
        for use in r.vocabulary ?? [] where !vocabularyValues.contains(use.identifier ?? use.phrase) {
            wrong.append("vocabulary use \(use) is not in the loaded vocabulary")
        }
        return wrong
    }

    /// Parses `text` with the options the generator picks and returns what is wrong.
    static func check<G: RandomNumberGenerator>(_ text: String, _ g: inout G) -> [String] {
        let alternatives = Int.random(in: 0..<4, using: &g) == 0 ? Int.random(in: 1...3, using: &g) : 0
        let explain = Int.random(in: 0..<4, using: &g) == 0
        let r = parser.parse(text, alternatives: alternatives, explain: explain)
        var wrong = violations(r, of: text, top: true)
        for a in r.alternatives ?? [] { wrong += violations(a, of: text, top: false).map { "alternative: \($0)" } }
        if (r.alternatives?.count ?? 0) > alternatives { wrong.append("\(r.alternatives!.count) alternatives, asked for \(alternatives)") }
        let line = r.jsonLine()
        if line.contains("\n") { wrong.append("the JSON line holds a line break") }
        if let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] {
            if object["utterance"] as? String != text { wrong.append("the JSON line does not give the utterance back") }
            if object["intent"] == nil { wrong.append("the JSON line has no intent") }
        } else {
            wrong.append("not a JSON object: \(line.prefix(200))")
        }
        return wrong
    }

    func run(_ name: String, seed: UInt64, _ make: (inout Generator) -> String) {
        var g = Generator(seed: seed)
        var failures = 0
        for i in 0..<Self.cases {
            let text = make(&g)
            let wrong = Self.check(text, &g)
            if !wrong.isEmpty {
                failures += 1
                if failures <= 10 {
                    XCTFail("\(name) case \(i) (seed \(seed)): \(String(reflecting: text)): \(wrong.joined(separator: "; "))")
                }
            }
        }
        XCTAssertEqual(failures, 0, "\(failures) of \(Self.cases) \(name) cases break a property")
    }

    func testRandomUnicode() {
        run("random Unicode", seed: Self.seed) { Self.randomString(&$0) }
    }

    func testRecombinedCorpusUtterances() {
        run("recombined corpus", seed: Self.seed &+ 1) { Self.recombined(&$0) }
    }

    /// The properties hold on the corpus itself (where most slots are filled), with alternatives.
    func testCorpusUtterances() {
        var g = Generator(seed: Self.seed &+ 2)
        var filled = 0
        for text in Fixtures.corpusUtterances {
            let r = Self.parser.parse(text, alternatives: 3)
            var wrong = Self.violations(r, of: text, top: true)
            for a in r.alternatives ?? [] { wrong += Self.violations(a, of: text, top: false).map { "alternative: \($0)" } }
            wrong += Self.check(text, &g)
            XCTAssertEqual(wrong, [], text)
            if r.spans != nil { filled += 1 }
        }
        XCTAssertGreaterThan(filled, Fixtures.corpusUtterances.count / 2, "most corpus utterances fill a slot")
    }

    /// The checks themselves catch what they are meant to.
    func testTheChecksFindBrokenResults() {
        let text = "play Khalid on Spotify"
        let good = Self.parser.parse(text)
        XCTAssertEqual(Self.violations(good, of: text, top: true), [])
        var outside = good
        outside.spans = Spans([("mediaName", [5, 40])])
        XCTAssertFalse(Self.violations(outside, of: text, top: true).isEmpty)
        var moved = good
        moved.spans = Spans([("mediaName", [0, 4])])
        XCTAssertFalse(Self.violations(moved, of: text, top: true).isEmpty)
        var invented = good
        invented.mediaSearch?.artistName = "Adele"
        XCTAssertFalse(Self.violations(invented, of: text, top: true).isEmpty)
    }
}

extension Array where Element: Equatable {
    /// Whether `part` occurs in this array as a contiguous run.
    func containsSequence(_ part: [Element]) -> Bool {
        guard part.count <= count else { return false }
        if part.isEmpty { return true }
        return (0...(count - part.count)).contains { i in self[i..<(i + part.count)].elementsEqual(part) }
    }
}
