import Foundation
@testable import MediaParse
import MediaParseTools
import XCTest

/// The general mechanisms of issue 24, each on a grammar of a few lines: the modifier layer, optional
/// endings inside a word, ranking that knows the grammar's own words, names that keep a capitalised word,
/// the table of request kinds, and the grammar linter.
final class MechanismTests: XCTestCase {
    func catalog(_ files: [String: String], folder: String = "xx", icuLocale: String = "en_US") -> GrammarCatalog {
        var c = GrammarCatalog()
        c.add(folder: folder, path: "locale.yaml", text: "icu_locale: \(icuLocale)\n")
        for (path, text) in files { c.add(folder: folder, path: path, text: text) }
        return c
    }

    func parser(_ yaml: String) throws -> MediaParser {
        try MediaParser(locale: "xx", catalog: catalog(["a.yaml": yaml]), cacheCompiledGrammar: false)
    }

    static let commands = """
        intents:
          MPRemoteCommand:
            data:
              - sentences: ["(stop|pause)"]
                set: {command: pause}
              - sentences: ["next (song|track)"]
                set: {command: nextTrack}
          INPlayMediaIntent:
            data:
              - sentences: ["play {name:mediaName}"]
        lists:
          name: {wildcard: true}
          room:
            values: [kitchen, living room, bedroom]
        expansion_rules:
          polite: "(please|for me)"
        """

    /// `exclude_alone`: a word a free text may hold, but not with nothing else ("Frank Ocean" is an artist,
    /// "the ocean" is the end of a title); `exclude`: a word it may never hold.
    func testFreeTextMayHoldAWordItMayNotBeAlone() throws {
        let p = try parser("""
            intents:
              INPlayMediaIntent:
                data:
                  - sentences: ["play {name:mediaName} by {artist:artistName}", "play {name:mediaName}"]
            lists:
              name: {wildcard: true}
              artist:
                wildcard: true
                exclude: [band]
                exclude_alone: [ocean, the, sea]
            """)
        XCTAssertEqual(p.parse("play nights by frank ocean").mediaSearch?.artistName, "frank ocean")
        XCTAssertEqual(p.parse("play nights by the ocean").mediaSearch?.artistName, nil)
        XCTAssertEqual(p.parse("play nights by the ocean").mediaSearch?.mediaName, "nights by the ocean")
        XCTAssertEqual(p.parse("play songs by the sea").mediaSearch?.mediaName, "songs by the sea")
        XCTAssertEqual(p.parse("play waves by the ocean band").mediaSearch?.artistName, nil)
        XCTAssertEqual(p.parse("play waves by the oceans").mediaSearch?.artistName, "the oceans")
    }

    /// The shared folder `mul/` starts every chain; a language's list with `extends: true` adds to the
    /// shared list of that name, its own entry winning where both say the same words.
    func testAListExtendsTheSharedListOfItsName() throws {
        var c = catalog(["a.yaml": """
            intents:
              INPlayMediaIntent:
                data:
                  - sentences: ["play {name:mediaName} on {app:appName}", "play {name:mediaName}"]
            lists:
              name: {wildcard: true}
              app:
                extends: true
                values:
                  - {in: "(deezer|dizer)", out: "Deezer FR"}
            """])
        c.add(folder: "mul", path: "lists/apps.yaml", text: """
            lists:
              app:
                values:
                  - {in: "(spotify)", out: "Spotify"}
                  - {in: "(deezer)", out: "Deezer"}
            """)
        let p = try MediaParser(locale: "xx", catalog: c, cacheCompiledGrammar: false)
        XCTAssertEqual(p.parse("play jazz on spotify").appName, "Spotify")
        XCTAssertEqual(p.parse("play jazz on dizer").appName, "Deezer FR")
        XCTAssertEqual(p.parse("play jazz on deezer").appName, "Deezer FR")
        XCTAssertThrowsError(try MediaParser(locale: "mul", catalog: c, cacheCompiledGrammar: false))

        // Without the shared list there is nothing to extend: the file is named.
        let alone = catalog(["a.yaml": "lists:\n  app:\n    extends: true\n    values: [spotify]\n"])
        XCTAssertThrowsError(try MediaParser(locale: "xx", catalog: alone, cacheCompiledGrammar: false)) { error in
            XCTAssertTrue("\(error)".contains("xx/a.yaml"), "\(error)")
            XCTAssertTrue("\(error)".contains("extends"), "\(error)")
        }
    }

