import Foundation
import MediaParse
import XCTest

/// Grammar files: errors that name file, line and column; a new locale made of files only; fallback.
final class GrammarTests: XCTestCase {
    /// A catalog with one locale folder `xx` holding `files`.
    func catalog(_ files: [String: String], folder: String = "xx") -> GrammarCatalog {
        var c = GrammarCatalog()
        c.add(folder: folder, path: "locale.yaml", text: "icu_locale: en_US\n")
        for (path, text) in files { c.add(folder: folder, path: path, text: text) }
        return c
    }

    func grammarError(_ files: [String: String], file: StaticString = #filePath, line: UInt = #line) -> GrammarError? {
        do {
            _ = try MediaParser(locale: "xx", catalog: catalog(files))
            XCTFail("expected a grammar error", file: file, line: line)
        } catch let error as GrammarError {
            return error
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
        }
        return nil
    }

    func testAOneFormListValueIsItsWordsWithoutBrackets() throws {
        let parser = try MediaParser(locale: "xx", catalog: catalog(["a.yaml": """
            intents:
              INPlayMediaIntent:
                data:
                  - sentences:
                      - "play some {genre:genreNames}"
            lists:
              genre:
                values:
                  - "(Hip Hop)"
                  - {in: "( [ Drum ] and Bass )"}
                  - {in: "(rap|hip hop)"}
            """]), cacheCompiledGrammar: false)
        XCTAssertEqual(parser.parse("play some hip hop").mediaSearch?.genreNames, ["Hip Hop"])
        // An optional word makes two forms: the value is then what was said.
        XCTAssertEqual(parser.parse("play some Drum and Bass").mediaSearch?.genreNames, ["Drum and Bass"])
        XCTAssertEqual(parser.parse("play some rap").mediaSearch?.genreNames, ["rap"])
    }

    func testAFreeTextListTakesNoFewerWordsThanItsMinimum() throws {
        // "play X song": with min_words 2, a one-word X is not a title before "song" (the whole is the name).
        let files = ["a.yaml": """
            intents:
              INPlayMediaIntent:
                data:
                  - sentences:
                      - "play {title:mediaName} song"
                      - "play {name:mediaName}"
            lists:
              title: {wildcard: true, max_words: 6, min_words: 2}
              name: {wildcard: true}
            """]
        let parser = try MediaParser(locale: "xx", catalog: catalog(files), cacheCompiledGrammar: false)
        XCTAssertEqual(parser.parse("play little apple song").mediaSearch?.mediaName, "little apple")
        XCTAssertEqual(parser.parse("play hero song").mediaSearch?.mediaName, "hero song")
        let wrong = grammarError(["a.yaml": files["a.yaml"]!.replacingOccurrences(of: "min_words: 2", with: "min_words: 7")])
        XCTAssertEqual(wrong?.location.file, "xx/a.yaml")
        XCTAssertTrue(wrong?.message.contains("min_words") == true, "\(String(describing: wrong))")
    }

    func testTwoFreeTextsSideBySideAreCutWhereTheSpeakerPaused() throws {
        let parser = try MediaParser(locale: "xx", catalog: catalog(["a.yaml": """
            intents:
              INPlayMediaIntent:
                data:
                  - sentences:
                      - "play {name:mediaName} {name:artistName}"
            lists:
              name: {wildcard: true}
            """]), cacheCompiledGrammar: false)
        // With no pause, the first free text runs longest; a comma moves the cut.
        XCTAssertEqual(parser.parse("play one two three").mediaSearch?.artistName, "three")
        XCTAssertEqual(parser.parse("play one, two three").mediaSearch?.artistName, "two three")
        XCTAssertEqual(parser.parse("play one, two three").mediaSearch?.mediaName, "one")
        XCTAssertEqual(parser.parse("play one two; three").mediaSearch?.mediaName, "one two")
    }

