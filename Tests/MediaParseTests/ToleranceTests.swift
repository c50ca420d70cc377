@testable import MediaParse
import XCTest

/// Tolerant matching (skip words, assumed template words, extra words) and the caller's rooms and players
/// (`areaNames`, `deviceNames`), on a small in-memory grammar, so that the mechanism is tested, not a grammar.
final class ToleranceTests: XCTestCase {
    static let grammar = """
        intents:
          INPlayMediaIntent:
            data:
              - sentences:
                  - "play the latest episode of {name:mediaName}"
                  - "play {genre:genreNames} [in the {room:area}] [on the {player:device}]"
                set: {}
          MPRemoteCommand:
            data:
              - sentences: ["skip to the next song"]
                set: {command: nextTrack}
          NotMedia:
            data:
              - sentences: ["play tennis {name:_x}"]
        lists:
          name: {wildcard: true}
          genre: {values: [jazz, rock]}
          room: {values: [kitchen]}
          player: {values: [tv]}
        """

    func parser(_ locale: String, areas: [String] = [], devices: [String] = []) throws -> MediaParser {
        var catalog = GrammarCatalog()
        catalog.add(folder: "tol", path: "g.yaml", text: Self.grammar)
        catalog.add(folder: "tol", path: "locale.yaml", text: locale)
        return try MediaParser(locale: "tol", areaNames: areas, deviceNames: devices, catalog: catalog, cacheCompiledGrammar: false)
    }

    func testExactMatchingIsTheDefault() throws {
        let p = try parser("icu_locale: en_US\n")
        XCTAssertNil(p.parse("play latest episode of The Daily").intent)
        XCTAssertNil(p.parse("um play jazz").intent)
    }

    func testSkipWordsAreIgnoredWhereverTheyStand() throws {
        let p = try parser("icu_locale: en_US\nskip_words: [um, \"hey siri\"]\n")
        for text in ["um play jazz", "hey siri play um jazz", "play jazz um"] {
            let r = p.parse(text, explain: true)
            XCTAssertEqual(r.mediaSearch?.genreNames, ["jazz"], text)
            XCTAssertTrue(r.explain!.words.contains { $0.matched == "skipped" }, text)
            XCTAssertLessThan(r.score ?? 1, 1, "a tolerant reading is less certain: \(text)")
        }
        XCTAssertEqual(p.parse("play jazz").score, 1)
    }

    /// A skip phrase written like the start of a name ("play Please Don't Go", "ponme Por favor no te vayas")
    /// stays in the name that follows it; written in lower case, or first, it is skipped.
    func testACapitalisedSkipPhraseBeforeANameStaysInIt() throws {
        let p = try parser("icu_locale: en_US\nskip_words: [please, \"oh yeah\"]\n")
        XCTAssertEqual(p.parse("play the latest episode of Please Stay Calm").mediaSearch?.mediaName, "Please Stay Calm")
        XCTAssertEqual(p.parse("play the latest episode of Oh Yeah Radio").mediaSearch?.mediaName, "Oh Yeah Radio")
        XCTAssertEqual(p.parse("play the latest episode of please The Daily").mediaSearch?.mediaName, "The Daily")
        XCTAssertEqual(p.parse("Please play the latest episode of The Daily").mediaSearch?.mediaName, "The Daily")
        // Not before a list or a literal word: there the phrase is skipped, as any skip word is.
        XCTAssertEqual(p.parse("play Please jazz").mediaSearch?.genreNames, ["jazz"])
    }

    func testAMissingOptionalWordIsAssumedBetweenGrammarWords() throws {
        let p = try parser("icu_locale: en_US\noptional_words: [the, to]\n")
        let r = p.parse("play latest episode of The Daily", explain: true)
        XCTAssertEqual(r.mediaSearch?.mediaName, "The Daily")
        XCTAssertEqual(r.explain?.words.first { $0.matched == "assumed" }?.value, "the")
        XCTAssertEqual(p.parse("skip to next song").command, .nextTrack)
        // One at a time: an assumed word is followed by a word that was said.
        XCTAssertNil(p.parse("skip next song").intent, "two assumed words in a row")
        // Not before free text: an assumed word never stands alone between a word and a name.
        XCTAssertNil(p.parse("play latest episode The Daily").intent)
    }

    func testExtraWordsOnlyBetweenGrammarWordsAndAtMostAsMany() throws {
        let p = try parser("icu_locale: en_US\nextra_words: 1\n")
        let r = p.parse("skip to the very next song", explain: true)
        XCTAssertEqual(r.command, .nextTrack)
        XCTAssertEqual(r.explain?.words.filter { $0.matched == "extra" }.map(\.text), ["very"])
        XCTAssertNil(p.parse("skip to the very very next song").intent, "one extra word at most")
        XCTAssertNil(p.parse("skip to the next song now").intent, "not at the end")
        XCTAssertNil(p.parse("please skip to the next song").intent, "not at the start")
    }

    func testTheCallersRoomsAndPlayersJoinTheGrammarsLists() throws {
        let p = try parser("icu_locale: en_US\n", areas: ["Emma's room"], devices: ["Kitchen HomePod"])
        let r = p.parse("play jazz in the Emma's room on the Kitchen HomePod")
        XCTAssertEqual(r.target, Target(area: "Emma's room", device: "Kitchen HomePod"))
        XCTAssertNotNil(r.spans?["target.area"])
        XCTAssertEqual(p.parse("play rock in the kitchen").target, Target(area: "kitchen"))
        XCTAssertNil(try parser("icu_locale: en_US\n").parse("play jazz in the Emma's room").intent)
    }
}