    func testModifiersStandBeforeAndAfterAnySentence() throws {
        let p = try parser(Self.commands + """

            modifiers:
              before:
                - "[in] [the] {room:area} [speaker]"
                - "hey"
              after:
                - "in the {room:area}"
                - "<polite>"
            """)
        for text in ["kitchen speaker stop", "in the kitchen next song", "hey kitchen pause", "stop in the kitchen please"] {
            let r = p.parse(text)
            XCTAssertEqual(r.intent, .remoteCommand, text)
            XCTAssertEqual(r.target?.area, "kitchen", text)
        }
        XCTAssertEqual(p.parse("next song please").command, .nextTrack)
        XCTAssertNil(p.parse("next song please").target)
        // Modifiers alone are no request.
        XCTAssertNil(p.parse("hey kitchen").intent)
        // A modifier's words explain more than free text: the room is not part of the title.
        let play = p.parse("play Hello in the bedroom")
        XCTAssertEqual(play.mediaSearch?.mediaName, "Hello")
        XCTAssertEqual(play.target?.area, "bedroom")
        // A field may still be filled once only: two rooms make no reading with both.
        XCTAssertNotEqual(p.parse("kitchen stop in the bedroom").target?.area, "kitchen bedroom")
    }

    func testWithoutModifiersTheSameSentencesNeedTheWholeUtterance() throws {
        let p = try parser(Self.commands)
        XCTAssertNil(p.parse("kitchen speaker stop").intent)
        XCTAssertEqual(p.parse("stop").command, .pause)
    }

    func testAModifierThatCanSayNothingIsAnErrorAtItsLine() {
        let yaml = Self.commands + "\nmodifiers:\n  before:\n    - \"[hey]\"\n"
        XCTAssertThrowsError(try parser(yaml)) { error in
            guard let e = error as? GrammarError else { return XCTFail("\(error)") }
            XCTAssertEqual(e.location.file, "xx/a.yaml")
            XCTAssertEqual(e.location.line, yaml.split(separator: "\n", omittingEmptySubsequences: false).count - 1)
            XCTAssert(e.message.contains("at least one word"), e.message)
        }
    }

    func testOptionalEndingsInsideAWord() throws {
        XCTAssertEqual(InWordGroups.expand("pausiere[n] bitte"), "(pausiere|pausieren) bitte")
        XCTAssertEqual(InWordGroups.expand("nächste(n|s|r|) Titel"), "(nächsten|nächstes|nächster|nächste) Titel")
        XCTAssertEqual(InWordGroups.expand("[ge]spielt"), "(spielt|gespielt)")
        // Template syntax apart from words is left alone.
        for text in ["[the] (a|b) {list} <rule>", "play [the] song", "i'd (like|love) to", "暂停[一下]", "播放(歌曲|音乐)"] {
            XCTAssertEqual(InWordGroups.expand(text), text)
        }
        let p = try parser("""
            intents:
              MPRemoteCommand:
                data:
                  - sentences: ["pausiere[n] [bitte]", "halt[e] (an|)"]
                    set: {command: pause}
            """)
        for text in ["pausiere", "pausieren bitte", "halte an", "halt"] { XCTAssertEqual(p.parse(text).command, .pause, text) }
        XCTAssertNil(p.parse("pausierenn").intent)
    }

    func testTheGrammarsOwnWordsAreReadOffTheCompiledGrammar() throws {
        let p = try parser("""
            intents:
              INPlayMediaIntent:
                data:
                  - sentences: ["play {name:mediaName} by {name:artistName}", "play some {genre:genreNames}"]
              NotMedia:
                data:
                  - sentences: ["play chess {name:_rest}"]
            lists:
              name: {wildcard: true}
              genre:
                values: [jazz, blues]
            """)
        let g = p.grammar
        func weight(_ word: String) -> UInt8 { g.wordIDs[WordKey(word)].map { g.phrasingWeight[Int($0)] } ?? 0 }
        XCTAssertEqual(weight("by"), 2)      // a template word of a media sentence
        XCTAssertEqual(weight("some"), 2)
        XCTAssertEqual(weight("chess"), 2)   // a NotMedia template word
        XCTAssertEqual(weight("jazz"), 0)    // data
        XCTAssert(g.phrasingWordIDs.contains(g.wordIDs["by"]!))
        XCTAssertFalse(g.phrasingWordIDs.contains(g.wordIDs["chess"]!))
        XCTAssert(g.notMediaWordIDs.contains(g.wordIDs["chess"]!))
    }

    /// The examples on the built-in English grammar: a title and an artist made of words of another
    /// request, and the near-miss that must stay not media.
    func testTitlesThatLookLikeOtherRequestsOnTheEnglishGrammar() throws {
        let p = try MediaParser(locale: "en-US")
        for (text, title, artist) in [("play Chess by Sting", "Chess", "Sting"), ("play go fish by the lumineers", "go fish", "lumineers")] {
            let r = p.parse(text)
            XCTAssertEqual(r.intent, .play, text)
            XCTAssertEqual(r.mediaSearch?.mediaName, title, text)
            XCTAssertEqual(r.mediaSearch?.artistName, artist, text)
        }
        XCTAssertNil(p.parse("add this photo to my vacation album").intent)
        XCTAssertNil(p.parse("play chess with me").intent)
    }

