@testable import MediaParse
import XCTest

/// The locale layer: a language is a `locale.yaml`, and the built-in recognisers read its numbers, ordinals,
/// decades, durations, speeds and percentages with no Swift of its own. Each test language here is a small
/// in-memory folder (a `locale.yaml` and one sentence), independent of the grammars under Grammars/, so the
/// mechanism is tested, not a particular grammar.
final class LocaleLayerTests: XCTestCase {
    static let locales: [String: String] = [
        "tde": """
            icu_locale: de_DE
            articles: [der, die, das]
            numbers:
              decimal_separators: [","]
              fractions: {anderthalb: 1.5, eineinhalb: 1.5, halb: 0.5}
              articles_as_one: [ein, eine, einen]
              duration_units: {sekunde: 1, sekunden: 1, minute: 60, minuten: 60}
              ordinal: {glued: ["{digits}."]}
              decade: {glued: ["{number}er", "{number}erjahre"], phrases: ["{decade} jahre"]}
              speed: {glued: ["{number}fach"], phrases: ["{number} fach"]}
              percent: {glued: ["{number}%"], phrases: ["{number} prozent"]}
            """,
        "tfr": """
            icu_locale: fr_FR
            split_prefixes: ["l'", "d'"]
            numbers:
              number_aliases: {"quatre vingt": "quatre vingts"}
              fractions: {"et demie": 0.5, "et demi": 0.5}
              articles_as_one: [une, un]
              duration_units: {seconde: 1, secondes: 1, minute: 60, minutes: 60}
              ordinal: {glued: ["{digits}e", "{digits}eme", "{digits}er"]}
              decade: {phrases: ["annees {number}"]}
              speed: {glued: ["x{number}", "{number}x"], phrases: ["x {number}"]}
            """,
        "tes": """
            icu_locale: es_ES
            numbers:
              fractions: {"y medio": 0.5, "y media": 0.5}
              articles_as_one: [un, una]
              duration_units: {segundo: 1, segundos: 1, minuto: 60, minutos: 60}
              ordinal: {glued: ["{digits}º", "{digits}ª"]}
              decade: {phrases: ["anos {number}"]}
            """,
        "tit": """
            icu_locale: it_IT
            numbers:
              fractions: {"e mezzo": 0.5, "e mezza": 0.5}
              articles_as_one: [un, uno, una]
              duration_units: {secondo: 1, secondi: 1, minuto: 60, minuti: 60}
              ordinal: {glued: ["{digits}°"]}
              decade: {phrases: ["anni {number}"]}
            """,
        "tzh": """
            icu_locale: zh_CN
            character_words: true
            numbers:
              number_aliases: {两: 二}
              fractions: {半: 0.5}
              duration_units: {秒: 1, 秒钟: 1, 分钟: 60, 分: 60}
              ordinal: {phrases: ["第 {number}"]}
              decade: {phrases: ["{number} 年代"]}
              speed: {phrases: ["{number} 倍 [速]"]}
            """,
        "tja": """
            icu_locale: ja_JP
            character_words: true
            numbers:
              fractions: {半: 0.5}
              duration_units: {秒: 1, 分: 60}
              ordinal: {phrases: ["{number} 番目", "第 {number}"]}
              decade: {phrases: ["{number} 年代"]}
              speed: {phrases: ["{number} 倍 [速]"]}
            """,
        "tzh-TW": """
            fallback: tzh
            icu_locale: zh_TW
            transform: Traditional-Simplified
            """,
    ]

    static let parsers: [String: MediaParser] = {
        var catalog = GrammarCatalog()
        for (folder, text) in locales {
            catalog.add(folder: folder, path: "locale.yaml", text: text)
            catalog.add(folder: folder, path: "g.yaml", text: """
                intents: {INPlayMediaIntent: {data: [{sentences: ["{name:mediaName}"]}]}}
                lists: {name: {wildcard: true, max_words: 30}}
                """)
        }
        var out: [String: MediaParser] = [:]
        for folder in locales.keys { out[folder] = try! MediaParser(locale: folder, catalog: catalog, cacheCompiledGrammar: false) }
        return out
    }()

