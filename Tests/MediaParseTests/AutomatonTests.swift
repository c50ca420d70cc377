import Foundation
import XCTest
@testable import MediaParse

/// The deterministic automaton and the on-disk cache of compiled grammars must change nothing but speed.
final class AutomatonTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The benchmark mix: every utterance of our corpus.
    func mix() throws -> [String] {
        let text = try String(contentsOf: Self.root.appendingPathComponent("Benchmarks/en-US.txt"), encoding: .utf8)
        return text.split(separator: "\n").map(String.init)
    }

    private let temporaries = TemporaryFolders()

    func temporaryDirectory() throws -> URL { try temporaries.make("mediaparse-cache") }

    override func tearDown() {
        // Emptied, so that XCTest, which keeps every test case to the end of the run, does not keep the list
        // too (LeakSanitizer would report it).
        temporaries.removeAll()
    }

    func testDeterministicAutomatonParsesLikeTheEpsilonFreeOne() throws {
        let dfa = try MediaParser(locale: "en-US", cache: GrammarCache(directory: nil))
        let nfa = try MediaParser(locale: "en-US", cache: GrammarCache(directory: nil), determinize: false)
        XCTAssertTrue(dfa.grammar.automaton.deterministic)
        XCTAssertFalse(nfa.grammar.automaton.deterministic)
        // Every edge of a deterministic automaton has one target.
        XCTAssertEqual(dfa.grammar.automaton.targets.count, dfa.grammar.automaton.wordKeys.count)
        XCTAssertEqual(dfa.grammar.automaton.slotTargetList.count, dfa.grammar.automaton.slotIDs.count)
        var compared = 0
        for utterance in try mix() {
            // Results and the first alternative are the same; an explanation may name another of two slots
            // that read the same words the same way (they tie, and arrive in another order). Readings further
            // down may differ: each state keeps the best few paths, and a state of the deterministic automaton
            // stands for several of the other, so the third-best reading of a prefix can be cut in one and
            // kept in the other (seen with phrasing written as literal lists: "i want to hear …").
            XCTAssertEqual(dfa.parse(utterance, alternatives: 1).jsonLine(), nfa.parse(utterance, alternatives: 1).jsonLine(), utterance)
            compared += 1
        }
        XCTAssertGreaterThan(compared, 500)
    }

    /// Shared expansion rules entered by a call (`CallTable`) read what they would read written out: the same
    /// results, alternatives and grammar coverage, from an automaton several times smaller.
    func testCalledRulesParseLikeRulesWrittenOut() throws {
        for locale in ["en-US", "it-IT", "ja-JP"] {
            let called = try MediaParser(locale: locale, cache: GrammarCache(directory: nil))
            let inlined = try MediaParser(locale: locale, cache: GrammarCache(directory: nil), inlineRules: true)
            XCTAssertGreaterThan(called.grammar.calls.count, 10, locale)
            XCTAssertEqual(inlined.grammar.calls.count, 0, locale)
            XCTAssertLessThan(called.grammar.automaton.wordKeys.count * 3, inlined.grammar.automaton.wordKeys.count, locale)
            XCTAssertLessThan(called.grammar.automaton.count * 2, inlined.grammar.automaton.count, locale)
            let text = try String(contentsOf: Self.root.appendingPathComponent("Benchmarks/\(locale).txt"), encoding: .utf8)
            var a = GrammarCoverage(), b = GrammarCoverage()
            var compared = 0
            for utterance in text.split(separator: "\n").map(String.init) {
                // As with the epsilon-free automaton, readings below the first two may differ: each state keeps the
                // best few paths, and a call's words are not pruned where a written-out rule's would be.
                let x = called.parse(utterance, alternatives: 1).jsonLine(), y = inlined.parse(utterance, alternatives: 1).jsonLine()
                if x != y { XCTFail("\(locale): \(utterance)\n  called  \(x)\n  inlined \(y)") }
                _ = called.parse(utterance, coverage: &a)
                _ = inlined.parse(utterance, coverage: &b)
                compared += 1
            }
            XCTAssertGreaterThan(compared, 100, locale)
            // Coverage sees the same sentences, and nearly the same rules and entries: a call counts its own rule
            // (written out, a rule of one word is missed: its state is the one after it), and a few rules used
            // inside a call are credited to a reading that ties with the one written out.
            let left = called.uncovered(by: a), right = inlined.uncovered(by: b)
            XCTAssertEqual(left.sentences.covered, right.sentences.covered, locale)
            XCTAssertEqual(Double(left.rules.covered), Double(right.rules.covered), accuracy: Double(right.rules.covered) * 0.06, locale)
            XCTAssertEqual(Double(left.listEntries.covered), Double(right.listEntries.covered),
                           accuracy: Double(right.listEntries.covered) * 0.01, locale)
            XCTAssertGreaterThan(left.rules.covered, 20, locale)
        }
    }

    /// Two readings of one sentence that rank alike are ordered by what was read (`Ranking.readsFirst`), not by
    /// the order the search found them in, which differs when a rule is called instead of written out.
    func testTiesBetweenReadingsOfOneSentenceDoNotDependOnCalls() throws {
        let text = """
            intents:
              INPlayMediaIntent:
                data:
                  - sentences:
                      - "play <thing> please"
                      - "put on <thing> now"
            expansion_rules:
              thing:
                - "the {kind:mediaType} [of the day]"
                - "the {kind_long:mediaType}"
            lists:
              kind:
                literal: true
                values:
                  - {in: "(song|song of)", out: song}
                  - {in: "podcast", out: podcastShow}
              kind_long:
                literal: true
                values:
                  - {in: "song of the day", out: playlist}

            """
        var catalog = GrammarCatalog()
        catalog.add(folder: "xx", path: "locale.yaml", text: "icu_locale: en_US\n")
        catalog.add(folder: "xx", path: "play.yaml", text: text)
        let called = try MediaParser(locale: "xx", catalog: catalog, cache: GrammarCache(directory: nil))
        let inlined = try MediaParser(locale: "xx", catalog: catalog, cache: GrammarCache(directory: nil), inlineRules: true)
        XCTAssertEqual(called.grammar.calls.count, 1)
        for utterance in ["play the song of the day please", "put on the song of the day now", "play the podcast please"] {
            XCTAssertEqual(called.parse(utterance, alternatives: 2).jsonLine(), inlined.parse(utterance, alternatives: 2).jsonLine(), utterance)
        }
        // "song of" + "the day" and "song of the day" rank alike: the longer piece wins.
        XCTAssertEqual(called.parse("play the song of the day please").mediaSearch?.mediaType, .playlist)
    }

    func testTemplatesWrittenTwiceAddNoState() throws {
        func grammar(copies: Int) -> String {
            var text = "intents:\n  INPlayMediaIntent:\n    data:\n"
            for _ in 0..<copies {
                text += "      - sentences:\n"
                text += "          - \"play {name:mediaName}\"\n"
                text += "          - \"play {name:mediaName} by {name:artistName}\"\n"
            }
            return text + "lists:\n  name:\n    wildcard: true\n"
        }
        func parser(_ text: String) throws -> MediaParser {
            var catalog = GrammarCatalog()
            catalog.add(folder: "xx", path: "locale.yaml", text: "icu_locale: en_US\n")
            catalog.add(folder: "xx", path: "play.yaml", text: text)
            return try MediaParser(locale: "xx", catalog: catalog, cache: GrammarCache(directory: nil))
        }
        let a = try parser(grammar(copies: 1)), b = try parser(grammar(copies: 2))
        XCTAssertEqual(b.grammar.sentences.count, 4)
        XCTAssertEqual(a.grammar.automaton.count, b.grammar.automaton.count)
        // The second copy of a sentence is never accepted: the first wins every tie.
        XCTAssertEqual(Set(b.grammar.automaton.accepts), [0, 1])
        XCTAssertEqual(b.parse("play Outer Peace by Toro y Moi").jsonLine(), a.parse("play Outer Peace by Toro y Moi").jsonLine())
    }

    func testCachedGrammarParsesLikeACompiledOne() throws {
        let directory = try temporaryDirectory()
        let cache = GrammarCache(directory: directory)
        let compiled = try MediaParser(locale: "en-US", appNames: ["ControlAudio"], cache: GrammarCache(directory: nil))
        _ = try MediaParser(locale: "en-US", appNames: ["ControlAudio"], cache: cache)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".grammar") }
        XCTAssertEqual(files.count, 1)
        let key = GrammarCache.key(locale: "en-US", chain: compiled.grammar.settings.chain, catalog: .builtIn)
        let loaded = try XCTUnwrap(cache.load(key, settings: compiled.grammar.settings), "the file just written reads back")
        XCTAssertEqual(loaded.automaton.wordKeys, compiled.grammar.automaton.wordKeys)
        XCTAssertEqual(loaded.sentences.count, compiled.grammar.sentences.count)
        // Read in place: the tables of the file are the grammar's, not copies of them.
        for table in [loaded.automaton.wordKeys, loaded.automaton.targets, loaded.nfa.wordKeys, loaded.trie.childWords, loaded.continuationStart] {
            XCTAssertTrue(table.readsInPlace)
        }
        XCTAssertFalse(compiled.grammar.automaton.wordKeys.readsInPlace)
        XCTAssertEqual(loaded.trie.childWords, compiled.grammar.trie.childWords)
        XCTAssertEqual(loaded.continuationList, compiled.grammar.continuationList)
        let fromCache = try MediaParser(locale: "en-US", appNames: ["ControlAudio"], cache: cache)
        var coverageA = GrammarCoverage(), coverageB = GrammarCoverage()
        for utterance in try mix() + ["play Khalid in ControlAudio"] {
            XCTAssertEqual(fromCache.parse(utterance, coverage: &coverageA).jsonLine(),
                           compiled.parse(utterance, coverage: &coverageB).jsonLine(), utterance)
        }
        XCTAssertEqual(coverageA.rules, coverageB.rules)
        XCTAssertEqual(coverageA.listEntries, coverageB.listEntries)
    }

    /// The caller's names are matched at parse time, not compiled: parsers with other app, room and player
    /// names share one compiled grammar (one cache file), and each knows its own names only.
    func testCallerNamesNeverChangeTheGrammar() throws {
        let directory = try temporaryDirectory()
        let cache = GrammarCache(directory: directory)
        let a = try MediaParser(locale: "en-US", appNames: ["ControlAudio"], areaNames: ["Emma's room"], cache: cache)
        let b = try MediaParser(locale: "en-US", appNames: ["Zork Player"], deviceNames: ["Attic Radio"], cache: cache)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".grammar") }
        XCTAssertEqual(files.count, 1, "one grammar for both parsers")
        XCTAssertTrue(a.grammar === b.grammar || a.grammar.automaton.wordKeys == b.grammar.automaton.wordKeys)
        XCTAssertEqual(a.parse("play jazz in ControlAudio").appName, "ControlAudio")
        XCTAssertEqual(b.parse("play jazz in zork player").appName, "Zork Player", "reported as the caller gave it")
        XCTAssertNotEqual(b.parse("play jazz in ControlAudio").appName, "ControlAudio", "another parser's name is unknown here")
        XCTAssertEqual(a.parse("pause in emma's room").target?.area, "Emma's room")
        XCTAssertNotEqual(b.parse("pause in emma's room").target?.area, "Emma's room")
        XCTAssertEqual(b.parse("next song on the attic radio").target?.device, "Attic Radio")
        XCTAssertThrowsError(try MediaParser(locale: "en-US", appNames: ["  "], cache: cache)) { error in
            XCTAssertTrue("\(error)".contains("--app-name"), "\(error)")
        }
    }

    func testKeyChangesWithTheGrammarAndTheLocale() {
        var changed = GrammarCatalog.builtIn
        changed.add(folder: "en", path: "extra.yaml", text: "lists:\n  extra:\n    values: [a]\n")
        let base = GrammarCache.key(locale: "en-US", chain: ["en", "en-US"], catalog: .builtIn)
        XCTAssertEqual(base, GrammarCache.key(locale: "en-US", chain: ["en", "en-US"], catalog: .builtIn))
        XCTAssertNotEqual(base, GrammarCache.key(locale: "en-US", chain: ["en", "en-US"], catalog: changed))
        XCTAssertNotEqual(base, GrammarCache.key(locale: "en-GB", chain: ["en", "en-GB"], catalog: .builtIn))
    }

    /// The disk cache stays bounded: past its count or size the least recently used files go (the newest
    /// always stays), and a temporary file a crashed writer left goes after an hour.
    func testCachePruningKeepsTheMostRecentlyUsedWithinItsLimits() throws {
        let directory = try temporaryDirectory()
        let fm = FileManager.default
        func file(_ name: String, bytes: Int, age: TimeInterval) throws {
            let url = directory.appendingPathComponent(name)
            try Data(repeating: 7, count: bytes).write(to: url)
            try fm.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: url.path)
        }
        for i in 0..<8 { try file("\(i).grammar", bytes: 100, age: Double(i) * 60) }   // 0 is the newest
        try file("big.grammar", bytes: 5_000, age: 0)                                 // newest of all, over the size
        try file(".1-2.tmp", bytes: 10, age: 7_200)
        try file(".3-4.tmp", bytes: 10, age: 60)
        GrammarCache(directory: directory).prune(keep: 5, maxBytes: 400)
        let left = Set(try fm.contentsOfDirectory(atPath: directory.path))
        // The big file is the newest: kept though it alone is over the size; then nothing more fits.
        XCTAssertEqual(left, ["big.grammar", ".3-4.tmp"])
        try fm.removeItem(at: directory.appendingPathComponent("big.grammar"))
        for i in 0..<8 { try file("\(i).grammar", bytes: 100, age: Double(i) * 60) }
        GrammarCache(directory: directory).prune(keep: 3, maxBytes: 10_000)
        XCTAssertEqual(Set(try fm.contentsOfDirectory(atPath: directory.path)), ["0.grammar", "1.grammar", "2.grammar", ".3-4.tmp"])
    }

    func testDamagedCacheFilesAreMissesNeverCrashes() throws {
        let directory = try temporaryDirectory()
        let cache = GrammarCache(directory: directory)
        let reference = try MediaParser(locale: "en-US", cache: cache)
        let name = try XCTUnwrap(FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasSuffix(".grammar") })
        let url = directory.appendingPathComponent(name)
        let good = try Data(contentsOf: url)
        let key = GrammarCache.key(locale: "en-US", chain: try GrammarLoader(catalog: .builtIn).resolve("en-US").chain, catalog: .builtIn)
        var damaged: [Data] = [Data(), good.prefix(20), good.prefix(good.count / 2), good + Data([0])]
        for i in stride(from: 20, to: good.count, by: good.count / 9) {
            var flipped = good
            flipped[i] ^= 0x5A
            damaged.append(flipped)
        }
        for data in damaged {
            try data.write(to: url)
            XCTAssertNil(cache.load(key, settings: reference.grammar.settings), "\(data.count) bytes")
        }
        // A damaged file is a miss: the parser compiles and writes the file again.
        try Data(good.prefix(100)).write(to: url)
        let recompiled = try MediaParser(locale: "en-US", cache: cache)
        XCTAssertEqual(recompiled.parse("skip ahead 30 seconds").jsonLine(), reference.parse("skip ahead 30 seconds").jsonLine())
        XCTAssertEqual(try Data(contentsOf: url), good)
    }
}