    func testACapitalisedWordBeforeANameStaysInIt() throws {
        let p = try parser("""
            intents:
              INPlayMediaIntent:
                data:
                  - sentences: ["spiel [bitte] [die] {name:mediaName} von [die] {name:artistName}"]
            lists:
              name: {wildcard: true}
            """)
        var r = p.parse("spiel Bitte bleib von Udo Jürgens")
        XCTAssertEqual(r.mediaSearch?.mediaName, "Bitte bleib")
        r = p.parse("spiel bitte Hallo von Adele")
        XCTAssertEqual(r.mediaSearch?.mediaName, "Hallo")
        r = p.parse("spiel Schrei nach Liebe von Die Ärzte")
        XCTAssertEqual(r.mediaSearch?.artistName, "Die Ärzte")
        XCTAssertEqual(p.parse("spiel Hallo von die ärzte").mediaSearch?.artistName, "ärzte")
        // The same when the word is an entry of a literal list rather than a template word.
        let q = try parser("""
            intents:
              INPlayMediaIntent:
                data:
                  - sentences: ["spiel [{filler:_f}] {name:mediaName} von {name:artistName}"]
            lists:
              name: {wildcard: true}
              filler:
                literal: true
                values: [einfach, mal]
            """)
        XCTAssertEqual(q.parse("spiel Einfach so von Clueso").mediaSearch?.mediaName, "Einfach so")
        XCTAssertEqual(q.parse("spiel einfach Hallo von Adele").mediaSearch?.mediaName, "Hallo")
    }

    func testRequestKindsReportMissingAndFailingPerLanguage() throws {
        let table = try RequestKinds(path: "k.yaml", text: """
            kinds:
              - {id: a, what: "one", example: "x", shape: "y"}
              - {id: b, what: "two", example: "x"}
            """)
        XCTAssertEqual(table.kinds.map(\.id), ["a", "b"])
        XCTAssertThrowsError(try RequestKinds(path: "k.yaml", text: "kinds:\n  - {id: a, what: w, example: e}\n  - {id: a, what: w, example: e}\n"))
        let corpus = """
            locale: en-US
            tests:
              - text: "pause"
                kind: a
                expect: {intent: MPRemoteCommand, command: pause}
              - text: "stop"
                kind: a
                expect: {intent: MPRemoteCommand, command: nextTrack}
            """
        let file = try CorpusFile(path: "c.yaml", text: corpus, knownKinds: table.ids)
        XCTAssertEqual(file.cases.map(\.kind), ["a", "a"])
        var run = TestRun()
        try CorpusTester().run(TestCase.cases(of: file), into: &run)
        let report = table.report(run.outcomes)
        XCTAssertEqual(report.map(\.language), ["en"])
        XCTAssertEqual(report[0].failing, ["a"])
        XCTAssertEqual(report[0].missing, ["b"])
        XCTAssertThrowsError(try CorpusFile(path: "c.yaml", text: corpus.replacingOccurrences(of: "kind: a", with: "kind: zz"),
                                            knownKinds: table.ids)) { error in
            XCTAssertEqual((error as? GrammarError)?.location.line, 4)
        }
    }

    func testLintFindsWhatAReviewerWould() throws {
        let long = String(repeating: "word ", count: 45)
        let c = catalog(["a.yaml": """
            intents:
              INPlayMediaIntent:
                data:
                  - sentences: ["play <r2> {genre:genreNames}", "play <r2> {genre:genreNames}"]
            expansion_rules:
              r2: "(some|a little)"
              never_used: "(x|y)"
              long_one: "\(long)"
            lists:
              genre:
                values: [jazz, blues, jazz]
              unused_list:
                values: [a]
            """], icuLocale: "qq_ZZ")
        let messages = try GrammarLint(catalog: c).check(locale: "xx").map(\.description)
        func has(_ part: String) -> Bool { messages.contains { $0.contains(part) } }
        XCTAssert(has("rule <never_used> is never used"), "\(messages)")
        XCTAssert(has("list {unused_list} is never used"), "\(messages)")
        XCTAssert(has("rule name <r2> says nothing"), "\(messages)")
        XCTAssert(has("\"jazz\" is already an entry of {genre}"), "\(messages)")
        XCTAssert(has("this sentence repeats one"), "\(messages)")
        XCTAssert(has("line of"), "\(messages)")
        XCTAssert(has("icu_locale 'qq_ZZ'"), "\(messages)")
        let clean = catalog(["a.yaml": """
            intents:
              INPlayMediaIntent:
                data:
                  - sentences: ["play <amount> {genre:genreNames}"]
            expansion_rules:
              amount: "(some|a little)"
            lists:
              genre:
                values: [jazz, blues]
            """], icuLocale: "de_DE")
        XCTAssertEqual(try GrammarLint(catalog: clean).check(locale: "xx").map(\.description), [])
    }

    /// The built-in grammars are as a reviewer wants them: no line over 200 characters, nothing unused or
    /// written twice, no vague rule name, every icu_locale answered in its own language.
    func testBuiltInGrammarsPassTheLinter() throws {
        let c = GrammarCatalog.builtIn
        for locale in c.regionalLocales where c.hasSentenceFiles(locale: locale) {
            XCTAssertEqual(try GrammarLint(catalog: c).check(locale: locale).map(\.description), [], locale)
        }
    }
}