    /// Asserts that `text` is read wholly as one `kind` with `value` (a year or decade: its first year).
    func assertReads(_ locale: String, _ text: String, _ kind: String, _ value: Double?, file: StaticString = #filePath, line: UInt = #line) {
        let read = Self.parsers[locale]!.recognize(text)
        let whole = read.entities.filter { $0.kind == kind && $0.tokens == 0..<read.tokenCount }
        if let value {
            XCTAssertTrue(whole.contains { abs(($0.number ?? .nan) - value) < 1e-9 },
                          "\(locale) \"\(text)\": expected \(kind) \(value), read \(read.entities.map { "\($0.kind) \($0.number ?? .nan) \"\($0.text)\"" })",
                          file: file, line: line)
        } else {
            XCTAssertTrue(whole.isEmpty, "\(locale) \"\(text)\": expected no \(kind), read \(whole)", file: file, line: line)
        }
    }

    func testCardinalsInEveryLanguageThroughICU() {
        assertReads("tde", "einundachtzig", "number", 81)
        assertReads("tde", "fünfundachtzig", "number", 85)
        assertReads("tde", "dreißig", "number", 30)
        assertReads("tfr", "quatre-vingt-dix", "number", 90)
        assertReads("tes", "ochenta y uno", "number", 81)
        assertReads("tit", "ottantuno", "number", 81)
        assertReads("tzh", "八十一", "number", 81)
        assertReads("tzh", "二十", "number", 20)
        assertReads("tzh", "一点五", "number", 1.5)
        assertReads("tzh", "两", "number", 2)
        assertReads("tja", "三十", "number", 30)
        assertReads("tde", "1,5", "number", 1.5)
        assertReads("tde", "３０", "number", 30)
    }

    func testOrdinalsInWordsAndDigitsInEveryGender() {
        for text in ["dritte", "dritten", "dritter", "3."] { assertReads("tde", text, "ordinal", 3) }
        for text in ["troisième", "troisieme", "3e"] { assertReads("tfr", text, "ordinal", 3) }
        assertReads("tfr", "dix-septième", "ordinal", 17)
        for text in ["tercera", "tercero", "3º", "3ª"] { assertReads("tes", text, "ordinal", 3) }
        for text in ["terzo", "terza", "3°"] { assertReads("tit", text, "ordinal", 3) }
        assertReads("tzh", "第三十", "ordinal", 30)
        assertReads("tzh", "第30", "ordinal", 30)
        assertReads("tja", "三番目", "ordinal", 3)
        // "三十" is thirty, not an ordinal; "3" alone is no ordinal.
        assertReads("tzh", "三十", "ordinal", nil)
        assertReads("tde", "3", "ordinal", nil)
    }

    func testDecadesOfSeveralWords() {
        for text in ["Achtziger", "80er", "Achtzigerjahre", "80er Jahre", "80er-Jahre"] { assertReads("tde", text, "decade", 1980) }
        assertReads("tde", "Zwanziger", "decade", 1920)
        for text in ["années 80", "années quatre-vingt"] { assertReads("tfr", text, "decade", 1980) }
        for text in ["años ochenta", "años 80"] { assertReads("tes", text, "decade", 1980) }
        assertReads("tit", "anni ottanta", "decade", 1980)
        for text in ["八十年代", "８０年代", "80年代"] { assertReads("tzh", text, "decade", 1980) }
        assertReads("tja", "80年代", "decade", 1980)
        assertReads("tde", "85er", "decade", nil)
    }

    func testDurationsWithFractions() {
        assertReads("tde", "anderthalb Minuten", "duration", 90)
        assertReads("tde", "eine Minute", "duration", 60)
        assertReads("tfr", "une minute et demie", "duration", 90)
        assertReads("tes", "un minuto y medio", "duration", 90)
        assertReads("tit", "un minuto e mezzo", "duration", 90)
        assertReads("tzh", "一分半钟", "duration", 90)
        assertReads("tzh", "三十秒", "duration", 30)
        assertReads("tja", "1分半", "duration", 90)
    }

    func testSpeedsAndPercentages() {
        assertReads("tde", "1,5-fach", "speed", 1.5)
        assertReads("tde", "zweifach", "speed", 2)
        assertReads("tfr", "x1,5", "speed", 1.5)
        assertReads("tzh", "一点五倍", "speed", 1.5)
        assertReads("tzh", "两倍速", "speed", 2)
        assertReads("tja", "2倍速", "speed", 2)
        assertReads("tde", "40 Prozent", "percent", 40)
        assertReads("tde", "40%", "percent", 40)
    }

    /// Character words: a name is found whatever ICU's dictionary does with it, spans in the original text;
    /// a Traditional utterance matches the Simplified grammar and reports its own characters.
    func testCharacterWordsAndTransform() {
        let r = Self.parsers["tzh"]!.parse("周杰伦的歌")
        XCTAssertEqual(r.mediaSearch?.mediaName, "周杰伦的歌")
        XCTAssertEqual(r.spans?["mediaName"], [0, 5])
        XCTAssertEqual(Self.parsers["tzh"]!.recognize("播放周杰伦").tokenCount, 5)
        let t = Self.parsers["tzh-TW"]!
        XCTAssertEqual(t.recognize("八十年代").entities.first { $0.kind == "decade" }?.number, 1980)
        XCTAssertEqual(t.parse("周杰倫").mediaSearch?.mediaName, "周杰倫")
    }

    func testAWrongTransformIsAFileError() {
        var catalog = GrammarCatalog()
        catalog.add(folder: "bad", path: "locale.yaml", text: "icu_locale: en_US\ntransform: No-Such-Transform\n")
        catalog.add(folder: "bad", path: "g.yaml", text: "intents: {INPlayMediaIntent: {data: [{sentences: [\"play\"]}]}}\n")
        XCTAssertThrowsError(try MediaParser(locale: "bad", catalog: catalog, cacheCompiledGrammar: false)) { error in
            XCTAssertTrue(error is GrammarError, "\(error)")
            XCTAssertTrue("\(error)".contains("locale.yaml:2"), "\(error)")
        }
    }

    /// A catalogue of one locale whose `locale.yaml` holds `relativeYears` under `numbers:`, and a grammar
    /// that reads a release date after "play".
    static func relativeYearCatalog(_ relativeYears: String) -> GrammarCatalog {
        var catalog = GrammarCatalog()
        catalog.add(folder: "try", path: "locale.yaml", text: "icu_locale: en_US\nnumbers:\n  relative_years:\n" + relativeYears)
        catalog.add(folder: "try", path: "g.yaml", text: """
            intents: {INPlayMediaIntent: {data: [{sentences: ["play [songs] [from] {release_date:releaseDate}", "play {name:mediaName}"]}]}}
            lists: {name: {wildcard: true}}
            """)
        return catalog
    }

    func testYearsCountedFromTheReferenceDay() throws {
        let catalog = Self.relativeYearCatalog("""
                "last year": -1
                "this year": 0
                "{number} years ago": -1
                "the (last|past) {number} years": [-1, 0]
            """)
        let june2026 = Date(timeIntervalSince1970: 1_781_524_800)  // 2026-06-15 12:00 UTC
        let p = try MediaParser(locale: "try", catalog: catalog, referenceDate: june2026)
        func range(_ text: String) -> String? {
            p.parse(text).mediaSearch?.releaseDate.map { "\($0.start)…\($0.end)" }
        }
        XCTAssertEqual(range("play songs from last year"), "2025-01-01…2025-12-31")
        XCTAssertEqual(range("play this year"), "2026-01-01…2026-12-31")
        XCTAssertEqual(range("play songs from three years ago"), "2023-01-01…2023-12-31")
        XCTAssertEqual(range("play songs from 3 years ago"), "2023-01-01…2023-12-31")
        // A range is counted for each of its number: from five years back to this one.
        XCTAssertEqual(range("play from the past five years"), "2021-01-01…2026-12-31")
        // Another day, another year: the phrase is not frozen into the grammar.
        let p2030 = try MediaParser(locale: "try", catalog: catalog, referenceDate: june2026.addingTimeInterval(4 * 365.25 * 86_400))
        XCTAssertEqual(p2030.parse("play songs from last year").mediaSearch?.releaseDate?.start, "2029-01-01")
        // Words that are not the phrase stay a name.
        XCTAssertEqual(p.parse("play last summer").mediaSearch?.mediaName, "last summer")
        // Without a reference day the parser counts from today.
        let now = try MediaParser(locale: "try", catalog: catalog)
        let thisYear = Calendar(identifier: .gregorian).component(.year, from: Date())
        XCTAssertEqual(now.parse("play this year").mediaSearch?.releaseDate?.start, String(format: "%04d-01-01", thisYear))
    }

    func testAWrongRelativeYearIsAFileError() {
        for (bad, line) in [("    \"last year\": 1.5\n", 4), ("    \"the last {number} years\": [0, -1]\n", 4),
                            ("    \"{number} {number} years\": -1\n", 4), ("    \"{number}\": -1\n", 4)] {
            XCTAssertThrowsError(try MediaParser(locale: "try", catalog: Self.relativeYearCatalog(bad)), bad) { error in
                XCTAssertTrue(error is GrammarError, "\(error)")
                XCTAssertTrue("\(error)".contains("locale.yaml:\(line)"), "\(bad): \(error)")
            }
        }
    }
}