    func testBrokenYAMLNamesLineAndColumn() {
        let e = grammarError(["a.yaml": "intents:\n  INPlayMediaIntent:\n    data: [\n"])
        XCTAssertEqual(e?.location.file, "xx/a.yaml")
        XCTAssertNotNil(e?.location.line)
        XCTAssertNotNil(e?.location.column)
    }

    func testUnknownRuleIsReportedWhereItIsUsed() {
        let text = """
        intents:
          INPlayMediaIntent:
            data:
              - sentences:
                  - "play <nothing_here>"
        """
        let e = grammarError(["a.yaml": text])
        XCTAssertEqual(e?.location.line, 5)
        XCTAssertEqual(e?.location.column, 19)  // the '<' inside the quotes
        XCTAssertTrue(e?.message.contains("unknown rule <nothing_here>") ?? false, e?.message ?? "")
    }

    func testRuleThatRefersToItself() {
        let text = """
        expansion_rules:
          a: "x <b>"
          b: "y <a>"
        intents:
          INPlayMediaIntent:
            data:
              - sentences: ["play <a>"]
        """
        let e = grammarError(["a.yaml": text])
        XCTAssertTrue(e?.message.contains("refers to itself") ?? false, e?.message ?? "")
        XCTAssertTrue(e?.message.contains("<a> -> <b> -> <a>") ?? false, e?.message ?? "")
    }

    func testSlotBoundToNothing() {
        let e = grammarError(["a.yaml": "intents:\n  INPlayMediaIntent:\n    data:\n      - sentences: [\"play {nowhere:mediaName}\"]\n"])
        XCTAssertTrue(e?.message.contains("unknown list {nowhere}") ?? false, e?.message ?? "")
        XCTAssertEqual(e?.location.line, 4)
    }

    func testSlotThatIsNoField() {
        let text = "lists:\n  n: {wildcard: true}\nintents:\n  INPlayMediaIntent:\n    data:\n      - sentences: [\"play {n:song}\"]\n"
        let e = grammarError(["a.yaml": text])
        XCTAssertTrue(e?.message.contains("unknown slot 'song'") ?? false, e?.message ?? "")
    }

    func testRepeatingWhatCanBeEmpty() {
        let e = grammarError(["a.yaml": "intents:\n  INPlayMediaIntent:\n    data:\n      - sentences: [\"play [x]*\"]\n"])
        XCTAssertTrue(e?.message.contains("can match no words") ?? false, e?.message ?? "")
    }

    func testValueOfTheWrongKindForAField() {
        let text = "lists:\n  s: {values: [{in: fast, out: quick}]}\nintents:\n  INPlayMediaIntent:\n    data:\n      - sentences: [\"play {s:playbackSpeed}\"]\n"
        let e = grammarError(["a.yaml": text])
        XCTAssertEqual(e?.location.line, 2)
        let text2 = "intents:\n  INPlayMediaIntent:\n    data:\n      - sentences: [\"play\"]\n        set: {sortOrder: loudest}\n"
        let e2 = grammarError(["a.yaml": text2])
        XCTAssertTrue(e2?.message.contains("not a value of sortOrder") ?? false, e2?.message ?? "")
    }

    /// JSON has no infinity: a grammar cannot set one (it would make every result of the sentence unencodable).
    func testInfiniteNumbersAreRefused() {
        for value in ["inf", ".nan", "1e999"] {
            let text = "intents:\n  MPRemoteCommand:\n    data:\n      - sentences: [\"faster\"]\n        set: {command: changePlaybackRate, playbackRate: \(value)}\n"
            let e = grammarError(["a.yaml": text])
            XCTAssertEqual(e?.location.line, 5, value)
        }
    }

    func testUnknownKeyAndUnbalancedBracket() {
        XCTAssertTrue(grammarError(["a.yaml": "intentz: {}\n"])?.message.contains("unknown key 'intentz'") ?? false)
        let e = grammarError(["a.yaml": "intents:\n  INPlayMediaIntent:\n    data:\n      - sentences: [\"play (a|b\"]\n"])
        XCTAssertTrue(e?.message.contains("missing ')'") ?? false, e?.message ?? "")
    }

