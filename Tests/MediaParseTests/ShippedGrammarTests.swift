import Foundation
import MediaParseGrammars
import XCTest
@testable import MediaParse

/// The grammars compiled when the package builds (the CompileGrammars plugin): every built-in locale has
/// one, a parser finds it without being told, and it is the grammar a compile at run time gives.
final class ShippedGrammarTests: XCTestCase {
    private var shipped: URL {
        get throws { try XCTUnwrap(GrammarCache.shippedDirectory, "the compiled grammars are found beside the test binary") }
    }

    private let temporaries = TemporaryFolders()

    private func temporaryDirectory() throws -> URL { try temporaries.make("mediaparse-shipped") }

    override func tearDown() { temporaries.removeAll() }

    /// The library looks where SwiftPM puts the target's resources, with no help from the target itself.
    func testTheParserFindsTheFolderSwiftPMBuilt() throws {
        let resources = try XCTUnwrap(BuiltInGrammars.directory)
        XCTAssertEqual(try shipped.resolvingSymlinksInPath().standardizedFileURL.path,
                       resources.resolvingSymlinksInPath().standardizedFileURL.path)
    }

    /// Every locale starts from its compiled file: no parser created with the public initialiser compiles.
    func testNoBuiltInLocaleCompilesAtStart() throws {
        let locales = GrammarCatalog.builtIn.regionalLocales
        XCTAssertGreaterThanOrEqual(locales.count, 20)
        for locale in locales {
            XCTAssertTrue(FileManager.default.fileExists(atPath: try shipped.appendingPathComponent("\(locale).grammar").path), locale)
            MediaParser.forgetRecentGrammars()
            var compiled = false
            let parser = try MediaParser(locale: locale, cacheCompiledGrammar: false) { _ in compiled = true }
            XCTAssertFalse(compiled, "\(locale) compiled at start")
            XCTAssertEqual(parser.locale, locale)
            XCTAssertTrue(parser.grammar.automaton.wordKeys.readsInPlace, "\(locale): read where the file lies")
        }
        MediaParser.forgetRecentGrammars()
    }

    /// The file the build wrote is byte for byte what compiling at run time writes (same key, same body).
    func testTheShippedFileIsTheGrammarCompiledNow() throws {
        for locale in ["en-US", "ja-JP"] {
            let directory = try temporaryDirectory()
            let bytes = try MediaParser.compileBuiltIn(locale: locale, into: directory)
            let now = try Data(contentsOf: directory.appendingPathComponent("\(locale).grammar"))
            let built = try Data(contentsOf: try shipped.appendingPathComponent("\(locale).grammar"))
            XCTAssertEqual(now.count, bytes)
            XCTAssertTrue(now == built, "\(locale): the build's file differs from a compile now")
        }
    }

    /// A parser that reads its grammar takes the number words from it instead of asking ICU, and they are
    /// the words ICU gives now: numbers read the same either way.
    func testNumberWordsComeWithTheGrammarAndAreICUsOwn() throws {
        let said = ["en-US": ["twenty", "first", "hundred"], "de-DE": ["zwanzig", "dritten", "einhundert"],
                    "fr-FR": ["vingt", "troisieme", "cent"], "ja-JP": [], "zh-CN": []]
        for (locale, words) in said {
            MediaParser.forgetRecentGrammars()
            let parser = try MediaParser(locale: locale)
            let asked = try LanguageRuntime.load(locale: locale, catalog: .builtIn).runtime.numbers.spelled
            XCTAssertEqual(parser.grammar.numberWords, asked, "\(locale): the file's number words are not ICU's")
            XCTAssertEqual(parser.numbers.spelled, asked, locale)
            XCTAssertGreaterThan(asked.cardinal.count, 10, locale)
            for word in words { XCTAssertTrue(parser.numbers.numberWords.contains(word), "\(locale): \(word)") }
        }
        MediaParser.forgetRecentGrammars()
    }

    /// A compiled grammar keeps ICU's parses of the texts a start-up and the usual numbers ask about, and they
    /// are ICU's own: a fresh session, asked again, reads each kept text as the same number and each text kept
    /// as no number as none. Spellings said with spaces for ICU's hyphens are among them.
    func testICUsParsesOfNumbersComeWithTheGrammarAndAreICUsOwn() throws {
        let expected: [String: [String: Double]] = ["en-US": ["twenty-three": 23, "twenty three": 23, "ninety-ninth": 99],
                                                    "de-DE": ["dreiundzwanzig": 23], "zh-CN": ["二": 2, "二十三": 23],
                                                    "ja-JP": ["三": 3]]
        for (locale, values) in expected {
            MediaParser.forgetRecentGrammars()
            let parser = try MediaParser(locale: locale)
            let kept = parser.grammar.numberWords
            for (text, value) in values { XCTAssertEqual(kept.answers[text], value, "\(locale): \(text)") }
            let session = try ICUSession(locale: parser.profile.icuLocale)
            for (text, value) in kept.answers { XCTAssertEqual(session.parseSpelledNumber(text), value, "\(locale): \(text)") }
            for text in kept.notNumbers { XCTAssertNil(session.parseSpelledNumber(text), "\(locale): \(text)") }
        }
        // Chinese and Japanese ask about each digit character at start: their answers are all kept.
        MediaParser.forgetRecentGrammars()
        XCTAssertFalse(try MediaParser(locale: "zh-CN").grammar.numberWords.notNumbers.isEmpty)
        MediaParser.forgetRecentGrammars()
    }

    /// A Chinese grammar brings what the Traditional-Simplified transliterator makes of each Han character, and
    /// a session with that table answers as one that asks ICU: from the table for one character, from ICU
    /// (opened at first use) for any other text.
    func testTheTransliteratorsAnswersComeWithTheGrammar() throws {
        MediaParser.forgetRecentGrammars()
        let parser = try MediaParser(locale: "zh-TW")
        let table = try XCTUnwrap(parser.grammar.transformTable, "zh-TW's grammar holds its transliterator's answers")
        let asked = try LanguageRuntime.load(locale: "zh-TW", catalog: .builtIn).runtime.pool.withSession { TransformTable(session: $0) }
        XCTAssertEqual(table, asked)
        XCTAssertEqual(table.transformed("倫"), "伦")
        XCTAssertEqual(table.transformed("伦"), "伦", "a character the transform leaves alone")
        XCTAssertNil(table.transformed("周杰倫"), "several characters are ICU's to answer")
        XCTAssertNil(table.transformed("a"))
        let eager = try ICUSession(locale: "zh_TW", transform: "Traditional-Simplified")
        let late = try ICUSession(locale: "zh_TW", transform: "Traditional-Simplified", table: table)
        for text in ["倫", "這個", "周杰倫", "聽", "カラオケ", "\u{2000B}", "abc", "\u{F900}"] {
            XCTAssertEqual(Array(late.transformed(text).unicodeScalars), Array(eager.transformed(text).unicodeScalars), text)
        }
        XCTAssertEqual(parser.parse("播放周杰倫的歌").jsonLine(), try MediaParser(locale: "zh-TW", cache: GrammarCache(directory: nil)).parse("播放周杰倫的歌").jsonLine())
        XCTAssertNil(try MediaParser(locale: "en-US").grammar.transformTable, "no transform, no table")
        // A transform ICU does not know fails at once when opened at once; opened late, the text stays as it is.
        XCTAssertThrowsError(try ICUSession(locale: "zh_CN", transform: "No-Such-Transform"))
        XCTAssertEqual(try ICUSession(locale: "zh_CN", transform: "No-Such-Transform", table: table).transformed("周杰倫"), "周杰倫")
        MediaParser.forgetRecentGrammars()
    }

    /// A damaged file, or one of other grammar files (another key), is a miss and never a crash: the grammar
    /// is then compiled as if none had shipped.
    func testADamagedOrStaleFileIsAMiss() throws {
        let directory = try temporaryDirectory()
        let good = try Data(contentsOf: try shipped.appendingPathComponent("en-US.grammar"))
        let (runtime, _) = try LanguageRuntime.load(locale: "en-US", catalog: .builtIn)
        let settings = runtime.profile
        let key = GrammarCache.key(locale: "en-US", chain: settings.chain, catalog: .builtIn)
        let cache = GrammarCache(directory: nil, shipped: directory)
        let file = directory.appendingPathComponent("en-US.grammar")

        try good.write(to: file)
        XCTAssertNotNil(cache.load(key, settings: settings), "a good copy reads")
        XCTAssertNil(cache.load(key ^ 1, settings: settings), "the file of another grammar is not read for this one")

        var damaged = good
        damaged[damaged.count / 2] ^= 0x5A
        try damaged.write(to: file)
        XCTAssertNil(cache.load(key, settings: settings), "one byte changed")
        try good.prefix(good.count / 3).write(to: file)
        XCTAssertNil(cache.load(key, settings: settings), "cut short")

        // A parser over a stale folder compiles, and parses as one over the good file.
        var compiled = false
        MediaParser.forgetRecentGrammars()
        let fallback = try MediaParser(locale: "en-US", cache: GrammarCache(directory: nil, shipped: directory)) { _ in compiled = true }
        XCTAssertTrue(compiled)
        try good.write(to: file)
        let fromFile = try MediaParser(locale: "en-US", cache: GrammarCache(directory: nil, shipped: directory))
        for text in ["play the newest episode of Stuff You Should Know at double speed", "kitchen speaker, stop", "skip ahead 30 seconds"] {
            XCTAssertEqual(fromFile.parse(text).jsonLine(), fallback.parse(text).jsonLine(), text)
        }
    }
}