    func testDuplicateListInOneLocale() {
        let e = grammarError(["a.yaml": "lists:\n  g: {values: [x]}\n", "b.yaml": "lists:\n  g: {values: [y]}\n"])
        XCTAssertTrue(e?.message.contains("already defined at xx/a.yaml:2") ?? false, e?.message ?? "")
    }

    func testUnsupportedLocale() {
        XCTAssertThrowsError(try MediaParser(locale: "tlh-KX")) { error in
            XCTAssertTrue(error is UnsupportedLocaleError)
        }
    }

    /// A new language is files, not code: a few German templates in a temporary folder (under a private
    /// language name, so that the built-in German grammar does not mix in).
    func testASecondLocaleFromATemporaryFolder() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mediaparse-de-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("qde"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
        default_region: DE
        icu_locale: de_DE
        numbers:
          decade: {glued: ["{words}er"]}
        """.write(to: dir.appendingPathComponent("qde/locale.yaml"), atomically: true, encoding: .utf8)
        try """
        intents:
          INPlayMediaIntent:
            data:
              - sentences:
                  - "(spiel|spiele|spielt) [(das|den|die)] {typ:mediaType} {name:mediaName} [von {name:artistName}]"
                  - "(spiel|spiele) [etwas] [(aus den|der)] {decade:releaseDate} {genre:genreNames}"
        lists:
          name: {wildcard: true}
          typ:
            values:
              - {in: (lied|song|titel), out: song}
              - {in: album, out: album}
          genre:
            values: [rock, jazz, schlager]
        """.write(to: dir.appendingPathComponent("qde/play.yaml"), atomically: true, encoding: .utf8)

        var catalog = GrammarCatalog.builtIn
        try catalog.overlay(directory: dir.path)
        let parser = try MediaParser(locale: "qde", catalog: catalog)
        XCTAssertEqual(parser.locale, "qde-DE")

        let r = parser.parse("Spiel das Lied Über den Wolken von Reinhard Mey")
        XCTAssertEqual(r.intent, .play)
        XCTAssertEqual(r.mediaSearch?.mediaType, .song)
        XCTAssertEqual(r.mediaSearch?.mediaName, "Über den Wolken")
        XCTAssertEqual(r.mediaSearch?.artistName, "Reinhard Mey")

        let d = parser.parse("spiele etwas aus den Siebziger Schlager")
        XCTAssertEqual(d.mediaSearch?.releaseDate, DateRange(start: "1970-01-01", end: "1979-12-31"))
        XCTAssertEqual(d.mediaSearch?.genreNames, ["schlager"])
        XCTAssertNil(parser.parse("wie wird das Wetter").intent)
    }

    func testRegionalEnglishFallsBackToEnglish() throws {
        for (requested, reported) in [("en_GB", "en-GB"), ("en-AU", "en-AU"), ("en", "en-US"), ("EN-ca", "en-CA")] {
            let parser = try MediaParser(locale: requested)
            XCTAssertEqual(parser.locale, reported)
            XCTAssertEqual(parser.parse("play Khalid").mediaSearch?.mediaName, "Khalid")
        }
    }

    func testGrammarsOverlayReplacesAFileOfTheSamePath() throws {
        var catalog = GrammarCatalog.builtIn
        // A search.yaml that keeps the rules other files use, but no search sentences.
        catalog.add(folder: "en", path: "search.yaml", text: "expansion_rules: {search_start: find, search_verb: find}\n")
        let parser = try MediaParser(locale: "en-US", catalog: catalog)
        XCTAssertNil(parser.parse("search for Khalid").intent)
        XCTAssertEqual(parser.parse("play Khalid").intent, .play)
    }
}
